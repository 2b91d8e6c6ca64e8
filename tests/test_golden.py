"""Golden conversations (tests/golden/*.yaml) replayed through the graph: exact questions, key numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpu_advisor.assistant.catalog import LANGS
from gpu_advisor.assistant.slots import question
from tests.conversation import dump, payload, run_conversation, unexplained_numbers

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yaml"))


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=GOLDEN, ids=[p.stem for p in GOLDEN])
def golden(request):
    spec = load(request.param)
    return spec, run_conversation([t["user"] for t in spec["turns"]])


def test_there_are_at_least_fifteen_golden_conversations():
    assert len(GOLDEN) >= 15


def test_each_turn_matches_the_golden_record(golden):
    spec, replies = golden
    for n, (turn, reply) in enumerate(zip(spec["turns"], replies, strict=True), start=1):
        where = f"turn {n} ({turn['user']!r})"
        data = payload(reply)
        assert data["kind"] == turn["kind"], f"{where}: {reply.content}"
        if "asks" in turn:
            assert data.get("slot") == turn["asks"], f"{where}: {reply.content}"
            assert any(question(turn["asks"], lang).text in reply.content for lang in LANGS), where
            assert data["choices"][-1]["label"] in ("Not sure", "不确定"), where
        if "text" in turn:
            assert reply.content == turn["text"], where
        for fragment in turn.get("contains", []):
            assert fragment in reply.content, f"{where}: {fragment!r} not in\n{reply.content}"
        for fragment in turn.get("absent", []):
            assert fragment not in reply.content, f"{where}: {fragment!r} in\n{reply.content}"


def test_every_number_in_an_answer_comes_from_a_tool_result(golden):
    _spec, replies = golden
    for reply in replies:
        data = payload(reply)
        if data["kind"] in ("answer", "info") and data.get("results"):
            assert unexplained_numbers(reply.content, data["results"]) == [], reply.content


def test_the_same_conversation_gives_byte_identical_replies(golden):
    spec, replies = golden
    again = run_conversation([t["user"] for t in spec["turns"]], thread="again")
    assert dump(again) == dump(replies)
