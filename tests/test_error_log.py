"""An internal error: one line for the user naming the log file, the traceback appended to that file;
--debug (or GPU_ADVISOR_DEBUG) also prints it."""

from __future__ import annotations

import pytest

from gpu_advisor.tui import cli


def _broken(args):
    raise RuntimeError("a bug in the advisor")


@pytest.fixture
def broken_gpus(monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "cmd_gpus", _broken)
    monkeypatch.setenv("GPU_ADVISOR_LOG_DIR", str(tmp_path))
    monkeypatch.delenv("GPU_ADVISOR_DEBUG", raising=False)
    return tmp_path / "errors.log"


def test_internal_error_is_one_line_and_its_traceback_is_logged(broken_gpus, capsys):
    assert cli.main(["gpus"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error (RuntimeError: a bug in the advisor)" in err
    assert f"the traceback is in {broken_gpus}" in err and "Traceback" not in err
    log = broken_gpus.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in log and "RuntimeError: a bug in the advisor" in log
    assert " gpus\n" in log.splitlines(keepends=True)[0]

    assert cli.main(["gpus"]) == 1  # appended, not replaced
    assert broken_gpus.read_text(encoding="utf-8").count("Traceback") == 2


@pytest.mark.parametrize("how", ["flag", "env"])
def test_debug_prints_the_traceback(broken_gpus, capsys, monkeypatch, how):
    if how == "env":
        monkeypatch.setenv("GPU_ADVISOR_DEBUG", "1")
    assert cli.main(["--debug", "gpus"] if how == "flag" else ["gpus"]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and err.rstrip().endswith(f"(the traceback is in {broken_gpus})")
    assert broken_gpus.exists()


def test_an_unwritable_log_still_gives_one_line(broken_gpus, capsys, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("GPU_ADVISOR_LOG_DIR", str(blocker / "sub"))
    assert cli.main(["gpus"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--debug shows the traceback" in err
