"""Cards you own of several kinds as one pool (tools.pool), in the answer's language: the headline when the
pool holds the model, and the line that says what the pool holds, what the model needs, how llama.cpp
splits it, and the two ways to close a gap (part in system RAM, a smaller file)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.pool import PoolResult

GB = 1e9


def _gb(n: float) -> str:
    return f"{n / GB:,.1f}"


def pool_cards(p: PoolResult) -> str:
    """'1 × NVIDIA GeForce RTX 3090 24GB + 1 × NVIDIA GeForce RTX 3060 12GB'."""
    return " + ".join(f"{c.count} × {c.gpu_name}" for c in p.cards)


def pool_headline(p: PoolResult, job: str, lang: str) -> str:
    """The pool leads: in the file asked when it holds it, else in the smaller file that it holds whole."""
    precision = p.precision if p.fits else p.smaller or p.precision
    return "## " + say(lang, "head.pool", cards=pool_cards(p), job=job, precision=precision)


def pool_lines(p: PoolResult | None, lang: str) -> list[str]:
    if p is None:
        return []
    line = say(lang, "answer.pool", cards=pool_cards(p), capacity=_gb(p.capacity_bytes), split=p.split,
               model=p.model, precision=p.precision, needed=_gb(p.needed_bytes))
    if p.fits:
        line += say(lang, "answer.pool_fits")
    else:
        line += say(lang, "answer.pool_gap", short=_gb(p.ram_bytes))
        ways = []
        if p.gpu_layers:
            ways.append(say(lang, "answer.pool_ram", ngl=p.gpu_layers, layers=p.layers))
        if p.smaller and p.smaller_needed_bytes:
            ways.append(say(lang, "answer.pool_smaller", precision=p.smaller, needed=_gb(p.smaller_needed_bytes)))
        if ways:
            line += say(lang, "answer.pool_colon") + say(lang, "answer.pool_or").join(ways)
        line += say(lang, "fig.end")
    line += say(lang, "answer.pool_vllm")
    return [line, ""]
