"""A full fine-tune that the cards asked about cannot hold as planned ('what if we can only get 4x a100 40gb') is
answered with the way that keeps it on them, DeepSpeed ZeRO-3 with the optimizer in CPU memory, its GPU memory, system
RAM and slower run, not a flat no (review BJ #9)."""

from __future__ import annotations

import re

import pytest

from tests.conversation import run_states

FIRST = {"en": "full finetune llama 3 8b on ~500M tokens, we have a cluster w 8x a100 40gb, does it fit w deepspeed "
               "zero3 and how long roughly",
         "zh": "全参微调llama 3 8b，大约5亿token，我们有8张a100 40gb，用deepspeed zero3放得下吗，大概多久"}
THEN = {"en": ["what if we can only get 4 of the nodes gpus, like 4x a100 40gb", "and if it were only 4x a100 40gb?"],
        "zh": ["如果只有4张a100 40gb呢"]}


@pytest.mark.parametrize(("lang", "then"), [(lang, t) for lang, ts in THEN.items() for t in ts])
def test_offload_offered_at_the_edge(lang: str, then: str) -> None:
    text = run_states([FIRST[lang], then])[-1]["messages"][-1].content
    assert "offload_optimizer: cpu" in text
    used = re.search(r"(\d+\.\d) GB of 42\.5 GB per GPU on 4 ×" if lang == "en" else r"offload_optimizer: cpu`）.*?占用 (\d+\.\d) GB（每卡 42\.5 GB）", text)
    assert used is not None and float(used.group(1)) < 20
    hours = re.search(r"about ([\d.]+)-([\d.]+) h instead of ([\d.]+) h" if lang == "en" else
                      r"约 ([\d.]+)-([\d.]+) 小时，而不是 ([\d.]+) 小时", text)
    assert hours is not None and float(hours.group(3)) <= float(hours.group(1)) < float(hours.group(2))


def test_owned_four_keep_the_run_on_them() -> None:
    """Said as the cards now owned ('what about 4x a100 40gb instead'): the plan stays on them (8-bit AdamW), with
    the offload as the other way (tools.owned_offload)."""
    state = run_states([FIRST["en"], "what about 4x a100 40gb instead"])[-1]
    best = state["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"], best["owned"]) == ("a100-40gb-sxm", 4, True)
    assert "offload_optimizer: cpu" in state["messages"][-1].content


def test_no_offload_when_it_fits() -> None:
    text = run_states([FIRST["en"], "what about 8x a100 80gb"])[-1]["messages"][-1].content
    assert "offload_optimizer" not in text
