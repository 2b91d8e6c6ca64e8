"""A card's memory said before its name ('a 48gb 4090', '48G显存的4090', 'two modded 48 GB RTX 4090s') is that
card's memory: the catalog's card of that memory (the modified 48 GB 4090 and 4090 D), the card itself at its
stock memory, or the named card sized with the memory as stated; never the 24 GB card, and the count kept.
Generated over memory spellings, card spellings, counts, orders, fillers and both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu

# card as typed -> (memory said, the card it must be read as; None: the named card at the stated memory)
CARDS = {"4090": (48, "rtx-4090-48gb"), "RTX 4090": (48, "rtx-4090-48gb"), "rtx4090": (48, "rtx-4090-48gb"),
         "4090D": (48, "rtx-4090d-48gb"), "4090 D": (48, "rtx-4090d-48gb"), "RTX 4090 D": (48, "rtx-4090d-48gb"),
         "A100": (40, "a100-40gb-sxm"), "5090": (32, "rtx-5090"), "3090": (48, None), "2080 Ti": (22, None)}
STOCK = {"3090": "rtx-3090", "2080 Ti": "rtx-2080-ti"}
EN_MEMORY = ["{m}gb {c}", "{m} GB {c}", "{m}G {c}", "{m}GB VRAM {c}", "modded {m}gb {c}", "{m}gb modded {c}",
             "{m} gb {c}"]
ZH_MEMORY = ["{m}G显存的{c}", "{m}G的{c}", "显存{m}G的{c}", "魔改{m}G {c}", "{m}G魔改版{c}", "{m}GB {c}"]
EN_OWNED = {1: ["I have a {x}", "we got one {x}", "my rig has a single {x}"],
            2: ["we have two {x}s", "I own 2 {x}", "our lab has 2x {x}"]}
ZH_OWNED = {1: ["我有一张{x}", "手上有1块{x}", "工作室有一张{x}"], 2: ["我们有两张{x}", "手里有2块{x}", "实验室有二张{x}"]}
EN_TASKS = ["can it run qwen2.5 72b int4?", "serve llama 3.1 8b to 20 users"]
ZH_TASKS = ["能跑qwen2.5 72b int4吗", "部署qwen2.5 14b给20个人用"]


def _texts(zh: bool) -> list[tuple[str, int, str, int]]:
    out = []
    for (card, (memory, _)), form, (n, owned), task in itertools.product(
            CARDS.items(), ZH_MEMORY if zh else EN_MEMORY, (ZH_OWNED if zh else EN_OWNED).items(),
            ZH_TASKS if zh else EN_TASKS):
        for i, template in enumerate(owned):
            said = template.format(x=form.format(m=memory, c=card))
            comma = "，" if zh else ", "
            text = f"{said}{comma}{task}" if i % 2 == 0 else f"{task}{comma}{said}"
            out.append((text, n, card, memory))
    return out


def _right(owned: list[str] | None, n: int, card: str, memory: int) -> bool:
    if not owned or len(owned) != 1 or not owned[0].startswith(f"{n}x "):
        return False
    want = CARDS[card][1]
    got = owned[0].split(" ", 1)[1]
    if want:
        return got == want
    gpu, stock = find_gpu(got), find_gpu(STOCK[card])
    return (got.startswith("custom:") and gpu.memory_gb == memory
            and gpu.memory_bandwidth_gbps == stock.memory_bandwidth_gbps)


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_memory_said_before_the_card_is_the_cards_memory(zh: bool):
    texts = _texts(zh)
    assert len(texts) >= 400
    failures = [f"{t!r}: {understand(t).updates.get('owned')}" for t, n, card, memory in texts
                if not _right(understand(t).updates.get("owned"), n, card, memory)]
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:25])


@pytest.mark.parametrize("text, want", [
    ("我有一张48G显存的4090（魔改版），能跑qwen2.5 72b int4吗", ["1x rtx-4090-48gb"]),
    ("I have a 48gb 4090, can it run qwen2.5 72b int4?", ["1x rtx-4090-48gb"]),
    ("I have a modded 4090 48g", ["1x rtx-4090-48gb"]),
    ("我有4090 魔改48G", ["1x rtx-4090-48gb"]),
    ("我有4090 48G版", ["1x rtx-4090-48gb"]),
    ("工作室有4张4090D", ["4x rtx-4090d"]),
    ("工作室有4张4090 D", ["4x rtx-4090d"]),
    ("我有两张4090d 24g", ["2x rtx-4090d"]),
    ("I have two 24GB 4090Ds", ["2x rtx-4090d"]),
    ("I have a 24gb 4090", ["1x rtx-4090"]),
    ("we have 8x 80gb h100", ["8x h100-sxm"]),
])
def test_card_variants_as_people_type_them(text: str, want: list[str]):
    assert understand(text).updates.get("owned") == want


@pytest.mark.parametrize("text", ["I have 64GB RAM and a 4090", "I have 64GB RAM, 4090", "我有64G内存 4090",
                                  "我有 内存64g 4090", "I have a 4090 and 64gb ram", "我有一张4090，64G内存",
                                  "my pc: ram 64gb 4090"])
def test_the_computers_ram_before_the_card_is_not_the_cards_memory(text: str):
    assert understand(text).updates.get("owned") == ["1x rtx-4090"]
