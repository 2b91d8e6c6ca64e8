"""Owned first for a LoRA (review BD 13: 'how much vram to run gemma 2 27b in fp16, just me? could i lora finetune it
on my 2x rtx 3090 box?' was answered 'No … rent 1 x A100 80GB or use Gemma 2 9B'): when LoRA with a 16-bit base does
not fit the cards the user owns, QLoRA (the same adapters on a 4-bit base) on those cards is the first answer, before
any rental. A job that also serves the model to a few people at once on the same cards (one person, a small team)
is served there in 8 bits, else 4 bits, when the 16-bit weights asked for do not fit beside it; the 16-bit figure
asked for stays in the reply (assistant.no_fp8.served_in_line). Many users at once: not applied (a service keeps
its format and rents the gap)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Recommendation, Workload

# The plan's relaxed code: QLoRA on your cards, and the serving format when it changed ('qlora', 'qlora_serve=int8').
QLORA = "qlora"
QLORA_SERVE = "qlora_serve"
# Smaller serving formats tried on the cards owned for the serving half, most bits first.
SERVE_FORMATS = ("int8", "int4")


def qlora_on_owned(w: Workload, rec: Recommendation) -> Recommendation | None:
    """QLoRA on the cards owned as the plan, or None (see the module)."""
    from gpu_advisor.knowledge.resolve import weight_bits
    from gpu_advisor.tools.recommend import LLAMA_CPP_MAX_USERS, _owned_card, _recommend
    from gpu_advisor.tools.training import runs_on

    best = rec.best
    if (best is not None and best.owned) or not w.owned or not w.spec.trains or w.spec.pretrains or w.reinforces \
            or w.method != "lora" or (w.spec.serves and w.users > LLAMA_CPP_MAX_USERS):
        return None
    if not all(runs_on(_owned_card(text)[0].stack, "qlora", w.framework) for text in w.owned):
        return None
    tries: list[tuple[str, dict[str, Any]]] = [(QLORA, {"method": "qlora"})]
    if w.spec.serves:
        stated = w.serve_precision or "bf16"
        tries += [(f"{QLORA_SERVE}={p}", {"method": "qlora", "serve_precision": p}) for p in SERVE_FORMATS
                  if weight_bits(p) < weight_bits(stated)]
    for code, change in tries:
        mine = _recommend(w.model_copy(update=change), with_levers=False)
        if mine.best is not None and mine.best.owned and mine.best.ok and not mine.best.owned_gpus:
            return mine.model_copy(update={"relaxed": code, "instead": best})
    return None




def qlora_short_on_owned(w: Workload, rec: Recommendation) -> Recommendation | None:
    """A LoRA or full fine-tune that does not fit the cards owned (gemma 3 27b LoRA on a 16 GB card, review s27): the
    same job as QLoRA, sized, so the reply can say what QLoRA takes on those cards (or that it fits them) and which
    cards do it, before the rental of the job as asked. (A LoRA whose QLoRA fits is planned as QLoRA already:
    qlora_on_owned.) None when the cards hold the job, or it is no LoRA or full fine-tune on cards owned."""
    from gpu_advisor.tools.recommend import _owned_card, _recommend
    from gpu_advisor.tools.training import runs_on

    if not w.owned or not w.spec.trains or w.spec.serves or w.spec.pretrains or w.reinforces \
            or w.method not in ("full", "lora") or rec.relaxed or any(o.ok for o in rec.owned_options) or (rec.best is not None and rec.best.owned):
        return None
    if not all(runs_on(_owned_card(text)[0].stack, "qlora", w.framework) for text in w.owned):
        return None
    return _recommend(w.model_copy(update={"method": "qlora"}), with_levers=False)


# FSDP + QLoRA on consumer cards (Answer.AI's fsdp_qlora recipe: a 70B QLoRA on two 24 GB cards with the NF4 base
# sharded over the cards, its shards offloaded to CPU memory and gradient checkpointing, at short sequences;
# github.com/AnswerDotAI/fsdp_qlora, 'train.py … --context_length 512 --use_cpu_offload true'): the sequence
# lengths tried, longest first, and the memory left on each card.
FSDP_SEQ_LENS = (2048, 1024, 512)
FSDP_HEADROOM = 0.10


class FsdpQlora(BaseModel):
    """The recipe sized on the cards owned: the longest sequence that fits, per-card and CPU memory."""

    gpu: str
    gpus: int
    seq_len: int
    per_gpu_bytes: float
    capacity_bytes: float
    cpu_bytes: float = Field(description="CPU memory the offloaded weight shards and optimizer states take, all cards")


def fsdp_qlora_on_owned(w: Workload, rec: Recommendation) -> FsdpQlora | None:
    """A QLoRA that does not fit two or more cards of one kind owned ('qwen2.5 72b qlora, 2 x 3090'), sized as FSDP +
    QLoRA with CPU offload: the longest of FSDP_SEQ_LENS (no longer than the job's) that leaves FSDP_HEADROOM on each
    card; None when the cards hold the job as planned, are fewer than two, or no length fits."""
    from gpu_advisor.tools.recommend import _owned_card
    from gpu_advisor.tools.training import TrainingMemoryInput, runs_on, training_memory

    if w.method != "qlora" or not w.spec.trains or w.spec.pretrains or w.reinforces or len(w.owned) != 1:
        return None
    if any(o.ok for o in rec.owned_options):
        return None
    gpu, count = _owned_card(w.owned[0])
    if count < 2 or not runs_on(gpu.stack, "qlora", w.framework):
        return None
    capacity = next((o.capacity_bytes for o in rec.owned_options if o.gpu == gpu.id and o.capacity_bytes), 0.0)
    if not capacity:
        return None
    for seq in (s for s in FSDP_SEQ_LENS if s <= max(w.seq_len, FSDP_SEQ_LENS[-1])):
        mem = training_memory(TrainingMemoryInput(model=w.model, method="qlora", gpus=count, zero=3, cpu_offload=True,
                                                  seq_len=seq, framework=w.framework))
        if mem.per_gpu_total_bytes <= (1 - FSDP_HEADROOM) * capacity:
            return FsdpQlora(gpu=gpu.id, gpus=count, seq_len=seq, per_gpu_bytes=mem.per_gpu_total_bytes,
                             capacity_bytes=capacity, cpu_bytes=mem.cpu_bytes * count)
    return None
