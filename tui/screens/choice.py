"""A dialog of a few choices (changing an assumption)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from gpu_advisor.tui.widgets import QuickReplies


class ChoiceScreen(ModalScreen[str | None]):
    """A few choices as buttons (arrows or 1-9), "type my own" (an empty string), Esc to keep."""

    BINDINGS = [("escape", "cancel", "Keep")]

    def __init__(self, question: str, choices: list[tuple[str, str]]):
        super().__init__()
        self.question, self.choices = question, choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = "Change an assumption"
            dialog.border_subtitle = "Esc keeps it"
            yield Label(self.question, markup=False, classes="dialog-question")
            replies = QuickReplies(id="change-choices")
            yield replies
            yield Label("Enter picks · Esc keeps it as it is", classes="dialog-hint")

    def on_mount(self) -> None:
        replies = self.query_one(QuickReplies)
        replies.show([{"label": label, "value": phrase} for label, phrase in self.choices]
                     + [{"label": "Type my own…", "value": ""}])
        self.call_after_refresh(replies.focus_first)

    @on(QuickReplies.Chosen)
    def _chosen(self, event: QuickReplies.Chosen) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
