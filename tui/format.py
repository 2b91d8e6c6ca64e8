"""Plain-text rendering of tool results for the command line (GB = 10^9 bytes throughout)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from tools.common import Explained, Term


def gb(n: float) -> str:
    return f"{n / 1e9:,.1f}"


def tokens(n: float) -> str:
    return f"{n:,.0f}" if n >= 100 else f"{n:,.1f}"


def table(rows: Iterable[Iterable[object]], header: Iterable[str]) -> str:
    data = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in data) for i in range(len(data[0]))]
    lines = []
    for n, row in enumerate(data):
        cells = [c.rjust(w) if i and _numeric(c) else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _numeric(cell: str) -> bool:
    return bool(cell) and (cell[0].isdigit() or cell[0] in "-+$") and not cell[-1].isalpha()


def _value(t: Term) -> str:
    if t.unit == "bytes":
        return f"{gb(t.value)} GB"
    if t.unit == "fraction":
        return f"{t.value:.0%}"
    if t.unit in ("tokens", "tokens/s", "h"):
        return f"{t.value:,.0f} {t.unit}" if t.value >= 100 else f"{t.value:,.2f} {t.unit}"
    if t.unit in ("USD", "USD/h"):
        return f"{t.value:,.2f} {t.unit}"
    return f"{t.value:,.4g} {t.unit}"


def _input(v: object) -> str:
    if isinstance(v, float):
        return f"{v:,.6g}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return str(v)


def explain(result: Explained) -> str:
    """Every term with its formula and inputs: the 'show the math' view."""
    out = ["The math:"]
    for t in result.terms:
        rng = f" (range {_value(t.model_copy(update={'value': t.low}))} to {_value(t.model_copy(update={'value': t.high}))})" \
            if t.low != t.high else ""
        out.append(f"  {t.label}: {_value(t)}{rng}")
        out.append(f"    = {t.formula}")
        if t.inputs:
            out.append("    with " + ", ".join(f"{k} = {_input(v)}" for k, v in t.inputs.items()))
    return "\n".join(out)


def notes(result: Explained) -> str:
    out = []
    if result.assumptions:
        out.append("Assumptions:")
        out += [f"  - {a}" for a in result.assumptions]
    if result.warnings:
        out.append("Warnings:")
        out += [f"  ! {w}" for w in result.warnings]
    return "\n".join(out)


# Escape sequences and control characters that a terminal would act on: CSI (colours, cursor moves),
# OSC (titles, OSC 8 links, OSC 52 clipboard writes), DCS/SOS/PM/APC strings, their 8-bit forms, and
# every other C0/C1 control except newline and tab. Linear: no pattern can backtrack.
_TERMINAL_CONTROL = re.compile(
    r"\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|\x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|[\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain(text: str) -> str:
    """Stored or imported text made safe to print on a terminal: data, never terminal commands."""
    return _TERMINAL_CONTROL.sub("", text.replace("\r\n", "\n"))
