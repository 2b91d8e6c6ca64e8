"""The replay screen: a saved session message by message, with the tool calls of each."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Label, Static

from gpu_advisor.assistant.history import HistoryError, HistoryStore
from gpu_advisor.tui.bindings import REPLAY_BINDINGS
from gpu_advisor.tui.calls import calls_text
from gpu_advisor.tui.format import plain
from gpu_advisor.tui.screens.layout import NARROW
from gpu_advisor.tui.widgets import ChatMessage, LocalFooter, message_langs
from gpu_advisor.tui.words import words


class ReplayScreen(Screen):
    """A saved session, message by message, as it was: step with the arrows or play at a speed."""

    BINDINGS: ClassVar[list[BindingType]] = [*REPLAY_BINDINGS]

    def __init__(self, store: HistoryStore, session_id: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.store = store
        self.session_id = store.resolve_id(session_id)
        self.messages = store.messages(self.session_id)
        calls = store.tool_calls(self.session_id)
        self.calls: dict[str, list[dict[str, Any]]] = {}
        for c in calls:
            self.calls.setdefault(c["message_id"], []).append(c)
        self.langs = message_langs(self.messages)
        # the screen's own words: in the session's language (its last message's)
        self.lang = self.langs[-1] if self.langs else "en"
        self.position = 0
        self.interval = 1.0
        self._timer: Timer | None = None
        self._moving = asyncio.Lock()  # a key and the play timer never move the transcript at once

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            transcript = VerticalScroll(id="replay-transcript")
            transcript.can_focus = False
            yield transcript
            with Vertical(id="side"):
                yield Label(words(self.lang, "replay.calls"), classes="panel-title")
                calls = VerticalScroll(id="calls-scroll")
                calls.can_focus = False  # the replay's keys stay the screen's
                with calls:
                    yield Static(id="calls")
        yield Static(id="replay-status")
        footer = LocalFooter()
        footer.set_reactive(LocalFooter.lang, self.lang)
        yield footer

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < NARROW, "narrow")

    async def on_mount(self) -> None:
        self.set_class(self.app.size.width < NARROW, "narrow")
        try:
            title = plain(self.store.session(self.session_id)["title"])
        except HistoryError:  # deleted meanwhile: the messages read at the start are still replayed
            title = self.session_id
        self.sub_title = words(self.lang, "replay.title", title=title)
        await self._go(1)

    async def _go(self, position: int) -> None:
        """Show the first `position` messages (at least the first, when there is one): only the
        messages added or taken away change, and the status line is written once they are shown,
        so it always names what is on the screen."""
        async with self._moving:
            await self._move(position)

    async def _move(self, position: int) -> None:
        self.position = max(min(1, len(self.messages)), min(len(self.messages), position))
        transcript = self.query_one("#replay-transcript")
        shown = list(transcript.query_children(ChatMessage))
        if len(shown) > self.position:
            await transcript.remove_children(shown[self.position:])
        elif len(shown) < self.position:
            langs = self.langs
            await transcript.mount_all([ChatMessage(m["role"], m["text"], m["payload"] if m["role"] == "assistant" else None,
                                                    lang=langs[i])
                                        for i, m in enumerate(self.messages[len(shown): self.position], len(shown))])
        shown = list(transcript.query_children(ChatMessage))
        for message in shown:
            message.keep_top_in_view = False
        if shown:  # the message the status line names is the one in view, from its top
            shown[-1].keep_top_in_view = True
            shown[-1].bring_top_into_view()
            self.call_after_refresh(shown[-1].bring_top_into_view)
        if self.position == len(self.messages) and self._timer:
            self._stop()
        self._show_status()

    def _show_status(self) -> None:
        shown = self.messages[self.position - 1] if self.position else None
        calls = self.calls.get(shown["id"], []) if shown else []
        self.query_one("#calls", Static).update(calls_text(calls, self.lang))  # stored text, never markup
        state = words(self.lang, "replay.playing" if self._timer else "replay.paused")
        self.query_one("#replay-status", Static).update(Text(words(
            self.lang, "replay.status", n=self.position, total=len(self.messages), state=state,
            seconds=f"{self.interval:g}")))

    def action_scroll(self, where: str) -> None:
        """Scroll what is shown (the message in view stops holding its top there)."""
        for message in self.query(ChatMessage):
            message.keep_top_in_view = False
        transcript = self.query_one("#replay-transcript", VerticalScroll)
        {"down": transcript.scroll_down, "up": transcript.scroll_up, "page_down": transcript.scroll_page_down,
         "page_up": transcript.scroll_page_up, "end": transcript.scroll_end,
         "home": transcript.scroll_home}[where](animate=False)

    async def action_step(self, delta: int) -> None:
        await self._go(self.position + delta)

    async def action_jump(self, where: int) -> None:
        await self._go(1 if where == 0 else len(self.messages))

    async def action_toggle_play(self) -> None:
        if self._timer:
            self._stop()
            self._show_status()
            return
        self._timer = self.set_interval(self.interval, self._tick)
        if self.position >= len(self.messages):
            await self._go(1)  # from the start again
        else:
            self._show_status()

    async def _tick(self) -> None:
        await self._go(self.position + 1)

    def action_speed(self, factor: float) -> None:
        self.interval = min(8.0, max(0.125, self.interval * factor))
        if self._timer:
            self._stop()
            self._timer = self.set_interval(self.interval, self._tick)
        self._show_status()

    def _stop(self) -> None:
        if self._timer:
            self._timer.stop()
        self._timer = None

    def action_back(self) -> None:
        if self.query("HelpPanel"):  # the palette's Keys panel: Esc closes it first
            self.app.action_hide_help_panel()
            return
        self._stop()
        self.app.pop_screen()

