"""Attack 4's command-line findings, each kept as a test: paths the user typed are printed without the terminal
control sequences they may carry, an $EDITOR that cannot be split is one line, '~nouser' is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.tui.cli.program import main

ESC = "\x1b]0;PWN\x07\x1b[31m"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(tmp_path / f"s{ESC}.toml"))
    monkeypatch.setenv("GPU_ADVISOR_DB", str(tmp_path / "history.db"))
    for name in ("VISUAL", "EDITOR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_paths_typed_with_control_sequences_are_printed_without_them(capsys, home):
    store = HistoryStore(home / "history.db")
    sid = store.create_session("s")
    store.add_message(sid, "user", "hello")
    store.close()
    runs = [("config", "path"), ("config", "show"), ("config", "set", "region", "us"), ("config", "unset", "region"),
            ("sessions", "path", "--db", str(home / f"c{ESC}.db")),
            ("sessions", "export", sid, "-o", str(home / f"a{ESC}.md")),
            ("sessions", "backup", str(home / f"b{ESC}.db"))]
    for args in runs:
        status, out, err = run(capsys, *args)
        assert status == 0, (args, err)
        assert "\x1b" not in out + err and "\x07" not in out + err, args
        assert str(home) in out, args  # the line still names the file


def test_an_editor_that_cannot_be_split_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.setenv("EDITOR", '"unclosed')
    status, out, err = run(capsys, "config", "edit")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "$EDITOR cannot be read as a command" in err and "internal error" not in err


@pytest.mark.parametrize("args", [("sessions", "list", "--db", "~nouser-q7/x.db"),
                                  ("size", "inference", "-m", "~nouser-q7/config.json", "--gpu", "h100")])
def test_a_home_folder_of_no_user_is_one_line_and_exit_2(capsys, args):
    with pytest.raises(SystemExit) as done:
        main(list(args))
    err = capsys.readouterr().err
    assert done.value.code == 2 and "'~nouser-q7' names no user's home folder" in err and "internal error" not in err


# Terminal control sequences in a message are no words: the digits inside them ('\x1b]52;c;…', '\x1b[38;5;200m')
# are never read as users, a context or a count, and a number wrapped in colour codes is still that number.
SEQUENCES = ["\x1b]52;c;aGVsbG8=\x07", "\x1b[38;5;200m", "\x1b]8;;http://x/64k\x1b\\", "\x9b32m", "\x1b]0;128 users\x07"]


@pytest.mark.parametrize("seq", SEQUENCES)
@pytest.mark.parametrize("text", ["serve llama 3 8b {s}on my own box", "部署 qwen2.5 7b {s}给团队用"])
def test_numbers_inside_terminal_sequences_are_not_read(seq, text):
    from gpu_advisor.assistant.reading import understand

    u = understand(text.format(s=seq))
    assert not {"users", "context", "owned", "only", "population"} & set(u.updates), u.updates
    assert "truncated" not in u.intents


@pytest.mark.parametrize("colour", ["\x1b[31m{n}\x1b[0m", "\x1b[1;32m{n}\x1b[m"])
def test_a_number_in_colour_codes_is_still_that_number(colour):
    from gpu_advisor.assistant.reading import understand

    assert understand(f"serve llama 3 8b to {colour.format(n=20)} users").updates.get("users") == 20


@pytest.mark.parametrize("side", [".lock", "-wal", "-shm", "-journal", ".check", ".damaged-1", ".damaged-2-wal"])
def test_a_file_kept_beside_a_database_is_never_opened_as_one(home, side):
    from gpu_advisor.assistant.history import HistoryError

    HistoryStore(home / "history.db").close()
    beside = home / f"history.db{side}"
    before = beside.read_bytes() if beside.exists() else None
    if before is None:
        beside.write_bytes(b"")
        before = b""
    with pytest.raises(HistoryError, match=r"kept beside the database history\.db"):
        HistoryStore(beside)
    assert beside.read_bytes() == before and not (home / f"history.db{side}.lock").exists()
    HistoryStore(home / "notes.lock").close()  # a name like one, with no database beside it: a database of its own
