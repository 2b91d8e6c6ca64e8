"""User settings: one TOML file in the user config folder (`gpu-advisor config path`).

    theme = "textual-dark"        # the app's theme, remembered when changed with the palette
    region = "global"             # the default region of answers and of the sizing commands' --region
    currency = "USD"              # money in answers and the sizing commands' tables: USD, or CNY

    [keys]                        # remap a key by the id of its binding (F1 lists them)
    "chat.math" = "ctrl+e"

A missing file means the defaults. A damaged file or an unknown value is reported and ignored,
never fatal: the app still starts.
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from assistant.terminal import printable

CONFIG_ENV = "GPU_ADVISOR_CONFIG"
REGIONS = ("global", "us", "eu", "china")
CURRENCIES = ("USD", "CNY")  # the currencies the price data and the exchange rate in rules.yaml cover
DEFAULT_THEME = "textual-dark"
MAX_SETTINGS_BYTES = 64 * 1024  # a settings file is a few lines


class SettingsError(ValueError):
    """A setting that cannot be set: bad input (exit 2)."""


@dataclass
class Settings:
    theme: str = DEFAULT_THEME
    region: str = "global"
    currency: str = "USD"
    keys: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # why (part of) the file was ignored

    def defaults(self) -> dict[str, str]:
        """The conversation defaults these settings change (assistant.policy.SETTABLE): only the ones
        that differ from the built-in defaults, so an unset file changes nothing."""
        built_in = Settings()
        return {k: getattr(self, k) for k in ("region", "currency") if getattr(self, k) != getattr(built_in, k)}

    def as_dict(self) -> dict[str, object]:
        return {"theme": self.theme, "region": self.region, "currency": self.currency, "keys": dict(self.keys)}


def settings_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("gpu-advisor", appauthor=False)) / "settings.toml"


def default_keys() -> dict[str, str]:
    """Each binding id and the key(s) it has when nothing remaps it."""
    from tui import bindings

    return {b.id: b.key for b in bindings.APP_BINDINGS + bindings.CHAT_BINDINGS + bindings.SESSIONS_BINDINGS
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
            raise SettingsError(f"'{key.strip()}' is not a key: use Textual's key names, such as ctrl+e, f5, "
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
    return data.decode("utf-8")


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
                for binding_id, keys in value.items():
                    _set(settings, f"keys.{binding_id}", keys)
            else:
                _set(settings, key, value)
        except SettingsError as e:
            problems.append(str(e))
    if problems:
        settings.problem = printable(f"{path}: {'; '.join(problems)} (ignored)")  # values quoted: never terminal commands
    return settings


def _set(settings: Settings, key: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{key} must be a text value")
    value = value.strip()
    if key == "theme":
        themes = theme_names()
        if value not in themes:
            raise SettingsError(f"there is no theme '{value}' (themes: {', '.join(sorted(themes))})")
        settings.theme = value
    elif key == "region":
        if value not in REGIONS:
            raise SettingsError(f"region must be one of {', '.join(REGIONS)}, not '{value}'")
        settings.region = value
    elif key == "currency":
        if value.upper() not in CURRENCIES:
            raise SettingsError(f"currency must be one of {', '.join(CURRENCIES)}, not '{value}'")
        settings.currency = value.upper()
    elif key.startswith("keys."):
        binding_id = key.removeprefix("keys.")
        if binding_id not in binding_ids():
            raise SettingsError(f"there is no key binding '{binding_id}' (known: {', '.join(sorted(binding_ids()))})")
        settings.keys[binding_id] = key_list(value)
    else:
        raise SettingsError(f"unknown setting '{key}' (known: theme, region, currency, keys.<binding id>)")


def set_value(key: str, value: str, path: Path | None = None) -> Settings:
    """Change one setting and write the file (validated first: a bad value changes nothing)."""
    path = path or settings_path()
    settings = load(path)
    settings.problem = None
    _set(settings, key, value)
    save(settings, path)
    return settings


def get_value(key: str, settings: Settings) -> str:
    """One setting in effect (a key binding not remapped gives its default key)."""
    if key in ("theme", "region", "currency"):
        return str(getattr(settings, key))
    if key.startswith("keys."):
        binding_id = key.removeprefix("keys.")
        if binding_id not in binding_ids():
            raise SettingsError(f"there is no key binding '{binding_id}' (known: {', '.join(sorted(binding_ids()))})")
        return settings.keys.get(binding_id, default_keys()[binding_id])
    raise SettingsError(f"unknown setting '{key}' (known: theme, region, currency, keys.<binding id>)")


def unset_value(key: str, path: Path | None = None) -> Settings:
    """Put one setting back to its default and write the file (an unknown key changes nothing)."""
    path = path or settings_path()
    settings = load(path)
    settings.problem = None
    get_value(key, settings)  # (refuses an unknown key before anything is written)
    if key.startswith("keys."):
        settings.keys.pop(key.removeprefix("keys."), None)
    else:
        setattr(settings, key, getattr(Settings(), key))
    save(settings, path)
    return settings


def to_toml(settings: Settings) -> str:
    # JSON strings are valid TOML basic strings.
    lines = ["# GPU Advisor settings (gpu-advisor config set KEY VALUE)",
             f"theme = {json.dumps(settings.theme, ensure_ascii=False)}",
             f"region = {json.dumps(settings.region)}",
             f"currency = {json.dumps(settings.currency)}"]
    if settings.keys:
        lines += ["", "[keys]"] + [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(settings.keys.items())]
    return "\n".join(lines) + "\n"


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write the file atomically (a temporary file renamed into place)."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_text(to_toml(settings), encoding="utf-8")
    os.replace(tmp, path)
    return path
