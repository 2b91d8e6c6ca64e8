"""The language catalogs: complete in every language, the same templates, quick replies that the
text reader understands the same way in Chinese as in English, and language detection."""

from __future__ import annotations

import string
from typing import Any

import pytest

from gpu_advisor.assistant.catalog import catalog, detect, say
from gpu_advisor.assistant.slots import ASKED, question

EN = catalog("en")
ZH = catalog("zh")
TEMPLATES = sorted(k for k, v in EN.items() if isinstance(v, str))
LISTS = sorted(k for k, v in EN.items() if isinstance(v, list))


def placeholders(template: str) -> list[str]:
    """The {names} of a str.format template, with repeats, in a stable order."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)


# ---------------------------------------------------------------- the catalogs are complete


def test_chinese_has_exactly_the_english_keys():
    assert sorted(set(EN) - set(ZH)) == [], "keys missing from zh.yaml"
    assert sorted(set(ZH) - set(EN)) == [], "keys in zh.yaml that en.yaml does not have"


def test_every_entry_has_the_same_kind_in_both():
    for key, value in EN.items():
        assert type(ZH[key]) is type(value), key


@pytest.mark.parametrize("key", TEMPLATES)
def test_templates_have_the_same_placeholders(key: str):
    assert placeholders(ZH[key]) == placeholders(EN[key])


@pytest.mark.parametrize("key", TEMPLATES)
def test_templates_format_in_both_languages(key: str):
    values = {name: "1" for name in placeholders(EN[key])}
    for lang in ("en", "zh"):
        assert say(lang, key, **values).strip()


@pytest.mark.parametrize("key", TEMPLATES)
def test_markdown_markers_are_kept(key: str):
    en, zh = EN[key], ZH[key]
    assert zh.count("**") == en.count("**")
    assert zh.startswith("_") == en.startswith("_") and zh.endswith("_") == en.endswith("_")
    assert zh.startswith("## ") == en.startswith("## ") and zh.startswith("- ") == en.startswith("- ")


@pytest.mark.parametrize("key", TEMPLATES)
def test_chinese_is_written_in_chinese(key: str):
    """Every Chinese template that is words in English is words in Chinese (names and units aside)."""
    zh = ZH[key]
    if EN[key] == zh:
        without = zh
        for name in placeholders(zh):
            without = without.replace("{" + name + "}", "")
        assert not any(c.isalpha() and c.isascii() for c in without) or key.startswith("method.") or \
            key == "slot.min_tokens_per_s.label", f"{key} is not translated: {zh!r}"


# ---------------------------------------------------------------- quick replies


@pytest.mark.parametrize("key", LISTS)
def test_choices_match(key: str):
    en, zh = EN[key], ZH[key]
    assert len(zh) == len(en)
    for pair in en + zh:
        assert isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) and x for x in pair), pair
    assert en[-1][0] == "Not sure"
    assert zh[-1][0] == "不确定"


def _choice_rows() -> list[Any]:
    rows = []
    for slot in ASKED:
        en, zh = question(slot, "en").choices, question(slot, "zh").choices
        for i, ((_, en_value), (_, zh_value)) in enumerate(zip(en, zh, strict=True)):
            rows.append(pytest.param(slot, en_value, zh_value, id=f"{slot}-{i + 1}-{en_value}"))
    return rows


CHOICES = _choice_rows()


@pytest.mark.parametrize(("slot", "en_value", "zh_value"), CHOICES)
def test_english_choice_is_understood(slot: str, en_value: str, zh_value: str):
    """Each English quick reply gives its slot a value (or a range of values, "20-100" people at once),
    or says "not sure": the reference for Chinese."""
    from gpu_advisor.assistant.reading import understand

    u = understand(en_value, pending=slot)
    assert u.updates.get(slot) is not None or u.updates.get(f"{slot}_range") is not None or "not_sure" in u.intents, \
        (en_value, u)


@pytest.mark.parametrize(("slot", "en_value", "zh_value"), CHOICES)
def test_chinese_choice_means_the_same_as_english(slot: str, en_value: str, zh_value: str):
    from gpu_advisor.assistant.reading import understand

    en, zh = understand(en_value, pending=slot), understand(zh_value, pending=slot)
    assert zh.updates.get(slot) == en.updates.get(slot), (zh_value, en_value, zh.updates, en.updates)
    assert zh.updates.get(f"{slot}_range") == en.updates.get(f"{slot}_range"), (zh_value, en_value)
    assert ("not_sure" in zh.intents) == ("not_sure" in en.intents), (zh_value, en_value, zh.intents, en.intents)


@pytest.mark.parametrize(("slot", "en_value", "zh_value"), CHOICES)
def test_pressing_a_choice_keeps_the_language(slot: str, en_value: str, zh_value: str):
    assert detect(en_value, "en") == "en"
    assert detect(zh_value, "zh") == "zh"


def test_questions_are_asked_in_chinese():
    for slot in ASKED:
        q = question(slot, "zh")
        assert detect(q.text) == "zh", q.text
        assert q.text != question(slot, "en").text


# ---------------------------------------------------------------- language detection


@pytest.mark.parametrize("message", ["我想微调一个 7B 模型", "部署 qwen 72b 给 20 个用户", "不确定", "你好",
                                     "预算1.5万元每月", "用 4090 可以吗？"])
@pytest.mark.parametrize("previous", [None, "en", "zh"])
def test_chinese_text_is_chinese(message: str, previous: str | None):
    assert detect(message, previous) == "zh"


@pytest.mark.parametrize("message", ["15", "qwen 72b", "70B", "2", "int4", "  ", ""])
@pytest.mark.parametrize("previous", ["en", "zh"])
def test_numbers_and_names_keep_the_language(message: str, previous: str):
    assert detect(message, previous) == previous


def test_no_previous_language_is_english():
    assert detect("15") == "en"
    assert detect("qwen 72b", None) == "en"


@pytest.mark.parametrize("message", ["I want to fine-tune llama 3.1 8b", "serve it to 20 users around the clock",
                                     "What is a KV cache?", "show the math", "should we rent or buy?"])
@pytest.mark.parametrize("previous", [None, "en", "zh"])
def test_english_sentence_is_english(message: str, previous: str | None):
    assert detect(message, previous) == "en"
