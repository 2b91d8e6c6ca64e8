"""Issue 24, Hugging Face: the conversation reads a repo id the local Hub cache holds as the CLI does (no network):
'serve ibm-granite/granite-3.3-8b-instruct to 10 users' with that repository in the Hugging Face cache is sized as
that repository, from its config.json, never as 'the closest on record (Granite 3.1 8B)' nor from the size in its
name; in English and Chinese, however the id is cased and wherever it stands in the message. Without it in the
cache the conversation reads the name as before."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.assistant.reading.message import prepare
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.resolve import held_model
from tests.conversation import run_states
from tests.hf_cache import FIXTURES, NAMED_REPOS, offline, place

GRANITE = "ibm-granite/granite-3.3-8b-instruct"
EN = ["serve {repo} to 10 users", "I want to serve {repo} for 10 people at once", "{repo}, 10 users, serving",
      "can i run {repo} for ten users?"]
ZH = ["用{repo}给10个用户提供服务", "部署 {repo}，10个人同时用", "{repo} 推理服务，十个用户"]
CLOSEST = ("closest on record", "最接近")
HELD = [repo for repo in NAMED_REPOS if repo != "mistralai/Mistral-Nemo-Instruct-2407"]  # (that one is on record)


@pytest.fixture
def held(tmp_path, monkeypatch):
    hf = tmp_path / "hf"
    for repo in NAMED_REPOS:
        place(hf, repo, {"config.json": json.loads((FIXTURES / (repo.replace("/", "__") + ".json")).read_text())})
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf


def _spelled(repo: str, how: str) -> str:
    return {"as is": repo, "lower": repo.lower(), "upper": repo.upper()}[how]


@pytest.mark.parametrize("template", EN + ZH)
@pytest.mark.parametrize("repo", HELD)
def test_a_held_repo_id_is_read_as_that_repository(held, template, repo):
    m = prepare(template.format(repo=repo), None)
    assert [model for _s, _e, model in m.names] == [repo] and m.unknown is None
    assert not any(code == "note.model_closest" for code, _v in m.notes)
    assert ("note.model_held", {"name": repo}) in m.notes


@pytest.mark.parametrize("how", ["lower", "upper"])
@pytest.mark.parametrize("repo", ["moonshotai/Kimi-Dev-72B", "microsoft/Phi-4-mini-instruct"])
def test_the_id_is_read_however_it_is_cased(held, how, repo):
    m = prepare(f"serve {_spelled(repo, how)} to 10 users", None)
    assert [model for _s, _e, model in m.names] == [repo]  # the cache's spelling


@pytest.mark.parametrize(("turn", "lang"), [(EN[0], "en"), (ZH[0], "zh")])
def test_the_conversation_sizes_the_repository_from_its_config(held, turn, lang):
    first, answer = run_states([turn.format(repo=GRANITE), "around the clock" if lang == "en" else "全天候"])
    assert first["profile"]["model"] == answer["profile"]["model"] == GRANITE
    text = str(first["messages"][-1].content)
    assert not any(words in text for words in CLOSEST) and "Granite 3.1" not in text
    assert GRANITE in text and "config.json" in text
    assert ("Hugging Face 缓存" in text) == (lang == "zh") and ("which the Hugging Face cache" in text) == (lang == "en")
    results = json.dumps(answer["messages"][-1].additional_kwargs.get("gpu_advisor", {}), default=str)
    assert "granite-3.1-8b" not in results


def test_the_model_it_sizes_is_the_caches_config(held):
    model = find_model(GRANITE)
    config = json.loads((FIXTURES / (GRANITE.replace("/", "__") + ".json")).read_text())
    assert (model.num_layers, model.hidden_size, model.num_kv_heads) == (
        config["num_hidden_layers"], config["hidden_size"], config["num_key_value_heads"])
    assert model.resolved_from == "hf-cache" and model.name == GRANITE


@pytest.mark.parametrize("template", EN[:2] + ZH[:2])
def test_without_it_in_the_cache_the_name_is_read_as_before(tmp_path, monkeypatch, template):
    with offline(tmp_path / "hf", tmp_path / "ours", monkeypatch):
        m = prepare(template.format(repo=GRANITE), None)
        assert [model for _s, _e, model in m.names] == ["granite-3.1-8b"]
        assert any(code == "note.model_closest" for code, _v in m.notes)
        assert held_model(GRANITE) is None


@pytest.mark.parametrize("word", ["tokens/s", "h100/h800", "input/output", "a/b", "100/200", "acme/not-held-7b"])
def test_words_with_a_slash_the_cache_does_not_hold_are_no_repository(held, word):
    assert held_model(word) is None
    m = prepare(f"serve llama 3.1 8b to 10 users, {word}", None)
    assert [model for _s, _e, model in m.names] == ["llama-3.1-8b"]


@pytest.mark.parametrize(("repo", "record"), [("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b"),
                                              ("mistralai/Mistral-Nemo-Instruct-2407", "mistral-nemo-12b")])
@pytest.mark.parametrize("template", [EN[0], ZH[0]])
def test_a_repo_id_on_record_stays_the_catalogs_record_as_in_the_cli(held, repo, record, template):
    place(held, "meta-llama/Llama-3.1-8B-Instruct", {"config.json": {"num_hidden_layers": 3}})
    m = prepare(template.format(repo=repo), None)
    assert [model for _s, _e, model in m.names] == [record] and not any(c == "note.model_held" for c, _v in m.notes)
    assert find_model(repo).id == record


@pytest.mark.parametrize("template", [EN[0], EN[2], ZH[0], ZH[1]])
def test_a_revision_after_the_id_is_that_revision(held, template):
    import hashlib

    config = json.loads((FIXTURES / (GRANITE.replace("/", "__") + ".json")).read_text())
    sha = hashlib.sha1(b"granite v2").hexdigest()
    place(held, GRANITE, {"config.json": {**config, "num_hidden_layers": 20}}, sha=sha)
    refs = held / f"models--{GRANITE.replace('/', '--')}" / "refs"
    (refs / "main").write_text(hashlib.sha1(GRANITE.encode()).hexdigest())  # (place pointed main at the new one)
    (refs / "v2").write_text(sha)
    m = prepare(template.format(repo=f"{GRANITE}@v2"), None)
    assert [model for _s, _e, model in m.names] == [f"{GRANITE}@v2"]
    assert find_model(f"{GRANITE}@v2").num_layers == 20 and find_model(GRANITE).num_layers == config["num_hidden_layers"]
    unheld = prepare(template.format(repo=f"{GRANITE}@v9"), None)
    assert f"{GRANITE}@v9" not in [model for _s, _e, model in unheld.names]
