"""`ask --cid` on an imported session whose saved profile carries terminal control sequences (attack 5): the reply
printed names those values, and prints them without the sequences (an OSC 52 clipboard write, colours)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.tui.cli.program import main

EVIL = "a\x1b]52;c;QQ==\x07\x1b[31m"


@pytest.mark.parametrize("field", ["exclude", "framework", "model", "owned", "only"])
def test_a_crafted_profile_never_reaches_the_terminal_through_ask(tmp_path, capsys, monkeypatch, field):
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(tmp_path / "settings.toml"))
    store = HistoryStore(tmp_path / "h.db")
    sid = store.create_session("crafted")
    store.add_message(sid, "user", "serve llama 3 8b to 5 users")
    value = [EVIL] if field in ("exclude", "owned", "only") else EVIL
    store.save_reply(sid, "Rent one L4.", {}, {"lang": "en", "profile": {"phase": "serve", "model": "llama-3-8b",
                                                                          "users": 5, field: value}}, [])
    store.close()
    code = main(["ask", "--cid", sid, "--db", str(tmp_path / "h.db"), "what about int4"])
    out, err = capsys.readouterr()
    assert code in (0, None), err
    assert out.strip() and "\x1b" not in out and "\x07" not in out and "\x1b" not in err
