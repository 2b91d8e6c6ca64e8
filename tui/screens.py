"""The app's screens: chat, sessions, replay, help, and small modal dialogs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, Label, ListView, Static
from textual.worker import Worker

from assistant.catalog import say
from assistant.history import HistoryError, HistoryStore
from assistant.session import Conversation, MessageTooLong
from assistant.slots import ASKED, question
from tui.bindings import APP_BINDINGS, CHAT_BINDINGS, REPLAY_BINDINGS, SESSIONS_BINDINGS
from tui.messages import TurnDone, TurnFailed
from tui.widgets import AssumptionItem, AssumptionList, ChatMessage, PromptInput, QuickReplies, profile_text

if TYPE_CHECKING:
    from textual.widgets import DataTable

WELCOME = ("[b]Hi! I help you choose GPUs to fine-tune and serve language models.[/b] Tell me what you plan "
           "(\"fine-tune a 27B model and let my team chat with it\"), or pick one below. Every number comes "
           "from a sizing tool; press [b]Ctrl+E[/b] to see the math behind an answer.")
SESSION_PAGE = 200
NARROW = 110  # below this many columns the side panel folds away (F3 shows it)


def copy_locally(text: str) -> bool:
    """Copy through the desktop's own clipboard tool, when there is one and it succeeds: only then
    is "copied" known to be true (a terminal gives no answer to an OSC 52 request)."""
    tools = [["pbcopy"]] if sys.platform == "darwin" else [["clip.exe"]] if sys.platform == "win32" else []
    if os.environ.get("WAYLAND_DISPLAY"):
        tools.append(["wl-copy"])
    if os.environ.get("DISPLAY"):
        tools += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    for tool in tools:
        if shutil.which(tool[0]) is None:
            continue
        try:
            done = subprocess.run(tool, input=text.encode("utf-8"), timeout=2, capture_output=True)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return True
    return False


# ---------------------------------------------------------------- chat


class ChatScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [*CHAT_BINDINGS]

    def __init__(self, conversation: Conversation, **kwargs: Any):
        super().__init__(**kwargs)
        self.conversation = conversation
        self._turn_count = 0
        self._active_turn: int | None = None
        self._pending_text = ""
        self._turn_worker: Worker | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="chat-column"):
                transcript = VerticalScroll(id="transcript")
                transcript.can_focus = False
                with transcript:
                    if not self.conversation.messages:
                        yield Static(WELCOME, id="welcome")
                yield QuickReplies(id="choices")
                yield PromptInput(placeholder="Message: Enter sends, Ctrl+J new line, ↑ history, PgUp/PgDn scroll",
                                  id="prompt")
            yield Vertical(id="side")  # filled right after the first frame
        yield Footer()

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < NARROW, "narrow")

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < NARROW, "narrow")
        self.sub_title = self._title()
        transcript = self.query_one("#transcript")
        for m in self.conversation.messages:
            role = "user" if m.type == "human" else "assistant"
            transcript.mount(ChatMessage(role, str(m.content), m.additional_kwargs if role == "assistant" else None))
        # the side panel and the quick replies come right after the first frame
        self.call_after_refresh(self._after_first_frame)
        transcript.scroll_end(animate=False)
        self.query_one("#prompt").focus()

    def _after_first_frame(self) -> None:
        side = self.query_one("#side")
        if not side.is_mounted or not self.is_attached:
            return  # the app is closing
        side.mount(
            Label(say("en", "panel.known"), classes="panel-title", id="known-title"),
            Static(profile_text({}), id="profile"),
            Label(say("en", "panel.assumptions"), classes="panel-title", id="assumptions-title"),
            AssumptionList(id="assumptions"))
        self.call_after_refresh(self._refresh_panel)
        self._first_choices()

    def _first_choices(self) -> None:
        last = self.conversation.messages[-1] if self.conversation.messages else None
        if last is not None and last.type == "ai":
            self._show_choices(last.additional_kwargs)
        elif not self.conversation.messages:
            self.query_one(QuickReplies).show([{"label": label, "value": value}
                                               for label, value in question("phase").choices])

    def _title(self) -> str:
        store, sid = self.conversation.store, self.conversation.session_id
        if store is None:
            return "not saved"
        if sid is None:
            return "new conversation"
        try:
            return store.session(sid)["title"]
        except HistoryError:
            return "new conversation"

    # -- sending

    @on(PromptInput.Submitted)
    def _submitted(self, event: PromptInput.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.send(text)

    @on(QuickReplies.Chosen)
    def _chosen(self, event: QuickReplies.Chosen) -> None:
        self.send(event.value)

    def send(self, text: str) -> None:
        if self._active_turn is not None:
            self.notify("Still working on your last message; Esc cancels it.", severity="warning")
            return
        prompt = self.query_one(PromptInput)
        try:
            self.conversation.record_user(text)  # committed before it is shown
        except (HistoryError, MessageTooLong) as e:
            self.notify(f"Could not save the message: {e}", severity="error", markup=False)
            return
        prompt.remember(text)
        prompt.value = ""
        prompt.focus()
        self._pending_text = text
        for welcome in self.query("#welcome"):
            welcome.remove()
        self._stop_following()
        transcript = self.query_one("#transcript")
        transcript.mount(ChatMessage("user", text))
        transcript.mount(Static("Advisor is working on it… (Esc cancels)", id="working"))
        self.query_one(QuickReplies).show([])
        self._turn_count += 1
        self._active_turn = self._turn_count
        self.sub_title = "working… (Esc cancels)"
        transcript.scroll_end(animate=False)
        # The message and the indicator are drawn before the engine takes the CPU.
        self.call_after_refresh(self._start_turn, self._turn_count, text)

    def _start_turn(self, turn_id: int, text: str) -> None:
        if self._active_turn == turn_id:
            self._turn_worker = self.run_turn(turn_id, text)

    def _working_done(self) -> None:
        for indicator in self.query("#working"):
            indicator.remove()

    def _show_reply(self, reply: Any) -> None:
        """Mount a reply and bring its top into view (a long answer is read from its start)."""
        transcript = self.query_one("#transcript")
        self._stop_following()
        message = ChatMessage("assistant", str(reply.content), reply.additional_kwargs)
        message.keep_top_in_view = True
        transcript.mount(message)
        self._show_choices(reply.additional_kwargs)
        self.call_after_refresh(message.bring_top_into_view)

    def _stop_following(self) -> None:
        for message in self.query(ChatMessage):
            message.keep_top_in_view = False

    @work(thread=True, exclusive=True, group="turn", exit_on_error=False)
    def run_turn(self, turn_id: int, text: str) -> None:
        try:
            reply = self.conversation.respond(text, keep=lambda: self._active_turn == turn_id)
        except Exception as e:  # noqa: BLE001 - becomes a notification, never a crash
            self.post_message(TurnFailed(turn_id, f"{type(e).__name__}: {e}"))
            return
        self.post_message(TurnDone(turn_id, reply))

    def on_turn_done(self, message: TurnDone) -> None:
        if message.turn_id != self._active_turn:
            return  # a cancelled turn
        self._active_turn = None
        self._working_done()
        self._show_reply(message.reply)
        self._refresh_panel()
        self.sub_title = self._title()

    def on_turn_failed(self, message: TurnFailed) -> None:
        if message.turn_id != self._active_turn:
            return
        self._active_turn = None
        self._working_done()
        self.sub_title = self._title()
        self.query_one(PromptInput).value = self._pending_text
        self.notify(f"That turn failed ({message.error}). Your message is saved; try again.", severity="error",
                    markup=False)

    def action_cancel_turn(self) -> None:
        if self._active_turn is None:
            return
        try:
            withdrawn = self.conversation.withdraw()  # the message was never answered: not kept as sent
        except HistoryError as e:
            self.notify(f"Could not take the message back: {e}", severity="error", markup=False)
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
        self.notify("Cancelled. Your message is back in the box; nothing was saved.")

    def action_scroll_transcript(self, where: str) -> None:
        self._stop_following()
        transcript = self.query_one("#transcript")
        {"page_up": transcript.scroll_page_up, "page_down": transcript.scroll_page_down,
         "home": transcript.scroll_home, "end": transcript.scroll_end}[where](animate=False)

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
        self.query_one("#profile", Static).update(profile_text(state.get("profile") or {}, lang))
        self.query_one(AssumptionList).show(state.get("defaulted") or {}, state.get("profile") or {})

    # -- actions

    @on(ListView.Selected, "#assumptions")
    def _assumption(self, event: ListView.Selected) -> None:
        """Every listed assumption can be changed here: a question asked again, a few choices, or
        the input filled with a sentence to edit."""
        from tui.changes import CHANGES, TEMPLATES

        item = event.item
        if not isinstance(item, AssumptionItem):
            return
        if item.slot in ASKED:
            self._show_reply(self.conversation.ask_again(item.slot))
            self.query_one(PromptInput).focus()
            return
        choices = CHANGES.get(item.slot)
        template = TEMPLATES.get(item.slot, f"change the {item.slot.replace('_', ' ')} to ")

        def chosen(phrase: str | None) -> None:
            if phrase is None:
                return
            if phrase:
                self.send(phrase)
                return
            prompt = self.query_one(PromptInput)
            prompt.value = template
            prompt.focus()
            self.notify("Edit the sentence and press Enter.")

        if choices:
            self.app.push_screen(ChoiceScreen(f"Change: {item.words}", choices), chosen)
        else:
            chosen("")

    def action_math(self) -> None:
        if not self.conversation.state.get("results"):
            self.notify("There is no answer to explain yet.")
            return
        self.send("show the math")

    def action_copy_answer(self) -> None:
        for m in reversed(self.conversation.messages):
            if m.type == "ai" and m.additional_kwargs.get("gpu_advisor", {}).get("kind") in ("answer", "info"):
                text = str(m.content)
                self.app.copy_to_clipboard(text)  # OSC 52: the terminal may or may not honour it
                if copy_locally(text):
                    self.notify("Copied the last answer to the clipboard.")
                else:
                    self.notify("Asked the terminal to copy the last answer (OSC 52); if nothing was copied, "
                                "your terminal ignores that request: use Export (Ctrl+P) instead.", timeout=8)
                return
        self.notify("No answer to copy yet.")

    def action_replay(self) -> None:
        if self.conversation.store and self.conversation.session_id:
            self.app.push_screen(ReplayScreen(self.conversation.store, self.conversation.session_id))


# ---------------------------------------------------------------- sessions


class SessionsScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [*SESSIONS_BINDINGS]

    def __init__(self, store: HistoryStore, **kwargs: Any):
        super().__init__(**kwargs)
        self.store = store
        self.rows: list[Any] = []

    def compose(self) -> ComposeResult:
        from textual.widgets import DataTable

        yield Header()
        yield Input(placeholder="Search sessions (words in any message or title)", id="search", select_on_focus=False)
        yield DataTable(id="session-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="session-count")
        yield Footer()

    def _table(self) -> DataTable[Any]:
        from textual.widgets import DataTable

        return self.query_one("#session-table", DataTable)

    def on_mount(self) -> None:
        self.sub_title = "Sessions"
        table = self._table()
        table.add_columns("updated (UTC)", "title", "msgs", "id")
        self.show(self.store.list_sessions(SESSION_PAGE), searching=False)
        table.focus()

    def show(self, rows: list[Any], searching: bool) -> None:
        self.rows = rows
        table = self._table()
        table.clear()
        # the title gets what the date, count and id leave of the window (the id is what the CLI takes)
        title_chars = max(16, min(60, (self.app.size.width or 120) - 58))
        for r in rows:
            title = r.title if len(r.title) <= title_chars else r.title[: title_chars - 1] + "…"
            table.add_row(r.updated[:16].replace("T", " "), Text(title),  # a title is text, never markup
                          str(r.messages) if not searching else "", r.id, key=r.id)
        total = self.store.count_sessions()
        shown = f"{len(rows)} match{'es' if len(rows) != 1 else ''}" if searching else \
            f"{len(rows)} of {total} session{'s' if total != 1 else ''}, newest first"
        self.query_one("#session-count", Static).update(
            shown + " · Enter open · Ctrl+R replay · Ctrl+K re-run · F2 rename · Ctrl+O export · Del delete")

    def on_key(self, event) -> None:
        """Typing anywhere on this screen searches."""
        char = event.character
        if char and char.isprintable() and char != " " and not isinstance(self.focused, Input):
            search = self.query_one("#search", Input)
            search.focus()
            search.insert_text_at_cursor(char)
            event.stop()

    @on(Input.Changed, "#search")
    def _search(self, event: Input.Changed) -> None:
        query = event.value.strip()
        if query:
            self.show(self.store.search(query, limit=SESSION_PAGE), searching=True)
        else:
            self.show(self.store.list_sessions(SESSION_PAGE), searching=False)

    @on(Input.Submitted, "#search")
    def _to_table(self) -> None:
        self.query_one("#session-table").focus()

    def selected(self) -> str | None:
        table = self._table()
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            self.notify("No session selected.")
            return None
        return self.rows[table.cursor_row].id

    def on_data_table_row_selected(self, event) -> None:
        self.action_open()

    def action_open(self) -> None:
        session_id = self.selected()
        if session_id:
            self.app.open_session(session_id)  # type: ignore[attr-defined]

    def action_replay(self) -> None:
        session_id = self.selected()
        if session_id:
            self.app.push_screen(ReplayScreen(self.store, session_id))

    def action_check(self) -> None:
        session_id = self.selected()
        if session_id:
            rerun_in_background(self.app, self.store, session_id)

    def action_rename(self) -> None:
        session_id = self.selected()
        if not session_id:
            return
        current = self.store.session(session_id)["title"]

        def done(title: str | None) -> None:
            if title:
                try:
                    self.store.rename(session_id, title)
                except HistoryError as e:
                    self.notify(str(e), severity="error", markup=False)
                self.show(self.store.list_sessions(SESSION_PAGE), searching=False)

        self.app.push_screen(PromptScreen("Rename session", current), done)

    def action_export(self) -> None:
        session_id = self.selected()
        if not session_id:
            return

        def done(path: str | None) -> None:
            if not path:
                return
            try:
                target = self.store.export_to(session_id, path)
            except HistoryError as e:
                self.notify(str(e), severity="error", markup=False)
                return
            self.notify(f"Exported to {target}", markup=False)

        default = str(Path.home() / f"gpu-advisor-{session_id[-8:].lower()}.md")
        self.app.push_screen(PromptScreen("Export to (.md report or .json)", default), done)

    def action_delete(self) -> None:
        session_id = self.selected()
        if not session_id:
            return
        title = self.store.session(session_id)["title"]

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self.store.delete(session_id)
                self.notify(f"Deleted \"{title}\".", markup=False)
                self.show(self.store.list_sessions(SESSION_PAGE), searching=False)

        self.app.push_screen(ConfirmScreen(f"Delete \"{title}\" and all its messages?"), done)

    def action_back(self) -> None:
        self.app.pop_screen()


def rerun_in_background(app: Any, store: HistoryStore, session_id: str) -> None:
    """Re-run a saved session through today's engine in a worker; the result opens in a dialog."""
    from assistant.session import rerun

    def work_() -> None:
        differences = rerun(store, session_id)
        if not differences:
            text = "Today's engine says the same (assumption lists compared in any order)."
        else:
            text = "\n\n".join(f"```diff\n{d.unified()}\n```" for d in differences)
            text = f"**{len(differences)} repl{'y differs' if len(differences) == 1 else 'ies differ'}:**\n\n{text}"
        app.call_from_thread(app.push_screen, TextScreen("Re-run against today's engine", text))

    app.notify("Re-running the saved messages through today's engine…")
    app.run_worker(work_, thread=True, exclusive=True, group="rerun", exit_on_error=False)


# ---------------------------------------------------------------- replay


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
        self.position = 0
        self.interval = 1.0
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            transcript = VerticalScroll(id="replay-transcript")
            transcript.can_focus = False
            yield transcript
            with Vertical(id="side"):
                yield Label("Tool calls", classes="panel-title")
                yield Static(id="calls")
        yield Static(id="replay-status")
        yield Footer()

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < NARROW, "narrow")

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < NARROW, "narrow")
        self.sub_title = f"Replay: {self.store.session(self.session_id)['title']}"
        self.action_step(1)

    def _show_position(self) -> None:
        transcript = self.query_one("#replay-transcript")
        transcript.remove_children()
        current = None
        for m in self.messages[: self.position]:
            current = ChatMessage(m["role"], m["text"], m["payload"] if m["role"] == "assistant" else None)
            transcript.mount(current)
        if current is not None:  # the message the status line names is the one in view, from its top
            current.keep_top_in_view = True
            self.call_after_refresh(current.bring_top_into_view)
        shown = self.messages[self.position - 1] if self.position else None
        calls = self.calls.get(shown["id"], []) if shown else []
        self.query_one("#calls", Static).update(Text(  # stored names are text, never markup
            "\n".join(f"{c['tool']} ({c['duration_ms'] or 0:.1f} ms)" for c in calls) or "none for this message"))
        playing = "playing" if self._timer else "paused"
        self.query_one("#replay-status", Static).update(
            f"message {self.position} of {len(self.messages)} · {playing} · one message every {self.interval:g} s · "
            "← → step · Space play · +/- speed")

    def action_step(self, delta: int) -> None:
        self.position = max(0, min(len(self.messages), self.position + delta))
        if self.position == len(self.messages) and self._timer:
            self._stop()
        self._show_position()

    def action_jump(self, where: int) -> None:
        self.position = 1 if where == 0 else len(self.messages)
        self._show_position()

    def action_toggle_play(self) -> None:
        if self._timer:
            self._stop()
        else:
            if self.position >= len(self.messages):
                self.position = 0
            self._timer = self.set_interval(self.interval, lambda: self.action_step(1))
        self._show_position()

    def action_speed(self, factor: float) -> None:
        self.interval = min(8.0, max(0.125, self.interval * factor))
        if self._timer:
            self._stop()
            self._timer = self.set_interval(self.interval, lambda: self.action_step(1))
        self._show_position()

    def _stop(self) -> None:
        if self._timer:
            self._timer.stop()
        self._timer = None

    def action_back(self) -> None:
        self._stop()
        self.app.pop_screen()


# ---------------------------------------------------------------- help and dialogs


def key_names(keys: str) -> str:
    """'ctrl+q,f1' -> 'Ctrl+Q / F1'."""
    def one(key: str) -> str:
        parts = key.split("+")
        names = {"pageup": "PgUp", "pagedown": "PgDn", "equals_sign": "=", "plus": "+", "minus": "-",
                 "escape": "Esc", "delete": "Del", "space": "Space"}
        return "+".join(names.get(p, p.upper() if len(p) == 1 else p.capitalize()) for p in parts)

    return " / ".join(one(k) for k in keys.split(","))


CHAT_KEYS = [("Enter", "Send the message"), ("Ctrl+J", "New line in the message (or Shift+Enter)"),
             ("↑ / ↓", "Earlier messages (on the first or last line)"),
             ("Tab", "Quick replies, then the input, then the assumptions"),
             ("← → / 1-9", "Move between quick replies / press one")]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [("escape,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        keymap = getattr(self.app, "keymap", {}) or {}
        text = Text()
        text.append("Keys", style="bold underline")
        text.append("  (Esc closes; remap them in the settings file: gpu-advisor config path)\n", style="dim")
        for title, bindings, extra in (("Everywhere", APP_BINDINGS, []), ("Chat", CHAT_BINDINGS, CHAT_KEYS),
                                       ("Sessions", SESSIONS_BINDINGS, [("type", "Search")]),
                                       ("Replay", REPLAY_BINDINGS, [])):
            text.append(f"\n{title}\n", style="bold")
            rows = extra + [(key_names(keymap.get(b.id, b.key) if b.id else b.key), b.tooltip or b.description)
                            for b in bindings if b.action != "next_field"]
            for keys, what in rows:
                text.append(f"  {keys:<16}", style="bold")
                text.append(f"{what}\n")
        text.append("\nCtrl+P opens the command palette: rename, re-run, export, theme and more.", style="dim")
        with VerticalScroll(id="help"):
            yield Static(text)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class TextScreen(ModalScreen[None]):
    BINDINGS = [("escape,q", "dismiss", "Close")]

    def __init__(self, title: str, markdown: str):
        super().__init__()
        self.title_text, self.markdown = title, markdown

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown

        with VerticalScroll(id="text-dialog"):
            yield Markdown(f"## {self.title_text}\n\n{self.markdown}")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class ChoiceScreen(ModalScreen[str | None]):
    """A few choices as buttons (arrows or 1-9), "type my own" (an empty string), Esc to keep."""

    BINDINGS = [("escape", "cancel", "Keep")]

    def __init__(self, question: str, choices: list[tuple[str, str]]):
        super().__init__()
        self.question, self.choices = question, choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)
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


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [("escape,n", "no", "No"), ("y", "yes", "Yes")]

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Delete", variant="error", id="yes")
                yield Button("Keep", variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)


class PromptScreen(ModalScreen[str | None]):
    BINDINGS = [("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = ""):
        super().__init__()
        self.question, self.value = question, value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)
            yield Input(self.value, id="answer")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
