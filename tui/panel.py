"""The side panel's "What I know": the profile's slots, a label and a value a row, laid out for the panel's width.

Labels line up by terminal cells (a Chinese character takes two). A value that does not fit wraps under the value
column, and a label too long to leave room for its value has the value on the next line, so nothing runs into
its neighbour or past the panel's edge (issue 25). Money is shown in the currency the conversation is priced in:
yuan first (the dollars the options are ranked by beside it) in Chinese or for China, as the answer says it."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from gpu_advisor.assistant.catalog import catalog, say
from gpu_advisor.assistant.slots import SLOTS, relevant
from gpu_advisor.tui.cjk_wrap import divide_line
from gpu_advisor.tui.words import words

# The panel's numbers that carry a unit, and the catalog's words for it
UNITS = {"deadline_hours": "panel.hours", "ttft_ms": "panel.ms", "requests_per_s": "panel.per_s"}
LABEL_CELLS = 13  # the profile panel's label column, at least
LABEL_MOST = 15  # the column widens for labels of fewer cells than this ("首 token 延迟")
VALUE_LEAST = 10  # cells a value needs beside its label; with fewer, it goes under the label
MONEY = ("budget_usd_per_month", "budget_usd")


def _money(usd: float, profile: dict[str, Any], lang: str) -> str:
    """A budget as the conversation prices things: '¥200,000 ($28,000)' in Chinese or for China, else '$28,000'."""
    from gpu_advisor.assistant.writers import (  # the writers load the sizing tools: not at start-up
        cash_at,
        money,
    )
    from gpu_advisor.knowledge import rules

    return cash_at(usd, rules().usd_per_cny) if lang == "zh" or profile.get("region") == "china" else money(usd)


def _value(name: str, value: Any, profile: dict[str, Any], lang: str) -> Any:
    """A slot's value as the panel writes it."""
    if name == "users" and value is None and profile.get("users_range"):
        low, high = profile["users_range"]
        return f"{low:,}-{high:,}" if high else f"{low:,}+"  # the range said; the answer sizes a point of it
    if value is None:
        return None
    if name == "phase":
        return say(lang, f"phase.{value}")
    if name == "utilisation":
        return words(lang, "panel.around_the_clock") if value >= 1 else f"{value:.0%}"
    if name in ("region", "method") and lang != "en":
        return catalog(lang).get(f"{name}.{value}") or value  # English shows the code one types
    if name in UNITS and isinstance(value, int | float):
        return words(lang, UNITS[name], n=f"{value:,.0f}" if value == int(value) else f"{value:,.1f}")
    if name in ("context", "batch_items"):
        return f"{value:,}"
    if name in MONEY:
        return _money(value, profile, lang)
    if name in ("owned", "exclude", "only"):
        from gpu_advisor.assistant.writers import (
            cards_words,  # the writers load the sizing tools: not at start-up
        )

        return cards_words(value, lang) if value else None
    if isinstance(value, list | tuple):
        return ("、" if lang == "zh" else ", ").join(str(v) for v in value)
    return value


def profile_rows(profile: dict[str, Any], lang: str = "en") -> list[tuple[str, Any]]:
    """(label, value) of the slot table's panel slots that matter for this profile, in the table's order."""
    rows: list[tuple[str, Any]] = []
    for name, slot in SLOTS.items():
        if not slot.panel or not relevant(name, profile):
            continue
        value = profile.get(name)
        if value is None and slot.default is None and not slot.asks:
            continue  # an optional constraint (deadline, budget, cards owned) shows once it is said
        rows.append((slot.label(lang), _value(name, value, profile, lang)))
    return rows


def _wrapped(text: str, width: int) -> list[str]:
    cuts = [0, *divide_line(text, max(width, 2)), len(text)]
    return [text[a:b].rstrip() for a, b in pairwise(cuts)] or [""]


def profile_text(profile: dict[str, Any], lang: str = "en", width: int | None = None) -> Text:
    """The "What I know" panel: each row's label, padded by cells to one column (wider for a label of up to
    LABEL_MOST cells; a longer label keeps one space before its value), then its value. Given the panel's
    `width`, a value wraps under the value column, and one with under VALUE_LEAST cells beside a long label
    goes on the next line."""
    rows = profile_rows(profile, lang)
    column = max([LABEL_CELLS] + [cell_len(label) + 1 for label, _ in rows if cell_len(label) < LABEL_MOST])
    if width is not None:
        column = min(column, max(width // 2, 1))
    text = Text()
    for label, value in rows:
        said = value not in (None, "")
        shown = f"{value}" if said else "?"
        style = "" if said else "dim"
        at = max(column, cell_len(label) + 1)
        if width is None:
            text.append(label + " " * (at - cell_len(label)), style="bold")
            text.append(shown + "\n", style=style)
            continue
        label_lines = _wrapped(label, width)  # one line but in a very narrow panel
        for part in label_lines[:-1]:
            text.append(part + "\n", style="bold")
        last = cell_len(label_lines[-1])
        at = max(column, last + 1)
        if at + min(cell_len(shown), VALUE_LEAST) > width:  # no room beside the label: under it, at the column
            text.append(label_lines[-1], style="bold")
            text.append("\n" + " " * column)
            at = column
        else:
            text.append(label_lines[-1] + " " * (at - last), style="bold")
        for n, part in enumerate(_wrapped(shown, width - at)):
            text.append(("\n" + " " * at if n else "") + part, style=style)
        text.append("\n")
    return text


class ProfilePanel(Static):
    """The panel's profile rows, laid out again for its width whenever that changes."""

    def __init__(self, **kwargs: Any):
        super().__init__(profile_text({}), **kwargs)
        self.profile: dict[str, Any] = {}
        self.lang = "en"
        self._laid_out_for: int | None = None

    def show(self, profile: dict[str, Any], lang: str) -> None:
        self.profile, self.lang = profile, lang
        self._lay_out()

    def on_resize(self) -> None:
        if self.content_region.width != self._laid_out_for:
            self._lay_out()

    def _lay_out(self) -> None:
        self._laid_out_for = self.content_region.width
        self.update(profile_text(self.profile, self.lang, self._laid_out_for or None))
