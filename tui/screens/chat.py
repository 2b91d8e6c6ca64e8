"""The chat screen: the transcript, quick replies, the input, and the side panel of what the advisor
knows and assumed."""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.markup import escape
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Label, ListView, Static
from textual.worker import Worker

from gpu_advisor.assistant.catalog import detect, say
from gpu_advisor.assistant.history import HistoryError
from gpu_advisor.assistant.session import Conversation, MessageTooLong
from gpu_advisor.assistant.slots import ASKED, question
from gpu_advisor.tui.bindings import CHAT_BINDINGS
from gpu_advisor.tui.format import plain
from gpu_advisor.tui.messages import TurnDone, TurnFailed
from gpu_advisor.tui.panel import ProfilePanel
from gpu_advisor.tui.screens.choice import ChoiceScreen
from gpu_advisor.tui.screens.help import first_key
from gpu_advisor.tui.screens.layout import NARROW, WIDE
from gpu_advisor.tui.screens.replay import ReplayScreen
from gpu_advisor.tui.widgets import (
    AssumptionItem,
    AssumptionList,
    ChatMessage,
    LocalFooter,
    PromptInput,
    QuickReplies,
    message_langs,
)
from gpu_advisor.tui.words import words

WELCOME = words("en", "chat.welcome", math=first_key({}, "chat.math"))


RECALLED = 200  # earlier messages ↑ reaches, across sessions

# What Ctrl+E sends, by the conversation's language (the reader understands both).
MATH_REQUEST = {"en": "show the math", "zh": "展示计算过程"}


def this_machine() -> Any:
    """The machine the app runs on (tools.detect.this_machine, read once per process), loaded when a question
    first needs it: the sizing tools and their records stay out of the first screen."""
    from gpu_advisor.tools.detect import this_machine as detected

    return detected()


class ChatScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [*CHAT_BINDINGS]

    def __init__(self, conversation: Conversation, recalled: list[str] | None = None, **kwargs: Any):
        """`recalled`: what ↑ reaches when the history cannot be read (the chat this one replaces had it)."""
        super().__init__(**kwargs)
        self.conversation = conversation
        self._recalled = list(recalled or [])
        if conversation.machine is None:  # "what can I run on this machine?": the app runs on it
            conversation.machine = this_machine
        self._turn_count = 0
        self._active_turn: int | None = None
        self._pending_text = ""
        self._turn_worker: Worker | None = None
        self._gone_said = False
        self._left = False  # the app went on to another conversation (see leave)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="chat-column"):
                transcript = VerticalScroll(id="transcript")
                transcript.can_focus = False
                with transcript:
                    if not self.conversation.messages:
                        yield Static(self._welcome(), id="welcome")
                yield QuickReplies(id="choices")
                yield PromptInput(placeholder=self._placeholder(), id="prompt")
            yield Vertical(id="side")  # filled right after the first frame
        footer = LocalFooter()
        footer.set_reactive(LocalFooter.lang, self.lang)
        yield footer

    @property
    def lang(self) -> str:
        """The conversation's language: the app's own words (labels, key bar, notices) follow it. Before it
        has one, the `language` setting's (auto: English)."""
        said = self.conversation.state.get("lang")
        if said:
            return str(said)
        chosen = getattr(getattr(self.app, "settings", None), "language", "auto")
        return chosen if chosen in ("en", "zh") else "en"

    def _follow_language(self) -> None:
        """After a turn: the placeholder and the key bar in the language the conversation now has."""
        self.query_one(PromptInput).placeholder = self._placeholder()
        self.query_one(LocalFooter).lang = self.lang

    def _keymap(self) -> dict[str, str]:
        return getattr(self.app, "keymap", {}) or {}

    def _welcome(self) -> str:
        """The welcome text, naming the show-the-math key as remapped in the settings file."""
        return words(self.lang, "chat.welcome", math=escape(first_key(self._keymap(), "chat.math")))

    def _placeholder(self) -> str:
        """The message box's hint, naming the scroll keys as remapped in the settings file."""
        keymap = self._keymap()
        return say(self.lang, "chat.placeholder", up=first_key(keymap, "chat.page_up"),
                   down=first_key(keymap, "chat.page_down"))

    def _fit(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")
        self.set_class(width >= WIDE, "wide")

    def on_resize(self, event) -> None:
        self._fit(event.size.width)

    def on_mount(self) -> None:
        self._fit(self.app.size.width)
        self.sub_title = self._title()
        transcript = self.query_one("#transcript")
        stored: list[dict[str, Any]] = [{"role": "user" if m.type == "human" else "assistant", "text": str(m.content),
                                         "payload": m.additional_kwargs} for m in self.conversation.messages]
        for m, lang in zip(stored, message_langs(stored), strict=True):
            transcript.mount(ChatMessage(m["role"], m["text"], m["payload"] if m["role"] == "assistant" else None,
                                         lang=lang))
        # the side panel and the quick replies come right after the first frame
        self.call_after_refresh(self._after_first_frame)
        transcript.scroll_end(animate=False)
        self.query_one(PromptInput).recall(self._recalled)
        self.recall_sent()
        self.query_one("#prompt").focus()

    def recall_sent(self) -> None:
        """↑/↓ in the message box reach what was sent before, in this and earlier sessions and runs."""
        store = self.conversation.store
        if store is None:
            return
        # no recall beats no app: the history's own notice says what is wrong with it
        with contextlib.suppress(HistoryError):
            self.query_one(PromptInput).recall(store.recent_user_texts(RECALLED))

    def _after_first_frame(self) -> None:
        side = self.query_one("#side")
        if not side.is_mounted or not self.is_attached:
            return  # the app is closing
        side.mount(
            Label(say(self.lang, "panel.known"), classes="panel-title", id="known-title"),
            ProfilePanel(id="profile"),
            Label(say(self.lang, "panel.assumptions"), classes="panel-title", id="assumptions-title"),
            AssumptionList(id="assumptions"))
        self.call_after_refresh(self._refresh_panel)
        self._first_choices()

    def _first_choices(self) -> None:
        last = self.conversation.messages[-1] if self.conversation.messages else None
        if last is not None and last.type == "ai":
            self._show_choices(last.additional_kwargs)
        elif not self.conversation.messages:
            self.query_one(QuickReplies).show([{"label": label, "value": value}
                                               for label, value in question("phase", self.lang).choices])

    def _title(self) -> str:
        store, sid = self.conversation.store, self.conversation.session_id
        if store is None:
            return "not saved"
        if sid is None:
            return "new conversation"
        try:
            return plain(store.session(sid)["title"])
        except HistoryError:
            return "new conversation"

    # -- sending

    @on(PromptInput.Submitted)
    def _submitted(self, event: PromptInput.Submitted) -> None:
        text = event.value.strip()
        picked = self.query_one(QuickReplies).numbered(text)  # "3": the chip numbered 3, as its number says
        if picked is not None:
            self.send(picked)
        elif text:
            self.send(text)

    @on(QuickReplies.Chosen)
    def _chosen(self, event: QuickReplies.Chosen) -> None:
        self.send(event.value)

    def send(self, text: str) -> None:
        if self._active_turn is not None:
            self.notify(say(self.lang, "chat.busy"), severity="warning")
            return
        prompt = self.query_one(PromptInput)
        try:
            self.conversation.record_user(text)  # committed before it is shown
        except MessageTooLong as e:
            self.notify(say(self.lang, "chat.not_saved", error=e), severity="error", markup=False)
            return
        except HistoryError as e:
            if not self._history_file_lost(text):
                self.notify(say(self.lang, "chat.not_saved", error=e), severity="error", markup=False)
                return
        prompt.remember(text)
        prompt.value = ""
        prompt.focus()
        self._pending_text = text
        for welcome in self.query("#welcome"):
            welcome.remove()
        self._stop_following()
        transcript = self.query_one("#transcript")
        self._say_if_gone()
        lang = detect(text, self.conversation.state.get("lang"))  # the reply's language, as the engine will tell it
        transcript.mount(ChatMessage("user", text, lang=lang))
        transcript.mount(Static(say(lang, "chat.working"), id="working"))
        self.query_one(QuickReplies).show([])
        self._turn_count += 1
        self._active_turn = self._turn_count
        self.sub_title = say(lang, "chat.working_title")
        transcript.scroll_end(animate=False)
        # The message and the indicator are drawn before the engine takes the CPU.
        self.call_after_refresh(self._start_turn, self._turn_count, text)

    def _history_file_lost(self, text: str) -> bool:
        """The history file was deleted (or replaced) under the app: the conversation goes on. The path is
        opened again (a new file), this conversation so far is saved in it, then `text`; said once, in the
        transcript. Without a new file it goes on unsaved. False when the file is not the cause."""
        store = self.conversation.store
        if store is None or not store.file_replaced():
            return False
        fresh = getattr(self.app, "reopen_history", lambda: None)()
        self.conversation.store, self.conversation.session_id = fresh, None
        key = "chat.history_recreated"
        if fresh is not None:
            try:
                self._copy_into(fresh)
                self.conversation.record_user(text)
            except HistoryError:
                self.conversation.store, self.conversation.session_id = None, None
                key = "chat.history_lost"
        else:
            key = "chat.history_lost"
        if self.conversation.store is None:
            self.conversation.record_user(text)  # unsaved: only checks and marks it as awaiting its reply
        self.query_one("#transcript").mount(Static(say(self.lang, key, path=str(store.path)), classes="notice",
                                                   markup=False))
        self.sub_title = self._title()
        return True

    def _copy_into(self, store: Any) -> None:
        """This conversation's messages so far, as a new session in `store`."""
        from gpu_advisor.assistant.session import title_for

        said = [m for m in self.conversation.messages if m.type in ("human", "ai")]
        if not said:
            return
        first = next((str(m.content) for m in said if m.type == "human"), "")
        sid = store.create_session(title_for(first) or "New conversation")
        for m in said:
            if m.type == "human":
                store.add_message(sid, "user", str(m.content))
            else:
                store.save_reply(sid, str(m.content), m.additional_kwargs, self.conversation.state, [])
        self.conversation.session_id = sid

    def _start_turn(self, turn_id: int, text: str) -> None:
        if self._active_turn == turn_id:
            self._turn_worker = self.run_turn(turn_id, text)

    def _say_if_gone(self) -> None:
        """Once, in the conversation's language: the session was deleted elsewhere and is no longer saved."""
        if self.conversation.gone is None or self._gone_said:
            return
        self._gone_said = True
        self.query_one("#transcript").mount(Static(say(self.lang, "chat.session_gone"), classes="notice", markup=False))
        self.sub_title = self._title()

    def _working_done(self) -> None:
        for indicator in self.query("#working"):
            indicator.remove()

    def _show_reply(self, reply: Any) -> None:
        """Mount a reply and bring its top into view (a long answer is read from its start)."""
        transcript = self.query_one("#transcript")
        self._stop_following()
        message = ChatMessage("assistant", str(reply.content), reply.additional_kwargs, lang=self.lang)
        message.keep_top_in_view = True
        transcript.mount(message)
        self._show_choices(reply.additional_kwargs)
        self.call_after_refresh(message.bring_top_into_view)

    def _stop_following(self) -> None:
        for message in self.query(ChatMessage):
            message.keep_top_in_view = False

    def leave(self) -> None:
        """The app goes on to another conversation: this one's session is no longer held by this process
        (another may continue or delete it), as soon as no turn of it is still being saved."""
        self._left = True
        if self._active_turn is None:
            self._release()

    def _release(self) -> None:
        store, sid = self.conversation.store, self.conversation.session_id
        if store is None or sid is None:
            return
        if any(isinstance(screen, ChatScreen) and screen is not self and screen.conversation.session_id == sid
               for screen in self.app.screen_stack):
            return  # opened again meanwhile: still held
        store.release(sid)

    @work(thread=True, exclusive=True, group="turn", exit_on_error=False)
    def run_turn(self, turn_id: int, text: str) -> None:
        try:
            reply = self.conversation.respond(text, keep=lambda: self._active_turn == turn_id)
        except Exception as e:  # noqa: BLE001 - becomes a notification, never a crash
            self.post_message(TurnFailed(turn_id, f"{type(e).__name__}: {e}"))
            return
        finally:
            if self._left:  # left while this turn ran: its reply is saved, now the session is free
                self._release()
        self.post_message(TurnDone(turn_id, reply))

    def on_turn_done(self, message: TurnDone) -> None:
        if message.turn_id != self._active_turn:
            return  # a cancelled turn
        self._active_turn = None
        self._working_done()
        self._say_if_gone()
        self._show_reply(message.reply)
        self._follow_language()
        self._refresh_panel()
        self.sub_title = self._title()

    def on_turn_failed(self, message: TurnFailed) -> None:
        if message.turn_id != self._active_turn:
            return
        self._active_turn = None
        self._working_done()
        self.sub_title = self._title()
        self.query_one(PromptInput).value = self._pending_text
        self.notify(say(self.lang, "chat.turn_failed", error=message.error), severity="error", markup=False)

    def action_cancel_turn(self) -> None:
        if self.query("HelpPanel"):  # the palette's Keys panel: Esc closes it, as it closes every dialog
            self.app.action_hide_help_panel()
            return
        if self._active_turn is None:
            return
        try:
            withdrawn = self.conversation.withdraw()  # the message was never answered: not kept as sent
        except HistoryError as e:
            self.notify(say(self.lang, "chat.not_withdrawn", error=e), severity="error", markup=False)
            return
        if not withdrawn:
            return  # the reply is already saved; it is on its way to the screen
        self._active_turn = None
        if self._turn_worker is not None:
            self._turn_worker.cancel()
        self._working_done()
        self.sub_title = self._title()
        messages = list(self.query(ChatMessage))
        if messages and messages[-1].role == "user":
            messages[-1].remove()
        self.query_one(PromptInput).value = self._pending_text
        self.notify(say(self.lang, "chat.cancelled"))

    def action_scroll_transcript(self, where: str) -> None:
        self._stop_following()
        transcript = self.query_one("#transcript")
        {"page_up": transcript.scroll_page_up, "page_down": transcript.scroll_page_down,
         "home": transcript.scroll_home, "end": transcript.scroll_end}[where](animate=False)

    # Keys about the last answer and the panel, hidden (and off) while a message is focused: its own keys
    # take their place in the key bar, which then still fits 80 columns
    BESIDE_A_MESSAGE = ("math", "copy_answer", "toggle_panel")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in self.BESIDE_A_MESSAGE and isinstance(self.focused, ChatMessage))

    def on_descendant_focus(self, event: Any) -> None:
        if isinstance(event.widget, ChatMessage) or isinstance(getattr(event, "widget", None), PromptInput):
            self.refresh_bindings()

    def action_focus_messages(self) -> None:
        """Ctrl+↑ (or Alt+↑): to the last message of the transcript; ↑/↓ then move between the messages."""
        messages = list(self.query(ChatMessage))
        if not messages:
            self.notify(words(self.lang, "message.none"))
            return
        self._stop_following()
        messages[-1].take_focus()

    def action_toggle_panel(self) -> None:
        self.toggle_class("show-panel" if self.has_class("narrow") else "hide-panel")

    def action_next_field(self) -> None:
        """Tab from the input goes to the quick replies first (when there are any)."""
        if isinstance(self.focused, PromptInput) and self.query_one(QuickReplies).focus_first():
            return
        self.focus_next()

    def _show_choices(self, payload: dict[str, Any]) -> None:
        data = payload.get("gpu_advisor") if isinstance(payload, dict) else None
        choices = data.get("choices") if isinstance(data, dict) else None
        self.query_one(QuickReplies).show([c for c in choices if isinstance(c, dict) and isinstance(c.get("label"), str)
                                           and isinstance(c.get("value"), str)] if isinstance(choices, list) else [])

    def _refresh_panel(self) -> None:
        if not self.query("#profile"):
            return
        state = self.conversation.state
        lang = state.get("lang") or "en"
        self.query_one("#known-title", Label).update(say(lang, "panel.known"))
        self.query_one("#assumptions-title", Label).update(say(lang, "panel.assumptions"))
        self.query_one("#profile", ProfilePanel).show(state.get("profile") or {}, lang)
        self.query_one(AssumptionList).show(state.get("defaulted") or {}, state.get("profile") or {})

    # -- actions

    @on(ListView.Selected, "#assumptions")
    def _assumption(self, event: ListView.Selected) -> None:
        """Every listed assumption can be changed here: a question asked again, a few choices, or
        the input filled with a sentence to edit."""
        from gpu_advisor.assistant.slots import SLOTS
        from gpu_advisor.tui.changes import choices as changes
        from gpu_advisor.tui.changes import template as change_template

        item = event.item
        if not isinstance(item, AssumptionItem):
            return
        if item.slot in ASKED:
            reply = self.conversation.ask_again(item.slot)
            self._say_if_gone()
            self._show_reply(reply)
            self.query_one(PromptInput).focus()
            return
        lang = self.lang  # the dialog, its sentences and the box's sentence in the conversation's language
        choices = changes(lang).get(item.slot)
        template = change_template(lang, item.slot, SLOTS[item.slot].label(lang) if item.slot in SLOTS else "")

        def chosen(phrase: str | None) -> None:
            if phrase is None:
                return
            if phrase:
                self.send(phrase)
                return
            prompt = self.query_one(PromptInput)
            prompt.value = template
            prompt.focus()
            self.notify(words(lang, "change.edit"))

        if choices:
            self.app.push_screen(ChoiceScreen(words(lang, "change.question", words=item.words), choices, lang), chosen)
        else:
            chosen("")

    def action_math(self) -> None:
        if not self.conversation.state.get("results"):
            self.notify(words(self.lang, "chat.no_answer_to_explain"))
            return
        # asked in the conversation's language, so a Chinese conversation stays Chinese
        self.send(MATH_REQUEST.get(self.conversation.state.get("lang") or "en", MATH_REQUEST["en"]))

    def action_copy_answer(self) -> None:
        for m in reversed(self.conversation.messages):
            if m.type == "ai" and m.additional_kwargs.get("gpu_advisor", {}).get("kind") in ("answer", "info"):
                # looked up on the package when used: the one name to replace (the tests do)
                from gpu_advisor.tui.screens import copy_locally

                text = str(m.content)
                self.app.copy_to_clipboard(text)  # OSC 52: the terminal may or may not honour it
                if copy_locally(text):
                    self.notify(words(self.lang, "chat.answer_copied"))
                else:
                    self.notify(words(self.lang, "chat.answer_copy_asked"), timeout=8)
                return
        self.notify(words(self.lang, "chat.no_answer_to_copy"))

    def action_replay(self) -> None:
        if self.conversation.store and self.conversation.session_id:
            try:
                self.app.push_screen(ReplayScreen(self.conversation.store, self.conversation.session_id))
            except HistoryError as e:
                self.notify(str(e), severity="error", markup=False)
