"""The sessions screen: saved conversations, newest first; typing searches; open, replay, re-run,
rename, export and delete."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from assistant.history import HistoryError, HistoryStore
from tui.bindings import SESSIONS_BINDINGS
from tui.screens.confirm import ConfirmScreen
from tui.screens.prompt import PromptScreen
from tui.screens.replay import ReplayScreen
from tui.screens.text import TextScreen

if TYPE_CHECKING:
    from textual.widgets import DataTable

SESSION_PAGE = 200


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
