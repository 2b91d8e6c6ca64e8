"""Techniques a trade-off question asks about ("is fp8 kv cache worth it?", "AWQ会掉点吗") and the verdict's codes
(data/trade_offs.yaml): which kind of saving, the weight or KV format whose figures it uses, the glossary entry that
explains it, how engines turn it on. Found in a message by its aliases, the longest first."""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "trade_offs.yaml"
Kind = Literal["kv", "w8", "w4", "qlora", "spec", "prefix"]


class TradeOff(Record):
    id: str
    kind: Kind
    format: str | None = Field(None, description="precisions.yaml id whose figures the verdict uses")
    topic: str = Field(description="glossary.yaml id: how the technique works")
    name_en: str = Field(min_length=2)
    name_zh: str = Field(min_length=2)
    aliases: list[str] = Field(min_length=1)
    flags: dict[str, str] = Field(default_factory=dict, description="engine -> flag or setting, literal")
    how: Literal["checkpoint", "default_on"] | None = None

    @model_validator(mode="after")
    def _lower_case_aliases(self) -> TradeOff:
        upper = [a for a in self.aliases if a != a.lower()]
        if upper:
            raise ValueError(f"aliases must be lower-case: {upper}")
        return self


@cache
def trade_offs() -> dict[str, TradeOff]:
    return {r.id: r for r in load_records(PATH, TradeOff)}


_PIECE = re.compile(r"[a-z0-9_.]+|[\u3400-\u9fff]|[^\sa-z0-9_.\u3400-\u9fff]")


def _alias_pattern(alias: str) -> str:
    """An alias with its spaces, hyphens and the edges between Chinese and Latin letters optional ('fp8 kv cache':
    'fp8-kv-cache', 'fp8 kvcache'; 'kv缓存用fp8': 'kv 缓存 用 fp8'), never inside a longer Latin word."""
    pieces = [p for p in _PIECE.findall(alias) if p != "-"]
    return r"(?<![a-z0-9])" + r"[\s\-_]*".join(re.escape(p) for p in pieces) + r"(?![a-z0-9])"


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    rows = [(alias, t.id) for t in trade_offs().values() for alias in t.aliases]
    rows.sort(key=lambda r: -len(r[0]))
    return [(re.compile(_alias_pattern(a)), tid) for a, tid in rows]


def trade_off_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, technique id) of each technique named in the lower-cased text, longest alias first; an alias inside
    a longer one found earlier ('fp8' inside 'fp8 kv cache') is not a second mention."""
    lower = text.lower()
    spans: list[tuple[int, int, str]] = []
    for pattern, tid in _patterns():
        for hit in pattern.finditer(lower):
            if not any(s < hit.end() and hit.start() < e for s, e, _t in spans):
                spans.append((hit.start(), hit.end(), tid))
    return spans


def find_trade_offs(text: str) -> list[str]:
    """The techniques a message names, longest alias first, each once."""
    return list(dict.fromkeys(tid for _s, _e, tid in trade_off_spans(text)))
