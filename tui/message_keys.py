"""What can be done with one message of the transcript once it is focused (Ctrl+↑ or Alt+↑ from the message box,
then ↑/↓): copy it, ask it again, open it in $EDITOR (F4) or read it in a pager. ChatMessage takes these
actions; its key bar lists their keys (tui.bindings.MESSAGE_BINDINGS)."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from gpu_advisor.tui.words import words


def run_program(app: Any, command: list[str], path: Path) -> None:
    """Run an editor or a pager on `path` with the terminal handed over to it (the app suspended meanwhile).
    Raises OSError or subprocess.SubprocessError when it cannot run, SuspendNotSupported where the app
    cannot hand the terminal over (a browser, the tests)."""
    with app.suspend():
        subprocess.run([*command, str(path)], check=False)


def program(*variables: str, fallback: str) -> list[str]:
    """The command named by the first of `variables` set in the environment ('code -w' is two words), else `fallback`."""
    for name in variables:
        value = os.environ.get(name, "").strip()
        if value:
            return shlex.split(value)
    return [fallback]


class MessageActions:
    """The actions of a focused message (mixed into ChatMessage: `role`, `text`, `lang` and the widget's
    own `app`, `screen` and `notify` are ChatMessage's)."""

    role: str
    text: str
    lang: str
    _reachable = False  # in the focus chain only while it is the focused message: Tab passes the transcript by

    def allow_focus(self) -> bool:
        return self._reachable

    def on_blur(self) -> None:
        self._reachable = False

    def _messages(self) -> list[Any]:
        from gpu_advisor.tui.widgets import ChatMessage

        return list(self.screen.query(ChatMessage))  # type: ignore[attr-defined]

    def take_focus(self) -> None:
        """Become the focused message, its top in view."""
        self._reachable = True
        self.screen.set_focus(self)  # type: ignore[attr-defined]
        parent = self.parent  # type: ignore[attr-defined]
        if parent is not None and hasattr(parent, "scroll_to_widget"):
            parent.scroll_to_widget(self, animate=False, top=True)

    def action_move(self, step: int) -> None:
        messages = self._messages()
        if self not in messages:
            return
        n = messages.index(self) + step
        if 0 <= n < len(messages):
            messages[n].take_focus()

    def action_to_prompt(self) -> None:
        from gpu_advisor.tui.widgets import PromptInput

        for prompt in self.screen.query(PromptInput):  # type: ignore[attr-defined]
            prompt.focus()

    def on_key(self, event: Any) -> None:
        """A character typed on a message goes to the message box (the message keys are bindings: not here)."""
        from gpu_advisor.tui.bindings import MESSAGE_BINDINGS
        from gpu_advisor.tui.widgets import PromptInput

        keymap = getattr(self.app, "keymap", {}) or {}  # type: ignore[attr-defined]
        bound = {key.strip() for b in MESSAGE_BINDINGS for key in keymap.get(b.id, b.key).split(",")}
        if event.key not in bound and event.character and event.is_printable:
            event.stop()
            event.prevent_default()
            prompt = self.screen.query_one(PromptInput)  # type: ignore[attr-defined]
            prompt.focus()
            prompt.insert(event.character)

    def question(self) -> str | None:
        """The question this message is, or the one it answers (the last user message before it)."""
        messages = self._messages()
        if self not in messages:
            return None
        for message in reversed(messages[: messages.index(self) + 1]):
            if message.role == "user":
                return str(message.text)
        return None

    def action_copy_message(self) -> None:
        from gpu_advisor.tui.screens import (
            copy_locally,  # looked up when used: the one name the tests replace
        )

        self.app.copy_to_clipboard(self.text)  # type: ignore[attr-defined]  # OSC 52: the terminal may ignore it
        if copy_locally(self.text):
            self.notify(words(self.lang, "message.copied"))  # type: ignore[attr-defined]
        else:
            self.notify(words(self.lang, "message.copy_asked"), timeout=8)  # type: ignore[attr-defined]

    def action_reask(self) -> None:
        question = self.question()
        if question is None:
            self.notify(words(self.lang, "message.no_question"), severity="warning")  # type: ignore[attr-defined]
            return
        self.action_to_prompt()
        self.screen.send(question)  # type: ignore[attr-defined]

    def _open(self, command: list[str]) -> str | None:
        """The message in a file that `command` opens with the terminal; what the file holds after. None
        when it could not run (said)."""
        from textual.app import SuspendNotSupported

        with tempfile.TemporaryDirectory(prefix="gpu-advisor-") as folder:
            path = Path(folder) / "message.md"
            path.write_text(self.text, encoding="utf-8")
            try:
                run_program(self.app, command, path)  # type: ignore[attr-defined]
            except (OSError, subprocess.SubprocessError, SuspendNotSupported) as e:
                self.notify(words(self.lang, "message.no_program", program=shlex.join(command),  # type: ignore[attr-defined]
                                  error=str(e) or type(e).__name__), severity="error", markup=False)
                return None
            return path.read_text(encoding="utf-8")

    def action_edit_message(self) -> None:
        """F4: the message in $EDITOR; a question edited there comes back to the message box, to send."""
        from gpu_advisor.tui.widgets import PromptInput

        edited = self._open(program("VISUAL", "EDITOR", fallback="vi"))
        if edited is None or self.role != "user":
            return
        prompt = self.screen.query_one(PromptInput)  # type: ignore[attr-defined]
        prompt.value = edited.strip()
        prompt.focus()
        self.notify(words(self.lang, "message.edited"))  # type: ignore[attr-defined]

    def action_page_message(self) -> None:
        """The message in $PAGER (else less); where the terminal cannot be handed over, in a dialog."""
        from textual.app import SuspendNotSupported

        from gpu_advisor.tui.screens.text import TextScreen

        with tempfile.TemporaryDirectory(prefix="gpu-advisor-") as folder:
            path = Path(folder) / "message.md"
            path.write_text(self.text, encoding="utf-8")
            command = program("PAGER", fallback="less")
            try:
                run_program(self.app, command, path)  # type: ignore[attr-defined]
                return
            except SuspendNotSupported:
                pass
            except (OSError, subprocess.SubprocessError) as e:
                self.notify(words(self.lang, "message.no_program", program=shlex.join(command),  # type: ignore[attr-defined]
                                  error=str(e) or type(e).__name__), severity="warning", markup=False)
        self.app.push_screen(TextScreen(words(self.lang, f"message.{self.role}"), self.text))  # type: ignore[attr-defined]
