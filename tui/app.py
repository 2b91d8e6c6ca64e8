"""The Textual app: a chat with the advisor, saved sessions, replay, help and the command palette."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import BindingType

from gpu_advisor.assistant.history import DatabaseTooNew, HistoryError, HistoryStore
from gpu_advisor.assistant.session import Conversation
from gpu_advisor.tui import settings
from gpu_advisor.tui.bindings import APP_BINDINGS
from gpu_advisor.tui.cjk_wrap import install as install_cjk_wrap
from gpu_advisor.tui.commands import AdvisorCommands
from gpu_advisor.tui.screens import ChatScreen, HelpScreen, SessionsScreen
from gpu_advisor.tui.screens.help import focused_area
from gpu_advisor.tui.widgets import PromptInput
from gpu_advisor.tui.words import app_lang, words


class GPUAdvisorApp(App):
    TITLE = "GPU Advisor"
    CSS_PATH = Path(__file__).with_name("advisor.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [*APP_BINDINGS]
    COMMANDS = App.COMMANDS | {AdvisorCommands}

    def __init__(self, db: str | Path | None = None, resume: str | None = None, store: HistoryStore | None = None,
                 preload: bool = True, settings_file: str | Path | None = None, first_message: str | None = None,
                 **kwargs: Any):
        super().__init__(**kwargs)
        install_cjk_wrap()  # Chinese lines break between characters, not only at spaces
        self.db, self.resume, self.store = db, resume, store
        self.first_message = (first_message or "").strip()  # `gpu-advisor chat "…"`: sent once the app is up
        self.preload = preload
        self.startup_notice: tuple[str, str] | None = None
        self.settings_file = Path(settings_file) if settings_file else None
        self.settings = settings.load(self.settings_file)
        self.keymap = dict(self.settings.keys)
        if self.settings.problem:
            self.startup_notice = (self.settings.problem, "warning")

    def _apply_settings(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        elif self.settings.theme != settings.DEFAULT_THEME:
            self.startup_notice = (f"There is no theme '{self.settings.theme}'; using {self.theme}.", "warning")
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def _remember_theme(self, theme: Any) -> None:
        if theme.name == self.settings.theme:
            return
        self.settings.theme = theme.name
        try:
            settings.save(self.settings, self.settings_file)
        except OSError as e:
            self.notify(f"Could not remember the theme ({e.strerror or e}).", severity="warning", markup=False)

    def on_mount(self) -> None:
        self._apply_settings()
        if self.resume and self.store is None:
            self._open_store()
        conversation = Conversation(self.store, settings=self.settings.defaults())
        if self.resume and self.store:
            try:
                conversation = Conversation.resume(self.store, self.resume)
            except HistoryError as e:
                self.startup_notice = (str(e), "error")
        chat = ChatScreen(conversation)
        self.push_screen(chat)
        # the first screen comes first; the history database opens right after it is drawn
        self.call_after_refresh(self._attach_store, chat)
        self._tell()
        if self.preload:
            self.run_worker(_load_engine, thread=True, group="preload", exit_on_error=False)

    def _open_store(self) -> None:
        try:
            self.store = HistoryStore(self.db)
            told = self.store.notice or self.store.reminder  # a kept damaged copy is named at every start
            if told:
                self.startup_notice = (told, "warning")
        except DatabaseTooNew as e:
            self.startup_notice = (f"{e} This session will not be saved.", "error")
        except (HistoryError, OSError) as e:
            self.startup_notice = (f"History is unavailable ({e}); this session will not be saved.", "error")

    def _attach_store(self, chat: ChatScreen) -> None:
        if self.store is None:
            self._open_store()
        if chat.conversation.store is None and chat.conversation.session_id is None:
            chat.conversation.store = self.store
            chat.sub_title = chat._title()
        self._tell()
        chat.recall_sent()
        if self.first_message:
            first, self.first_message = self.first_message, ""
            chat.send(first)

    def _tell(self) -> None:
        if self.startup_notice:
            self.notify(self.startup_notice[0], severity=self.startup_notice[1], timeout=12,  # type: ignore[arg-type]
                        markup=False)
            self.startup_notice = None

    # -- app actions

    def chat(self) -> ChatScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, ChatScreen):
                return screen
        return None

    def action_help(self) -> None:
        self.push_screen(HelpScreen(focused_area(self)))

    def action_sessions(self) -> None:
        if self.store is None:
            self.notify("History is unavailable in this run.", severity="warning")
            return
        if not isinstance(self.screen, SessionsScreen):
            self.push_screen(SessionsScreen(self.store))

    def action_new_session(self) -> None:
        self._replace_chat(Conversation(self.store, settings=self.settings.defaults()))

    def open_session(self, session_id: str) -> None:
        assert self.store is not None
        try:
            conversation = Conversation.resume(self.store, session_id)
        except HistoryError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self._replace_chat(conversation)

    def forget_session(self, session_id: str) -> bool:
        """The session was deleted here (the sessions screen): when the chat holds it, a new conversation
        takes its place under the screens above it. True when it did."""
        chat = self.chat()
        if chat is None or chat.conversation.session_id != session_id:
            return False
        chat.conversation.gone = session_id  # a turn still running says so and saves nothing
        if chat.conversation.store is not None:
            chat.conversation.store.release(session_id)  # deleted: nothing left to hold
        chat.conversation.store, chat.conversation.session_id = None, None
        listed = isinstance(self.screen, SessionsScreen)
        while self.screen is not chat:
            self.pop_screen()
        self.switch_screen(ChatScreen(Conversation(self.store, settings=self.settings.defaults()),
                                      recalled=chat.query_one(PromptInput).sent))
        if listed and self.store is not None:
            self.push_screen(SessionsScreen(self.store))  # the list stays where the user was
        return True

    def reopen_history(self) -> HistoryStore | None:
        """The history database file was deleted or replaced while the app ran: open its path again (a new,
        empty file where it was deleted), so that what follows is saved. None when that fails too."""
        old = self.store
        if old is None:
            return None
        try:
            fresh = HistoryStore(old.path)
        except (HistoryError, OSError):
            return None
        self.store = fresh
        with contextlib.suppress(Exception):
            old.close()  # its claims go; the new file's sessions are claimed as they are made
        return fresh

    def _replace_chat(self, conversation: Conversation) -> None:
        old = self.chat()
        # ↑/↓ keep reaching what was sent before: read again from the history (or carried over when unsaved)
        chat = ChatScreen(conversation, recalled=old.query_one(PromptInput).sent if old is not None else None)
        if old is not None and old.conversation.session_id != conversation.session_id:
            old.leave()  # the session left is free again for `ask --cid` or `sessions delete` elsewhere
        while len(self.screen_stack) > 2 and not isinstance(self.screen, ChatScreen):
            self.pop_screen()
        if isinstance(self.screen, ChatScreen):
            self.switch_screen(chat)
        else:
            self.push_screen(chat)

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def _forward(self, action: str) -> None:
        chat = self.chat()
        if chat is not None:
            getattr(chat, f"action_{action}")()

    def action_math(self) -> None:
        self._forward("math")

    def action_copy_answer(self) -> None:
        self._forward("copy_answer")

    def action_replay(self) -> None:
        self._forward("replay")

    def action_toggle_panel(self) -> None:
        self._forward("toggle_panel")

    def action_rename_session(self) -> None:
        chat = self.chat()
        if chat is None or self.store is None or chat.conversation.session_id is None:
            self.notify(words(app_lang(self), "sessions.nothing_to_rename"), severity="warning")
            return
        from gpu_advisor.tui.screens import PromptScreen

        sid = chat.conversation.session_id

        def done(title: str | None) -> None:
            if not title or self.store is None:
                return
            try:
                self.store.rename(sid, title)
            except HistoryError as e:
                self.notify(str(e), severity="error", markup=False)
                return
            chat.sub_title = chat._title()
            self.notify(words(app_lang(self), "sessions.renamed", title=title), markup=False)

        try:
            current = self.store.session(sid)["title"]
        except HistoryError as e:  # deleted by another process
            self.notify(str(e), severity="error", markup=False)
            return
        lang = app_lang(self)
        self.push_screen(PromptScreen(words(lang, "sessions.rename_question"), current, lang=lang), done)

    def action_rerun_session(self) -> None:
        chat = self.chat()
        if chat is None or self.store is None or chat.conversation.session_id is None:
            self.notify(words(app_lang(self), "sessions.nothing_to_rerun"), severity="warning")
            return
        from gpu_advisor.tui.screens import rerun_in_background

        rerun_in_background(self, self.store, chat.conversation.session_id)

    def action_export_markdown(self) -> None:
        self._export("md")

    def action_export_json(self) -> None:
        self._export("json")

    def _export(self, suffix: str) -> None:
        chat = self.chat()
        if chat is None or self.store is None or chat.conversation.session_id is None:
            self.notify(words(app_lang(self), "sessions.nothing_to_export"), severity="warning")
            return
        sid = chat.conversation.session_id
        target = Path.home() / f"gpu-advisor-{sid[-8:].lower()}.{suffix}"
        n = 2
        while target.exists():
            target = Path.home() / f"gpu-advisor-{sid[-8:].lower()}-{n}.{suffix}"
            n += 1
        try:
            self.store.export_to(sid, target)
        except HistoryError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self.notify(words(app_lang(self), "sessions.exported", path=target), markup=False)


def _load_engine() -> None:
    """Import the conversation engine in the background so that the first turn is quick."""
    import gpu_advisor.assistant.engine  # noqa: F401


def run_app(db: str | None = None, resume: str | None = None, first_message: str | None = None) -> None:
    GPUAdvisorApp(db=db, resume=resume, first_message=first_message).run()
