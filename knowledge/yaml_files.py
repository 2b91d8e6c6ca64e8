"""The package's YAML reader, and the cache of parsed files that keeps start-up quick.

YAML text is read with libyaml's C loader where it is installed. A data file read at every start (the
message catalogs, the reader's word files, the records) is parsed once per version of the file: the parsed
form is kept as JSON in the user cache folder, keyed by a hash of the file's bytes, because JSON loads
tens of times faster than YAML. Kept apart from loader.py (the validated records) so that text files can be
read without building the record schemas (pydantic) first: the app's first screen needs only text.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml


@functools.cache
def yaml_loader() -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """libyaml's C loader, or the pure-Python one where libyaml is missing. PyYAML itself is imported
    here, on the first file that is parsed: a start that reads only cached copies never loads it."""
    import yaml

    try:  # the C loader is several times faster; fall back where libyaml is missing
        return yaml.CSafeLoader
    except AttributeError:  # pragma: no cover
        return yaml.SafeLoader


def load_yaml(text: str | bytes) -> Any:
    """YAML's safe subset read with libyaml's C loader where it is installed (several times faster than the
    pure-Python one: the reader's word files and the message catalogs are read at every start)."""
    import yaml

    return yaml.load(text, Loader=yaml_loader())


def _cache_dir() -> Path | None:
    override = os.environ.get("GPU_ADVISOR_CACHE_DIR")
    if override:
        return Path(override)
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover
        return None
    return Path(user_cache_dir("gpu-advisor", appauthor=False))


def cache_dir() -> Path | None:
    """The app's cache folder ($GPU_ADVISOR_CACHE_DIR, else the user cache folder); None without one."""
    return _cache_dir()


def read_cache_file(path: Path, limit: int) -> bytes | None:
    """The bytes of a cache file, or None when it is missing or not a plain file of at most `limit`
    bytes: a cache file is never trusted to be one (a FIFO would hang the read, a link to /dev/zero
    would fill memory). Never blocks."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def write_cache(path: Path, text: str) -> None:
    """Write a cache file whole (a temporary file renamed into place); a folder that cannot be
    written is no error: the cache only saves work next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


MAX_DEPTH = 64


# A mapping whose keys JSON cannot hold as they are (numbers, true/false, null: `8: 8 GB` in a word file) is kept
# as {PAIRS: [[key, value], ...]} and made a mapping again on reading: such a file is read from its JSON copy too.
PAIRS = "\u0000pairs"
_KEY_KINDS = (str, int, bool, type(None))


def _json_exact(value: Any, depth: int = 0) -> bool:
    """True when the cache gives back exactly this value: only strings, whole numbers, finite floats,
    true/false, null, lists and mappings keyed by these (a date would come back as text)."""
    if depth > MAX_DEPTH:
        return False
    kind = type(value)
    if value is None or kind in (str, bool, int):
        return True
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(_json_exact(v, depth + 1) for v in value)
    if kind is dict:
        return all((type(k) in _KEY_KINDS or (type(k) is float and math.isfinite(k))) and k != PAIRS
                   and _json_exact(v, depth + 1) for k, v in value.items())
    return False


def _to_json(value: Any) -> Any:
    """A value _json_exact passed, its mappings with keys other than text written as PAIRS."""
    if type(value) is list:
        return [_to_json(v) for v in value]
    if type(value) is dict:
        if all(type(k) is str for k in value):
            return {k: _to_json(v) for k, v in value.items()}
        return {PAIRS: [[k, _to_json(v)] for k, v in value.items()]}
    return value


def _from_pairs(mapping: dict[str, Any]) -> Any:
    return {k: v for k, v in mapping[PAIRS]} if len(mapping) == 1 and PAIRS in mapping else mapping


def _from_json(text: bytes) -> Any:
    """A cached copy read back; the hook that rebuilds PAIRS runs only for a file that has them."""
    return json.loads(text, object_hook=_from_pairs) if b'"\\u0000pairs"' in text else json.loads(text)


def load_yaml_file(path: Path) -> Any:
    """A UTF-8 YAML file read as load_yaml reads its text, through the parsed-file cache: the same value,
    from JSON after the first read of this version of the file. A file JSON cannot give back exactly (a
    date) is parsed every time; a cache file that is not a plain file of a sane size, or
    not JSON, is passed over and written again."""
    raw = path.read_bytes()
    base = cache_dir()
    cached = base / f"{path.parent.name}.{path.stem}-{hashlib.sha256(raw).hexdigest()[:16]}.json" if base else None
    if cached is not None:
        text = read_cache_file(cached, 16 * len(raw) + (1 << 20))
        if text is not None:
            try:
                return _from_json(text)
            except (ValueError, RecursionError, TypeError):
                pass  # damaged: parsed again below and written anew
    data = load_yaml(raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n"))  # as read_text() reads it
    if cached is not None and _json_exact(data):
        write_cache(cached, json.dumps(_to_json(data), ensure_ascii=False))
    return data
