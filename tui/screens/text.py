"""A dialog of Markdown text (the result of a re-run)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen


class TextScreen(ModalScreen[None]):
    BINDINGS = [("escape,q", "dismiss", "Close")]

    def __init__(self, title: str, markdown: str):
        super().__init__()
        self.title_text, self.markdown = title, markdown

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown

        with VerticalScroll(id="text-dialog") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = "Esc closes"
            yield Markdown(f"## {self.title_text}\n\n{self.markdown}")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
