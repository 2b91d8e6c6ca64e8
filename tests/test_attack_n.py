"""A second attack (round N): opening a history removes only the half-written files the store itself writes; a user's
own 'chats.notes.part' or a browser's 'chats.tar.gz.part' beside the database stays."""
from __future__ import annotations

import pytest

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.assistant.history.store import OWN_PARTS


@pytest.mark.parametrize("name", ["notes.part", "v2.part-3", "tar.gz.part", "damaged-x.part", "damaged-1.new.partial",
                                  "image.part.bak", "backup.part"])
def test_files_the_store_did_not_write_are_kept(tmp_path, name):
    db = tmp_path / "chats"
    other = tmp_path / f"chats.{name}"
    other.write_text("precious")
    store = HistoryStore(db)
    store.close()
    assert other.read_text() == "precious"


@pytest.mark.parametrize("name", ["damaged-1.part", "damaged-2-wal.part", "damaged-3-shm.part", "damaged-1.new.part",
                                  "damaged-1.new.part-wal", "damaged-1.new.part-journal", "image.part"])
def test_the_stores_own_leftovers_are_removed(tmp_path, name):
    assert OWN_PARTS.fullmatch(name)
    db = tmp_path / "chats"
    left = tmp_path / f"chats.{name}"
    left.write_bytes(b"half written")
    store = HistoryStore(db)
    store.close()
    assert not left.exists()
