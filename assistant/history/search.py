"""Search: what is searched (the text without the suggestion line every answer ends with) and how
(word, trigram and title indexes; user text is always quoted for FTS5)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.history.common import SessionRow

if TYPE_CHECKING:
    from assistant.history.store import HistoryStore

MAX_QUERY_CHARS = 1000
MAX_QUERY_WORDS = 16

# Scripts written without spaces between words: searched by substring, not by word.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]")


def _boilerplate() -> list[str]:
    """The suggestion lines the engine appends to answers, in every language of the catalog."""
    try:
        from assistant.catalog import LANGS, say

        return [say(lang, key) for lang in LANGS for key in ("answer.footer", "reply.followups")]
    except Exception:  # noqa: BLE001 - a catalog problem must never stop a message from being saved
        return []


def search_text(role: str, text: str) -> str:
    """What search looks at: the message without the suggestion line that ends every answer."""
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



def search_sessions(store: HistoryStore, query: str, limit: int = 100) -> list[SessionRow]:
    """Sessions with a message (or a title) holding every word typed, newest first. Words are
    matched as words through the FTS index (user text is quoted for FTS5). A query with a word
    in a script written without spaces (微调) matches each of its words as a substring: through
    the trigram index from three characters on, by a scan below that. The suggestion line that
    ends answers is not searched."""
    # Bounded work: a capped query, each word once (FTS5 costs grow with repeated phrases).
    words = list(dict.fromkeys(query[:MAX_QUERY_CHARS].replace("\x00", " ").split()))[:MAX_QUERY_WORDS]
    if not words:
        return store.list_sessions(limit)
    unspaced = [w for w in words if _UNSPACED.search(w)]
    # Beside a Chinese word, the other words are looked for inside the text too ("27B" in 一个27B的模型
    # is no word of its own to unicode61).
    spaced = [] if unspaced else words
    unspaced = words if unspaced else []
    trigram = store._has_table("messages_trigram")

    def quoted(ws: list[str]) -> str:
        return " ".join('"' + w.replace('"', '""') + '"' for w in ws)

    message_where, message_args, title_where, title_args = [], [], [], []
    if spaced:
        message_where.append("m.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)")
        title_where.append("s.rowid IN (SELECT rowid FROM sessions_fts WHERE sessions_fts MATCH ?)")
        message_args.append(quoted(spaced))
        title_args.append(quoted(spaced))
    for w in unspaced:
        if trigram and len(w) >= 3:
            message_where.append("m.rowid IN (SELECT rowid FROM messages_trigram WHERE messages_trigram MATCH ?)")
            message_args.append(quoted([w]))
        else:
            message_where.append("instr(lower(coalesce(m.search_text, m.text)), lower(?)) > 0")
            message_args.append(w)
        title_where.append("instr(lower(s.title), lower(?)) > 0")
        title_args.append(w)
    count = "(SELECT count(*) FROM messages c WHERE c.session_id = s.id)"
    sql = f"""
        SELECT s.id, s.title, s.created, s.updated, {count}, coalesce(m.search_text, m.text)
        FROM messages m JOIN sessions s ON s.id = m.session_id WHERE {" AND ".join(message_where)}
        UNION ALL
        SELECT s.id, s.title, s.created, s.updated, {count}, s.title
        FROM sessions s WHERE {" AND ".join(title_where)}
        ORDER BY 4 DESC, 1 DESC LIMIT {int(limit) * 4}"""
    seen: dict[str, SessionRow] = {}
    for r in store.conn.execute(sql, (*message_args, *title_args)):
        if r[0] not in seen:
            seen[r[0]] = SessionRow(r[0], r[1], r[2], r[3], r[4], snippet=_snippet(r[5] or "", words))
    return list(seen.values())[:limit]
