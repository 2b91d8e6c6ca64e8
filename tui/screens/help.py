"""The help dialog (F1): every key, as remapped in the settings file."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from gpu_advisor.tui.bindings import (
    APP_BINDINGS,
    CHAT_BINDINGS,
    MESSAGE_BINDINGS,
    REPLAY_BINDINGS,
    SESSIONS_BINDINGS,
)
from gpu_advisor.tui.words import app_lang, catalog, words


def key_names(keys: str) -> str:
    """'ctrl+q,f1' -> 'Ctrl+Q / F1'; 'ctrl+up,alt+up' -> 'Ctrl+↑ / Alt+↑'."""
    def one(key: str) -> str:
        parts = key.split("+")
        names = {"pageup": "PgUp", "pagedown": "PgDn", "equals_sign": "=", "plus": "+", "minus": "-",
                 "escape": "Esc", "delete": "Del", "space": "Space",
                 # arrows as the chat's own rows write them ("↑ / ↓"): "Ctrl+↑ / Alt+↑" fits the key column
                 "up": "↑", "down": "↓", "left": "←", "right": "→"}
        return "+".join(names.get(p, p.upper() if len(p) == 1 else p.capitalize()) for p in parts)

    return " / ".join(one(k) for k in keys.split(","))


def first_key(keymap: dict[str, str], binding_id: str) -> str:
    """The first key of a binding as remapped in the settings file ('PgUp'), for the words that name it in a
    sentence (the welcome text, the message box's hint)."""
    from gpu_advisor.tui.bindings import ALL_BINDINGS

    default = next(b.key for b in ALL_BINDINGS if b.id == binding_id)
    return key_names(keymap.get(binding_id, default).split(",")[0])


# Keys that are no binding of their own (the message box's, the list's), by section: their words in the catalog
EXTRA = {"chat": ("send", "newline", "recall", "tab", "chips"), "message": (), "sessions": ("search",),
         "app": (), "replay": ()}


SECTIONS = ("app", "chat", "message", "sessions", "replay")
# Each area the focus can be in, with the section that lists its keys
AREAS = {"chat": "chat", "chips": "chat", "assumptions": "chat", "message": "message", "sessions": "sessions",
         "replay": "replay"}


def focused_area(app: Any) -> str:
    """Where the focus is when F1 is pressed: the screen under the dialog and, on the chat screen, the widget
    that has the focus (a message of the transcript, the quick replies, the assumptions, else the message box)."""
    from gpu_advisor.tui.screens.replay import ReplayScreen
    from gpu_advisor.tui.screens.sessions import SessionsScreen
    from gpu_advisor.tui.widgets import AssumptionList, ChatMessage, QuickReplies

    screen = app.screen
    if isinstance(screen, ReplayScreen):
        return "replay"
    if isinstance(screen, SessionsScreen):
        return "sessions"
    focused = getattr(screen, "focused", None)
    for widget in (focused.ancestors_with_self if focused is not None else []):
        for kind, area in ((ChatMessage, "message"), (QuickReplies, "chips"), (AssumptionList, "assumptions")):
            if isinstance(widget, kind):
                return area
    return "chat"


def help_text(keymap: dict[str, str], lang: str = "en", area: str = "chat") -> Text:
    """Every key, as remapped, with what it does, in `lang`: the key column padded by cells on screen. The area
    that has the focus is said first, and its section's keys come first."""
    text = Text()
    text.append(words(lang, "help.title"), style="bold underline")
    text.append(words(lang, "help.intro") + "\n", style="dim")
    text.append("\n" + words(lang, "help.here", what=words(lang, f"help.here.{area}")) + "\n", style="bold")
    first = AREAS.get(area, "chat")
    bindings_of = {"app": APP_BINDINGS, "chat": CHAT_BINDINGS, "message": MESSAGE_BINDINGS,
                   "sessions": SESSIONS_BINDINGS, "replay": REPLAY_BINDINGS}
    for section in (first, *(name for name in SECTIONS if name != first)):
        bindings = bindings_of[section]
        text.append(f"\n{words(lang, f'help.section.{section}')}\n", style="bold")
        rows = [tuple(catalog(lang).get(f"help.extra.{name}") or catalog("en")[f"help.extra.{name}"])
                for name in EXTRA[section]]
        rows += [(key_names(keymap.get(b.id, b.key) if b.id else b.key),
                  catalog(lang).get(f"help.{b.id}") or b.tooltip or b.description)
                 for b in bindings if b.action != "next_field"]
        for keys, what in rows:
            text.append(f"  {keys}" + " " * max(1, 16 - cell_len(keys)), style="bold")
            text.append(f"{what}\n")
    text.append("\n" + words(lang, "help.palette"), style="dim")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [("escape,f1,q", "dismiss", "Close")]

    def __init__(self, area: str = "chat", **kwargs: Any):
        """`area`: where the focus was when F1 was pressed (focused_area)."""
        super().__init__(**kwargs)
        self.area = area

    def compose(self) -> ComposeResult:
        lang = app_lang(self.app)
        with VerticalScroll(id="help") as dialog:
            dialog.border_title = words(lang, "help.title")
            dialog.border_subtitle = words(lang, "help.closes")
            yield Static(help_text(getattr(self.app, "keymap", {}) or {}, lang, self.area))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
