"""Widgets of the chat screen: messages, quick replies, the profile panel and the memory chart."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, ListItem, ListView, Static

from assistant.catalog import say
from assistant.slots import SLOTS, relevant
from assistant.writers import cards_words

# Colours of the memory chart's segments (weights, KV cache, activations, overhead).
SEGMENTS = (("weights_bytes", "chart.weights", "dodger_blue2"), ("kv_cache_bytes", "chart.kv", "dark_orange"),
            ("activation_bytes", "chart.activations", "medium_purple"), ("overhead_bytes", "chart.overhead", "grey50"))


def split_table(markdown: str) -> tuple[str, list[list[str]], str]:
    """Split the first Markdown table out of a text: (before, rows with the header first, after)."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("|")), None)
    if start is None:
        return markdown, [], ""
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[start:end]]
    rows = [r for r in rows if not all(set(c) <= set("-: ") for c in r)]
    return "\n".join(lines[:start]).rstrip(), rows, "\n".join(lines[end:]).lstrip()


class MemoryChart(Static):
    """Per-GPU memory by part against the card's capacity, as one stacked bar."""


    def __init__(self, result: dict[str, Any], title: str, lang: str = "en", **kwargs: Any):
        super().__init__(**kwargs)
        self.result = result
        self.title = title
        self.lang = lang

    def render_bar(self, width: int) -> Text:
        r = self.result
        capacity = r.get("gpu_capacity_bytes") or 0
        per_gpu = {
            "weights_bytes": r.get("per_gpu_weights_bytes", r.get("weights_bytes", 0)),
            "kv_cache_bytes": r.get("per_gpu_kv_cache_bytes", r.get("kv_cache_bytes", 0)),
            "activation_bytes": r.get("per_gpu_activation_bytes", r.get("activation_bytes", 0)),
            "overhead_bytes": r.get("per_gpu_overhead_bytes", r.get("overhead_bytes", 0)),
        }
        total = sum(per_gpu.values())
        scale = max(capacity, total) or 1
        text = Text(say(self.lang, "chart.line", title=self.title, used=f"{total / 1e9:,.1f}",
                        capacity=f"{capacity / 1e9:,.1f}") + "\n")
        used = 0
        for key, _label, colour in SEGMENTS:
            cells = round(per_gpu[key] / scale * width)
            text.append("█" * cells, style=colour)
            used += cells
        text.append("░" * max(0, round(capacity / scale * width) - used), style="green")
        text.append("\n")
        for key, label, colour in SEGMENTS:
            if not per_gpu[key]:
                continue
            text.append("■ ", style=colour)
            text.append(f"{say(self.lang, label)} {per_gpu[key] / 1e9:,.1f}  ")
        text.append("░ ", style="green")
        text.append(say(self.lang, "chart.free"))
        return text

    def render(self) -> Text:
        return self.render_bar(max(20, (self.size.width or 60) - 2))


class ChatMessage(Vertical):
    """One message of the transcript. Answers show their options table as a DataTable and a chart."""


    def __init__(self, role: str, text: str, payload: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(classes=f"message {role}", **kwargs)
        self.role = role
        self.text = text
        data = payload.get("gpu_advisor") if isinstance(payload, dict) else None
        self.payload: dict[str, Any] = data if isinstance(data, dict) else {}

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # loaded with the first message, not the first screen

        if self.role == "user":
            yield Label("You", classes="who")
            yield Static(self.text, classes="user-text", markup=False)
            return
        yield Label("Advisor", classes="who")
        try:
            parts = list(self._answer_parts()) if self.payload.get("kind") == "answer" else None
        except (AttributeError, KeyError, TypeError, ValueError):  # a damaged or foreign payload
            parts = None
        if parts is not None:
            yield from parts
        else:
            text = self.text
            if self.payload.get("choices"):  # the buttons below show the choices
                text = re.sub(r"\n\n\[[^\n]*\]\s*$", "", text)
            yield Markdown(text)

    def _answer_parts(self) -> ComposeResult:
        """An answer's parts: text, the options table, memory charts (raises on a damaged payload)."""
        from textual.widgets import DataTable, Markdown

        lang = (self.payload.get("decision") or {}).get("lang", "en")
        before, _rows, after = split_table(self.text)
        yield Markdown(before)
        options = self.payload.get("table") or {}
        if options.get("rows"):
            table = DataTable(zebra_stripes=True, show_cursor=False, classes="options")
            table.add_columns(*(Text(str(c)) for c in options["columns"]))  # a column label is never markup
            for row in options["rows"]:
                table.add_row(*(Text(c) if isinstance(c, str) else c for c in row))  # nor is a cell
            yield table
        results = self.payload.get("results") or {}
        charts = []
        if results.get("serving_memory"):
            charts.append(MemoryChart(results["serving_memory"], say(lang, "chart.serving"), lang, classes="chart"))
        if results.get("training_memory"):
            t = results["training_memory"]
            rec = results["recommend"]
            cap = (rec.get("training_run") or {}).get("capacity_bytes") or \
                (results.get("serving_memory") or {}).get("gpu_capacity_bytes") or \
                ((rec.get("best") or {}).get("capacity_bytes"))
            chart = {"weights_bytes": t["weights_bytes"] + t["gradient_bytes"] + t["optimizer_bytes"],
                     "activation_bytes": t["activation_bytes"], "overhead_bytes": t["overhead_bytes"],
                     "kv_cache_bytes": 0, "gpu_capacity_bytes": cap}
            charts.append(MemoryChart(chart, say(lang, "chart.training"), lang, classes="chart"))
        for chart in charts:
            chart.render_bar(20)  # a chart of damaged figures fails here, not while it is drawn
            yield chart
        if after:
            yield Markdown(after)


class QuickReplies(Horizontal):
    """The current question's choices as buttons (Tab moves between them, Enter presses)."""

    class Chosen(Message):
        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    can_focus = False

    generation = 0

    def show(self, choices: list[dict[str, str]]) -> None:
        self.remove_children()
        QuickReplies.generation += 1
        for n, choice in enumerate(choices):
            button = Button(Text(choice["label"]), id=f"choice-{QuickReplies.generation}-{n}", classes="choice", compact=True)
            button.choice_value = choice["value"]  # type: ignore[attr-defined]
            self.mount(button)
        self.display = bool(choices)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Chosen(getattr(event.button, "choice_value", str(event.button.label))))


class PromptInput(Input):
    """The message input, with history on up and down."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.history: list[str] = []
        self._cursor = 0

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._cursor = len(self.history)

    def key_up(self) -> None:
        if self.history and self._cursor > 0:
            self._cursor -= 1
            self.value = self.history[self._cursor]
            self.cursor_position = len(self.value)

    def key_down(self) -> None:
        if self._cursor < len(self.history) - 1:
            self._cursor += 1
            self.value = self.history[self._cursor]
        else:
            self._cursor = len(self.history)
            self.value = ""
        self.cursor_position = len(self.value)


def profile_text(profile: dict[str, Any], lang: str = "en") -> Text:
    """The "What I know" panel: the slot table's panel slots that matter for this profile."""
    text = Text()
    for name, slot in SLOTS.items():
        if not slot.panel or not relevant(name, profile):
            continue
        value = profile.get(name)
        if value is None and slot.default is None and not slot.asks:
            continue  # an optional constraint (deadline, budget, cards owned) shows once it is said
        if name == "phase" and value is not None:
            value = say(lang, f"phase.{value}")
        if name == "utilisation" and value is not None:
            value = f"{value:.0%}"
        elif name in ("context", "batch_items") and value is not None:
            value = f"{value:,}"
        elif name in ("budget_usd_per_month", "budget_usd") and value is not None:
            value = f"${value:,.0f}"
        elif name in ("owned", "exclude"):
            value = cards_words(value) if value else None
        text.append(f"{slot.label(lang):<13}", style="bold")
        text.append(f"{value if value not in (None, '') else '?'}\n", style="" if value not in (None, "") else "dim")
    return text


class AssumptionItem(ListItem):
    def __init__(self, slot: str, words: str):
        super().__init__(Label(words, markup=False))
        self.slot = slot


class AssumptionList(ListView):
    def show(self, assumptions: dict[str, str], profile: dict[str, Any] | None = None) -> None:
        self.clear()
        for slot, words in assumptions.items():
            if relevant(slot, profile or {}):
                self.append(AssumptionItem(slot, words))
