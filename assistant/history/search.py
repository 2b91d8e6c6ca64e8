"""Search: what is searched (the text without the suggestion line every answer ends with) and how.

Words are matched through FTS5 indexes (user text is always quoted, so operators are plain words):
by the starts of words (unicode61: "qwen" finds Qwen2.5) over messages and titles, and by trigrams for scripts written without spaces
(微调一个). Results are ranked by relevance (bm25, a title match adding to a message match; ties
newest first), at most `limit` sessions, each with a snippet around the word found.

The work is bounded however common a word is: only the newest CANDIDATES matching messages (and
titles) are ranked, read from the index in rowid order, newest first. A rare word is ranked among all
its matches; a word in every message ("the") is ranked among the most recent of them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gpu_advisor.assistant.history.common import SessionRow
from gpu_advisor.assistant.terminal import printable

if TYPE_CHECKING:
    from gpu_advisor.assistant.history.store import HistoryStore

MAX_QUERY_CHARS = 1000
MAX_QUERY_WORDS = 16
MAX_RESULTS = 1000
CANDIDATES = 2000  # the newest matching messages (and titles) that are ranked
MAX_PREFIX_TERMS = 300  # trigrams looked for in place of a one- or two-character word

# Scripts written without spaces between words: searched by substring, not by word.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]")


_BOILERPLATE: list[str] = []


def _boilerplate() -> list[str]:
    """The suggestion lines the engine appends to answers, in every language of the catalog (read
    once per process)."""
    if _BOILERPLATE:
        return _BOILERPLATE
    try:
        from gpu_advisor.assistant.catalog import LANGS, say

        _BOILERPLATE[:] = [say(lang, key) for lang in LANGS for key in ("answer.footer", "reply.followups")]
    except Exception:  # noqa: BLE001 - a catalog problem must never stop a message from being saved
        return []
    return _BOILERPLATE


def search_text(role: str, text: str) -> str:
    """What search looks at: the message without the suggestion line that ends every answer, and without
    terminal control sequences ('\x1b[31mred' is found by 'red'; the stored text keeps them)."""
    text = printable(text)
    if role != "assistant":
        return text
    for line in _boilerplate():
        text = text.replace(line, "")
    return text.strip()


def _snippet(text: str, words: list[str], around: int = 40) -> str:
    """The part of `text` around the first word found, that word in [brackets]."""
    flat = " ".join(text.split())
    lower = flat.lower()
    hits = [(lower.find(w.lower()), w) for w in words if lower.find(w.lower()) >= 0]
    if not hits:
        return flat[: 2 * around]
    at, word = min(hits)
    start = max(0, at - around)
    end = min(len(flat), at + len(word) + around)
    return (("…" if start else "") + flat[start:at] + "[" + flat[at: at + len(word)] + "]"
            + flat[at + len(word): end] + ("…" if end < len(flat) else ""))


def _quoted(words: list[str]) -> str:
    return " ".join('"' + w.replace('"', '""') + '"' for w in words)


def _prefixes(words: list[str]) -> str:
    """Words as the starts of words ("qwen" finds "Qwen2.5", which the index holds as qwen2 and 5): every one
    of three letters or digits or more, and the last (being typed) from two; a shorter one stays a whole word
    ("OR" is no operator and finds no "oranges"; "c++" no "chat")."""
    def start(n: int, w: str) -> bool:
        letters = sum(c.isalnum() for c in w)
        return letters >= 3 or (letters == 2 and n == len(words) - 1)

    return " ".join('"' + w.replace('"', '""') + '"' + ("*" if start(n, w) else "") for n, w in enumerate(words))


def query_words(query: str) -> list[str]:
    """The words of a query, each once, capped (FTS5 costs grow with repeated phrases)."""
    return list(dict.fromkeys(query[:MAX_QUERY_CHARS].replace("\x00", " ").split()))[:MAX_QUERY_WORDS]


def _message_candidates(store: HistoryStore, words: list[str], unspaced: bool) -> list[tuple[str, float, int]]:
    """(session id, bm25 score, message rowid) of the newest CANDIDATES messages holding every word."""
    if not unspaced:
        sql = ("SELECT m.session_id, bm25(messages_fts), m.rowid FROM messages_fts "
               "JOIN messages m ON m.rowid = messages_fts.rowid WHERE messages_fts MATCH ? "
               "ORDER BY messages_fts.rowid DESC LIMIT ?")
        return store.conn.execute(sql, (_prefixes(words), CANDIDATES)).fetchall()
    # Beside a Chinese word the other words are looked for inside the text too ("27B" in 一个27B的模型
    # is no word of its own to unicode61). Through the trigram index: a word of three characters or
    # more as a phrase, a shorter one as any of the trigrams it starts (the index appends two spaces to
    # every text, so a word at the very end starts one too). Without the index, by a scan.
    trigram = store._has_table("messages_trigram")
    vocab = trigram and store._has_table("messages_trigram_vocab")
    phrases: list[str] = []
    scanned: list[str] = []
    for w in words:
        if trigram and len(w) >= 3:
            phrases.append(_quoted([w]))
            continue
        terms = _trigrams_starting(store, w) if vocab else None
        if terms is None:
            scanned.append(w)
        elif not terms:
            return []  # no text holds the word
        else:
            phrases.append("(" + " OR ".join(_quoted([t]) for t in terms) + ")")
    where = " AND ".join("instr(lower(coalesce(m.search_text, m.text)), lower(?)) > 0" for _ in scanned)
    if phrases:
        sql = ("SELECT m.session_id, bm25(messages_trigram), m.rowid FROM messages_trigram "
               "JOIN messages m ON m.rowid = messages_trigram.rowid WHERE messages_trigram MATCH ? "
               f"{'AND ' + where if where else ''} ORDER BY messages_trigram.rowid DESC LIMIT ?")
        return store.conn.execute(sql, (" AND ".join(phrases), *scanned, CANDIDATES)).fetchall()
    sql = (f"SELECT m.session_id, 0.0, m.rowid FROM messages m WHERE {where} "
           "ORDER BY m.rowid DESC LIMIT ?")
    return store.conn.execute(sql, (*scanned, CANDIDATES)).fetchall()


def _trigrams_starting(store: HistoryStore, word: str, vocab: str = "messages_trigram_vocab") -> list[str] | None:
    """The indexed trigrams that start with a one- or two-character word (None when there are too
    many to look for: a scan is then as fast)."""
    prefix = word.lower()
    terms = [r[0] for r in store.conn.execute(
        f"SELECT term FROM {vocab} WHERE term >= ? AND term < ? LIMIT ?",
        (prefix, prefix + "\U0010ffff", MAX_PREFIX_TERMS + 1))]
    terms = [t for t in terms if t.startswith(prefix)]
    return None if len(terms) > MAX_PREFIX_TERMS else terms


def _title_candidates(store: HistoryStore, words: list[str], unspaced: bool) -> list[tuple[str, float]]:
    if not unspaced:
        sql = ("SELECT s.id, bm25(sessions_fts) FROM sessions_fts JOIN sessions s ON s.rowid = sessions_fts.rowid "
               "WHERE sessions_fts MATCH ? ORDER BY sessions_fts.rowid DESC LIMIT ?")
        return store.conn.execute(sql, (_prefixes(words), CANDIDATES)).fetchall()
    if store._has_table("sessions_trigram") and store._has_table("sessions_trigram_vocab"):
        phrases = []
        for w in words:  # as for messages: a phrase from three characters on, else the trigrams it starts
            terms = [w] if len(w) >= 3 else _trigrams_starting(store, w, "sessions_trigram_vocab")
            if terms is None:
                break
            if not terms:
                return []
            phrases.append("(" + " OR ".join(_quoted([t]) for t in terms) + ")")
        else:
            sql = ("SELECT s.id, bm25(sessions_trigram) FROM sessions_trigram "
                   "JOIN sessions s ON s.rowid = sessions_trigram.rowid WHERE sessions_trigram MATCH ? "
                   "ORDER BY sessions_trigram.rowid DESC LIMIT ?")
            return store.conn.execute(sql, (" AND ".join(phrases), CANDIDATES)).fetchall()
    # (a word without letter case, such as 微调, is looked for as it is: lower() of every title costs)
    where = " AND ".join("instr(s.title, ?) > 0" if w.lower() == w.upper() else "instr(lower(s.title), lower(?)) > 0"
                         for w in words)
    return store.conn.execute(f"SELECT s.id, 0.0 FROM sessions s WHERE {where} ORDER BY s.rowid DESC LIMIT ?",
                              (*words, CANDIDATES)).fetchall()


def search_sessions(store: HistoryStore, query: str, limit: int = 100) -> list[SessionRow]:
    """Sessions with a message (or a title) holding every word typed, the most relevant first (see
    the module's docstring), at most `limit` of them. An empty query lists the newest sessions. A
    query with a word in a script written without spaces (微调) matches each of its words as a
    substring: through the trigram index from three characters on, by a scan below that. The
    suggestion line that ends answers is not searched."""
    limit = max(0, min(int(limit), MAX_RESULTS))
    words = query_words(query)
    if not words:
        return store.list_sessions(limit)
    unspaced = any(_UNSPACED.search(w) for w in words)
    score: dict[str, float] = {}
    best: dict[str, int] = {}  # the most relevant message of each session, for its snippet
    for session_id, rank, rowid in _message_candidates(store, words, unspaced):
        if session_id not in score or rank < score[session_id]:  # bm25: lower is more relevant
            score[session_id], best[session_id] = rank, rowid
    for session_id, rank in _title_candidates(store, words, unspaced):
        score[session_id] = score.get(session_id, 0.0) + rank  # a title match adds to a message match
    if not score:
        return []
    rows = {r[0]: r for r in _session_rows(store, list(score))}
    newest_first = sorted(rows.values(), key=lambda r: (r[3] or "", r[0]), reverse=True)
    ranked = sorted(newest_first, key=lambda r: score[r[0]])[:limit]  # stable: ties stay newest first
    counts = dict(store.conn.execute(
        f"SELECT session_id, count(*) FROM messages WHERE session_id IN ({', '.join('?' for _ in ranked)}) "
        "GROUP BY session_id", [r[0] for r in ranked]).fetchall()) if ranked else {}
    rowids = [best[r[0]] for r in ranked if r[0] in best]
    text_of = dict(store.conn.execute(
        f"SELECT rowid, coalesce(search_text, text) FROM messages WHERE rowid IN ({', '.join('?' for _ in rowids)})",
        rowids).fetchall()) if rowids else {}
    return [SessionRow(r[0], r[1], r[2], r[3], counts.get(r[0], 0),
                       snippet=_snippet(text_of.get(best.get(r[0], -1)) or r[1] or "", words)) for r in ranked]


def _session_rows(store: HistoryStore, ids: list[str]) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    for start in range(0, len(ids), 500):  # within SQLite's limit on bound parameters
        chunk = ids[start: start + 500]
        rows += store.conn.execute(f"SELECT id, title, created, updated FROM sessions WHERE id IN "
                                   f"({', '.join('?' for _ in chunk)})", chunk).fetchall()
    return rows

