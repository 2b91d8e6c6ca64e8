"""'h100 pcie and sxm', 'H100 PCIe 和 SXM 有什么区别', 'a100 sxm vs pcie': a form word said alone right after a card
and joined to it ('and', 'vs', '和', '还是') is the same card in that form (knowledge.find_gpu of the card's words with
the form swapped), added to m.gpus as a second card named, its span masked. Said in Chinese the forms may come before
the card ('PCIe版和SXM版的H100': the card in each form; 'NVL版H100': the card in that form) or after it with 的
('H100的PCIe版和SXM版'), each with its noun (review S27 #2: the first was read as the NVLink concept). Words:
words/card_forms.yaml."""

from __future__ import annotations

import re
from functools import lru_cache

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

MASK = "▒"


def read_card_forms(m: Message) -> None:
    form = word_pattern("card_forms.form")
    joiner = word_pattern("card_forms.joiner")
    own = word_pattern("card_forms.own")
    added: list[tuple[int, int, str, int]] = []  # the cards named by a form word
    cards: list[tuple[int, int, str, int]] = []  # the cards named, each in the form said
    masks: list[tuple[int, int]] = []
    for start, end, gpu_id, count in m.gpus:
        card_words = own.sub(" ", form.sub(" ", m.text[start:end])).strip()  # "h100 的 pcie" -> "h100"
        lead = _forms_before().search(m.masked[:start])
        pair = lead and [_form_of(card_words, gpu_id, lead.group(k)) for k in ("a", "b")]
        if lead and pair and all(pair) and pair[0] != pair[1]:  # 'pcie 版 and sxm 版的 h100': the card in each form
            cards.append((lead.start("a"), lead.end("a"), str(pair[0]), count))
            added.append((lead.start("b"), lead.end("b"), str(pair[1]), 1))
            masks += [lead.span("a"), lead.span("b")]
            continue
        one = _form_before().search(m.masked[:start])
        named = one and _form_of(card_words, gpu_id, one.group("a"))
        if one and named:  # 'nvl 版 h100', 'pcie 版的 h100': the card in the form said before it
            gpu_id = named
            masks.append(one.span("a"))
        mine = _own_form_after().match(m.masked, end)
        named = mine and _form_of(card_words, gpu_id, mine.group("a"))
        if mine and named:  # 'a800 的 pcie 款 and sxm 款': the card named is the form said after it
            gpu_id, end = named, mine.end("a")
            masks.append(mine.span("a"))
        cards.append((start, end, gpu_id, count))
        join = joiner.match(m.masked, end)
        if not join or join.end() == end:
            continue
        said = form.match(m.masked, join.end())
        if not said:
            continue
        other = _form_of(card_words, gpu_id, said.group())
        named_now = [g for _s, _e, g, _c in [*cards, *added, *m.gpus[len(cards):]]]  # (the forms read so far)
        if other is None or other == gpu_id or other in named_now:
            continue
        added.append((said.start(), said.end(), other, 1))
        masks.append(said.span())
    for start, end in masks:
        m.masked = m.masked[:start] + MASK * (end - start) + m.masked[end:]
    if masks:
        m.gpus = sorted([*cards, *added])


def _form_of(card_words: str, gpu_id: str, word: str) -> str | None:
    """The card said ('a100 80g') in the form `word` ('sxm4'): by the words as said, else by the catalog id's own
    words with the form's base word ('a100 80gb' + 'sxm')."""
    form = word_pattern("card_forms.form")
    base = re.sub(r"\d+$", "", _norm(word))
    return _find(f"{card_words} {word}") or _find(f"{form.sub(' ', gpu_id.replace('-', ' ')).strip()} {base}")


@lru_cache(maxsize=1)
def _forms_before() -> re.Pattern[str]:
    """Two forms joined right before a card, each maybe with its noun, then maybe 的 ('pcie 版 and sxm 版的 ')."""
    form, noun = word_pattern("card_forms.form").pattern, word_pattern("card_forms.noun").pattern
    joiner, own = word_pattern("card_forms.joiner").pattern, word_pattern("card_forms.own").pattern
    return re.compile(rf"(?P<a>{form})(?:{noun})?{joiner}(?P<b>{form})(?:{noun})?(?:{own})?\s*$")


@lru_cache(maxsize=1)
def _form_before() -> re.Pattern[str]:
    """One form with its noun right before a card, maybe with 的 ('nvl 版 ', 'pcie 版的 ')."""
    form, noun = word_pattern("card_forms.form").pattern, word_pattern("card_forms.noun").pattern
    return re.compile(rf"(?<![a-z0-9])(?P<a>{form})(?:{noun})(?:{word_pattern('card_forms.own').pattern})?\s*$")


@lru_cache(maxsize=1)
def _own_form_after() -> re.Pattern[str]:
    """A card's own form said after it with 的 ('的 pcie', '的 sxm 版')."""
    form, own = word_pattern("card_forms.form").pattern, word_pattern("card_forms.own").pattern
    return re.compile(rf"{own}(?P<a>{form})")


def _find(words: str) -> str | None:
    from gpu_advisor.knowledge import find_gpu

    try:
        return find_gpu(re.sub(r"\s+", " ", words)).id
    except (LookupError, ValueError):
        return None


def read_forms_alone(m: Message, u: Understanding) -> None:
    """'mostly i want to know the pcie vs sxm thing', 'PCIe 和 SXM 到底差在哪': two form words joined with no card
    named: u.ask["card_forms"], the forms in the order said; the engine finds the card of an earlier message that
    comes in both (engine._forms_before)."""
    pair = forms_alone(m)
    if pair:
        u.ask["card_forms"] = pair


def forms_alone(m: Message) -> list[str] | None:
    """The two forms said with no card named ('pcie vs sxm'), in the order said; None when there are none."""
    if m.gpus:
        return None
    form, joiner = word_pattern("card_forms.form"), word_pattern("card_forms.joiner")
    for first in form.finditer(m.masked):
        join = joiner.match(m.masked, first.end())
        second = form.match(m.masked, join.end()) if join and join.end() > first.end() else None
        if second and _norm(second.group()) != _norm(first.group()):
            return [_norm(first.group()), _norm(second.group())]
    return None


def _norm(word: str) -> str:
    return "pcie" if word.startswith("pci") else word


def forms_of(cards: list[str], forms: list[str]) -> list[str]:
    """The first card (ids, newest first) that comes in every form said, as those forms' ids; [] when none does."""
    from gpu_advisor.knowledge import find_gpu

    form = word_pattern("card_forms.form")
    for gpu_id in cards:
        try:
            words = form.sub(" ", find_gpu(gpu_id).id.replace("-", " ")).strip()
        except (LookupError, ValueError):
            continue
        found = [_find(f"{words} {f}") for f in forms]
        if all(found) and len(set(found)) == len(found):
            return [str(g) for g in found]
    return []
