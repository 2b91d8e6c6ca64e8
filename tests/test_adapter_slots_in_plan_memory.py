"""Many LoRA adapters' GPU slots are memory the serving plan holds (tools.recommend with tools.multi_lora): each
option's per-GPU memory is the model, its KV cache and the slots, so slots that do not fit change the cards."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.multi_lora import MultiLoraInput, multi_lora
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import run_conversation


def _plan(loras=None, rank=None, users=16):
    return recommend(Workload(model="llama-3.1-8b", phase="serve", users=users, candidates=["rtx-4090"],
                              serve_precision="bf16", loras=loras, lora_rank=rank))


@pytest.mark.parametrize(("loras", "rank"), [(100, 64), (50, 16), (20, 128)])
def test_each_option_counts_the_slots_of_its_own_copy(loras, rank):
    base, with_slots = _plan(), _plan(loras, rank)
    for o in with_slots.options:
        slots = multi_lora(MultiLoraInput(model="llama-3.1-8b", loras=loras, lora_rank=rank, concurrency=16,
                                          tp=o.gpus)).gpu_slot_bytes
        assert o.adapter_slot_bytes == pytest.approx(slots)
        same = next(b for b in base.options if b.gpus == o.gpus and b.gpu == o.gpu)
        assert o.serve_per_gpu_bytes == pytest.approx(same.serve_per_gpu_bytes + slots)


def test_slots_that_do_not_fit_take_more_cards():
    assert _plan().best.gpus == 2
    big = _plan(200, 256)  # 200 adapters at rank 256: 21 GB of slots on one 4090, 5 GB each on four
    assert big.best.gpus == 4 and big.best.adapter_slot_bytes > 5e9
    assert all(o.serves is False for o in big.options if o.gpus < 4)


def test_no_adapters_no_slots():
    assert all(o.adapter_slot_bytes is None for o in _plan().options)


@pytest.mark.parametrize(("text", "said"), [
    ("serve 50 customer-specific LoRAs on llama 3.1 8b for 50 users, around the clock", "are counted in the plan's memory"),
    ("一个底座挂20个LoRA，秩64，qwen2.5 7b，20个人同时用，全天候", "已计入方案的显存")])
def test_the_answer_says_the_slots_are_in_the_memory_it_shows(text, said):
    assert said in run_conversation([text])[-1].content
