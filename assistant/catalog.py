"""User-facing strings as data: one catalog per language (assistant/catalog/<lang>.yaml).

`say(lang, key, **values)` formats a catalog string; a key missing from a language falls back to
English (a test keeps the catalogs complete). Numbers are formatted by the caller, identically in
every language, so the same answer carries the same figures whatever language it is written in.
"""

from __future__ import annotations

import re
from functools import cache, partial
from pathlib import Path
from typing import Any, Literal

from gpu_advisor.knowledge.yaml_files import load_yaml, load_yaml_file

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")
FOLDER = Path(__file__).parent / "catalog"
_CJK = re.compile(r"[\u3400-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_ENGLISH_WORD = re.compile(r"\b(i|we|my|our|the|a|an|to|for|with|and|is|are|what|how|which|want|need|can|"
                           r"should|please|about|on|in|of|it|me|us)\b", re.IGNORECASE)


@cache
def catalog(lang: Lang) -> dict[str, Any]:
    return load_yaml_file(FOLDER / f"{lang}.yaml")


def text(lang: str, key: str) -> Any:
    """The raw catalog entry (a string, a list or a mapping)."""
    entry = catalog(lang if lang in LANGS else "en").get(key)
    return catalog("en")[key] if entry is None else entry


@cache
def _tool_text(lang: str) -> list[tuple[re.Pattern[str], str]]:
    path = FOLDER / f"tool_text.{lang}.yaml"
    if lang == "en" or not path.exists():
        return []
    rows = load_yaml(path.read_text(encoding="utf-8"))
    return [(re.compile(pattern), replacement) for pattern, replacement in rows]


@cache
def _formula_words(lang: str) -> list[tuple[re.Pattern[str], str]]:
    """The formula phrase table of a language (catalog/formula.<lang>.yaml), longest phrase first; '{n}'
    in a phrase is a number, carried over."""
    path = FOLDER / f"formula.{lang}.yaml"
    if lang == "en" or not path.exists():
        return []
    rows = load_yaml(path.read_text(encoding="utf-8"))
    out = []
    for english, words in sorted(rows, key=lambda row: -len(row[0])):
        pattern = re.escape(english).replace(re.escape("{n}"), r"(?P<n>\d[\d,.]*)")
        before = r"(?<![\w-])" if re.match(r"[\w{]", english) else ""  # whole words: not inside an identifier
        after = r"(?![\w-])" if re.search(r"\w$", english) else ""
        out.append((re.compile(before + pattern + after), words))
    return out


def _with_number(words: str, m: re.Match[str]) -> str:
    return words.replace("{n}", m.groupdict().get("n") or "")


def formula_words(lang: str, formula: str) -> str:
    """A tool's formula or term name in the answer's language: each phrase of the language's table
    replaced where it stands as whole words; symbols, settings and numbers stay."""
    table = _formula_words(lang)
    if not table:
        return formula
    for pattern, words in table:
        formula = pattern.sub(partial(_with_number, words), formula)
    return re.sub(r"  +", " ", formula).replace("( ", "(").strip()


_GROUP_REFERENCE = re.compile(r"\\(\d+)|\\g<(\d+)>")


def localise(lang: str, sentence: str) -> str:
    """A tool's English warning or reason in the answer's language (unchanged when no pattern fits). Each part
    a pattern carries over (a precision's name, a benchmark category, where a fit came from) is itself
    rewritten when a pattern matches it whole, so an English phrase inside a sentence is not left behind."""
    whole = sentence.strip()
    for pattern, replacement in _tool_text(lang):
        m = pattern.fullmatch(whole)
        if m:
            def part(ref: re.Match[str], m: re.Match[str] = m) -> str:
                carried = m.group(int(ref.group(1) or ref.group(2))) or ""
                return carried if carried == whole else localise(lang, carried)
            return _GROUP_REFERENCE.sub(part, replacement)
    return sentence


def sentence_gap(lang: str) -> str:
    """What goes between two sentences: a space in English, nothing in Chinese (its full stop is the gap)."""
    return "" if lang == "zh" else " "


# A model known only by its size, as the knowledge layer names it ('13B dense model', '26B-A3.8B MoE model').
_GENERIC_MODEL = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?B(?:-A\d+(?:\.\d+)?B)?) (dense|MoE) model\b")


def say(lang: str, key: str, **values: Any) -> str:
    if lang != "en":  # a value that carries a sized-only model's English name reads in the reply's language
        values = {k: _GENERIC_MODEL.sub(lambda m: str(text(lang, f"model.generic_{m.group(2).lower()}")).format(
            size=m.group(1)), v) if isinstance(v, str) and " model" in v else v for k, v in values.items()}
    return str(text(lang, key)).format(**values)


def detect(message: str, previous: str | None = None) -> Lang:
    """Chinese when Chinese outweighs English in the message (lang_share); English when it reads as English; else the
    conversation's language so far (a bare "15" or "qwen 72b" changes nothing)."""
    if _CJK.search(message) and not _KANA.search(message):  # Japanese shares the characters; we answer it in English
        from gpu_advisor.assistant.lang_share import share_language

        # by share: a few Chinese terms in an English message keep it English, and the other way round
        return share_language(message) or ("zh" if previous in (None, "zh") else "en")  # type: ignore[return-value]
    if _ENGLISH_WORD.search(message) or len(re.findall(r"[A-Za-z]{3,}", message)) >= 3:
        return "en"
    return "zh" if previous == "zh" else "en"
