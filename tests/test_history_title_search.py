"""Issue 12, Chinese titles through an index: a session found by a word only its (renamed) title holds,
for words of two characters and of three or more, at the start, the middle and the end of a title."""

from __future__ import annotations

from gpu_advisor.assistant.history import HistoryStore


def _store(tmp_path) -> HistoryStore:
    store = HistoryStore(tmp_path / "h.db")
    for n, title in enumerate(["周末微调计划", "推理集群报价", "部署方案评审微调"]):
        sid = store.create_session(f"session {n}")
        store.add_message(sid, "user", "hello")
        store.rename(sid, title)
    return store


def test_title_trigram_index_is_there(tmp_path):
    store = _store(tmp_path)
    assert "006_title_trigram" in store.applied_migrations()
    assert store._has_table("sessions_trigram") and store._has_table("sessions_trigram_vocab")


def test_a_word_only_the_title_holds_is_found(tmp_path):
    store = _store(tmp_path)
    assert sorted(r.title for r in store.search("微调")) == ["周末微调计划", "部署方案评审微调"]  # middle and end
    assert [r.title for r in store.search("集群报价")] == ["推理集群报价"]
    assert [r.title for r in store.search("周末")] == ["周末微调计划"]  # at the start
    assert store.search("训练") == []


def test_a_renamed_title_leaves_the_index(tmp_path):
    store = _store(tmp_path)
    sid = next(r.id for r in store.search("集群报价"))
    store.rename(sid, "new name")
    assert store.search("集群报价") == []
    store.delete(next(r.id for r in store.search("周末")))
    assert [r.title for r in store.search("微调")] == ["部署方案评审微调"]
