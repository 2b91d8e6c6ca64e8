"""The help dialog (F1): every key, as remapped in the settings file."""

from __future__ import annotations

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
    """'ctrl+q,f1' -> 'Ctrl+Q / F1'."""
    def one(key: str) -> str:
        parts = key.split("+")
        names = {"pageup": "PgUp", "pagedown": "PgDn", "equals_sign": "=", "plus": "+", "minus": "-",
                 "escape": "Esc", "delete": "Del", "space": "Space"}
        return "+".join(names.get(p, p.upper() if len(p) == 1 else p.capitalize()) for p in parts)

    return " / ".join(one(k) for k in keys.split(","))


# Keys that are no binding of their own (the message box's, the list's), by section: their words in the catalog
EXTRA = {"chat": ("send", "newline", "recall", "tab", "chips"), "message": (), "sessions": ("search",),
         "app": (), "replay": ()}


def help_text(keymap: dict[str, str], lang: str = "en") -> Text:
    """Every key, as remapped, with what it does, in `lang`: the key column padded by cells on screen."""
    text = Text()
    text.append(words(lang, "help.title"), style="bold underline")
    text.append(words(lang, "help.intro") + "\n", style="dim")
    for section, bindings in (("app", APP_BINDINGS), ("chat", CHAT_BINDINGS), ("message", MESSAGE_BINDINGS),
                              ("sessions", SESSIONS_BINDINGS), ("replay", REPLAY_BINDINGS)):
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

    def compose(self) -> ComposeResult:
        lang = app_lang(self.app)
        with VerticalScroll(id="help") as dialog:
            dialog.border_title = words(lang, "help.title")
            dialog.border_subtitle = words(lang, "help.closes")
            yield Static(help_text(getattr(self.app, "keymap", {}) or {}, lang))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
