"""'a' and a number before a length is an article and a count, never a card whose name is a letter and digits ('plus a
2000 token prompt' was the RTX A2000 once the workstation cards were on record): words/card_memory.yaml
length_unit_after, reading.names.find_gpus. The cards themselves are still found, spaced or not."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading.message import prepare
from gpu_advisor.assistant.reading.text import readable

NUMBERS = [100, 800, 2000, 4000, 4500, 5000, 5500, 6000]
UNITS = ["token", "tokens", "-token", " tok", " word", " words", " characters"]
TEMPLATES = ["plus a {n}{u} system prompt", "each ticket has a {n}{u} instruction prompt before it",
             "serve llama 3.1 8b to 50 users with a {n}{u} prompt", "另外加一个{n}{u}的系统提示词"]


@pytest.mark.parametrize(("template", "n", "unit"), list(itertools.product(TEMPLATES, NUMBERS, UNITS)))
def test_a_length_after_an_article_is_no_card(template: str, n: int, unit: str) -> None:
    text = template.format(n=n, u=unit if unit.startswith((" ", "-")) else f" {unit}")
    assert prepare(readable(text), None).gpus == [], text


@pytest.mark.parametrize(("text", "gpu"), [
    ("i have an a4000", "rtx-a4000"), ("rtx a2000 12gb", "rtx-a2000-12gb"), ("two a100 for a 4000 word doc", "a100-80gb-sxm"),
    ("we own an a 6000", "rtx-a6000"), ("4张A800", "a800-80gb-sxm"),
])
def test_the_cards_are_still_found(text: str, gpu: str) -> None:
    assert [g for _s, _e, g, _n in prepare(readable(text), None).gpus] == [gpu]
