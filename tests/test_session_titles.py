"""Saved sessions are titled from what was understood, in the conversation's language, and the title
follows the conversation as it settles; a title the user gave is kept."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.assistant.session import Conversation


def titles(store: HistoryStore, turns: list[str]) -> list[str]:
    conv = Conversation(store)
    out = []
    for text in turns:
        conv.send(text)
        out.append(store.session(conv.session_id)["title"])
    return out


@pytest.mark.parametrize(("turns", "title"), [
    (["serve llama 3.1 70b to 200 users"], "Serve Llama 3.1 70B to 200 users"),
    (["微调 qwen2.5 14b"], "微调 Qwen2.5 14B"),
    (["给50个人部署qwen2.5 7b"], "部署 Qwen2.5 7B，50 人同时使用"),
    (["fine-tune a 27B model and then let my team chat with it", "not sure", "about 15"],
     "Fine-tune and serve a 27B model to 15 users"),
    (["serve llama 3.1 8b", "20-100"], "Serve Llama 3.1 8B to 20-100 users"),
    (["serve llama 3.1 8b", "not sure"], "Serve Llama 3.1 8B"),  # a default is no part of what was said
    # one person is one user, in either language (the title once read "to 1 users")
    (["serve llama 3.1 8b just for me"], "Serve Llama 3.1 8B for 1 user"),
    (["serve llama 3.1 8b to 1 user"], "Serve Llama 3.1 8B for 1 user"),
    (["给1个人部署qwen2.5 7b"], "部署 Qwen2.5 7B，1 人使用"),
])
def test_a_title_says_what_was_understood(store, turns, title):
    assert titles(store, turns)[-1] == title


def test_the_title_follows_the_conversation_as_it_settles(store):
    assert titles(store, ["hi", "serve users", "llama 3.1 70b", "about 40", "actually 200 users"]) == [
        "hi", "hi", "Serve Llama 3.1 70B", "Serve Llama 3.1 70B to 40 users", "Serve Llama 3.1 70B to 200 users"]


def test_a_title_the_user_gave_wins(store):
    conv = Conversation(store)
    conv.send("serve llama 3.1 70b to 20 users")
    store.rename(conv.session_id, "Support bot")
    conv.send("actually 200 users")
    assert store.session(conv.session_id)["title"] == "Support bot"


def test_sessions_saved_before_titles_followed_the_conversation_keep_theirs(tmp_path):
    from gpu_advisor.assistant.history import migrations

    path = tmp_path / "history.db"
    store = HistoryStore(path)
    conv = Conversation(store)
    conv.send("serve llama 3.1 70b to 20 users")
    store.conn.execute("ALTER TABLE sessions DROP COLUMN title_by_user")
    store.conn.execute("DELETE FROM _migrations WHERE name = '007_title_by_user'")
    store.conn.execute("UPDATE sessions SET title = 'my old title'")
    store.close()
    again = HistoryStore(path)
    assert "007_title_by_user" in again.applied_migrations() and len(migrations.MIGRATIONS) >= 7
    resumed = Conversation.resume(again, conv.session_id)
    resumed.send("actually 200 users")
    assert again.session(conv.session_id)["title"] == "my old title"


def test_every_title_key_is_in_both_catalogs():
    from gpu_advisor.assistant.catalog import catalog

    en = {k for k in catalog("en") if k.startswith("title.")}
    assert en and en == {k for k in catalog("zh") if k.startswith("title.")}
