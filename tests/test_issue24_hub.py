"""Issue 24, Hugging Face: a model sized from its name alone says so in the headline, on stderr and in the
result's warnings (so in the MCP result), never only among the assumptions; a repo id the Hub was asked about and
did not answer for, whose name states no size, is one line and exit 1 (the environment), not 2; a gated model's
line knows a token stored by `hf auth login` (huggingface_hub.get_token()), not only HF_TOKEN."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.knowledge import hub
from gpu_advisor.tui.cli import main
from tests.hf_cache import offline

SIZED_BY_NAME = ["someorg/Foo-13B-Chat", "acme/bar-7b-instruct", "lab/Private-Model-32B", "x/tiny-1.5B-base"]
NO_SIZE = ["someorg/Foo-Chat", "acme/bar-instruct", "lab/private-model-v2"]
WORDS = "sized from its name alone"


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    with offline(tmp_path / "hf", tmp_path / "ours", monkeypatch):
        yield


@pytest.fixture
def no_answer(empty_cache, monkeypatch):
    """The network allowed, but the Hub does not answer."""
    monkeypatch.delenv("HF_HUB_OFFLINE")

    def unreachable(repo):
        raise hub.HubNoAnswer("the Hub did not answer (ConnectError)")

    monkeypatch.setattr(hub, "fetch", unreachable)


@pytest.mark.parametrize("repo", SIZED_BY_NAME)
def test_a_name_only_size_is_in_the_headline_the_warnings_and_on_stderr(empty_cache, repo, capsys):
    assert main(["size", "inference", "--model", repo, "--precision", "bf16"]) == 0
    out, err = capsys.readouterr()
    headline = out.splitlines()[0]
    assert headline.startswith(f"{repo} ({WORDS}") and "bf16 weights" in headline
    assert f"  ! {repo} was {WORDS}, not from its config.json" in out
    assert err.count("\n") == 1 and err.startswith(f"gpu-advisor: warning: {repo} was {WORDS}")
    assert "HF_HUB_OFFLINE is set" in err


@pytest.mark.parametrize("repo", SIZED_BY_NAME[:2])
@pytest.mark.parametrize("argv", [["speed", "--gpu", "h100-sxm"], ["size", "training", "--method", "qlora"],
                                  ["size", "inference", "--json"]])
def test_every_sizing_command_says_it_on_stderr_and_in_its_json(empty_cache, repo, argv, capsys):
    assert main([*argv, "--model", repo]) == 0
    out, err = capsys.readouterr()
    assert WORDS in err
    if "--json" in argv:
        data = json.loads(out)
        assert any(WORDS in w for w in data["warnings"])


@pytest.mark.parametrize("repo", SIZED_BY_NAME[:2])
def test_the_mcp_result_says_it_in_its_warnings(empty_cache, repo):
    from gpu_advisor.tui.mcp_server import Sessions, call_tool

    for name, args in [("inference_memory", {"model": repo}), ("speed", {"model": repo, "gpu": "h100-sxm"}),
                       ("training_memory", {"model": repo, "method": "lora"})]:
        result = call_tool(name, args, Sessions())
        assert not result.is_error
        assert any(WORDS in w for w in result.structured_content["warnings"]), name


@pytest.mark.parametrize("model", ["llama-3.1-8b", "qwen3-32b", "meta-llama/Llama-3.1-8B-Instruct"])
def test_a_model_on_record_has_no_such_line(empty_cache, model, capsys):
    assert main(["size", "inference", "--model", model]) == 0
    out, err = capsys.readouterr()
    assert WORDS not in out and err == ""


@pytest.mark.parametrize("repo", NO_SIZE)
@pytest.mark.parametrize(("how", "status"), [("no_answer", 1), ("offline", 2)])
def test_a_hub_that_does_not_answer_is_one_line_and_exit_1(repo, how, status, request, capsys):
    """Asked and silent: the environment (1). Offline by choice (HF_HUB_OFFLINE): the name alone says too little (2)."""
    request.getfixturevalue("empty_cache" if how == "offline" else "no_answer")
    assert main(["size", "inference", "--model", repo]) == status
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"gpu-advisor: unknown model '{repo}'")
    assert ("HF_HUB_OFFLINE is set" if how == "offline" else "did not answer") in err


@pytest.mark.parametrize("model", ["lama-3-8b", "someorg"])
def test_a_name_that_is_wrong_stays_exit_2(empty_cache, model, capsys):
    assert main(["size", "inference", "--model", model]) == 2


@pytest.mark.parametrize(("env", "stored", "words"), [
    (None, None, "no token was given"),
    ("hf_env", None, "a token was sent but it has no access"),
    (None, "hf_stored_by_login", "a token was sent but it has no access"),
])
def test_a_gated_model_line_knows_a_login_token(monkeypatch, env, stored, words):
    import huggingface_hub

    if env:
        monkeypatch.setenv("HF_TOKEN", env)
    else:
        monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(huggingface_hub, "get_token", lambda: env or stored)
    line = hub.gated_message("meta-llama/Llama-4-Gated")
    assert f"({words})" in line and "\n" not in line and "hf auth login" in line


@pytest.mark.parametrize("repo", ["ibm-granite/granite-3.3-8b-instruct", "moonshotai/Kimi-Dev-72B"])
def test_mcp_reads_the_local_hub_cache_as_the_cli_does(tmp_path, monkeypatch, repo, capsys):
    from gpu_advisor.tui.mcp_server import Sessions, call_tool
    from tests.hf_cache import named_cache

    named_cache(tmp_path / "hf")
    with offline(tmp_path / "hf", tmp_path / "ours", monkeypatch):
        assert main(["size", "inference", "--model", repo, "--json"]) == 0
        cli = json.loads(capsys.readouterr().out)
        result = call_tool("inference_memory", {"model": repo}, Sessions()).structured_content
    assert result["weights_bytes"] == round(cli["weights_bytes"]) and result["model_id"] == cli["model_id"]
    assert not any(WORDS in w for w in result["warnings"])
