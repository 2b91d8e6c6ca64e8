"""'full or lora? will it fit' (review CV #4): the fine-tuning methods the user weighs, each sized on the same cards
(the ones owned, else the plan's) as the plan lays a run out there (tools.recommend.training_setup: ZeRO-3 over
several cards, a frozen reference copy for a full DPO run, both sequences of a preference pair), with its time for
the run's data (training_time_setup), and which to use as a code.

When a full fine-tune does not fit, what it would need: more of the same card (ZeRO-3), AdamW's moments in 8 bits
on the same cards, or DeepSpeed ZeRO-3 with the optimizer in CPU memory (tools.zero_offload: the system RAM and the
slower steps), and what ZeRO-3 moves over the cards' links at each micro-batch (every weight gathered twice and the
gradients reduce-scattered: over PCIe without NVLink, a cost the step pays where compute does not hide it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.host_memory import pcie_link
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Option, Workload, training_setup, training_time_setup
from gpu_advisor.tools.training import runs_on, training_memory
from gpu_advisor.tools.training_time import BYTES_PER_WEIGHT, GATHERS_PER_MICRO_BATCH, training_time
from gpu_advisor.tools.zero_offload import zero_offload_plan

Method = Literal["full", "lora", "qlora"]
# The lightest first: the order a pick prefers when several fit (LoRA before QLoRA: faster and a touch better;
# both before a full fine-tune, which needs much data to be worth its memory).
PREFERENCE: tuple[Method, ...] = ("lora", "qlora", "full")
# The most cards of one kind a full fine-tune's need is counted up to (eight servers of eight).
MOST_CARDS = 64
# Pick codes: both_fit (the lighter method fits and so does full: the lighter, full only for much data), only_light
# (only the adapters fit), adapters (LoRA and QLoRA weighed, no full fine-tune), only_full, none (nothing named fits).
Reason = Literal["both_fit", "only_light", "adapters", "only_full", "none"]


class MethodRow(BaseModel):
    method: Method
    per_gpu_bytes: float
    fits: bool
    hours: float | None = None
    reference_bytes: float = Field(0.0, description="of per_gpu_bytes, the frozen reference copy (full DPO)")


class FullNeeds(BaseModel):
    """What a full fine-tune that does not fit the cards would need."""

    cards: int | None = Field(None, description="the fewest cards of this kind that hold it (ZeRO-3); None beyond "
                                                "MOST_CARDS")
    adam8_per_gpu_bytes: float
    adam8_fits: bool
    offload_per_gpu_bytes: float | None = None
    offload_fits: bool = False
    offload_host_bytes: float | None = Field(None, description="system RAM the offloaded states take, all cards")
    offload_hours: tuple[float, float] | None = None
    gather_bytes_per_step: float = Field(0.0, description="what ZeRO-3 moves over each card's link per micro-batch")
    gather_s_per_step: float = Field(0.0, description="those bytes at the link's usual reached rate")
    pcie: bool = Field(False, description="the cards talk over PCIe (no NVLink)")


class MethodChoice(BaseModel):
    gpu: str
    gpu_name: str
    gpus: int
    owned: bool
    capacity_bytes: float
    objective: str
    reference: bool = Field(description="the full fine-tune keeps a frozen reference copy (DPO)")
    rows: list[MethodRow]
    full: FullNeeds | None = None
    pick: Method | None = None
    reason: Reason


def method_choice(w: Workload, methods: list[str], gpu_id: str, n: int, owned: bool) -> MethodChoice | None:
    """The methods named, sized on n x gpu_id for the workload's job; None when it is no fine-tune or fewer than two
    of the methods can be sized there."""
    if not w.spec.trains or w.spec.pretrains or w.reinforces or w.spec.serves:
        return None
    gpu = find_gpu(gpu_id)
    cap = usable_bytes(gpu)
    named = [m for m in dict.fromkeys(methods) if m in PREFERENCE and runs_on(gpu.stack, m, w.framework)]
    if len(named) < 2:
        return None
    dpo = w.objective == "dpo"
    params = resolve_model(w.model).total_params_b * 1e9
    rows: list[MethodRow] = []
    for m in named:
        wm = w.model_copy(update={"method": m})
        mem = training_memory(training_setup(wm, n, gpu, owned=owned))
        hours = training_time(training_time_setup(wm, gpu.id, n, owned)).hours
        ref = params * BYTES_PER_WEIGHT["full"] / n if dpo and m == "full" else 0.0  # the BF16 copy, ZeRO-3 sharded
        rows.append(MethodRow(method=m, per_gpu_bytes=mem.per_gpu_total_bytes, fits=mem.per_gpu_total_bytes <= cap,
                              hours=hours, reference_bytes=ref))
    full_row = next((r for r in rows if r.method == "full"), None)
    needs = _full_needs(w, gpu_id, n, cap, params, full_row) if full_row is not None and not full_row.fits else None
    fitting = [r.method for r in rows if r.fits]
    pick = next((m for m in PREFERENCE if m in fitting), None)
    light = [m for m in fitting if m != "full"]
    reason: Reason = ("none" if not fitting else "only_full" if not light else "adapters" if full_row is None
                      else "both_fit" if "full" in fitting else "only_light")
    return MethodChoice(gpu=gpu.id, gpu_name=gpu.name, gpus=n, owned=owned, capacity_bytes=cap, objective=w.objective,
                        reference=dpo, rows=rows, full=needs, pick=pick, reason=reason)


def _full_needs(w: Workload, gpu_id: str, n: int, cap: float, params: float, row: MethodRow) -> FullNeeds:
    gpu = find_gpu(gpu_id)
    wf = w.model_copy(update={"method": "full"})
    cards = next((k for k in range(n + 1, MOST_CARDS + 1)
                  if training_memory(training_setup(wf, k, gpu)).per_gpu_total_bytes <= cap), None)
    adam8 = training_memory(training_setup(wf.model_copy(update={"optimizer": "adamw-8bit"}), n, gpu, owned=True))
    pcie = n > 1 and gpu.interconnect in ("pcie", "nvlink-bridge")
    # every BF16 weight gathered twice and its BF16 gradient reduce-scattered, the other cards' share of each
    moved = (GATHERS_PER_MICRO_BATCH + 1) * params * BYTES_PER_WEIGHT["full"] * (n - 1) / n if n > 1 else 0.0
    _slow, usual, _fast = pcie_link(gpu.pcie_gen).reached_gbps
    needs = FullNeeds(cards=cards, adam8_per_gpu_bytes=adam8.per_gpu_total_bytes,
                      adam8_fits=adam8.per_gpu_total_bytes <= cap, pcie=pcie, gather_bytes_per_step=moved,
                      gather_s_per_step=moved / (usual * 1e9) if pcie else 0.0)
    mine = Option(gpu=gpu.id, gpu_name=gpu.name, gpus=n, owned=True, trains=True, capacity_bytes=cap,
                  headroom_fraction=0.0, ok=False, job_hours=row.hours)
    plan = zero_offload_plan(wf, mine)
    if plan is not None:
        needs = needs.model_copy(update={"offload_per_gpu_bytes": plan.per_gpu_bytes, "offload_fits": plan.fits,
                                         "offload_host_bytes": plan.host_bytes,
                                         "offload_hours": (plan.hours_low, plan.hours_high)})
    return needs
