"""Issue 10, settings: the default region and currency in the user's settings file reach the answers
(the app, `chat`, `ask`), stated as the user's setting; what the user says in the conversation wins."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from gpu_advisor.assistant import graph
from gpu_advisor.assistant.session import Conversation
from tests.conversation import payload

ASK = "serve llama 3 8b to 5 users during working hours"


def _answer(settings, text=ASK):
    reply = Conversation(settings=settings).send(text)
    assert payload(reply)["kind"] == "answer", reply.content
    return reply


def test_a_region_setting_prices_the_answer_there_and_says_it_is_the_users_setting():
    reply = _answer({"region": "china"})
    data = payload(reply)
    assert data["profile"]["region"] == "china"
    assert data["assumptions"]["region"] == "region: China (your setting)"
    assert "renting costs ¥" in reply.content


def test_a_currency_setting_shows_yuan_outside_china():
    reply = _answer({"currency": "CNY"})
    data = payload(reply)
    assert data["profile"]["region"] == "global" and data["profile"]["currency"] == "CNY"
    assert data["assumptions"]["currency"] == "prices in yuan (your setting)"
    assert "renting costs ¥" in reply.content and "RTX 4090" in reply.content  # global cards, yuan prices


def test_what_the_user_says_beats_the_setting():
    reply = _answer({"region": "china"}, ASK + ", we are in the US")
    data = payload(reply)
    assert data["profile"]["region"] == "us" and "region" not in data["assumptions"]


def test_no_settings_changes_nothing():
    assert _answer({}).content == _answer(None).content
    assert "(your setting)" not in _answer(None).content


def test_settings_reach_the_one_shot_graph_and_bad_ones_are_ignored():
    out = graph.invoke({"messages": [HumanMessage(ASK)], "oneshot": True, "settings": {"region": "china"}})
    assert out["profile"]["region"] == "china"
    for bad in ({"region": "mars"}, {"theme": "dark"}, "china", {"currency": 5}):
        out = graph.invoke({"messages": [HumanMessage(ASK)], "oneshot": True, "settings": bad})
        assert out["profile"]["region"] == "global", bad


def test_ask_reads_the_settings_file(tmp_path, monkeypatch, capsys):
    from gpu_advisor.tui.cli import main

    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(tmp_path / "settings.toml"))
    assert main(["config", "set", "region", "china"]) == 0
    capsys.readouterr()
    assert main(["ask", ASK]) == 0
    assert "- region: China (your setting)" in capsys.readouterr().out
