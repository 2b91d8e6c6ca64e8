"""People who use a service, and how many of them generate at the same moment.

Cards are sized for the people whose answers are being generated at once, not for everyone who has an
account. Someone chatting reads, thinks and types between answers, and at the busiest hour only part of
a staff is chatting at all: at that hour about one person in ten is waiting on an answer
(PEAK_SHARE, from knowledge/data/rules.yaml with its rationale). Who that is varies, so the count at once is random; the cards are sized for a number it
stays at or below 99 times in 100 (QUANTILE), the binomial distribution's 99th percentile. Small teams
get a larger share than ten per cent (four of twelve), large staffs close to it (339 of 3,000).

People counted a day ("2k daily users", "日活几百人") come and go over the day: at the busiest moment about one
in two hundred is waiting on an answer (DAILY_SHARE, rules.yaml), so 2,000 a day are sized at 18 at once and
500 a day at 7. `peak_share` picks the share for a count; nothing else does.

Coding agents and tools that call the model in loops run close to all at once: say the number at once
for those.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import rules

PEAK_SHARE = rules().peak_share_online  # of the people who use it, generating at the busiest moment (rules.yaml)
DAILY_SHARE = rules().peak_share_daily  # of the people who use it in a day, generating at the busiest moment (rules.yaml)
QUANTILE = rules().peak_share_quantile  # sized for a count exceeded once in a hundred busy moments
EXACT_UP_TO = 20_000  # above this the normal approximation is within one person


class PeakInput(BaseModel):
    people: int = Field(gt=0, description="people who use the service (staff, seats, accounts), not at once")
    share: float = Field(PEAK_SHARE, gt=0, le=1, description="share generating at the busiest moment")
    quantile: float = Field(QUANTILE, gt=0, lt=1, description="how often the count at once stays at or below")


class PeakResult(BaseModel):
    people: int
    share: float
    quantile: float
    at_once: int = Field(description="people generating at once to size the cards for")
    mean: float = Field(description="people generating at once on average at the busiest hour")
    formula: str


def peak_share(daily: bool) -> float:
    """The share of the people who use a service generating at the busiest moment: of a day's users when
    `daily` ("2k daily users"), else of a staff or head-count ("our 800 employees")."""
    return DAILY_SHARE if daily else PEAK_SHARE


def peak_at_once(inp: PeakInput) -> PeakResult:
    """The number of people generating at once that a service for `people` is sized for: the
    `quantile` of Binomial(people, share), at least one person."""
    n, p, q = inp.people, inp.share, inp.quantile
    if p >= 1:
        k = n
    elif n <= EXACT_UP_TO:
        k = _binomial_quantile(n, p, q)
    else:
        k = math.ceil(NormalDist(n * p, math.sqrt(n * p * (1 - p))).inv_cdf(q))
    return PeakResult(people=n, share=p, quantile=q, at_once=max(1, min(n, k)), mean=n * p,
                      formula="at once = smallest k with P(Binomial(people, share) <= k) >= quantile")


def _binomial_quantile(n: int, p: float, q: float) -> int:
    """Smallest k with P(X <= k) >= q for X ~ Binomial(n, p), summed in log space (no underflow)."""
    log_pmf = n * math.log1p(-p)  # P(X = 0)
    ratio = math.log(p) - math.log1p(-p)
    total = 0.0
    for k in range(n + 1):
        total += math.exp(log_pmf)
        if total >= q:
            return k
        log_pmf += math.log(n - k) - math.log(k + 1) + ratio
    return n
