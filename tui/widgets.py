"""Widgets of the chat screen: messages, quick replies, the profile panel and the memory chart."""

from __future__ import annotations

import re
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Footer, Label, ListItem, ListView, Static, TextArea
from textual.widgets._footer import FooterKey

from gpu_advisor.assistant.catalog import catalog, detect, say
from gpu_advisor.assistant.slots import relevant
from gpu_advisor.assistant.terminal import printable
from gpu_advisor.tui.bindings import MESSAGE_BINDINGS
from gpu_advisor.tui.format import fit_table
from gpu_advisor.tui.message_keys import MessageActions

# The memory chart's segments (weights, KV cache, activations, overhead), each coloured by a theme variable:
# the theme's text colours, which Textual keeps readable on the theme's background, light or dark.
SEGMENTS = (("weights_bytes", "chart.weights", "text-primary"), ("kv_cache_bytes", "chart.kv", "text-warning"),
            ("activation_bytes", "chart.activations", "text-secondary"), ("overhead_bytes", "chart.overhead", "muted"))
FREE = "text-success"

_THEME_COLOURS: dict[tuple[str, str], str] = {}


def theme_colour(app: Any, variable: str) -> str:
    """A chart colour from the app's theme (read once per theme): "muted" is the text colour a quarter of the way to the
    background; outside an app, the variable's colour under textual-dark."""
    from textual.color import Color

    key = (f"app:{app.theme}" if app is not None else "none", variable)
    if key not in _THEME_COLOURS:
        try:
            values = app.get_css_variables()
        except Exception:  # noqa: BLE001 - no app: the default theme's colours
            from textual.theme import BUILTIN_THEMES

            values = BUILTIN_THEMES["textual-dark"].to_color_system().generate()
        if variable == "muted":
            colour = Color.parse(values["foreground"]).blend(Color.parse(values["background"]), 0.25)
        else:
            colour = Color.parse(values[variable])
        _THEME_COLOURS[key] = colour.hex6
    return _THEME_COLOURS[key]


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
        app = self.app if self.is_attached else None
        for key, _label, variable in SEGMENTS:
            cells = round(per_gpu[key] / scale * width)
            text.append("█" * cells, style=theme_colour(app, variable))
            used += cells
        free = theme_colour(app, FREE)
        text.append("░" * max(0, round(capacity / scale * width) - used), style=free)
        text.append("\n")
        for key, label, variable in SEGMENTS:
            if not per_gpu[key]:
                continue
            text.append("■ ", style=theme_colour(app, variable))
            text.append(f"{say(self.lang, label)} {per_gpu[key] / 1e9:,.1f}  ")
        text.append("░ ", style=free)
        text.append(say(self.lang, "chart.free"))
        return text

    def render(self) -> Text:
        return self.render_bar(max(20, (self.size.width or 60) - 2))


def _printable_tree(value: Any, depth: int = 0) -> Any:
    """A stored payload with every text in it printable (an imported one may hold escape sequences)."""
    if isinstance(value, str):
        return printable(value)
    if depth > 32:
        return None
    if isinstance(value, dict):
        return {k: _printable_tree(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_printable_tree(v, depth + 1) for v in value]
    return value


def key_words(lang: str, action: str) -> str | None:
    """A shown key's short words in `lang`: the assistant catalog's `key.ACTION`, else (in another language
    than English, where the binding's own description is the words) the app catalog's."""
    from gpu_advisor.tui.words import catalog as app_words

    said = catalog(lang).get(f"key.{action}")
    if said is None and lang != "en":
        said = app_words(lang).get(f"key.{action}")
    return said


class LocalFooter(Footer):
    """The key bar, its descriptions in the conversation's language (the catalog's `key.ACTION`)."""

    lang = reactive("en", recompose=True)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = key_words(self.lang, widget.action) or widget.description
            yield widget


def message_langs(messages: list[dict[str, Any]]) -> list[str]:
    """Each stored message's language as the conversation had it then: a user message's as the engine
    reads it (a bare "15" keeps the language so far), a reply's the one it was written in."""
    langs, lang = [], "en"
    for m in messages:
        if m["role"] == "user":
            lang = detect(m["text"], lang)
        else:
            lang = ((m.get("payload") or {}).get("gpu_advisor") or {}).get("decision", {}).get("lang") or lang
        langs.append(lang)
    return langs


class ChatMessage(MessageActions, Vertical):
    """One message of the transcript. Answers show their options table as a DataTable and a chart. Focused
    (Ctrl+↑ or Alt+↑, then ↑/↓), it can be copied, asked again, edited or read in a pager (tui.message_keys)."""

    BINDINGS = [*MESSAGE_BINDINGS]
    can_focus = True  # only while it is the one chosen: MessageActions.allow_focus

    def __init__(self, role: str, text: str, payload: dict[str, Any] | None = None, lang: str = "en", **kwargs: Any):
        super().__init__(classes=f"message {role}", **kwargs)
        self.role = role
        self.lang = lang  # of the conversation at this message: the "You"/"Advisor" label's words
        self.text = printable(text)  # stored text: shown without what a terminal would act on
        data = payload.get("gpu_advisor") if isinstance(payload, dict) else None
        self.payload: dict[str, Any] = _printable_tree(data) if isinstance(data, dict) else {}

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # loaded with the first message, not the first screen

        if self.role == "user":
            yield Label(say(self.lang, "chat.you"), classes="who")
            yield Static(self.text, classes="user-text", markup=False)
            return
        yield Label(say(self.lang, "chat.advisor"), classes="who")
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

    _options: tuple[list[Any], list[list[Any]]] | None = None
    _fitted_to = 0

    def _table_width(self) -> int:
        """Cells the options table may use: the transcript's width once laid out, else the window's
        less the side panel (the first answer of a resumed session is composed before layout)."""
        width = self.size.width
        if not width:
            try:
                width = self.screen.query_one("#transcript").size.width - 1
            except Exception:  # noqa: BLE001 - not on a chat screen (replay) or not laid out yet
                width = 0
        if not width:
            width = self.app.size.width - (0 if self.app.size.width < 110 else 38) - 3
        return max(30, width)

    _fitted: tuple[list[str], list[list[str]]] | None = None

    def _fill(self, table: Any, width: int) -> None:
        """Lay the options table out for `width` cells. Each column gets its width at once (the widest
        of its label and cells) rather than the DataTable's measure on its next idle: a table filled
        again during a resize was drawn, and kept, with its columns as wide as their labels."""
        assert self._options is not None
        columns, rows, dropped = fit_table(*self._options, width)
        self._fitted_to = width
        self._dropped = dropped
        if self._fitted == (columns, rows) and table.columns:
            return  # the same table: nothing to lay out again
        self._fitted = (columns, rows)
        table.clear(columns=True)
        for i, column in enumerate(columns):
            table.add_column(Text(column), width=max([cell_len(column)] + [cell_len(r[i]) for r in rows]))  # never markup
        for row in rows:
            table.add_row(*(Text(c) for c in row))  # nor is a cell

    keep_top_in_view = False  # set on a new reply until the user scrolls: its top stays in view as it grows

    def bring_top_into_view(self) -> None:
        if self.keep_top_in_view and self.parent is not None:
            self.parent.scroll_to_widget(self, animate=False, top=True)  # type: ignore[attr-defined]

    def on_resize(self, event: events.Resize) -> None:
        self.bring_top_into_view()  # the Markdown lays itself out a few frames after the mount
        if self._options is None or not event.size.width or event.size.width == self._fitted_to:
            return
        from textual.widgets import DataTable

        for table in self.query(DataTable):
            self._fill(table, event.size.width)
        for note in self.query(".table-note").results(Static):
            note.update(self._note())

    def on_mount(self) -> None:
        for note in self.query(".table-note").results(Static):
            note.update(self._note())

    def _note(self) -> Text:
        dropped = getattr(self, "_dropped", [])
        lang = (self.payload.get("decision") or {}).get("lang", "en")
        return Text(say(lang, "table.dropped", columns=("，" if lang == "zh" else ", ").join(dropped)) if dropped else "", style="dim")

    def _answer_parts(self) -> ComposeResult:
        """An answer's parts: text, the options table, memory charts (raises on a damaged payload)."""
        from textual.widgets import DataTable, Markdown

        lang = (self.payload.get("decision") or {}).get("lang", "en")
        before, _rows, after = split_table(self.text)
        yield Markdown(before)
        options = self.payload.get("table") or {}
        if options.get("rows"):
            table: DataTable[Any] = DataTable(zebra_stripes=True, show_cursor=False, classes="options")
            self._options = (list(options["columns"]), [list(r) for r in options["rows"]])
            self._fill(table, self._table_width())
            yield table
            yield Static("", classes="table-note")
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
            figures = {"weights_bytes": t["weights_bytes"] + t["gradient_bytes"] + t["optimizer_bytes"],
                       "activation_bytes": t["activation_bytes"], "overhead_bytes": t["overhead_bytes"],
                       "kv_cache_bytes": 0, "gpu_capacity_bytes": cap}
            charts.append(MemoryChart(figures, say(lang, "chart.training"), lang, classes="chart"))
        for chart in charts:
            chart.render_bar(20)  # a chart of damaged figures fails here, not while it is drawn
            yield chart
        if after:
            yield Markdown(after)


class Chip(Button):
    """A quick reply. Enter chooses the chip the quick replies count at, which is this one unless keys
    came quickly: a key is delivered to the widget focused when it arrives, possibly the chip before."""

    BINDINGS = [Binding("enter", "choose", "Choose", show=False)]

    def action_choose(self) -> None:
        parent = self.parent
        if isinstance(parent, QuickReplies):
            parent.choose_current(self)
        else:
            self.press()


class QuickReplies(Horizontal):
    """The current question's choices as numbered buttons: Tab from the input lands on the first, the
    arrow keys move between them, 1-9 press one (typed in the message box too), Enter presses the
    focused one."""

    BINDINGS = [
        Binding("left,up", "move(-1)", "Previous choice", show=False),
        Binding("right,down", "move(1)", "Next choice", show=False),
    ]

    class Chosen(Message):
        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    can_focus = False

    generation = 0
    # The chip the arrow keys count from, kept here: keys pressed quickly each count from the chip the
    # previous one reached, not from a focus still on its way.
    index: int | None = None

    def show(self, choices: list[dict[str, str]]) -> None:
        self.remove_children()
        self.index = None
        QuickReplies.generation += 1
        self._labels = [choice["label"] for choice in choices]
        for n, choice in enumerate(choices):
            label = f"{n + 1} {choice['label']}" if n < 9 else choice["label"]
            button = Chip(Text(label), id=f"choice-{QuickReplies.generation}-{n}", classes="choice", compact=True)
            button.choice_value = choice["value"]  # type: ignore[attr-defined]
            self.mount(button)
        self.display = bool(choices)
        self._arrange(self.size.width or self.app.size.width)

    def _arrange(self, width: int) -> None:
        """As many columns as the longest label allows, so that no label breaks inside a word."""
        labels = getattr(self, "_labels", [])
        if not labels:
            return
        from rich.cells import cell_len

        cell = max(cell_len(label) for label in labels) + 4  # "N " and a space each side
        self.styles.grid_size_columns = max(1, min(len(labels), 4, (width + 1) // (cell + 1)))

    def on_resize(self, event: events.Resize) -> None:
        self._arrange(event.size.width)

    def buttons(self) -> list[Button]:
        return list(self.query(Button))

    def focus_first(self) -> bool:
        buttons = self.buttons()
        if not self.display or not buttons:
            return False
        self._focus(0)
        return True

    def _focus(self, n: int) -> None:
        """Focus chip `n` now, not on a later frame (Widget.focus): keys typed right after Tab or an
        arrow then reach the chips, not the message box."""
        self.index = n
        self.screen.set_focus(self.buttons()[n])

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A chip focused by the mouse or Tab becomes the one the arrows count from; a focus event that
        arrives after the focus moved on (keys pressed quickly) changes nothing."""
        buttons = self.buttons()
        if event.widget in buttons and event.widget is self.screen.focused:
            self.index = buttons.index(event.widget)

    def action_move(self, step: int) -> None:
        buttons = self.buttons()
        if not buttons:
            return
        if self.index is None or self.index >= len(buttons):
            focused = self.screen.focused
            self.index = buttons.index(focused) if focused in buttons else -1
        self._focus((self.index + step) % len(buttons))

    def choose_current(self, pressed: Button) -> None:
        """Enter on a chip: the one the arrow keys reached."""
        buttons = self.buttons()
        chosen = buttons[self.index] if self.index is not None and self.index < len(buttons) else pressed
        self.post_message(self.Chosen(chosen.choice_value))  # type: ignore[attr-defined]

    def numbered(self, typed: str) -> str | None:
        """What the chip numbered `typed` sends ("3" with three chips or more shown), else None: a
        number typed in the message box picks the chip it names whenever chips are shown."""
        typed = typed.strip()
        buttons = self.buttons() if self.display else []
        if len(typed) != 1 or not typed.isdecimal() or not buttons:
            return None
        n = int(typed)
        return buttons[n - 1].choice_value if 1 <= n <= min(9, len(buttons)) else None  # type: ignore[attr-defined]

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character in "123456789":
            buttons = self.buttons()
            n = int(event.character) - 1
            if n < len(buttons):
                event.stop()
                self.post_message(self.Chosen(buttons[n].choice_value))  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Chosen(getattr(event.button, "choice_value", str(event.button.label))))


class PromptInput(TextArea):
    """The message box: several lines (a paste is kept whole), Enter sends, Ctrl+J (or Shift+Enter
    or Alt+Enter where the terminal tells them apart) starts a new line, Up and Down on the first
    and last line recall earlier messages."""

    NEWLINE_KEYS = ("ctrl+j", "shift+enter", "alt+enter")

    class Submitted(Message):
        def __init__(self, prompt: PromptInput, value: str) -> None:
            super().__init__()
            self.prompt = prompt
            self.value = value

        @property
        def control(self) -> PromptInput:
            return self.prompt

    def __init__(self, placeholder: str = "", **kwargs: Any):
        super().__init__(placeholder=placeholder, soft_wrap=True, tab_behavior="focus", show_line_numbers=False,
                         highlight_cursor_line=False, compact=True, **kwargs)
        self.sent: list[str] = []
        self._cursor = 0

    @property
    def value(self) -> str:
        return self.text

    @value.setter
    def value(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    def recall(self, texts: list[str]) -> None:
        """Start the ↑/↓ history from messages sent before (in earlier sessions and runs)."""
        self.sent = []
        for text in texts:
            self.remember(text)

    def remember(self, text: str) -> None:
        if text and (not self.sent or self.sent[-1] != text):
            self.sent.append(text)
        self._cursor = len(self.sent)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(self.Submitted(self, self.text))
            return
        if event.key in self.NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        await super()._on_key(event)

    def action_cursor_up(self, select: bool = False) -> None:
        if select or self.cursor_location[0] > 0 or not self.sent or self._cursor == 0:
            super().action_cursor_up(select)
            return
        self._cursor -= 1
        self.value = self.sent[self._cursor]

    def action_cursor_down(self, select: bool = False) -> None:
        if select or self.cursor_location[0] < self.document.line_count - 1 or self._cursor >= len(self.sent):
            super().action_cursor_down(select)
            return
        self._cursor += 1
        self.value = self.sent[self._cursor] if self._cursor < len(self.sent) else ""


class AssumptionItem(ListItem):
    def __init__(self, slot: str, words: str):
        super().__init__(Label(words, markup=False))
        self.slot = slot
        self.words = words


class AssumptionList(ListView):
    """The assumptions made so far; Enter on one changes it. Out of the Tab order while empty; the
    first one is highlighted when the list gains the focus, so that the focus is visible."""

    def on_focus(self, event: events.Focus) -> None:
        if self.index is None and self.children:
            self.index = 0

    def show(self, assumptions: dict[str, str], profile: dict[str, Any] | None = None) -> None:
        self.clear()
        shown = [(slot, said) for slot, said in assumptions.items() if relevant(slot, profile or {})]
        for slot, said in shown:
            self.append(AssumptionItem(slot, said))
        self.can_focus = bool(shown)
        if shown and self.has_focus:
            self.call_after_refresh(self._highlight_first)

    def _highlight_first(self) -> None:
        if self.index is None and self.children:
            self.index = 0
