"""The command line under fuzzed input, in-process (fast): whatever the arguments, files and bytes,
it exits with 0, 1 or 2, never with "internal error", never hangs, and prints no terminal control."""

from __future__ import annotations

import json
import os
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_advisor.tui import cli

HOSTILE = ["", " ", "-1", "0", "1e308", "-1e308", "nan", "inf", "1" * 5000, "9" * 40, "[/INST]", "[/]", "[/b]",
           "\x1b[31mred", "\x1b]52;c;aGk=\x07", "\x1b]8;;http://x\x1b\\", "\x00", "\udcff", "27B", "h100",
           "llama-3-70b", "a" * 3000, "word " * 200, "../../etc/passwd", "~", "--json", "-", "1k", "5%"]


@pytest.fixture(scope="module")
def files():
    """Hostile files of every kind the CLI reads: configs, exports, special files, paths."""
    with tempfile.TemporaryDirectory(prefix="gpu-advisor-fuzz-") as folder:
        root = Path(folder)
        made = {
            "nested.json": "[" * 100_000 + "]" * 100_000,
            "binary.json": b"\xff\xfe\x00\x01" * 100,
            "digits.json": '{"hidden_size": ' + "7" * 5000 + "}",
            "huge-number.json": '{"hidden_size": 1e400, "num_hidden_layers": 4000}',
            "list.json": "[1, 2, 3]",
            "crafted-state.json": json.dumps({"format": "gpu-advisor-session", "version": 1, "session": {
                "state": {"profile": {"users": -5}, "pending": {"x": 1}}}, "messages": []}),
            "negative-version.json": json.dumps({"format": "gpu-advisor-session", "version": -5, "messages": []}),
            "big-message.json": json.dumps({"format": "gpu-advisor-session", "version": 1,
                                            "messages": [{"role": "user", "text": "x" * 300_000}]}),
            "control.json": json.dumps({"format": "gpu-advisor-session", "version": 1, "session": {
                "title": "\x1b]52;c;aGk=\x07[/b]"}, "messages": [{"role": "user", "text": "\x1b[2J hi"}]}),
        }
        for name, content in made.items():
            path = root / name
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
        os.mkfifo(root / "fifo")
        (root / "dangling.md").symlink_to(root / "nowhere.md")
        paths = [str(root / n) for n in made] + [str(root / "fifo"), str(root / "dangling.md"), "/dev/zero",
                                                  str(root / "missing" / "out.md"), str(root), str(root / "new.md")]
        env = {k: os.environ.get(k) for k in ("GPU_ADVISOR_DB",)}
        os.environ["GPU_ADVISOR_DB"] = str(root / "history.db")
        cwd = os.getcwd()
        os.chdir(root)  # relative output paths land in the temporary folder
        try:
            yield paths
        finally:
            os.chdir(cwd)
            for k, v in env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def value(paths: list[str]):
    return st.one_of(st.sampled_from(HOSTILE), st.sampled_from(paths), st.text(max_size=20),
                     st.integers(-10**30, 10**30).map(str), st.floats().map(repr))


def commands(paths: list[str]):
    v = value(paths)
    return st.one_of(
        st.tuples(st.just("size"), st.just("inference"), st.just("--model"), v, st.just("--context"), v),
        st.tuples(st.just("size"), st.just("training"), st.just("--model"), v, st.just("--method"), st.just("lora")),
        st.tuples(st.just("fit"), st.just("--model"), v, st.just("--gpu"), v),
        st.tuples(st.just("cost"), st.just("--gpu"), st.just("h100"), st.sampled_from(
            ["--hours", "--tokens-per-s", "--purchase-usd", "--hosting-usd-per-month", "--gpus"]), v),
        st.tuples(st.just("train-time"), st.just("--model"), v, st.just("--gpu"), st.just("a100"),
                  st.just("--tokens"), v),
        st.tuples(st.just("sessions"), st.sampled_from(["show", "export", "delete", "replay"]), v),
        st.tuples(st.just("sessions"), st.just("search"), v, v),
        st.tuples(st.just("sessions"), st.just("import"), v),
        st.tuples(st.just("sessions"), st.sampled_from(["list", "path"]), st.just("--db"), v),
        st.tuples(st.just("sessions"), st.just("backup"), v),
        st.tuples(st.just("ask"), v),
    )


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang("the command did not finish")


@pytest.mark.slow
def test_fuzzed_commands_exit_0_1_or_2_without_internal_errors(files, capsys):
    @settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(commands(files))
    def run(argv):
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(30)  # a safety net against hangs, not a timing assertion
        try:
            try:
                status = cli.main(list(argv))
            except SystemExit as e:  # argparse errors
                status = e.code
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        out, err = capsys.readouterr()
        assert status in (0, 1, 2), (argv, status, err[-500:])
        assert "internal error" not in err, (argv, err[-500:])
        assert "\x1b" not in out, argv
        if status:
            assert len(err.strip().splitlines()) >= 1

    run()


def test_an_import_of_crafted_files_is_refused_in_one_line(files, capsys):
    for name in ("crafted-state.json", "negative-version.json", "big-message.json", "nested.json", "binary.json"):
        path = next(p for p in files if p.endswith(name))
        assert cli.main(["sessions", "import", path]) == 2, name
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
    path = next(p for p in files if p.endswith("control.json"))
    assert cli.main(["sessions", "import", path, "--json"]) == 0
    session_id = json.loads(capsys.readouterr().out)["id"]
    for argv in (["sessions", "show", session_id], ["sessions", "list"], ["sessions", "export", session_id]):
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "[/b]" in out
