"""User settings: one TOML file in the user config folder (`gpu-advisor config path`).

    theme = "textual-dark"        # the app's theme, remembered when changed with the palette
    region = "global"             # the default region of answers and of the sizing commands' --region
    currency = "USD"              # money in answers and the sizing commands' tables: USD, or CNY
    language = "auto"             # the app's own words before a conversation has a language: auto (English), en, zh

    [keys]                        # remap a key by the id of its binding (F1 lists them)
    "chat.math" = "ctrl+e"

A missing file means the defaults. A damaged file or an unknown value is reported and ignored,
never fatal: the app still starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gpu_advisor.assistant.terminal import printable, quoted

if TYPE_CHECKING:
    import tomlkit

CONFIG_ENV = "GPU_ADVISOR_CONFIG"
REGIONS = ("global", "us", "eu", "china")
CURRENCIES = ("USD", "CNY")  # the currencies the price data and the exchange rate in rules.yaml cover
DEFAULT_THEME = "textual-dark"
MAX_SETTINGS_BYTES = 64 * 1024  # a settings file is a few lines
LANGUAGES = ("auto", "en", "zh")  # auto: the conversation's language, English until it has one
NAMED = ("theme", "region", "currency", "language")  # the plain settings; key bindings are keys.<binding id>


class SettingsError(ValueError):
    """A setting that cannot be set: bad input (exit 2)."""


@dataclass
class Settings:
    theme: str = DEFAULT_THEME
    region: str = "global"
    currency: str = "USD"
    language: str = "auto"
    keys: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # why (part of) the file was ignored

    def defaults(self) -> dict[str, str]:
        """The conversation defaults these settings change (assistant.policy.SETTABLE): only the ones
        that differ from the built-in defaults, so an unset file changes nothing."""
        built_in = Settings()
        return {k: getattr(self, k) for k in ("region", "currency") if getattr(self, k) != getattr(built_in, k)}

    def as_dict(self) -> dict[str, object]:
        return {"theme": self.theme, "region": self.region, "currency": self.currency, "language": self.language,
                "keys": dict(self.keys)}


def settings_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("gpu-advisor", appauthor=False)) / "settings.toml"


def default_keys() -> dict[str, str]:
    """Each binding id and the key(s) it has when nothing remaps it."""
    from gpu_advisor.tui import bindings

    return {b.id: b.key for b in bindings.APP_BINDINGS + bindings.CHAT_BINDINGS + bindings.MESSAGE_BINDINGS
            + bindings.SESSIONS_BINDINGS
            + bindings.REPLAY_BINDINGS if b.id}


def binding_ids() -> set[str]:
    return set(default_keys())


def theme_names() -> set[str]:
    """The themes the app can show: Textual's built-in ones (the app registers no others)."""
    from textual.theme import BUILTIN_THEMES

    return set(BUILTIN_THEMES)


MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")


def _key_names() -> set[str]:
    """Textual's names of keys without modifiers: named keys (f5, pageup, delete, ...) and the
    names of the printable ASCII characters (plus, minus, equals_sign, ...)."""
    from textual.keys import Keys, _character_to_key

    names = {k.value.rsplit("+", 1)[-1] for k in Keys if not k.value.startswith("<")}
    return names | {_character_to_key(chr(c)) for c in range(33, 127)}


def key_list(value: str) -> str:
    """A key, or several separated by commas, as Textual names them ("ctrl+e", "f5", "ctrl+shift+up"),
    lower-cased where case does not matter; anything else is refused (Textual would bind a name it
    does not know, the footer would show nonsense and the key would never fire)."""
    names = _key_names()
    keys = []
    for key in value.split(","):
        *modifiers, name = [part.strip() for part in key.strip().split("+")]
        modifiers = [m.lower() for m in modifiers]
        if len(name) > 1 or modifiers:  # "E" is Shift+E; "Ctrl+E" is ctrl+e (terminals send it so)
            name = name.lower()
        good = bool(name) and (name in names or (len(name) == 1 and name.isprintable() and not name.isspace()))
        if not good or any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) < len(modifiers):
            raise SettingsError(f"{quoted(key.strip())} is not a key: use Textual's key names, such as ctrl+e, f5, "
                                "ctrl+shift+up, pageup or a single character, several separated by commas")
        keys.append("+".join([*modifiers, name]))
    return ",".join(keys)


def _read(path: Path) -> str:
    """The text of the settings file, checked before it is read: a FIFO, a device (a link to
    /dev/zero) or a file over MAX_SETTINGS_BYTES is refused by its type and size, never opened for
    reading whole, so a crafted file costs no time and no memory."""
    info = path.stat()  # (follows a symbolic link: what would be read)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("it is not a regular file")
    if info.st_size > MAX_SETTINGS_BYTES:
        raise ValueError(f"it is {info.st_size:,} bytes; a settings file is at most {MAX_SETTINGS_BYTES:,}")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # (replaced by a FIFO meanwhile: no wait)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise ValueError("it is not a regular file")
        data = f.read(MAX_SETTINGS_BYTES + 1)
    if len(data) > MAX_SETTINGS_BYTES:
        raise ValueError(f"it is over {MAX_SETTINGS_BYTES:,} bytes")
    text = data.decode("utf-8-sig")  # (a byte-order mark, as some Windows editors save, is no key)
    _check_key_depth(text)
    return text


MAX_LINE_DOTS = 64  # dots on one line: a setting's key has 2 or 3 parts ('keys.chat.math'), a value a few dots


def _check_key_depth(text: str) -> None:
    """Refuse, before TOML reads it, a line of more dots than any setting has: the TOML reader's time grows with the
    square of a dotted key's parts (30,000 parts in 60 KB took minutes, blocking every command)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.count(".") > MAX_LINE_DOTS:
            raise ValueError(f"line {number} has {line.count('.'):,} dots; no setting's key has more than a few parts")


def load(path: Path | None = None) -> Settings:
    path = path or settings_path()
    settings = Settings()
    try:
        data = tomllib.loads(_read(path))
    except FileNotFoundError:
        return settings
    except (OSError, ValueError, RecursionError, MemoryError) as e:  # (UnicodeDecodeError, TOMLDecodeError)
        why = "it is nested too deeply" if isinstance(e, RecursionError) else (
            getattr(e, "strerror", None) or " ".join(str(e).split())[:200])
        settings.problem = printable(f"the settings file {path} could not be read ({why}); using the defaults")
        return settings
    problems = []
    for key, value in data.items():
        try:
            if key == "keys":
                if not isinstance(value, dict):
                    raise SettingsError("[keys] must be a table of binding id = key")
                for binding_id, keys in _flat(value):
                    try:
                        _set(settings, f"keys.{binding_id}", keys)
                    except SettingsError as e:
                        problems.append(str(e))
            else:
                _set(settings, key, value)
        except SettingsError as e:
            problems.append(str(e))
    if problems:
        settings.problem = printable(f"{path}: {'; '.join(problems)} (ignored)")  # values quoted: never terminal commands
    return settings


def _flat(table: dict, prefix: str = "") -> list[tuple[str, object]]:
    """The [keys] table as binding id = key, however the ids were written: `"chat.math" = ...`, the
    usual TOML dotted key `chat.math = ...` and a `[keys.chat]` table all mean binding `chat.math`."""
    pairs: list[tuple[str, object]] = []
    for name, value in table.items():
        if isinstance(value, dict):
            pairs += _flat(value, f"{prefix}{name}.")
        else:
            pairs.append((f"{prefix}{name}", value))
    return pairs


def _unknown(key: str) -> SettingsError:
    return SettingsError(f"unknown setting {quoted(key)} (known: {', '.join(NAMED)}, keys.<binding id>)")


def _set(settings: Settings, key: str, value: object) -> None:
    if key not in NAMED and not key.startswith("keys."):
        raise _unknown(key)
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{key} must be a text value")
    value = value.strip()
    if key == "theme":
        themes = theme_names()
        if value not in themes:
            raise SettingsError(f"there is no theme {quoted(value)} (themes: {', '.join(sorted(themes))})")
        settings.theme = value
    elif key == "region":
        if value not in REGIONS:
            raise SettingsError(f"region must be one of {', '.join(REGIONS)}, not {quoted(value)}")
        settings.region = value
    elif key == "currency":
        if value.upper() not in CURRENCIES:
            raise SettingsError(f"currency must be one of {', '.join(CURRENCIES)}, not {quoted(value)}")
        settings.currency = value.upper()
    elif key == "language":
        if value.lower() not in LANGUAGES:
            raise SettingsError(f"language must be one of {', '.join(LANGUAGES)}, not {quoted(value)}")
        settings.language = value.lower()
    elif key.startswith("keys."):
        binding_id = key.removeprefix("keys.")
        if binding_id not in binding_ids():
            raise SettingsError(f"there is no key binding {quoted(binding_id)} (known: {', '.join(sorted(binding_ids()))})")
        settings.keys[binding_id] = key_list(value)
    else:
        raise _unknown(key)


def set_value(key: str, value: str, path: Path | None = None) -> Settings:
    """Change one setting in the file (validated first: a bad value changes nothing). Only that line
    changes: comments, unknown tables and the rest of the file stay as the user wrote them."""
    path = path or settings_path()
    settings = load(path)
    settings.problem = None
    _set(settings, key, value)
    stored = settings.keys[key.removeprefix("keys.")] if key.startswith("keys.") else getattr(settings, key)
    _edit(path, lambda doc: _assign(doc, key, stored))
    return settings


def get_value(key: str, settings: Settings) -> str:
    """One setting in effect (a key binding not remapped gives its default key)."""
    if key in NAMED:
        return str(getattr(settings, key))
    if key.startswith("keys."):
        binding_id = key.removeprefix("keys.")
        if binding_id not in binding_ids():
            raise SettingsError(f"there is no key binding {quoted(binding_id)} (known: {', '.join(sorted(binding_ids()))})")
        return settings.keys.get(binding_id, default_keys()[binding_id])
    raise _unknown(key)


def unset_value(key: str, path: Path | None = None) -> Settings:
    """Put one setting back to its default: its line leaves the file (an unknown key changes nothing)."""
    path = path or settings_path()
    settings = load(path)
    settings.problem = None
    get_value(key, settings)  # (refuses an unknown key before anything is written)
    if key.startswith("keys."):
        settings.keys.pop(key.removeprefix("keys."), None)
    else:
        setattr(settings, key, getattr(Settings(), key))
    _edit(path, lambda doc: _remove(doc, key))
    return settings


def to_toml(settings: Settings) -> str:
    # JSON strings are valid TOML basic strings.
    lines = [HEADER.rstrip("\n"),
             f"theme = {json.dumps(settings.theme, ensure_ascii=False)}",
             f"region = {json.dumps(settings.region)}",
             f"currency = {json.dumps(settings.currency)}",
             f"language = {json.dumps(settings.language)}"]
    if settings.keys:
        lines += ["", "[keys]"] + [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(settings.keys.items())]
    return "\n".join(lines) + "\n"


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write every setting into the file (the app remembering its theme, `config edit` creating the
    file), keeping whatever else the file holds."""
    path = path or settings_path()

    def write_all(doc: tomlkit.TOMLDocument) -> None:
        for key in NAMED:
            _assign(doc, key, getattr(settings, key))
        for binding_id, keys in sorted(settings.keys.items()):
            _assign(doc, f"keys.{binding_id}", keys)

    _edit(path, write_all)
    return path


HEADER = "# GPU Advisor settings (gpu-advisor config set KEY VALUE)\n"
LOCK_TIMEOUT_S = 10.0  # another `config set` holding the file: wait this long, then say so


def _assign(doc: tomlkit.TOMLDocument, key: str, value: str) -> None:
    if key.startswith("keys."):
        table = doc.get("keys")
        if not isinstance(table, dict):
            import tomlkit

            table = tomlkit.table()
            doc["keys"] = table
        home, name = _home(table, key.removeprefix("keys."))
        home[name] = value
    else:
        doc[key] = value


def _home(table: dict, binding_id: str) -> tuple[dict, str]:
    """Where a binding's entry lives in the [keys] table: the table that already holds it as the user
    wrote it (`"chat.math"`, dotted `chat.math` or `[keys.chat]`), else the top of [keys] with the id
    quoted. One entry per binding: `config set` changes the user's line, never adds a second one."""
    if binding_id in table:
        return table, binding_id
    head, _, rest = binding_id.partition(".")
    if rest and isinstance(table.get(head), dict):
        inner, name = _home(table[head], rest)
        if name in inner:
            return inner, name
    return table, binding_id


def _remove(doc: tomlkit.TOMLDocument, key: str) -> None:
    if key.startswith("keys."):
        table = doc.get("keys")
        if isinstance(table, dict):
            home, name = _home(table, key.removeprefix("keys."))
            home.pop(name, None)
    else:
        doc.pop(key, None)


def _edit(path: Path, change: Callable[[tomlkit.TOMLDocument], None]) -> None:
    """Read, change and write the settings file as one step that other writers wait for (a lock
    beside it), keeping comments, unknown tables and formatting (tomlkit). A symbolic link stays a
    link: the file it points at is written. The new text goes to a temporary file of its own and is
    renamed into place, so a crash leaves the old file or the new one. A file that cannot be read as
    settings is refused, never overwritten: the user fixes or removes it."""
    import tomlkit  # (only when writing: every command reads settings, few write them)
    from filelock import FileLock, Timeout

    try:
        target = path.resolve() if path.is_symlink() else path
    except (RuntimeError, OSError):  # a link to itself, or a loop of links
        raise SettingsError(printable(f"the settings file {path} is a loop of symbolic links; nothing was changed: "
                                      "remove it or point it at a file")) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(path.parent / f".{path.name}.lock"), timeout=LOCK_TIMEOUT_S):
            try:
                text = _read(target)
            except FileNotFoundError:
                text = HEADER
            doc = tomlkit.parse(text)
            change(doc)
            _replace(target, tomlkit.dumps(doc))
    except Timeout:
        raise SettingsError(f"another gpu-advisor is changing {path}; try again") from None
    except (ValueError, RecursionError) as e:  # (UnicodeDecodeError, tomlkit's ParseError)
        why = "it is nested too deeply" if isinstance(e, RecursionError) else " ".join(str(e).split())[:200]
        raise SettingsError(printable(f"the settings file {path} could not be read ({why}); nothing was changed: "
                                      "fix it with 'gpu-advisor config edit' or remove it")) from None


def _replace(target: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(target.stat().st_mode))  # (the user's permissions stay)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
