"""The memory a fine-tuning plan keeps free on each card, and what gives it that room when it does not.

A training run whose estimate fills the card fits on paper and runs out of memory in practice: NCCL's buffers,
cuBLAS workspaces and the CUDA context's kernels sit outside the estimate, the caching allocator fragments over a
long run, and activations peak above the sized sequence length. The margin (knowledge rules.yaml:
training_margin_gb + training_margin_share x the card's usable memory, with its arithmetic) is defined there once;
here a plan is judged against it:

- roomy: the plan leaves the margin free;
- at the edge: it fits, but leaves less than the margin (said so, never a plain yes);
- the levers that give it room: each knob the plan does not use yet (more cards for the training side, activation
  checkpointing, a smaller micro-batch, an 8-bit optimizer, CPU offload, LoRA), sized again with training_memory,
  kept when it leaves the margin.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge.loader import rules
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

RoomLeverCode = Literal["more_gpus", "checkpointing", "micro_batch", "chunked_loss", "optimizer_8bit", "cpu_offload",
                        "lora", "qlora"]
# The order the levers are said in: more cards first (nothing about the run changes), then the knobs that cost speed
# (recomputation, smaller steps, offload), then those that change what is trained or how (8-bit states, LoRA).
# An adapter run's optimizer states are the adapters' (tens of MB): 8-bit states or their offload free next to
# nothing, so those levers are a full fine-tune's; an adapter run's room comes from the activations, the logits of a
# large vocabulary (a chunked or fused cross-entropy, Liger/Unsloth) and a 4-bit base (review CUA #8, CUB #6).
LEVER_ORDER: tuple[RoomLeverCode, ...] = ("more_gpus", "checkpointing", "micro_batch", "chunked_loss",
                                          "optimizer_8bit", "cpu_offload", "lora", "qlora")
# More cards for the training side are tried up to this many times the plan's.
MORE_GPUS_UP_TO = 4


class RoomLever(BaseModel):
    """One change that leaves the margin free: its code, the plan's memory per card with it, and for more_gpus the
    training cards it needs."""
    code: RoomLeverCode
    per_gpu_bytes: float
    gpus: int | None = Field(None, description="more_gpus: the training cards that leave the margin")


def margin_bytes(capacity_bytes: float, gpus: int) -> float:
    """The memory a training plan on `gpus` cards keeps free on each card of this usable memory (rules.yaml's
    training margin: the share always, the fixed part where the cards talk over NCCL, on more than one)."""
    r = rules()
    return (r.training_margin_gb * 1e9 if gpus > 1 else 0.0) + r.training_margin_share * capacity_bytes


def roomy(per_gpu_bytes: float, capacity_bytes: float, gpus: int) -> bool:
    """The plan on `gpus` cards leaves the training margin free on each."""
    return per_gpu_bytes <= capacity_bytes - margin_bytes(capacity_bytes, gpus)


def room_worth(roomy_hours: float, faster_hours: float) -> bool:
    """A layout that leaves the margin is worth taking over a faster one at the edge on the same cards: it takes at
    most rules.yaml's training_room_slowdown_max times its hours (past that, the levers on the faster one cost less)."""
    return roomy_hours <= faster_hours * rules().training_room_slowdown_max


def at_edge(per_gpu_bytes: float, capacity_bytes: float, gpus: int) -> bool:
    """The plan on `gpus` cards fits on each but leaves less than the training margin."""
    return per_gpu_bytes <= capacity_bytes and not roomy(per_gpu_bytes, capacity_bytes, gpus)


def _more_counts(n: int, server_gpus: int) -> list[int]:
    """Card counts above n to try for the training side: doubling up to a server, then whole servers."""
    counts, k = [], n
    while k < n * MORE_GPUS_UP_TO:
        k = k * 2 if k < server_gpus else (k // server_gpus + 1) * server_gpus
        counts.append(k)
    return counts


def room_levers(setup: TrainingMemoryInput, per_gpu_bytes: float, capacity_bytes: float, *,
                min_batch: int = 1, server_gpus: int = 8, more_gpus: bool = True, beside: int = 0,
                stack: str | None = None) -> list[RoomLever]:
    """The changes to the training setup, each alone, that leave the margin on a plan of `per_gpu_bytes` per card
    (the training state and, colocated RL, the engine beside it: a lever moves the plan by what it moves the training
    state). `min_batch`: the least micro-batch the run can take (2 for a preference pair); `more_gpus`: whether more
    cards for the training side are a lever; `beside`: cards of the plan that do not train (RL's rollout cards, split),
    added to the count that lever says; `stack`: the card's software stack, which QLoRA's base format must run on
    (None: not checked)."""
    from gpu_advisor.tools.training import find_framework, runs_on

    base = training_memory(setup)
    others = per_gpu_bytes - base.per_gpu_total_bytes  # what sits beside the training state (RL's engine)
    ckpt = next((t.inputs.get("gradient_checkpointing") for t in base.terms if t.key == "activation_bytes"), True)
    tries: list[tuple[RoomLeverCode, dict, int | None]] = []
    if more_gpus:
        n = next((k for k in _more_counts(setup.gpus, server_gpus)
                  if roomy(training_memory(setup.model_copy(update={"gpus": k, "zero": 3})).per_gpu_total_bytes
                           + others, capacity_bytes, k)), None)
        if n is not None:
            tries.append(("more_gpus", {"gpus": n, "zero": 3}, n + beside))
    if not ckpt:
        tries.append(("checkpointing", {"gradient_checkpointing": True}, None))
    if setup.batch > min_batch:
        tries.append(("micro_batch", {"batch": min_batch}, None))
    if (setup.loss or find_framework(setup.framework).loss) == "full":
        tries.append(("chunked_loss", {"loss": "chunked"}, None))
    if setup.method == "full" and setup.optimizer not in ("adamw-8bit", "paged-adamw-8bit"):
        tries.append(("optimizer_8bit", {"optimizer": "adamw-8bit"}, None))
    if setup.method == "full" and not setup.cpu_offload:
        tries.append(("cpu_offload", {"cpu_offload": True, "offload_params": False,
                                      "zero": setup.zero if setup.zero is not None and setup.zero >= 2 else 2}, None))
    if setup.method == "full":
        tries.append(("lora", {"method": "lora", "mixed_precision": None, "reference_model": False}, None))
    if setup.method == "lora" and (stack is None or runs_on(stack, "qlora", setup.framework)):
        tries.append(("qlora", {"method": "qlora"}, None))
    found = []
    for code, update, gpus in tries:
        used = training_memory(setup.model_copy(update=update)).per_gpu_total_bytes + others
        if used < base.per_gpu_total_bytes + others and roomy(used, capacity_bytes, setup.gpus):
            found.append(RoomLever(code=code, per_gpu_bytes=used, gpus=gpus))
    return sorted(found, key=lambda x: LEVER_ORDER.index(x.code))


def edge_values(setup: TrainingMemoryInput, per_gpu_bytes: float, capacity_bytes: float, *, min_batch: int = 1,
                server_gpus: int = 8, more_gpus: bool = True, beside: int = 0,
                stack: str | None = None) -> dict[str, float | str]:
    """A plan at the edge as a finding's figures: used_bytes, capacity_bytes, margin_bytes, levers (the codes of
    room_levers, comma-separated, in LEVER_ORDER), each lever's per-GPU figure as <code>_bytes, and gpus (more_gpus:
    the cards in all)."""
    levers = room_levers(setup, per_gpu_bytes, capacity_bytes, min_batch=min_batch, server_gpus=server_gpus,
                         more_gpus=more_gpus, beside=beside, stack=stack)
    values: dict[str, float | str] = {"used_bytes": per_gpu_bytes, "capacity_bytes": capacity_bytes,
                                      "margin_bytes": margin_bytes(capacity_bytes, setup.gpus),
                                      "levers": ",".join(x.code for x in levers)}
    for x in levers:
        values[f"{x.code}_bytes"] = x.per_gpu_bytes
        if x.gpus is not None:
            values["gpus"] = str(x.gpus)
    return values
