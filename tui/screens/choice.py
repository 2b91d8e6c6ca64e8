"""A dialog of a few choices (changing an assumption)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from gpu_advisor.tui.widgets import QuickReplies
from gpu_advisor.tui.words import words


class ChoiceScreen(ModalScreen[str | None]):
    """A few choices as buttons (arrows or 1-9), "type my own" (an empty string), Esc to keep."""

    BINDINGS = [("escape", "cancel", "Keep")]

    def __init__(self, question: str, choices: list[tuple[str, str]], lang: str = "en"):
        super().__init__()
        self.question, self.choices, self.lang = question, choices, lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = words(self.lang, "change.title")
            dialog.border_subtitle = words(self.lang, "change.close")
            yield Label(self.question, markup=False, classes="dialog-question")
            replies = QuickReplies(id="change-choices")
            yield replies
            yield Label(words(self.lang, "change.hint"), classes="dialog-hint")

    def on_mount(self) -> None:
        replies = self.query_one(QuickReplies)
        replies.show([{"label": label, "value": phrase} for label, phrase in self.choices]
                     + [{"label": words(self.lang, "change.own"), "value": ""}])
        self.call_after_refresh(replies.focus_first)

    @on(QuickReplies.Chosen)
    def _chosen(self, event: QuickReplies.Chosen) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
