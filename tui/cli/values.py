"""Argument types: what the text of a flag may be, and the one-line reason when it is not."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from gpu_advisor.assistant.terminal import quoted
from gpu_advisor.tools.common import MAX_COUNT

MAX_AMOUNT = 1e12  # hours, dollars, tokens/s ...: beyond this no figure means anything (and products stay finite)
MAX_CONFIG_BYTES = 1 << 20  # a Hugging Face config.json is a few KB


def positive_int(text: str) -> int:
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        if text.lower().endswith("k") and text[:-1].replace(".", "", 1).isdigit():
            value = int(float(text[:-1]) * 1024)
        else:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {quoted(text)}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{value:,} is beyond anything this tool can size (at most {MAX_COUNT:,})")
    return value


def _finite(value: float, text: str) -> float:
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {quoted(text)}")
    return value


def fraction(text: str) -> float:
    raw = text.strip().rstrip("%")
    try:
        value = _finite(float(raw), text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a fraction like 0.7 or 70%, got {quoted(text)}") from None
    if text.strip().endswith("%") or value > 1:
        value /= 100
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (or 1% and 100%), got {quoted(text)}")
    return value


def _number(text: str) -> float:
    try:
        value = float(text.replace(",", "").lstrip("$"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {quoted(text)}") from None
    _finite(value, text)
    from gpu_advisor.tools.common import MIN_AMOUNT

    if 0 < abs(value) < MIN_AMOUNT:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is too small to mean anything (at least {MIN_AMOUNT:g}, or 0)")
    if abs(value) > MAX_AMOUNT:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is beyond anything this tool can price or size (at most {MAX_AMOUNT:g})")
    return value


def positive_float(text: str) -> float:
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {quoted(text)}")
    return value


def non_negative_float(text: str) -> float:
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"cannot be negative, got {quoted(text)}")
    return value


def port_number(text: str) -> int:
    """A TCP port to listen on: 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number (1 to 65535), got {quoted(text)}") from None
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"{value} is not a port number (1 to 65535)")
    return value


def db_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("needs the path of a database file, not an empty string")
    return str(_expanded(text))


def _expanded(text: str) -> Path:
    """A path as typed, '~' and '~user' expanded; a user with no home folder is one line, not an error."""
    try:
        return Path(text).expanduser()
    except RuntimeError:  # '~nouser/x.db'
        raise argparse.ArgumentTypeError(f"'{text.split('/')[0]}' names no user's home folder") from None


def framework_id(text: str) -> str:
    """A --framework value: a preset id or alias, checked when given (the presets load only then)."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.training import find_framework

    try:
        return find_framework(text).id
    except ToolError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def revision_name(text: str) -> str:
    """A --revision value: a branch, tag or commit name of a repository ('main', 'v1.0', 'refs/pr/1', a commit hash),
    never one with '..' or an empty part that would name a folder outside the repository's cache."""
    from gpu_advisor.knowledge.hub import check_revision

    try:
        return check_revision(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def model_spec(text: str) -> str:
    """A --model value; when it names a file (or a folder with config.json), that file must be a
    regular JSON file of sane size: no devices, FIFOs or endless files, no absurd nesting or numbers."""
    path = _expanded(text)
    try:
        if not (text.endswith(".json") or "/" in text) or not (path.exists() or path.is_symlink()):
            return text
        if path.is_dir():
            path = path / "config.json"
            if not path.exists():
                return text
        if not path.is_file():
            raise argparse.ArgumentTypeError(f"{path} is not a regular file; give a config.json file")
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise argparse.ArgumentTypeError(f"{path} is over {MAX_CONFIG_BYTES // 1024} KB: not a model config.json")
        with path.open("rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        config = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise argparse.ArgumentTypeError(f"{path} is not text (not UTF-8): not a config.json") from None
    except (ValueError, RecursionError) as e:
        reason = "nested too deeply" if isinstance(e, RecursionError) else str(e).split(":")[0]
        raise argparse.ArgumentTypeError(f"{path} is not valid JSON ({reason})") from None
    if not isinstance(config, dict) or not _sane_json(config):
        raise argparse.ArgumentTypeError(f"{path} is not a model config.json (an object of sane values)")
    return text


def _sane_json(value: object, depth: int = 0) -> bool:
    if depth > 32:
        return False
    if isinstance(value, dict):
        return all(_sane_json(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_sane_json(v, depth + 1) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return math.isfinite(value) and abs(value) <= 1e18
    return True


def tokens_amount(text: str) -> float:
    t = text.strip().lower().replace(",", "")
    scale = {"k": 1e3, "m": 1e6, "b": 1e9}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale != 1 else t) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a token count like 20M or 5000000, got {quoted(text)}") from None
    _finite(value, text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {quoted(text)}")
    if value > MAX_AMOUNT * 1e4:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is beyond anything this tool can size")
    return value


def duration_ms(text: str) -> float:
    """A latency target: '2s', '1.5 s', '50ms', '300' (milliseconds when no unit is given), in milliseconds."""
    t = text.strip().lower().replace(" ", "")
    scale = 1.0
    for unit, factor in (("ms", 1.0), ("sec", 1000.0), ("s", 1000.0)):
        if t.endswith(unit):
            t, scale = t[: -len(unit)], factor
            break
    try:
        value = _finite(float(t), text) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a time like 2s, 500ms or 300 (ms), got {quoted(text)}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {quoted(text)}")
    if value > 86_400_000:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is longer than a day: not a latency target")
    return value
