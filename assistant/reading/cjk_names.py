"""Model names typed in Chinese characters with a size ('盘古星河-38B', '星火-13B', '书生浦语 20B'): a model the catalog
does not hold, said back and sized as a generic model of that size, as a Latin name ('Zephyrix-47B') is.
Grammar only: the words that are no name are the vocabulary's (words/cjk_names.yaml)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.text import MASK, mask, vocab
from gpu_advisor.knowledge import find_gpu

# A run of Chinese characters, then nothing, a space, a hyphen or an underscore, then a size ('38b', '8x7b', '30b-a3b').
_CJK_SIZED = re.compile(r"([\u3400-\u9fff]{2,12})(\s?[-_]?\s?)(\d+(?:\.\d+)?)b(?:-a(\d+(?:\.\d+)?)b)?(?![a-z0-9])")


def cjk_unknown_model(text: str, masked: str, raw: str) -> tuple[tuple[str, str | None] | None, str]:
    """((name as typed, size spec), the text with the name masked), or (None, masked) when there is none."""
    for x in _CJK_SIZED.finditer(masked):
        if MASK in x.group(0):
            continue
        run = _name_part(x.group(1))
        if not run:
            continue
        if _card_named(x.group(3)):
            continue  # '另外 910B 和 910C 差别大不大': the Ascend 910B, a card, never a model of 910 billion
        start = x.start(1) + len(x.group(1)) - len(run)
        total, active = x.group(3), x.group(4)
        size = f"{float(total):g}B" + (f"-A{float(active):g}B" if active else "")
        said = re.escape(run) + r"\s*[-_]?\s*" + re.escape(total) + r"\s*b" \
            + (r"\s*-\s*a" + re.escape(active) + r"\s*b" if active else "")
        typed = re.search(said, raw, re.IGNORECASE)
        name = typed.group() if typed else text[start:x.end()]
        return (name, size), mask(masked, [(start, x.end())])
    return None, masked


def _name_part(words: str) -> str:
    """The end of a run of Chinese characters that names a model ('公司自研了一个昆仑' -> '昆仑'), or '' when it is
    words, no name ('如果', '准备部署', '这个')."""
    stop = frozenset(vocab()["cjk_not_name"])
    run = _after_fillers(re.split(f"[{re.escape(''.join(vocab()['cjk_name_after']))}]", words)[-1])
    run = run[max((len(w) for w in vocab()["cjk_name_lead"] if run.startswith(w)), default=0):]  # '如果70b太贵'
    if len(run) < 2 or run in stop or any(run.startswith(w) and len(w) >= 2 for w in stop) \
            or any(w in run for w in vocab()["cjk_not_in_name"]):  # '更适合做7B的': words, no name
        return ""
    return run


# Chinese characters right before a Latin name, joined to it directly or by a hyphen ('昆仑-MoE-60B', '九章MoE-100B').
_CJK_BEFORE = re.compile(r"([\u3400-\u9fff]{2,12})([-_]?)$")


def cjk_name_prefix(before: str) -> str:
    """The Chinese part of a model's name typed right before its Latin part ('昆仑-' of '昆仑-MoE-60B-A6B', '九章' of
    '九章MoE-100B'), as typed with its hyphen, or '' when the characters before are words ('部署MoE-100B')."""
    x = _CJK_BEFORE.search(before)
    if not x:
        return ""
    run = _name_part(x.group(1))
    return run + x.group(2) if run else ""


def _card_named(total: str) -> bool:
    """Whether a size read after Chinese words is a card's name ('910B'), not a model's size."""
    try:
        find_gpu(f"{total}b")
    except Exception:  # noqa: BLE001 - no card by that name: a model's size
        return False
    return True


def _after_fillers(run: str) -> str:
    """The run with the greetings and fillers said before a name cut off ('请问盘古星河' -> '盘古星河', '麻烦问一下')."""
    fillers = sorted(vocab()["cjk_filler_before"], key=len, reverse=True)
    cut = True
    while cut:
        cut = False
        for w in fillers:
            if run.startswith(w):
                run, cut = run[len(w):], True
                break
    return run
