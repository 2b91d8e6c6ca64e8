"""The app's own words (help, the sessions and replay screens, the message keys, the tool-calls panel) in
each language: tui/catalog/<lang>.yaml, the app's counterpart of assistant/catalog. A key missing from a
language falls back to English (tests/test_tui_words.py keeps the two complete)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).with_name("catalog")
LANGS = ("en", "zh")


@cache
def catalog(lang: str) -> dict[str, Any]:
    from gpu_advisor.knowledge.yaml_files import load_yaml_file

    return load_yaml_file(FOLDER / f"{lang if lang in LANGS else 'en'}.yaml")


def words(lang: str, key: str, **values: Any) -> str:
    """The catalog's words for `key` in `lang`, its {names} filled from `values`."""
    entry = catalog(lang).get(key)
    if entry is None:
        entry = catalog("en")[key]
    return str(entry).format(**values) if values else str(entry)


def app_lang(app: Any) -> str:
    """The language of the app's own words: its conversation's (the chat screen's), else the setting's."""
    from gpu_advisor.tui.screens.chat import ChatScreen

    for screen in reversed(getattr(app, "screen_stack", [])):
        if isinstance(screen, ChatScreen):
            return screen.lang
    return getattr(getattr(app, "settings", None), "language", "en") if getattr(
        getattr(app, "settings", None), "language", "auto") in LANGS else "en"
