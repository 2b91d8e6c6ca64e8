"""A Mac's memory said next to its chip, before or after it ('a 64gb m3 max', '64GB的M3 Max', '一台64G内存的M3 Max',
'my 36GB M3 Pro macbook', 'M4 Max 48G', 'm3 max with 64 gigs'), is that chip's variant of that memory, never the
chip's largest record; its GPU cores said too ('30-core M3 Max 36GB') pick the variant of those cores; a memory Apple
never sold with the chip ('M3 Max 256GB') is sized as stated and said in a note. Generated over every chip of
knowledge/data/apple_chips.yaml, each memory it was sold with, memory spellings, orders and both languages; a non-Mac
card's memory said before its name is still its own."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.loader import apple_chips

CHIPS = apple_chips()
SOLD = [(chip.name, memory) for chip in CHIPS for memory in sorted({m for v in chip.variants for m in v.memory_gb})]
WITH_CORES = [(chip.name, v.gpu_cores, memory) for chip in CHIPS for v in chip.variants for memory in v.memory_gb
              # a core count is one configuration only where the memory is not sold with the chip's other GPUs too
              if not any(memory in w.memory_gb for w in chip.variants if w is not v) or v is chip.variants[-1]]
SIZES = [8, 16, 18, 24, 32, 36, 48, 64, 96, 128, 192, 256, 512]
UNSOLD = [(chip.name, next(m for m in SIZES if m > max(x for v in chip.variants for x in v.memory_gb)))
          for chip in CHIPS if max(x for v in chip.variants for x in v.memory_gb) < 512]

PRODUCT = {"Ultra": "Mac Studio", "Max": "MacBook Pro", "Pro": "MacBook Pro"}
EN_FORMS = ["{m}gb {c}", "{m} GB {c}", "{m}G {c}", "{m}g {c}", "{m}GB unified memory {c}", "{m} gig {c}",
            "{m}GB RAM {c}", "{c} {m}GB", "{c} {m}g", "{c} with {m} gigs", "{c} w/ {m}gb", "{c} that has {m}GB",
            "{c} ({m}GB)", "{c} with {m}GB unified memory", "{m}GB {p} {c}", "{p} {c} {m}GB", "{m}gb {c} {p}"]
ZH_FORMS = ["{m}GB的{c}", "{m}G内存的{c}", "{m}G统一内存的{c}", "内存{m}G的{c}", "{m}G {c}", "{m}g的{c}",
            "{c} {m}G", "{c}，{m}GB内存", "{c}（{m}G内存）", "{c} {m}G统一内存", "{m}G内存的{p} {c}", "{p} {c} {m}GB"]
EN_OWNED = ["I have a {x}, can it run qwen2.5 14b?", "can i run qwen2.5 14b locally? i have a {x}",
            "my {x} — what can it serve?"]
ZH_OWNED = ["我有一台{x}，能跑qwen2.5 14b吗", "能跑qwen2.5 14b吗？我手上有一台{x}"]


def _product(chip: str) -> str:
    return next((p for tier, p in PRODUCT.items() if chip.endswith(tier)), "MacBook Air")


def _mac(owned: list[str] | None) -> tuple[str, int, float] | None:
    """(chip name, count, memory) of the one Mac owned, from its record."""
    if not owned or len(owned) != 1:
        return None
    count, gpu_id = owned[0].split("x ", 1)
    gpu = find_gpu(gpu_id)
    if gpu.vendor != "apple":
        return None
    return gpu.name.removeprefix("Apple ").split(" (")[0].removesuffix(f" {gpu.memory_gb:g}GB"), int(count), gpu.memory_gb


def _texts(chip: str, memory: int, zh: bool) -> list[str]:
    chips = [chip, chip.lower()]
    forms, owned = (ZH_FORMS, ZH_OWNED) if zh else (EN_FORMS, EN_OWNED)
    return [frame.format(x=form.format(m=memory, c=c, p=_product(chip)))
            for form, c, frame in itertools.product(forms, chips, owned)]


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
@pytest.mark.parametrize(("chip", "memory"), SOLD, ids=[f"{c}-{m}" for c, m in SOLD])
def test_the_memory_said_with_a_chip_picks_its_variant(chip: str, memory: int, zh: bool) -> None:
    texts = _texts(chip, memory, zh)
    failures = [f"{t!r}: {understand(t).updates.get('owned')}" for t in texts
                if _mac(understand(t).updates.get("owned")) != (chip, 1, memory)]
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:20])


EN_CORES = ["{n}-core {c} {m}GB", "{c} {n}-core {m}GB", "{m}GB {n}-core {c}", "{n}-core {m}gb {c}",
            "{c} ({n}-core GPU, {m}GB)", "{c} {m}GB {n}-core"]
ZH_CORES = ["{n}核的{c} {m}G", "{c} {n}核GPU {m}GB", "{m}G内存{n}核的{c}", "{n}核{m}G的{c}"]


@pytest.mark.parametrize(("chip", "cores", "memory"), WITH_CORES, ids=[f"{c}-{n}c-{m}" for c, n, m in WITH_CORES])
def test_the_gpu_cores_said_with_the_memory_pick_that_gpu(chip: str, cores: int, memory: int) -> None:
    texts = [frame.format(x=form.format(n=cores, m=memory, c=chip))
             for forms, frames in ((EN_CORES, EN_OWNED), (ZH_CORES, ZH_OWNED))
             for form, frame in itertools.product(forms, frames)]
    failures = []
    for t in texts:
        owned = understand(t).updates.get("owned")
        if _mac(owned) != (chip, 1, memory) or f"({cores}-core GPU" not in find_gpu(owned[0].split("x ", 1)[1]).name:
            failures.append(f"{t!r}: {owned}")
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:20])


@pytest.mark.parametrize(("chip", "memory"), UNSOLD, ids=[f"{c}-{m}" for c, m in UNSOLD])
@pytest.mark.parametrize("form", ["I have a {m}GB {c}, can it run qwen2.5 14b?", "I have a {c} {m}GB, can it run qwen2.5 14b?",
                                  "我有一台{m}G内存的{c}，能跑qwen2.5 14b吗", "我有一台{c} {m}G，能跑qwen2.5 14b吗"])
def test_a_memory_never_sold_is_said_and_sized_as_stated(chip: str, memory: int, form: str) -> None:
    u = understand(form.format(m=memory, c=chip))
    owned = u.updates.get("owned")
    assert owned and len(owned) == 1 and owned[0].startswith("1x custom:")
    gpu = find_gpu(owned[0][3:])
    assert (gpu.vendor, gpu.memory_gb) == ("apple", memory)
    sold = sorted({m for c in CHIPS if c.name == chip for v in c.variants for m in v.memory_gb})
    assert ("note.mac_not_sold", {"chip": chip, "sizes": ", ".join(map(str, sold)), "memory": str(memory)}) in u.notes


@pytest.mark.parametrize(("text", "want"), [
    ("we have two 64gb m3 max, can they run qwen2.5 72b?", ("M3 Max", 2, 64)),
    ("我们有两台64G内存的M3 Max，能跑qwen2.5 72b吗", ("M3 Max", 2, 64)),
    ("I have a 12-core M3 Pro 18GB", ("M3 Pro", 1, 18)),  # a CPU's cores: the memory picks the Mac
    ("my 36GB M3 Pro macbook, can it run qwen2.5 14b?", ("M3 Pro", 1, 36)),
    ("我的M4 Pro是48G的，能跑qwen2.5 32b吗", ("M4 Pro", 1, 48)),
    ("I have a macbook air m2 256gb ssd", ("M2", 1, 24)),  # its storage, not its memory: the chip's largest
    ("I have a macbook air m2 16gb 256gb ssd", ("M2", 1, 16)),
])
def test_mac_said_as_people_type_it(text: str, want: tuple[str, int, float]) -> None:
    assert _mac(understand(text).updates.get("owned")) == want


@pytest.mark.parametrize(("text", "want"), [
    ("I have a 48gb 4090 and a 64gb m3 max", ["1x rtx-4090-48gb", "1x apple-m3-max-40c-64gb"]),
    ("I have an a100 80gb and a 36gb m3 pro", ["1x a100-80gb-sxm", "1x apple-m3-pro-36gb"]),
    ("我有一张48G显存的4090和一台64G内存的M3 Max", ["1x rtx-4090-48gb", "1x apple-m3-max-40c-64gb"]),
    ("I have a 512gb m2 ssd and a 4090", ["1x rtx-4090"]),  # a drive, no Mac
])
def test_a_cards_memory_stays_with_its_card(text: str, want: list[str]) -> None:
    assert understand(text).updates.get("owned") == want
