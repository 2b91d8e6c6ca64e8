"""Buy one card or rent another, weighed at the counts the job takes (assistant.buy_or_rent): 'buy a couple of 5090s
or just rent H100s?' for serving a 70B is 4 × 5090 bought against the H100s the job needs rented for the hours they
are busy, never one card of each (review AR 9: one 5090 against one H100 while the plan bought four 5090s). The
counts are the rows sized for the job (the plan, and the card's row beside it), so the block, the headline and the
comparison name the same cards and counts. A training-only job keeps one card of each (a run's hours decide)."""
from __future__ import annotations

from typing import Any


def job_counts(rec: Any, buy: str, rented: str) -> tuple[int, int] | None:
    """(cards bought, cards rented) for a serving job, each the count its row sized for the job takes; None for a
    training-only job, or when either card has no row."""
    if rec is None or rec.best is None or not rec.workload.spec.serves:
        return None
    rows = [rec.best, *rec.options]

    def count(gpu: str) -> int | None:
        return next((o.gpus for o in rows if o.gpu == gpu and o.serves), None)

    n_buy, n_rent = count(buy), count(rented)
    if not n_buy or not n_rent or (n_buy == 1 and n_rent == 1):
        return None
    return n_buy, n_rent
