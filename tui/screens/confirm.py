"""A yes-or-no dialog (deleting a session)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from gpu_advisor.tui.words import words


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [("escape,n", "no", "No"), ("y", "yes", "Yes")]

    def __init__(self, question: str, title: str = "", lang: str = "en"):
        super().__init__()
        self.question, self.title_text, self.lang = question, title or words(lang, "sessions.delete_title"), lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = words(self.lang, "dialog.confirm_close")
            yield Label(self.question, markup=False, classes="dialog-question")
            with Horizontal(classes="dialog-buttons"):
                yield Button(words(self.lang, "dialog.delete"), variant="error", id="yes")
                yield Button(words(self.lang, "dialog.keep"), variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
