"""A dialog asking for one line of text (a new title, a file to export to)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from gpu_advisor.tui.words import words


class PromptScreen(ModalScreen[str | None]):
    BINDINGS = [("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = "", title: str = "", lang: str = "en"):
        super().__init__()
        self.question, self.value, self.title_text, self.lang = question, value, title or question, lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = words(self.lang, "dialog.prompt_close")
            yield Label(self.question, markup=False, classes="dialog-question")
            yield Input(self.value, id="answer")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
