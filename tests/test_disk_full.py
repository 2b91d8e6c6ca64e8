"""A disk that cannot take a byte more (a full disk, a quota, `ulimit -f`): the history can still be listed,
searched and exported, a question is still answered (and said not saved), and nothing is left beside the
database. Each command runs in a child process whose file-size limit is 1 KiB, so every write beside the
database fails as it would on a full disk."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.assistant.history import HistoryStore

ROOT = Path(__file__).resolve().parent.parent


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # No bytecode written: under a 1 KiB limit Python's write of a module's .pyc stops at 1 KiB without an error, and
    # the cut-short file, left in the suite's shared bytecode folder, broke every later process that imported it
    # ("marshal data too short").
    env = {**os.environ, "GPU_ADVISOR_CONFIG": str(tmp_path / "settings.toml"), "HF_HUB_OFFLINE": "1",
           "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *args], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120, preexec_fn=_limited)


@pytest.fixture
def history(tmp_path):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("Serve Llama 3 8B to 5 users")
    store.add_message(sid, "user", "serve llama 3 8b to 5 users")
    store.save_reply(sid, "Rent one L4.", {}, {}, [])
    store.close()
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
    return path, sid


def _beside(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir() if p.name.startswith(path.name)} - {path.name}


@pytest.mark.slow
def test_a_full_disk_still_lists_exports_and_answers(tmp_path, history):
    path, sid = history
    before = path.read_bytes()
    listed = _cli(tmp_path, "sessions", "list", "--db", str(path))
    assert listed.returncode == 0, listed.stderr
    assert sid[:8] in listed.stdout  # the short id
    assert "cannot be written now" in listed.stderr and listed.stderr.count("\n") == 1
    exported = _cli(tmp_path, "sessions", "export", sid, "--db", str(path))
    assert exported.returncode == 0, exported.stderr
    assert "serve llama 3 8b to 5 users" in exported.stdout
    asked = _cli(tmp_path, "ask", "--db", str(path), "serve llama 3 8b to 9 users")
    # (attack 8: exit 1, not 0, and one line, so that a script learns the answer was not saved)
    assert asked.returncode == 1, asked.stderr
    assert "9 users" in asked.stdout and "the answer was not saved" in asked.stderr
    assert asked.stderr.count("\n") == 1
    again = _cli(tmp_path, "ask", "-c", "--db", str(path), "make it 20 users")
    assert again.returncode == 1, again.stderr
    assert "20 users" in again.stdout
    assert path.read_bytes() == before  # nothing written, nothing lost
    assert _beside(path) <= {"history.db.lock", "history.db.sessions.lock"}  # no cut-short log or index left


def test_a_database_where_no_lock_file_can_be_made_fails_at_once_and_says_why(monkeypatch):
    """Attack 5: '--db /proc/x.db' waited 30 s in the lock library's retries, then blamed another GPU Advisor. The lock
    file that cannot be made is skipped, and the open says what is wrong."""
    import filelock

    from gpu_advisor.assistant.history import HistoryError

    def never(*_a, **_k):
        raise AssertionError("the lock library was asked to retry a lock file that cannot be made")

    monkeypatch.setattr(filelock.FileLock, "acquire", never)
    with pytest.raises(HistoryError) as caught:
        HistoryStore(Path("/proc/gpu-advisor-test.db"))
    assert "another GPU Advisor" not in str(caught.value) and "cannot be opened" in str(caught.value)
