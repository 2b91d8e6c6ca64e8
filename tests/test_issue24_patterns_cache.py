"""Issue 24, start-up: the reader's vocabulary patterns are compiled from the code kept in the cache folder
(knowledge/pattern_cache.py) instead of being parsed afresh by `re` in every process: most of a cold `ask`'s
first turn was that parsing. Checked as structure, not time: a second process compiles no vocabulary pattern and
reads every message as the first did; each kept matcher equals what `re.compile` gives; a word file that changes
is read as changed (an entry is keyed by the pattern's own text, so none is ever stale); a damaged cache file is
passed over."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.assistant.reading.text import WORDS_DIR
from gpu_advisor.knowledge import pattern_cache as compiled_module

ROOT = Path(__file__).resolve().parents[1]

MESSAGES = [
    "serve llama 3.1 8b to 10 users",
    "fine-tune a 27B model with qlora and serve it to 20 users, budget $5k a month",
    "we can use spot instances; 4x h100 owned, HIPAA applies",
    "给200个客服用Qwen2.5-32B，预算每月两万人民币",
    "想在两张4090上微调qwen2.5 14b，8k上下文，能跑吗",
    "what about int4 and 32k context?",
]

# One process: read each message (with the word files of argv[2] when given), then print the readings, how many
# vocabulary patterns this process compiled, and whether each one it took from the kept file equals re.compile's.
READ = """
import json, re, sys
from pathlib import Path
from gpu_advisor.assistant.reading import text
if len(sys.argv) > 2:
    text.WORDS_DIR = Path(sys.argv[2])
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import pattern_cache as compiled
readings = []
for message in json.loads(sys.argv[1]):
    u = understand(message)
    readings.append(repr((sorted(u.intents), sorted(map(repr, u.updates.items())), u.notes)))
kept = [p for p in compiled._compiled if p not in compiled._new]
print(json.dumps({"readings": readings, "compiled": len(compiled._new), "kept": len(kept),
                  "equal": all(compiled._compiled[p] == re.compile(p) for p in compiled._compiled)}))
"""


def _read(cache: Path, messages: list[str], words: Path | None = None) -> dict:
    env = {**os.environ, "GPU_ADVISOR_CACHE_DIR": str(cache)}
    argv = [sys.executable, "-c", READ, json.dumps(messages)] + ([str(words)] if words else [])
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_second_process_compiles_no_vocabulary_pattern_and_reads_the_same(tmp_path):
    cold = _read(tmp_path, MESSAGES)
    assert cold["compiled"] > 300 and cold["kept"] == 0  # the first process parses them and keeps the code
    assert list(tmp_path.glob("patterns-*.json"))
    warm = _read(tmp_path, MESSAGES)
    assert warm["compiled"] == 0 and warm["kept"] == cold["compiled"]
    assert warm["readings"] == cold["readings"]
    assert warm["equal"] and cold["equal"]  # every matcher is the one re.compile builds


@pytest.mark.slow
def test_a_changed_word_file_is_read_as_changed(tmp_path):
    """A copy of the word files whose spot-instance words gain one: read with the cache the original filled, the
    new word is read (its pattern is new text, so it is compiled), and the original still is not."""
    cache, words = tmp_path / "cache", tmp_path / "words"
    shutil.copytree(WORDS_DIR, words)
    said = ["serve llama 3.1 8b to 10 users on zzcheap boxes"]
    before = _read(cache, said, words)
    assert "note.spot" not in before["readings"][0]
    path = words / "constraints.yaml"
    source = path.read_text(encoding="utf-8")
    assert "(?:spot|preemptible|" in source
    path.write_text(source.replace("(?:spot|preemptible|", "(?:zzcheap|spot|preemptible|", 1), encoding="utf-8")
    after = _read(cache, said, words)
    assert "note.spot" in after["readings"][0]
    assert after["compiled"] >= 1 and after["kept"] > 300  # the changed pattern alone is compiled afresh
    assert _read(cache, said)["readings"] == before["readings"]  # the original words, from the same cache


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """The module's state as a new process has it, with its cache folder in tmp_path."""
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path))
    for name, value in (("_compiled", {}), ("_kept", None), ("_new", {})):
        monkeypatch.setattr(compiled_module, name, value)
    return tmp_path


def _restart(monkeypatch) -> None:
    """Write what this 'process' compiled, then start another."""
    compiled_module._write()
    for name, value in (("_compiled", {}), ("_kept", None), ("_new", {})):
        monkeypatch.setattr(compiled_module, name, value)


PATTERNS = [r"\b(?:spot|preemptible)\s*(?:instances?)?\b|竞价实例", r"(?P<n>\d+(?:\.\d+)?)\s*(?:users?|人)",
            r"(?i)\bH100\b", r"(?<![a-z])(?:a|an)\s+(?=\d)", r"[\u3400-\u9fff]{2,}(?!的)", r"(a)|(?P<b>b)\2?"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_kept_code_builds_the_matcher_re_compile_builds(fresh, monkeypatch, pattern):
    first = compiled_module.compiled(pattern)
    assert first == re.compile(pattern) and pattern in compiled_module._new
    _restart(monkeypatch)
    again = compiled_module.compiled(pattern)
    assert pattern not in compiled_module._new  # taken from the kept code
    assert again == re.compile(pattern)
    assert (again.groups, again.groupindex, again.flags) == (first.groups, first.groupindex, first.flags)


@pytest.mark.parametrize("damage", [
    "not json", '{"layout": "another interpreter", "patterns": {}}', "[1, 2]",
    "entry:[0, \"@@not base64@@\", 0, {}, []]", "entry:[0, \"AAAA\", 0, {}, []]", "entry:\"scalar\"",
])
def test_a_damaged_cache_is_passed_over(fresh, monkeypatch, damage):
    pattern = r"\b(?:spot|preemptible)\b"
    compiled_module.compiled(pattern)
    _restart(monkeypatch)
    (path,) = fresh.glob("patterns-*.json")
    if damage.startswith("entry:"):
        data = json.loads(path.read_text())
        data["patterns"][pattern] = json.loads(damage[len("entry:"):])
        path.write_text(json.dumps(data))
    else:
        path.write_text(damage)
    got = compiled_module.compiled(pattern)
    assert got == re.compile(pattern) and got.search("use spot vms")
    assert pattern in compiled_module._new  # compiled again, and written anew at exit
    _restart(monkeypatch)
    compiled_module.compiled(pattern)
    assert pattern not in compiled_module._new


def test_a_bad_pattern_fails_as_re_compile_fails(fresh):
    with pytest.raises(re.error):
        compiled_module.compiled(r"(?:unclosed")
    assert compiled_module._new == {}


def test_past_its_bound_the_file_keeps_the_patterns_in_use(fresh, monkeypatch):
    monkeypatch.setattr(compiled_module, "MAX_ENTRIES", 3)
    for n in range(3):
        compiled_module.compiled(rf"old{n}\d")
    _restart(monkeypatch)
    compiled_module.compiled(r"old0\d")  # kept, in use
    compiled_module.compiled(r"new\d+")
    _restart(monkeypatch)
    (path,) = fresh.glob("patterns-*.json")
    assert sorted(json.loads(path.read_text())["patterns"]) == sorted([r"old0\d", r"new\d+"])
    assert compiled_module.compiled(r"old0\d") == re.compile(r"old0\d") and compiled_module._new == {}
