"""Shared test settings: deterministic Hypothesis runs, a private data-file cache, the repository root."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run, and no example database written into the checkout.
settings.register_profile("gpu-advisor", derandomize=True, database=None, deadline=None, print_blob=True)
settings.load_profile("gpu-advisor")

# knowledge.loader caches parsed data files as JSON in the user cache folder; tests (and the
# subprocesses they start) use a throwaway folder instead. Set before any test module loads data.
_CACHE = tempfile.TemporaryDirectory(prefix="gpu-advisor-test-cache-")
os.environ["GPU_ADVISOR_CACHE_DIR"] = _CACHE.name
# `ask` and `chat` save conversations: never into the user's own history (a test that needs its own
# database sets GPU_ADVISOR_DB or passes --db).
os.environ["GPU_ADVISOR_DB"] = str(Path(_CACHE.name) / "history.db")
# The processes the tests start (the command line, the servers) keep the modules they compile in the same throwaway
# folder, so only the first start compiles them: where PYTHONDONTWRITEBYTECODE is set, every start compiled each of
# the app's modules again (about 0.6 s of CPU a start). Nothing is written into the checkout.
os.environ["PYTHONPYCACHEPREFIX"] = str(Path(_CACHE.name) / "bytecode")
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# No test reaches the Hugging Face Hub (the CLI may, for sizing commands): the opt-in `network` test
# sets its own environment.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Lists show local times (the sessions list and screen): the suite runs in UTC, whatever the machine's
# zone, so the app's snapshots are the same everywhere; a test about zones sets TZ itself.
os.environ["TZ"] = "UTC"
time.tzset()

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture
def zone(monkeypatch):
    """Sets the process's time zone for one test; the zone before it comes back after."""

    def use(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's settings read and written in the test's own folder (app tests use it for every test:
    `pytestmark = pytest.mark.usefixtures("settings_file")`); a module may define its own."""
    path = tmp_path / "config" / "settings.toml"
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(path))
    return path


@pytest.fixture
def store(tmp_path: Path):
    """A history store in the test's own folder, closed after the test."""
    from gpu_advisor.assistant.history import HistoryStore

    s = HistoryStore(tmp_path / "history.db")
    yield s
    s.close()
