"""Model names the catalog does not hold ('moonshotai/Kimi-Dev-72B', 'kimi-dev-72b', 'Falcon-H9', 'llama 4 scout'),
with the size they carry: said back and asked about, never replaced by a model the catalog has. Grammar only: the
families the catalog lacks and the words that are no model are the vocabulary's."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.assistant.reading.cjk_names import cjk_name_prefix
from gpu_advisor.assistant.reading.names import family_words, name_tokens, stop_words
from gpu_advisor.assistant.reading.text import MASK, mask, vocab, vocabulary_words, word_pattern
from gpu_advisor.knowledge import gpus

_SIZE_IN_NAME = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?:\s?a(\d+(?:\.\d+)?)b)?(?![a-z0-9])")


_REPO_ID = re.compile(r"[a-z][\w.\-]{1,40}/[\w.\-]*[a-z][\w.\-]*")


_GLUED_NAME = re.compile(r"(?:[a-z][a-z0-9.]*-)+\d+(?:\.\d+)?b(?:-a\d+(?:\.\d+)?b)?(?:-[a-z0-9.]+)*")


def _capitalised_name(word: str, raw: str) -> bool:
    """A hyphenated word typed with a capital, shaped like a model's name ('Falcon-H9', 'Hunyuan-Large',
    'Acme-7'), that is no word the reader knows (frameworks, engines, formats are in the vocabulary)."""
    if not _NAME_LIKE.fullmatch(word) or word.split("-")[0] in stop_words() or word.split("-")[0] in _known_words() \
            or word.split("-")[0] in _vocabulary():
        return False
    typed = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", raw, re.IGNORECASE)
    return bool(typed and typed.group()[0].isupper())


_NAME_LIKE = re.compile(r"[a-z]{2,}(?:-[a-z0-9.]+)+")


@cache
def _vocabulary() -> frozenset[str]:
    return frozenset(vocabulary_words(vocab()))


@cache
def _known_words() -> frozenset[str]:
    """The first word of every engine, framework and card name the catalogs hold, and of the names
    listed as not models: a name that starts with one is a tool or a card, not a model."""
    from gpu_advisor import knowledge

    names = [e.name for e in knowledge.engines()] + [f.name for f in knowledge.frameworks()] + \
        [g.name for g in gpus()] + list(vocab()["not_model_names"])
    return frozenset(re.split(r"[\s\-/(]", name.lower())[0] for name in names)


def unknown_model(text: str, masked: str, raw: str, hide: list[tuple[int, int, str]] | None = None,
                  ) -> tuple[tuple[str, str | None] | None, str]:
    """A model name the catalog does not hold, with the size it carries: an organisation/name repo id
    ('moonshotai/Kimi-Dev-72B'), a hyphenated name with a size ('kimi-dev-72b'), or a family the
    catalog lacks ('kimi dev', 'yi 34b'). Returns ((name as typed, size spec or None), the text with
    the name masked, so that its size is read only here). Spans in `hide` (engine names: 'tensorrt-llm'
    is shaped like a model name) are never taken for one."""
    families, unknowns = family_words(), frozenset(vocab()["unknown_families"])
    stop = stop_words()
    tokens = name_tokens(mask(masked, hide or []))
    for i, (_s, _e, word) in enumerate(tokens):
        if MASK in word:
            continue
        repo = _REPO_ID.fullmatch(word) and re.search(r"[-\d]", word.split("/", 1)[1]) \
            and not re.fullmatch(r"(tokens?|toks?|t|and|w|i)/\w+", word) and not _cards_pair(word)
        glued = (_GLUED_NAME.fullmatch(word) or word_pattern("name_shaped").fullmatch(word)) \
            and not word_pattern("format_word").match(word)
        family = word in unknowns or re.sub(r"[\d.\-]+$", "", word) in unknowns  # "kimi", "llama 4": widened below
        hyphenated = "-" in word and word.split("-")[0] in unknowns  # "hunyuan-large": the whole word is the name
        if not (repo or glued or family or hyphenated or _capitalised_name(word, raw)) \
                or word.split("-")[0] in _known_words():
            continue
        first, last = i, i + 1
        if family:  # widen to the words of the name: "llama 4 scout", "kimi dev 72b"
            while first > 0 and i - first < 2 and (tokens[first - 1][2] in families | unknowns
                                                   or re.fullmatch(r"\d+(\.\d+)?", tokens[first - 1][2])):
                first -= 1
            while last < len(tokens) and last - i <= 3 and tokens[last][2] not in stop \
                    and tokens[last][2] in raw.lower() \
                    and re.fullmatch(r"[a-z0-9.\-]*[a-z][a-z0-9.\-]*", tokens[last][2]) \
                    and re.fullmatch(r"\s?|[-_]", text[tokens[last - 1][1]:tokens[last][0]]) \
                    and not re.fullmatch(r"\d+(?:\.\d+)?[tm]", tokens[last][2]):  # "kimi k3 (1t moe)", "kimi k3 - 1.2t";
                # a word the Chinese was rewritten to ('kimi k3 推理' read as 'kimi k3 inference') is none of the name
                last += 1
                if _SIZE_IN_NAME.search(tokens[last - 1][2]):
                    break
        s0, e0 = tokens[first][0], tokens[last - 1][1]
        name = text[s0:e0]
        if not repo and _common_word_alone(word, text[tokens[i][0]:e0]) \
                and not any(tokens[k][2] in families for k in range(first, i)):
            continue  # 'hybrid mamba attention', 'how long is a step': words, no model named
        typed = re.search(re.escape(name).replace(r"\ ", r"[\s\-_]*"), raw, re.IGNORECASE)
        sizes = _SIZE_IN_NAME.findall(re.sub(r"[/_\-]", " ", name))
        size = None
        if sizes:
            total, active = sizes[-1]
            size = f"{float(total):g}B" + (f"-A{float(active):g}B" if active else "")
        shown = cjk_name_prefix(raw[:typed.start()]) + typed.group() if typed else name  # '昆仑-MoE-60B-A6B' whole
        return (shown, size), mask(masked, [(s0, e0)])
    return None, masked


def _common_word_alone(word: str, name: str) -> bool:
    """A family the catalog lacks whose name is also an everyday word ('step', 'mamba', 'solar') names a model only
    with a digit in the name from that word on ('step-3', 'mamba 2.8b') or a catalog family before it ('llama 4
    scout'), never alone, after a count or with more words ('a step', 'one step', 'hybrid mamba attention')."""
    head = re.sub(r"[\d.\-]+$", "", word.split("-")[0])
    return head in frozenset(vocab()["unknown_families_common_words"]) and not re.search(r"\d", name)


def _cards_pair(word: str) -> bool:
    """'h100/h800', 'a800/h800': cards named with a slash, never a model's repo id (review AP E13)."""
    from gpu_advisor.knowledge import find_gpu

    for part in word.split("/"):
        try:
            find_gpu(part)
        except (LookupError, ValueError):
            return False
    return True
