"""Regular expressions the reader builds from its vocabulary, compiled once per version of each pattern, not per process.

Compiling a regular expression is mostly Python work (the `re` module parses the text and generates the
matcher's code in Python), and the first message reads with about a thousand vocabulary patterns: that was
most of a cold `gpu-advisor ask`'s first turn. The code `re` generates for a pattern depends only on the
pattern's text and on the interpreter, so it is kept in the user cache folder, one file per interpreter
(its version and the matcher's format), and each pattern is keyed by its own text: a word file that changes
changes its patterns' text, which are then compiled afresh, so an entry is never stale. The matcher is built
from the kept code by the same call `re.compile` ends with, and compares equal to what `re.compile` returns
(tests/test_issue24_patterns_cache.py checks each of the hundreds that English and Chinese messages use); where anything about the cached form
is off (a damaged file, another interpreter's layout) the pattern is compiled by `re.compile` as before.
"""

from __future__ import annotations

import array
import atexit
import base64
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from gpu_advisor.knowledge.yaml_files import cache_dir, read_cache_file, write_cache

try:  # the matcher's own compile step (what re.compile calls last); absent or different elsewhere: plain re.compile
    import _sre  # type: ignore[import-not-found]
    from re import _compiler, _parser  # type: ignore[attr-defined]

    _CODE = next((kind for kind in "IL" if array.array(kind).itemsize == _sre.CODESIZE), "")  # the code's word
    _LAYOUT = f"{sys.version}|{sys.implementation.name}|{_sre.MAGIC}|{_sre.CODESIZE}|{_sre.MAXREPEAT}|{_sre.MAXGROUPS}"
except (ImportError, AttributeError):  # pragma: no cover
    _CODE, _LAYOUT = "", ""

MAX_FILE_BYTES = 64 << 20
MAX_ENTRIES = 5_000  # a few times the patterns the reader builds: past that, only this process's are kept

_compiled: dict[str, re.Pattern[str]] = {}  # this process's patterns
_kept: dict[str, list[Any]] | None = None  # the cache file's entries, read on the first pattern
_new: dict[str, list[Any]] = {}  # entries compiled in this process, written at exit


def compiled(pattern: str) -> re.Pattern[str]:
    """`re.compile(pattern)`, from the kept code when this interpreter compiled the same text before."""
    found = _compiled.get(pattern)
    if found is None:
        found = _compiled[pattern] = _from_kept(pattern) or _compile(pattern)
    return found


def _cache_file() -> Path | None:
    base = cache_dir() if _CODE else None
    return base / f"patterns-{hashlib.sha256(_LAYOUT.encode()).hexdigest()[:16]}.json" if base else None


def _entries() -> dict[str, list[Any]]:
    global _kept
    if _kept is None:
        _kept = {}
        path = _cache_file()
        raw = read_cache_file(path, MAX_FILE_BYTES) if path else None
        if raw:
            try:
                data = json.loads(raw)
                if isinstance(data, dict) and data.get("layout") == _LAYOUT and isinstance(data.get("patterns"), dict):
                    _kept = data["patterns"]
            except (ValueError, RecursionError):
                pass  # damaged: written anew at exit
        atexit.register(_write)
    return _kept


def _from_kept(pattern: str) -> re.Pattern[str] | None:
    entry = _entries().get(pattern)
    if entry is None:
        return None
    try:
        flags, code64, groups, groupindex, indexgroup = entry
        code = array.array(_CODE)
        code.frombytes(base64.b64decode(code64, validate=True))
        return _sre.compile(pattern, flags, code.tolist(), groups, groupindex, tuple(indexgroup))
    except (TypeError, ValueError, RuntimeError, OverflowError):  # damaged entry: compiled again
        return None


def _compile(pattern: str) -> re.Pattern[str]:
    """What re.compile does for a pattern text without flags, keeping the generated code for next time."""
    if not _CODE:  # pragma: no cover
        return re.compile(pattern)
    parsed = _parser.parse(pattern, 0)  # a bad pattern raises re.error here, as in re.compile
    code = _compiler._code(parsed, 0)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    flags, groups = parsed.state.flags, parsed.state.groups - 1
    try:
        result: re.Pattern[str] = _sre.compile(pattern, flags, code, groups, groupindex, tuple(indexgroup))
    except (TypeError, RuntimeError):  # pragma: no cover - a matcher whose compile step differs: nothing kept
        return re.compile(pattern)
    _new[pattern] = [flags, base64.b64encode(array.array(_CODE, code).tobytes()).decode("ascii"), groups,
                     groupindex, indexgroup]
    return result


def _write() -> None:
    """At exit, the patterns compiled in this process added to the cache file; past MAX_ENTRIES (old versions of
    changed word files pile up) the file keeps only the patterns this process used."""
    path = _cache_file()
    if not _new or path is None:
        return
    kept = _kept or {}
    patterns = {**kept, **_new}
    if len(patterns) > MAX_ENTRIES:
        patterns = {p: patterns[p] for p in _compiled if p in patterns}
    write_cache(path, json.dumps({"layout": _LAYOUT, "patterns": patterns}, ensure_ascii=False))
    _new.clear()
