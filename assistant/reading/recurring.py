"""How often a batch job or a training run repeats ('nightly', '每天晚上', 'retrain weekly'): runs a month, so
rent or buy compares a month of runs, not one run that ends. Grammar only: words/recurring.yaml."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import vocab, word_pattern


@cache
def _rows() -> list[tuple[re.Pattern[str], re.Pattern[str], float]]:
    return [(re.compile(en), re.compile(zh), float(runs)) for en, zh, runs in vocab()["runs_per_month"]]


def read_runs_per_month(m: Message) -> float | None:
    if m.phase in ("serve", "production", "experiment"):
        return None  # '2000 requests per day': traffic
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (word_pattern("runs_again").search(m.masked) or word_pattern("runs_again").search(typed)):
        return None
    for en, zh, runs in _rows():
        if en.search(m.masked) or zh.search(typed):
            return runs
    return None


def runs_per_period(period: str) -> float:
    """Runs a month of something done once every `period` ('night', 'day', 'week'), from the runs_per_month table;
    a period the table does not hold ('run') is once."""
    said = f"every {period}"
    return next((runs for en, _zh, runs in _rows() if en.search(said)), 1.0)
