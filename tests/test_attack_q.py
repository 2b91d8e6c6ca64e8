"""Attack 4's command-line findings, each kept as a test: paths the user typed are printed without the terminal
control sequences they may carry, an $EDITOR that cannot be split is one line, '~nouser' is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.history import HistoryStore
from tui.cli.program import main

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
