"""The reader on a generated corpus (tests/reading_corpus.py): every slot clause in English and Chinese,
every number spelling, every pair of clauses in both orders with fillers and joins between them.
Each utterance must be read with exactly the values it states."""

from __future__ import annotations

import collections

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.reading_corpus import Clause, corpus

CORPUS = corpus()


def _want(value):
    if isinstance(value, tuple) and value[0] == "cny":  # yuan, at the rate the reader converts with
        return round(value[1] * rules().usd_per_cny, 2)
    return value


def _same(got, want) -> bool:
    if isinstance(want, float) and isinstance(got, int | float):
        return abs(got - want) <= 0.001 * max(1.0, abs(want))
    return got == want


def test_the_corpus_is_big_and_bilingual():
    langs = collections.Counter("zh" if any("\u4e00" <= ch <= "\u9fff" for ch in c.text) else "en" for c in CORPUS)
    assert len(CORPUS) >= 20_000
    assert min(langs.values()) >= 0.4 * len(CORPUS)
    slots = {k for c in CORPUS for k in c.expect}
    assert {"users", "context", "ttft_ms", "min_tokens_per_s", "budget_usd_per_month", "utilisation", "model",
            "batch_items", "batch_input_tokens", "batch_output_tokens", "deadline_hours"} <= slots


@pytest.mark.long  # minutes on two cores: make test-fast leaves it out
@pytest.mark.parametrize("part", range(8))
def test_every_utterance_is_read_as_stated(part: int):
    misses: list[str] = []
    for clause in CORPUS[part::8]:
        misses += _check(clause)
    assert not misses, f"{len(misses)} misread, e.g.:\n" + "\n".join(misses[:12])


def _check(clause: Clause) -> list[str]:
    u = understand(clause.text)
    return [f"{clause.text!r}: {slot} = {u.updates.get(slot)!r}, want {_want(value)!r}"
            for slot, value in clause.expect.items() if not _same(u.updates.get(slot), _want(value))]
