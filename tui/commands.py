"""Rare actions, reachable from the command palette (Ctrl+P) so that the footer stays short."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

COMMANDS = [
    ("New conversation", "Start a fresh session", "new_session"),
    ("Sessions", "List, search, open, replay, rename, export or delete saved sessions", "sessions"),
    ("Show the math", "Every formula and input behind the last answer", "math"),
    ("Copy last answer", "Copy the last answer's Markdown to the clipboard", "copy_answer"),
    ("Replay this session", "Step through this session message by message", "replay"),
    ("Rename this session", "Give this session a new title", "rename_session"),
    ("Re-run this session", "Send this session's messages through today's engine and show what changed",
     "rerun_session"),
    ("Toggle the side panel", "Show or hide what I know and the assumptions", "toggle_panel"),
    ("Export this session (Markdown)", "Write a Markdown report to your home folder", "export_markdown"),
    ("Export this session (JSON)", "Write the session as JSON to your home folder", "export_json"),
    ("Toggle light/dark theme", "Switch between the light and the dark theme", "toggle_theme"),
    ("Help", "Every key", "help"),
]


def key_of(app: object, action: str) -> str:
    """The key that runs an action ("Ctrl+N"), as remapped in the settings file; "" for none."""
    from gpu_advisor.tui.bindings import APP_BINDINGS, CHAT_BINDINGS
    from gpu_advisor.tui.screens.help import key_names

    keymap = getattr(app, "keymap", {}) or {}
    for binding in (*APP_BINDINGS, *CHAT_BINDINGS):
        if binding.action == action:
            return key_names(keymap.get(binding.id, binding.key) if binding.id else binding.key)
    return ""


def with_key(app: object, help_text: str, action: str) -> str:
    key = key_of(app, action)
    return f"{help_text} ({key})" if key else help_text


class AdvisorCommands(Provider):
    async def discover(self) -> Hits:
        for name, help_text, action in COMMANDS:
            yield DiscoveryHit(name, partial(self.app.run_action, action), help=with_key(self.app, help_text, action))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, action in COMMANDS:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self.app.run_action, action),
                          help=with_key(self.app, help_text, action))
