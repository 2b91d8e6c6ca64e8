"""The sessions screen: saved conversations, newest first; typing searches; open, replay, re-run,
rename, export and delete."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import Header, Input, Static

from gpu_advisor.assistant.history import HistoryError, HistoryStore
from gpu_advisor.assistant.history.search import query_words
from gpu_advisor.tui.bindings import SESSIONS_BINDINGS
from gpu_advisor.tui.format import plain
from gpu_advisor.tui.screens.confirm import ConfirmScreen
from gpu_advisor.tui.screens.prompt import PromptScreen
from gpu_advisor.tui.screens.replay import ReplayScreen
from gpu_advisor.tui.screens.text import TextScreen
from gpu_advisor.tui.widgets import LocalFooter
from gpu_advisor.tui.words import app_lang, words

if TYPE_CHECKING:
    from textual.widgets import DataTable

SESSION_PAGE = 200


def snippet_line(snippet: str, words: list[str], width: int) -> Text:
    """One line of a search result's snippet, dim, the word found in bold and within `width` cells
    (the text before it shortened first). The store marks the word found as [word]."""
    at = end = -1
    lower = snippet.lower()
    for word in words:
        found = lower.find(f"[{word.lower()}]")
        if found >= 0 and (at < 0 or found < at):
            at, end = found, found + len(word) + 2
    if at < 0:
        line = Text(snippet, style="dim", no_wrap=True)
        line.truncate(width, overflow="ellipsis")
        return line
    before, hit, after = snippet[:at], snippet[at + 1: end - 1], snippet[end:]
    keep = max(0, width // 3 - 1)  # a third of the line before the word at most
    if cell_len(before) > keep:
        before = "…" + before[len(before) - keep:] if keep else ""
    line = Text(before, style="dim", no_wrap=True)
    line.append(hit, style="bold")
    line.append(after, style="dim")
    line.truncate(width, overflow="ellipsis")
    return line


class SessionsScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [*SESSIONS_BINDINGS]

    def __init__(self, store: HistoryStore, **kwargs: Any):
        super().__init__(**kwargs)
        self.store = store
        self.rows: list[Any] = []
        self.searching = False
        self.lang = "en"  # the app's words: its conversation's language (set when mounted)

    def compose(self) -> ComposeResult:
        from textual.widgets import DataTable

        self.lang = app_lang(self.app)
        yield Header()
        yield Input(placeholder=words(self.lang, "sessions.search"), id="search", select_on_focus=False)
        yield DataTable(id="session-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="session-count")
        footer = LocalFooter()
        footer.set_reactive(LocalFooter.lang, self.lang)
        yield footer

    def _table(self) -> DataTable[Any]:
        from textual.widgets import DataTable

        return self.query_one("#session-table", DataTable)

    def on_mount(self) -> None:
        self.sub_title = words(self.lang, "sessions.title")
        table = self._table()
        self.show(self.store.list_sessions(SESSION_PAGE), searching=False)
        # No row is shown chosen until an arrow moves into the list: the first ↓ lands on the first row
        # (Enter and Del act on it meanwhile), as it does from the search box.
        table.show_cursor = False
        table.focus()

    def on_mouse_down(self, event: Any) -> None:
        self._table().show_cursor = True  # a click chooses a row as an arrow does

    def show(self, rows: list[Any], searching: bool) -> None:
        self.rows, self.searching = rows, searching
        self._layout()

    def _layout(self) -> None:
        """The rows laid out for the window: the time (local, the zone in the header), count and id whole
        (the id as short as it can be and still name one session, which the command line takes), the
        title in what they leave, cut by its width on screen (a Chinese character takes two cells); a
        search result has a second line with the words around what was found."""
        from gpu_advisor.tui.format import local_times

        table = self._table()
        table.clear(columns=True)
        ids = self.store.short_ids([r.id for r in self.rows])
        times, zone = local_times(r.updated for r in self.rows)
        when = words(self.lang, "sessions.updated", zone=zone)
        when_width, id_width = max(16, cell_len(when)), max([2, *(len(i) for i in ids.values())])
        fixed = (when_width + 2) + (max(4, cell_len(words(self.lang, "sessions.msgs"))) + 2) + \
            (max(id_width, cell_len(words(self.lang, "sessions.id"))) + 2) + 2  # each column with its padding, and the gutter
        title_width = max(12, self._content_width() - fixed)
        msgs = words(self.lang, "sessions.msgs")
        table.add_column(when, width=when_width)
        table.add_column(words(self.lang, "sessions.col_title"), width=title_width)
        table.add_column(Text(msgs, justify="right"), width=max(4, cell_len(msgs)))
        table.add_column(words(self.lang, "sessions.id"), width=max(id_width, cell_len(words(self.lang, "sessions.id"))))
        found = query_words(self.query_one("#search", Input).value) if self.searching else []
        for r, shown in zip(self.rows, times, strict=True):
            title = Text(plain(r.title), no_wrap=True)  # a title is text, never markup nor terminal commands
            title.truncate(title_width, overflow="ellipsis")
            if self.searching:
                title.append("\n")
                title.append_text(snippet_line(plain(getattr(r, "snippet", "") or ""), found, title_width))
            table.add_row(shown, title, Text(str(r.messages), justify="right"), ids[r.id],
                          key=r.id, height=2 if self.searching else 1)
        total = self.store.count_sessions()
        rows = self.rows
        if not total:
            self.query_one("#session-count", Static).update(words(self.lang, "sessions.empty"))
            return
        one = "_one" if (len(rows) if self.searching else total) == 1 else ""
        shown_count = words(self.lang, f"sessions.matches{one}", n=len(rows)) if self.searching else \
            words(self.lang, f"sessions.count{one}", n=len(rows), total=total)
        self.query_one("#session-count", Static).update(shown_count + words(self.lang, "sessions.keys"))

    def _content_width(self) -> int:
        """Cells inside the table: the window less the table's margins and its scrollbar's gutter."""
        return (self.size.width or self.app.size.width or 120) - 3

    def on_resize(self, event) -> None:
        table = self._table()
        row = table.cursor_row
        self._layout()
        if row and row < table.row_count:
            table.move_cursor(row=row)

    def action_to_list(self) -> None:
        """Down from the search box moves into the list (on its first row)."""
        table = self._table()
        if self.focused is table:
            return
        table.focus()
        if table.row_count:
            table.show_cursor = True
            table.move_cursor(row=0)

    def on_key(self, event) -> None:
        """Typing anywhere on this screen searches; Up on the list's first row goes back to the search box."""
        if event.key in ("up", "down", "enter") and self.focused is self._table() and not self._table().show_cursor:
            self._table().show_cursor = True  # the first arrow into the list shows its first row
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                self.action_open()
            return
        if event.key == "up" and self.focused is self._table() and self._table().cursor_row == 0:
            self.query_one("#search", Input).focus()
            event.stop()
            return
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
            self.notify(words(self.lang, "sessions.none_selected"))
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
            try:
                self.app.push_screen(ReplayScreen(self.store, session_id))
            except HistoryError as e:
                self._gone(e)

    def action_check(self) -> None:
        session_id = self.selected()
        if session_id:
            rerun_in_background(self.app, self.store, session_id)

    def action_rename(self) -> None:
        session_id = self.selected()
        if not session_id:
            return
        try:
            current = plain(self.store.session(session_id)["title"])
        except HistoryError as e:
            self._gone(e)
            return

        def done(title: str | None) -> None:
            if title:
                try:
                    self.store.rename(session_id, title)
                except HistoryError as e:
                    self.notify(str(e), severity="error", markup=False)
                self.show(self.store.list_sessions(SESSION_PAGE), searching=False)

        self.app.push_screen(PromptScreen(words(self.lang, "sessions.rename_question"), current, lang=self.lang), done)

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
            self.notify(words(self.lang, "sessions.exported", path=target), markup=False)

        default = str(Path.home() / f"gpu-advisor-{session_id[-8:].lower()}.md")
        self.app.push_screen(PromptScreen(words(self.lang, "sessions.export_question"), default,
                                                 title=words(self.lang, "sessions.export_title"), lang=self.lang), done)

    def action_delete(self) -> None:
        session_id = self.selected()
        if not session_id:
            return
        try:
            title = plain(self.store.session(session_id)["title"])
        except HistoryError as e:  # deleted meanwhile by another process, say
            self._gone(e)
            return

        def done(confirmed: bool | None) -> None:
            if not confirmed:
                return
            try:
                self.store.delete(session_id)
            except HistoryError as e:
                self._gone(e)
                return
            self.show(self.store.list_sessions(SESSION_PAGE), searching=False)
            if self.app.forget_session(session_id):  # type: ignore[attr-defined]
                self.notify(words(self.lang, "sessions.deleted_open", title=title), markup=False)
            else:
                self.notify(words(self.lang, "sessions.deleted", title=title), markup=False)

        self.app.push_screen(ConfirmScreen(words(self.lang, "sessions.delete_question", title=title), lang=self.lang), done)

    def _gone(self, error: HistoryError) -> None:
        """A session that could not be used (deleted meanwhile by another process): said, the list read again."""
        self.notify(str(error), severity="error", markup=False)
        with contextlib.suppress(HistoryError):
            self.show(self.store.list_sessions(SESSION_PAGE), searching=False)

    def action_back(self) -> None:
        if self.query("HelpPanel"):  # the palette's Keys panel: Esc closes it first
            self.app.action_hide_help_panel()
            return
        self.app.pop_screen()


def rerun_in_background(app: Any, store: HistoryStore, session_id: str) -> None:
    """Re-run a saved session through today's engine in a worker; the result opens in a dialog."""
    from gpu_advisor.assistant.session import rerun

    def work_() -> None:
        lang = app_lang(app)
        found = rerun(store, session_id)
        differences = [d for d in found if not d.unanswered]
        if not differences:
            text = words(lang, "rerun.same")
        else:
            text = "\n\n".join(f"```diff\n{plain(d.unified())}\n```" for d in differences)
            text = words(lang, "rerun.differ_one" if len(differences) == 1 else "rerun.differ", n=len(differences)) \
                + f"\n\n{text}"
        for d in found:
            if d.unanswered:
                text += "\n\n" + words(lang, "rerun.unanswered", turn=d.turn)
        if found.skipped:
            from gpu_advisor.tui.format import rerun_note

            text += "\n\n" + rerun_note(found)
        app.call_from_thread(app.push_screen, TextScreen(words(lang, "rerun.title"), text))

    app.notify(words(app_lang(app), "rerun.running"))
    app.run_worker(work_, thread=True, exclusive=True, group="rerun", exit_on_error=False)
