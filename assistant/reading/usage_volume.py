"""Tokens said over a period, one volume or several joined ('15M tokens a month', '300M output tokens and 1.2B input
tokens per month', '1.2B in / 300M out tokens a month', '每月输入12亿token，输出3亿token', '一天大概5000万token'): the
traffic of a month, a day or a week, never the length of one request. Each volume's way (read or written) comes from
the words beside it, else from the role the number was read in; both ways said give the split of what is read and
written (reading/usage.py sizes the requests at it). Grammar only: the words are in words/usage.yaml."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpu_advisor.assistant.reading.message import Message, Quantity
from gpu_advisor.assistant.reading.text import word_pattern

TOKEN_ROLES = ("train_tokens", "context", "prompt_tokens", "output_tokens", "request_rate", "")
MIN_TOKENS = 10_000  # below this a count of tokens over a period is no usage anyone bills
NEAR_BEFORE = 40
TAIL = 60  # characters read after a number for its words and its period
PERIODS = {"mo": "month", "d": "day", "wk": "week", "monthly": "month", "daily": "day", "weekly": "week"}
ROLE_WAY = {"prompt_tokens": "read", "output_tokens": "written"}


@dataclass(frozen=True)
class Volume:
    tokens: float  # all the volumes said, in tokens over the period
    period: str  # month, day or week
    role: str  # the role the first number was read in
    read: float  # of them, the tokens said to be read (prompts), 0 when not said
    written: float  # the tokens said to be written (answers), 0 when not said
    parts: tuple[Quantity, ...]  # the numbers said


def _period(match: re.Match[str]) -> str:
    said = next(g for g in match.groups() if g)
    return PERIODS.get(re.sub(r"\s+", " ", said), said)


def _way(word: str | None) -> str | None:
    if not word:
        return None
    return "read" if word_pattern("usage.read_dir").match(word) else \
        "written" if word_pattern("usage.written_dir").match(word) else None


def _candidate(m: Message, q: Quantity, tail: re.Match[str]) -> bool:
    """A number that can be a volume: tokens in any role but a size or a price's unit ('2元每百万token': the million
    prices, it is used by no one), a model's size only when a way follows it ('1.2b input and 300m output tokens a
    month': no 1.2B model)."""
    if q.negated or q.value < MIN_TOKENS:
        return False
    if word_pattern("usage.price_unit_before").search(m.masked[max(0, q.start - 16):q.start]):
        return False
    return q.role in TOKEN_ROLES or (q.role == "model" and bool(tail.group("dir") or tail.group("dir2")))


def _tokens_or_way(part: tuple[Quantity, re.Match[str], str | None]) -> bool:
    return bool(part[1].group("tok") or part[1].group("dir") or part[1].group("dir2") or part[2])


def _chains(m: Message) -> list[list[tuple[Quantity, re.Match[str], str | None]]]:
    """Runs of volumes joined by 'and', a comma, a slash: each with what follows it and the way said before it."""
    chains: list[list[tuple[Quantity, re.Match[str], str | None]]] = []
    tail_p, joiner = word_pattern("usage.tail"), word_pattern("usage.joiner")
    for q in sorted(m.qty, key=lambda x: x.start):
        tail = tail_p.match(m.masked[q.end:q.end + TAIL])
        assert tail is not None  # every part of it is optional
        if not _candidate(m, q, tail):
            continue
        last = chains[-1][-1] if chains else None
        gap = joiner.match(m.masked[last[0].end + last[1].end():q.start]) if last else None
        if last and gap and _tokens_or_way(last):  # '32k context and 15M tokens a month': no one volume
            chains[-1].append((q, tail, gap.group("dir")))
            continue
        before = word_pattern("usage.dir_before").search(m.masked[max(0, q.start - 32):q.start])
        chains.append([(q, tail, before.group("dir") if before else None)])
    return chains


def _volume(m: Message, chain: list[tuple[Quantity, re.Match[str], str | None]]) -> Volume | None:
    first, last = chain[0], chain[-1]
    tokens_said = any(t.group("tok") for _q, t, _d in chain)
    after = m.masked[last[0].end + last[1].end():last[0].end + last[1].end() + TAIL]
    period = word_pattern("usage.period_after").match(after) if tokens_said else None
    if period is None:
        before = m.masked[max(0, first[0].start - NEAR_BEFORE):first[0].start]
        period = word_pattern("usage.before").search(before)
        if period is None or not (tokens_said or word_pattern("usage.tokens_before").search(before)):
            return None
    ways = [_way(t.group("dir") or t.group("dir2") or said) or ROLE_WAY.get(q.role) for q, t, said in chain]
    if len(chain) == 1:
        ways = [None]  # one volume is the whole traffic, whatever way it was read in
    parts = tuple(q for q, _t, _d in chain)
    return Volume(sum(q.value for q in parts), _period(period), first[0].role,
                  sum(q.value for q, w in zip(parts, ways, strict=True) if w == "read"),
                  sum(q.value for q, w in zip(parts, ways, strict=True) if w == "written"), parts)


def volume_said(m: Message) -> Volume | None:
    """The first usage said over a period, else None."""
    for chain in _chains(m):
        found = _volume(m, chain)
        if found is not None:
            return found
    return None
