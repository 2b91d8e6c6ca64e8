"""The help dialog (F1): every key, as remapped in the settings file."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from gpu_advisor.tui.bindings import APP_BINDINGS, CHAT_BINDINGS, REPLAY_BINDINGS, SESSIONS_BINDINGS


def key_names(keys: str) -> str:
    """'ctrl+q,f1' -> 'Ctrl+Q / F1'."""
    def one(key: str) -> str:
        parts = key.split("+")
        names = {"pageup": "PgUp", "pagedown": "PgDn", "equals_sign": "=", "plus": "+", "minus": "-",
                 "escape": "Esc", "delete": "Del", "space": "Space"}
        return "+".join(names.get(p, p.upper() if len(p) == 1 else p.capitalize()) for p in parts)

    return " / ".join(one(k) for k in keys.split(","))


CHAT_KEYS = [("Enter", "Send the message"), ("Ctrl+J", "New line in the message (or Shift+Enter)"),
             ("↑ / ↓", "Earlier messages (on the first or last line)"),
             ("Tab", "Quick replies, then the input, then the assumptions"),
             ("← → / 1-9", "Move between quick replies / press one")]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [("escape,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        keymap = getattr(self.app, "keymap", {}) or {}
        text = Text()
        text.append("Keys", style="bold underline")
        text.append("  (Esc closes; remap them in the settings file: gpu-advisor config path)\n", style="dim")
        for title, bindings, extra in (("Everywhere", APP_BINDINGS, []), ("Chat", CHAT_BINDINGS, CHAT_KEYS),
                                       ("Sessions", SESSIONS_BINDINGS, [("type", "Search")]),
                                       ("Replay", REPLAY_BINDINGS, [])):
            text.append(f"\n{title}\n", style="bold")
            rows = extra + [(key_names(keymap.get(b.id, b.key) if b.id else b.key), b.tooltip or b.description)
                            for b in bindings if b.action != "next_field"]
            for keys, what in rows:
                text.append(f"  {keys:<16}", style="bold")
                text.append(f"{what}\n")
        text.append("\nCtrl+P opens the command palette: rename, re-run, export, theme and more.", style="dim")
        with VerticalScroll(id="help") as dialog:
            dialog.border_title = "Keys"
            dialog.border_subtitle = "Esc closes"
            yield Static(text)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
