"""Plain-text rendering of tool results for the command line (GB = 10^9 bytes throughout)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the sizing tools load pydantic models: not needed for the app's first screen
    from datetime import datetime

    from gpu_advisor.assistant.session import Rerun
    from gpu_advisor.tools.common import Explained, Term


def gb(n: float) -> str:
    return f"{n / 1e9:,.1f}"


def tokens(n: float) -> str:
    return f"{n:,.0f}" if n >= 100 else f"{n:,.1f}"


def table(rows: Iterable[Iterable[object]], header: Iterable[str]) -> str:
    """Columns aligned by width on screen (a Chinese character takes two cells), numbers to the right."""
    data = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(_width(r[i]) for r in data) for i in range(len(data[0]))]
    lines = []
    for n, row in enumerate(data):
        cells = [" " * (w - _width(c)) + c if i and _numeric(c) else c + " " * (w - _width(c))
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def clip(text: str, cells: int) -> str:
    """`text` cut to at most `cells` cells on screen (a Chinese character takes two), "…" marking a cut."""
    if _width(text) <= cells:
        return text
    kept, used = [], 1
    for char in text:
        used += _width(char)
        if used > cells:
            break
        kept.append(char)
    return "".join(kept) + "…"


def local_times(stamps: Iterable[str]) -> tuple[list[str], str]:
    """Stored times (ISO 8601, UTC) as this computer's local "YYYY-MM-DD HH:MM", and the zone's name
    for a column header ("CET"; "CET, CEST" when the times fall on both sides of a clock change).
    A zone the C library cannot apply (TZ='UTC+25:61', an offset of a day or more) shows the times in UTC."""
    from datetime import UTC, datetime

    shown, zones = [], []
    for stamp in stamps:
        try:
            when = datetime.fromisoformat(stamp)
        except ValueError:  # not a time (an imported file's own text): shown as stored
            shown.append(stamp[:16].replace("T", " "))
            continue
        local = _local(when if when.tzinfo else when.replace(tzinfo=UTC))
        shown.append(local.strftime("%Y-%m-%d %H:%M"))
        zone = local.tzname() or local.strftime("%z")
        if zone not in zones:
            zones.append(zone)
    if not zones:
        now = _local(datetime.now(UTC))
        zones.append(now.tzname() or now.strftime("%z"))
    return shown, ", ".join(zones)


def _local(when: datetime) -> datetime:
    """`when` in this computer's zone, or in UTC when the zone (TZ) gives an offset Python refuses."""
    from datetime import UTC

    try:
        return when.astimezone()
    except (ValueError, OverflowError, OSError):
        return when.astimezone(UTC)


def rerun_note(found: Rerun) -> str:
    """What a bounded re-run of a saved session left out (assistant/replay.py MAX_RERUN_TURNS); "" when nothing."""
    from gpu_advisor.assistant.replay import MAX_REPLAYED_CHARS, MAX_RERUN_TURNS

    if not found.skipped:
        return ""
    return (f"Only the first {found.turns - found.skipped:,} of the {found.turns:,} messages were re-run (at most "
            f"{MAX_RERUN_TURNS} messages and {MAX_REPLAYED_CHARS:,} characters of them); the last "
            f"{found.skipped:,} were not compared.")


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


def plain(text: str) -> str:
    """Stored or imported text made safe to print on a terminal: data, never terminal commands
    (assistant.terminal.printable, the one definition of what is removed)."""
    from gpu_advisor.assistant.terminal import printable

    return printable(text)


# ---------------------------------------------------------------- tables that fit the window

# Shorter headers for the options table, tried before any column is dropped.
SHORT_HEADERS = {
    "memory to spare": "spare", "tokens/s per user": "tok/s", "first token": "1st tok", "hours per run": "h/run",
    "cost per run": "$/run", "per hour": "$/h", "per month": "$/month", "buy price": "buy", "option": "option",
    "剩余显存": "剩余", "每用户 tokens/s": "tok/s", "首个 token": "首token", "每次训练小时": "小时/次",
    "每次训练费用": "费用/次", "每小时": "每小时",
}
# Words a card's name can lose and still be recognised ("2 × NVIDIA GeForce RTX 5090 32GB" -> "2 × RTX 5090 32GB").
VENDOR_WORDS = re.compile(r"\b(?:NVIDIA|AMD|Instinct|GeForce|Apple)\s+")
_PRICE = re.compile(r"^[$¥€]|/h$|USD|元")
CELL_PADDING = 2  # a DataTable cell's padding, left and right together
# A price's own note at the end of its cell ('$2.59 (price from 1 offer)', '¥3.21 ($0.45)（仅 2 个报价）'): no money in it.
_PRICE_NOTE = re.compile(r"\s*[(（]([^()（）$¥€]+)[)）]$")


def _width(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def table_width(columns: list[str], rows: list[list[str]]) -> int:
    return sum(max([_width(c)] + [_width(r[i]) for r in rows]) + CELL_PADDING for i, c in enumerate(columns))


def _is_price(column: str, rows: list[list[str]], i: int) -> bool:
    return "$" in column or "¥" in column or any(_PRICE.search(r[i]) for r in rows if r[i] not in ("", "-"))


def fit_table(columns: list[object], rows: list[list[object]], width: int) -> tuple[list[str], list[list[str]], list[str]]:
    """An options table that fits `width` cells: headers shortened first, then card names, then a price's note
    moved under the table (the price starred); only then columns dropped, from the right, but never the
    first (the option) nor a price. Returns (columns, rows, the headers of the dropped columns)."""
    cols = [str(c) for c in columns]
    body = [[str(c) for c in r] + [""] * (len(cols) - len(r)) for r in rows]
    if table_width(cols, body) <= width:
        return cols, body, []
    cols = [SHORT_HEADERS.get(c, c) for c in cols]
    if table_width(cols, body) > width:
        body = [[VENDOR_WORDS.sub("", r[0]), *r[1:]] for r in body]
    names: list[str] = [str(c) for c in columns]
    dropped: list[str] = []
    if table_width(cols, body) > width:
        dropped += _star_price_notes(cols, body)
    while table_width(cols, body) > width:
        candidates = [i for i in range(len(cols) - 1, 0, -1) if not _is_price(cols[i], body, i)]
        if not candidates:
            break
        i = candidates[0]
        dropped.insert(0, names.pop(i))
        cols = cols[:i] + cols[i + 1:]
        body = [r[:i] + r[i + 1:] for r in body]
    return cols, body, dropped


def _star_price_notes(cols: list[str], body: list[list[str]]) -> list[str]:
    """Price notes taken out of the cells, before any column is dropped: the price keeps a star and the note is
    said once under the table ('*price from 1 offer'). Changes body in place; returns the notes."""
    notes: list[str] = []
    for i in range(1, len(cols)):
        if not _is_price(cols[i], body, i):
            continue
        for row in body:
            note = _PRICE_NOTE.search(row[i])
            if note and any(ch.isdigit() for ch in row[i][:note.start()]):
                row[i] = row[i][:note.start()] + "*"
                notes.append("*" + note.group(1).strip())
    return list(dict.fromkeys(notes))

