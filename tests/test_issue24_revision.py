"""Issue 24, Hugging Face `--revision`: a branch, tag or commit of a repository is sized from that revision's
config.json (the Hugging Face cache's `refs/REV` -> `snapshots/SHA/`, this tool's summary of the Hub kept per
revision, or the Hub asked with `model_info(repo, revision=...)`), on every sizing command, `models show`, the
MCP tools and any caller of resolve_model ('ORG/NAME@REV'). A revision never falls back to the catalog's record or
to the size in the name; a bad one is one line and exit 2 (exit 1 only when the Hub was asked and did not answer)."""

from __future__ import annotations

import hashlib
import json
import types

import pytest

from gpu_advisor.knowledge import hub
from gpu_advisor.knowledge.resolve import NotFound, resolve_model
from gpu_advisor.tui.cli import main
from tests.hf_cache import offline, place

REPO = "acme/Rev-Model-8B"
BASE = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16", "tie_word_embeddings": False}
# Each revision a different depth: the layer count says which config.json was read.
LAYERS = {"main": 32, "v2": 40, "v2.0": 36, "refs/pr/1": 24, "commit": 28}
COMMIT = hashlib.sha1(b"a commit no ref names").hexdigest()


def _sha(revision: str) -> str:
    return COMMIT if revision == "commit" else hashlib.sha1(revision.encode()).hexdigest()


def _asked(revision: str) -> str:
    """The revision as a user types it: the commit by its hash."""
    return COMMIT if revision == "commit" else revision


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """One repository with a snapshot per revision: main, branch v2, tag v2.0, a pull request's ref and a commit
    that no ref names."""
    hf = tmp_path / "hf"
    for revision, layers in LAYERS.items():
        place(hf, REPO, {"config.json": {**BASE, "num_hidden_layers": layers}}, sha=_sha(revision))
    refs = hf / f"models--{REPO.replace('/', '--')}" / "refs"
    for revision in LAYERS:
        if revision != "commit":
            (refs / revision).parent.mkdir(parents=True, exist_ok=True)
            (refs / revision).write_text(_sha(revision))
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf


@pytest.mark.parametrize("revision", list(LAYERS))
@pytest.mark.parametrize("how", ["argument", "spec"])
def test_each_revision_is_sized_from_its_own_config(cache, revision, how):
    asked = _asked(revision)
    model = resolve_model(REPO, revision=asked) if how == "argument" else resolve_model(f"{REPO}@{asked}")
    assert model.num_layers == LAYERS[revision]
    assert model.revision == _sha(revision)
    assert model.name == f"{REPO}@{asked}" and model.resolved_from == "hf-cache"


def test_no_revision_is_main_and_names_no_revision(cache):
    model = resolve_model(REPO)
    assert model.num_layers == LAYERS["main"] and model.name == REPO


@pytest.mark.parametrize("command", [["size", "inference"], ["size", "training", "--method", "lora"],
                                     ["speed", "--gpu", "h100-sxm"], ["fit", "--gpu", "h100-sxm"]])
@pytest.mark.parametrize("revision", ["v2", "refs/pr/1"])
def test_every_sizing_command_takes_revision(cache, command, revision, capsys):
    assert main([*command, "--model", REPO, "--json"]) == 0
    at_main = json.loads(capsys.readouterr().out)
    assert main([*command, "--model", REPO, "--revision", revision, "--json"]) == 0
    out, err = capsys.readouterr()
    at_rev = json.loads(out)
    assert err == ""
    assert at_rev != at_main  # another depth: other figures
    assert main([*command, "--model", f"{REPO}@{revision}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == at_rev  # --revision is the same as ORG/NAME@REV


def test_the_headline_says_the_revision(cache, capsys):
    assert main(["size", "inference", "--model", REPO, "--revision", "v2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"{REPO}@v2: ")


def test_models_show_takes_revision(cache, capsys):
    assert main(["models", "show", REPO, "--revision", "v2.0", "--json"]) == 0
    shape = json.loads(capsys.readouterr().out)
    assert shape["layers"] == LAYERS["v2.0"] and shape["revision"] == _sha("v2.0")


@pytest.mark.parametrize(("argv", "words"), [
    (["--model", REPO, "--revision", "../../etc"], "is not a revision"),
    (["--model", REPO, "--revision", "a//b"], "is not a revision"),
    (["--model", REPO, "--revision", "v9"], "holds no revision 'v9'"),
    (["--model", REPO.lower(), "--revision", "nightly"], "holds no revision 'nightly'"),
    (["--model", "llama-3.1-8b", "--revision", "v2"], "is for a Hugging Face repo id"),
    (["--model", "27B", "--revision", "main"], "is for a Hugging Face repo id"),
    (["--model", f"{REPO}@v2", "--revision", "main"], "both name a revision"),
    (["--model", f"{REPO}@../x"], "is not a revision"),
])
def test_a_bad_revision_is_one_line_and_exit_2(cache, argv, words, capsys):
    try:
        status = main(["size", "inference", *argv])
    except SystemExit as e:  # refused while parsing (argparse exits)
        status = e.code
    assert status == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("gpu-advisor: ") and words in err
    assert "Traceback" not in err and "sized from its name" not in out + err


def test_a_revision_never_falls_back_to_the_catalog_or_the_name(tmp_path, monkeypatch):
    with offline(tmp_path / "hf", tmp_path / "ours", monkeypatch):
        for spec in ("meta-llama/Llama-3.1-8B-Instruct@v1", "someorg/Foo-13B@main"):
            with pytest.raises(NotFound, match="holds no revision"):
                resolve_model(spec)
        assert resolve_model("someorg/Foo-13B").resolved_from == "name"  # with no revision the name still sizes it


def test_a_revision_asked_is_never_another_revisions_only_snapshot(tmp_path, monkeypatch):
    hf = tmp_path / "hf"
    snap = place(hf, "acme/one-snap", {"config.json": {**BASE, "num_hidden_layers": 30}})
    (snap.parent.parent / "refs" / "main").unlink()  # downloaded by commit: no ref names the one snapshot
    with offline(hf, tmp_path / "ours", monkeypatch):
        assert resolve_model("acme/one-snap").num_layers == 30  # no revision asked: the only snapshot there is
        assert hub.from_hf_cache("acme/one-snap", "v2") is None
        with pytest.raises(NotFound, match="holds no revision 'v2'"):
            resolve_model("acme/one-snap@v2")


def test_the_hub_out_of_reach_for_a_revision_is_exit_1(cache, monkeypatch, capsys):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    asked = []

    def no_answer(repo, revision=None):
        asked.append((repo, revision))
        raise hub.HubNoAnswer("the Hub did not answer (ConnectError)")

    monkeypatch.setattr(hub, "fetch", no_answer)
    assert main(["size", "inference", "--model", REPO, "--revision", "v7"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds no revision 'v7'" in err and "did not answer" in err
    assert set(asked) == {(REPO, "v7")}  # (each step that resolves the model asks again: see the report)


# --- the fetch path: model_info(repo, revision=...) and the summary kept per revision -------------------------------

class FakeApi:
    """huggingface_hub.HfApi as fetch uses it: each revision's config.json, or RevisionNotFoundError."""

    calls: list[tuple[str, str | None]] = []

    def __init__(self, token=None):
        pass

    def model_info(self, repo_id, revision=None, files_metadata=False):
        FakeApi.calls.append((repo_id, revision))
        if revision not in (None, "main", "v2"):
            import httpx2
            from huggingface_hub import errors

            response = httpx2.Response(404, request=httpx2.Request("GET", f"https://huggingface.co/api/models/{repo_id}"))
            raise errors.RevisionNotFoundError(f"Invalid rev id: {revision}", response=response)
        sibling = types.SimpleNamespace(rfilename="config.json", size=700)
        return types.SimpleNamespace(siblings=[sibling], sha=_sha(revision or "main"))


@pytest.fixture
def hub_online(tmp_path, monkeypatch):
    """The network allowed, with the Hub answering from FakeApi; nothing in the Hugging Face cache."""
    import huggingface_hub

    configs = tmp_path / "configs"
    configs.mkdir()

    def download(repo_id, filename, revision=None):
        layers = {_sha("main"): LAYERS["main"], _sha("v2"): LAYERS["v2"]}[revision]
        path = configs / f"{revision}.json"
        path.write_text(json.dumps({**BASE, "num_hidden_layers": layers}))
        return str(path)

    FakeApi.calls = []
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    monkeypatch.setattr(huggingface_hub, "get_token", lambda: None)
    with offline(tmp_path / "hf", tmp_path / "ours", monkeypatch):
        monkeypatch.delenv("HF_HUB_OFFLINE")
        monkeypatch.setattr(hub, "_network_allowed", True)
        yield tmp_path / "ours" / "hub"


def test_the_hub_is_asked_for_the_revision_and_its_summary_kept_apart(hub_online):
    from gpu_advisor.tools.models import resolve_model as tool_resolve

    assert resolve_model(REPO, revision="v2").num_layers == LAYERS["v2"]
    assert resolve_model(REPO).num_layers == LAYERS["main"]
    assert FakeApi.calls == [(REPO, "v2"), (REPO, None)]
    kept = sorted(p.name for p in hub_online.iterdir())
    assert kept == [f"models--{REPO.replace('/', '--')}.json", f"models--{REPO.replace('/', '--')}@v2.json"]
    assert hub.from_summary(REPO, "v2").revision == _sha("v2")  # type: ignore[union-attr]
    assert hub.from_summary(REPO).revision == _sha("main")  # type: ignore[union-attr]
    assert hub.from_summary(REPO, "v3") is None
    tool_resolve.cache_clear()
    FakeApi.calls = []
    assert tool_resolve(f"{REPO}@v2").num_layers == LAYERS["v2"]  # read back from the summary: the Hub not asked
    assert FakeApi.calls == []


def test_a_revision_the_hub_does_not_have_is_one_line_and_exit_2(hub_online, capsys):
    assert main(["size", "inference", "--model", REPO, "--revision", "v9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{REPO} has no revision 'v9' on the Hub" in err
    assert set(FakeApi.calls) == {(REPO, "v9")}


def test_a_summary_of_one_revision_never_answers_for_another(tmp_path, monkeypatch):
    with offline(tmp_path / "hf", tmp_path / "ours", monkeypatch):
        model = hub.HubModel(repo_id=REPO, revision=_sha("v2"), config={**BASE, "num_hidden_layers": 40}, origin="hub")
        hub._save_summary(model, "refs/pr/1")
        assert (tmp_path / "ours" / "hub" / f"models--{REPO.replace('/', '--')}@refs%2Fpr%2F1.json").is_file()
        assert hub.from_summary(REPO, "refs/pr/1") is not None
        assert hub.from_summary(REPO) is None and hub.from_summary(REPO, "refs") is None


def test_mcp_tools_take_a_revision_in_the_model_id(cache):
    from gpu_advisor.tui.mcp_server import Sessions, call_tool

    result = call_tool("inference_memory", {"model": f"{REPO}@v2"}, Sessions())
    assert not result.is_error and result.structured_content["model"] == f"{REPO}@v2"
    bad = call_tool("inference_memory", {"model": f"{REPO}@v9"}, Sessions())
    assert bad.is_error and "holds no revision 'v9'" in bad.content[0].text and "\n" not in bad.content[0].text
