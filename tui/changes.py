"""How the assumptions panel changes an assumption that has no question of its own, in the conversation's
language: a few choices, each a sentence the reader understands (checked in tests/test_tui.py and
tests/test_walk25_chinese_notices.py), and "type my own". The words live in tui/catalog/changes.yaml."""

from __future__ import annotations

from functools import cache
from typing import Any

from gpu_advisor.tui.words import FOLDER, LANGS


@cache
def _data() -> dict[str, Any]:
    from gpu_advisor.knowledge.yaml_files import load_yaml_file

    return dict(load_yaml_file(FOLDER / "changes.yaml"))


def choices(lang: str) -> dict[str, list[tuple[str, str]]]:
    """slot -> [(label, sentence)] in `lang` (English for a language the app has no words in)."""
    said = _data()[lang if lang in LANGS else "en"]["choices"]
    return {slot: [(str(label), str(phrase)) for label, phrase in pairs] for slot, pairs in said.items()}


def template(lang: str, slot: str, words: str = "") -> str:
    """What the message box is filled with to change `slot` ("type my own"), in `lang`."""
    said = _data()[lang if lang in LANGS else "en"]
    return str(said["templates"].get(slot) or said["other"].format(slot=words or slot.replace("_", " ")))


CHANGES: dict[str, list[tuple[str, str]]] = choices("en")
TEMPLATES: dict[str, str] = {str(k): str(v) for k, v in _data()["en"]["templates"].items()}
