"""A comparison of machines, then the job changes (review CM #6: 'is a macbook m4 max w/ 128gb better than 2x 3090
for running gpt-oss-120b?', then 'and what about for finetuning it' headed 'Rent 1 × Apple M4 Max … for
fine-tuning' with no price).

- A card with no rental offer (a Mac) is never headed 'Rent' / '租用': bought, or not the plan (tools.recommend).
- The comparison keeps the count the user named (2 × 3090, never 4 × 3090 nobody named; a Mac is one machine, never
  8 of them), and a reason for a no-fit is given in the engine the rows run (llama.cpp: never 'vLLM uses 90%').
- After the phase change the machines named are weighed as the user's candidates, each said (can it, how fast);
  when none does the new job well the plan is a real rental beyond them (assistant.phase_moved)."""

from __future__ import annotations

import re

import pytest
from conversation import run_states

from gpu_advisor.assistant.phase_moved import does_well
from gpu_advisor.assistant.writers import hours
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import LONG_JOB_HOURS, Option, Workload, _action, evaluate

MACS = {  # what the user types -> the catalog's machine
    "macbook m4 max w/ 128gb": "apple-m4-max-128gb",
    "mac studio m2 ultra 192gb": "apple-m2-ultra-192gb",
    "m3 max 128gb macbook": "apple-m3-max-128gb",
}
PAIRS = {"2x 3090": "rtx-3090", "2 x rtx 4090": "rtx-4090", "two 3090s": "rtx-3090"}
MODELS = ["gpt-oss-120b", "llama 3.3 70b"]
OPENERS = [
    "is a {mac} better than {pair} for running {model}?",
    "{mac} vs {pair} for running {model} locally, which one?",
    "{mac} 和 {pair} 哪个跑 {model} 更好？",
]
FOLLOW_UPS = ["what about fine-tuning it", "那微调呢", "and for training?"]

RENT_HEAD = re.compile(r"^## (Rent|租用) ")


def _cases() -> list[tuple[str, str, str, str, str]]:
    """Every Mac against every consumer pair and model; the opener and the follow-up rotate through their forms,
    so each wording meets every machine once."""
    cases = []
    for i, (mac, pair, model) in enumerate((m, p, x) for m in MACS for p in PAIRS for x in MODELS):
        cases.append((mac, pair, model, OPENERS[i % len(OPENERS)], FOLLOW_UPS[(i // 2) % len(FOLLOW_UPS)]))
    return cases


def _rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ") and " × " in line.split("|")[1]]


def _named_rows(text: str, name: str) -> list[str]:
    return [r for r in _rows(text) if name in r.split("|")[1]]


@pytest.mark.parametrize(("mac", "pair", "model", "opener", "follow"), _cases())
def test_machines_weighed_then_fine_tuning(mac: str, pair: str, model: str, opener: str, follow: str) -> None:
    first, second = run_states([opener.format(mac=mac, pair=pair, model=model), follow], thread="macft")
    mac_id, card_id = MACS[mac], PAIRS[pair]
    mac_name, card_name = find_gpu(mac_id).name, find_gpu(card_id).name
    for state in (first, second):
        text = state["messages"][-1].content
        head = text.splitlines()[0]
        best = state["results"]["recommend"]["best"]
        # (a) a machine with no rental offer is never headed as rented
        assert not (RENT_HEAD.match(head) and mac_name in head), head
        if best["usd_per_hour"] is None:
            assert not RENT_HEAD.match(head), head
        # (c) the counts named: the Mac is one machine, the pair is two cards, in the table and the comparison
        assert any(r.startswith(f"| 2 × {card_name}") for r in _named_rows(text, card_name)), text
        if state is first:  # the comparison: that count alone (after it, a rental of more may be an open option)
            assert all(r.startswith(f"| 2 × {card_name}") for r in _named_rows(text, card_name)), text
        assert all(r.startswith(f"| 1 × {mac_name}") for r in _named_rows(text, mac_name)), _named_rows(text, mac_name)
        assert not re.search(rf"(?<![\d,])(?!1 )\d+ × {re.escape(mac_name)}", text), text
    text = first["messages"][-1].content
    if "(llama.cpp)" in _named_rows(text, card_name)[0]:  # the pair run in llama.cpp: its reasons are llama.cpp's
        assert "vLLM uses" not in text and "vLLM 只用" not in text, text
    # (b) fine-tuning: neither the Mac (MLX-LM, a day and more a run) nor two 24 GB cards (no room) does it well
    results = second["results"]
    assert results["inputs"]["phase"] == "fine-tune"
    rows = {o["gpu"]: Option.model_validate(o) for o in results["options"]}
    assert rows[card_id].gpus == 2 and rows[card_id].trains is False
    assert rows[mac_id].gpus == 1 and rows[mac_id].job_hours > LONG_JOB_HOURS
    best = Option.model_validate(results["recommend"]["best"])
    assert best.gpu not in (mac_id, card_id) and best.ok and best.usd_per_hour
    assert results["recommend"]["action"] == "rent"
    assert sorted(results["beyond"]) == sorted([mac_id, card_id])
    text = second["messages"][-1].content
    zh = bool(re.search(r"[\u4e00-\u9fff]", follow))
    assert RENT_HEAD.match(text) and best.gpu_name in text.splitlines()[0]
    intro = "**你比较的这几台机器，做这件事：**" if zh else "**The machines you weighed, for this job:**"
    assert intro in text
    block = text.split(intro, 1)[1].split("\n\n", 1)[0]
    assert f"1 × {mac_name}" in block and f"2 × {card_name}" in block
    assert hours(rows[mac_id].job_hours) in block  # how slow the Mac is, from the tools
    assert ("做不了" if zh else "cannot do it") in block


@pytest.mark.parametrize("follow", FOLLOW_UPS)
def test_a_candidate_that_does_it_keeps_the_plan(follow: str) -> None:
    """Two 4090s fine-tune an 8B within a working day: the plan stays on the cards weighed, nothing beyond them."""
    _first, second = run_states(["mac studio m3 ultra or 2x 4090 for running llama 3.1 8b?", follow], thread="macft")
    results = second["results"]
    best = results["recommend"]["best"]
    assert results["inputs"]["phase"] == "fine-tune"
    assert best["gpu"] == "rtx-4090" and results["beyond"] == []
    text = second["messages"][-1].content
    assert "The machines you weighed" not in text and "你比较的这几台机器" not in text
    assert not (RENT_HEAD.match(text) and "Apple" in text.splitlines()[0])


@pytest.mark.parametrize("mac", sorted(set(MACS.values())) + ["apple-m3-ultra-512gb"])
@pytest.mark.parametrize(("phase", "preference"), [("fine-tune", "either"), ("fine-tune", "rent"),
                                                     ("serve", "rent"), ("serve", "either")])
def test_no_rental_offer_is_bought(mac: str, phase: str, preference: str) -> None:
    """tools.recommend's action for a machine with no rental price: buy, whatever the job or the wish said."""
    w = Workload(phase=phase, model="llama-3.1-8b", preference=preference)
    o = evaluate(w, find_gpu(mac), 1)
    assert o is not None and o.usd_per_hour is None and o.purchase_usd
    assert _action(w, o, None) == "buy"
    rented = evaluate(w, find_gpu("rtx-4090"), 1)  # a card with a rental offer is still rented for a run or when asked
    assert rented is not None and rented.usd_per_hour
    if preference == "rent" or phase == "fine-tune":
        assert _action(w, rented, None) == "rent"


@pytest.mark.parametrize(("hours", "open_hours", "well"), [(3.0, 0.5, True), (LONG_JOB_HOURS, 0.5, True),
                                                           (21.3, 0.3, False), (12.0, 7.0, True), (15.0, 7.0, False)])
def test_does_well(hours: float, open_hours: float, well: bool) -> None:
    """A candidate does the new job well when it fits and a run ends within a working day, or within twice the
    open market plan's run."""
    w = Workload(phase="fine-tune", model="llama-3.1-8b")
    o = evaluate(w, find_gpu("rtx-4090"), 1)
    best = evaluate(w, find_gpu("h100-sxm"), 1)
    assert o is not None and best is not None and o.ok
    assert does_well(o.model_copy(update={"job_hours": hours}), best.model_copy(update={"job_hours": open_hours})) is well
    assert does_well(o.model_copy(update={"job_hours": hours, "ok": False}), best) is False
