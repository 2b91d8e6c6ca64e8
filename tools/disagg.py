"""Prefill/decode disaggregation beyond one server (vLLM's KV-transfer connectors, SGLang's --disaggregation-mode,
NVIDIA Dynamo, llm-d): prompts are prefilled on one pool of model copies, their KV cache sent over the network to a
second pool that only decodes. Offered beside a request-rate plan when it pays, never taken as the plan.

The model (short, and honest about it):
- Colocated (the plan): every copy prefills and decodes; the prompts take a share rho = rate per copy x prompt /
  prefill tokens/s of the copy's time, and each decode step waits on them: a token every t_dec(b) / (1 - rho).
- Prefill pool: copies P = rate x prompt / (prefill tokens/s per copy x cap), cap the utilisation the plan keeps
  (tools.queueing.MAX_UTILISATION).
- Decode pool: the requests decoding at once, L = rate x output x t_dec (Little's law), over the fewest copies D
  whose decode step at L / D requests each keeps the per-token time of the plan (or the target said), with no
  prompt in the way.
- The KV hand-over: prompt x KV bytes per token over one 400 Gb/s NIC per GPU (InfiniBand/RoCE, as in HGX
  clusters), added to the first token.
It pays when prompts take at least PAYS_SHARE of the colocated copies' time and a per-token speed is held (long
prompts, tight TPOT, high rate): the decode copies then stop stalling on prefill chunks. Below that the two pools
cost more cards than the plan for little gain. Not modelled: the router, the prefill pool's queue (its copies run
at the cap), and the pools' different best layouts (both take the plan's copy).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.queueing import MAX_UTILISATION
from gpu_advisor.tools.throughput import INTER_NODE_GBPS, SpeedInput, decode_step_seconds, speed

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Recommendation

PAYS_SHARE = 0.3  # prompts at least this share of the colocated copies' time: disaggregation is worth offering
VLLM_CONNECTOR = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'  # vLLM's disaggregated-prefill docs


class Disaggregation(BaseModel):
    """Prefill and decode pools for a request-rate plan, beside the colocated plan."""

    pays: bool = Field(description="prompts take PAYS_SHARE or more of the copies' time and a per-token speed is held")
    prefill_share: float = Field(description="share of a colocated copy's time spent on prompts")
    copy_gpus: int
    prefill_copies: int
    decode_copies: int
    gpus: int = Field(description="both pools together")
    colocated_gpus: int
    tpot_colocated_s: float
    tpot_s: float = Field(description="the decode pool's time per output token")
    kv_transfer_s: float = Field(description="the KV hand-over added to the first token")
    assumptions: list[str] = []


def disaggregation(model_id: str, gpu_id: str, precision: str, kv_precision: str | None, tp: int, copies: int,
                   rate: float, prompt: int, output: int, tpot_target_s: float | None,
                   engine: str = "vllm") -> Disaggregation:
    """The two pools for `rate` requests/s of `prompt` tokens in and `output` out, each copy `tp` GPUs as the
    plan's `copies` colocated copies are."""
    model, gpu, fmt = resolve_model(model_id), find_gpu(gpu_id), find_precision(precision)
    kv_bits = find_precision(kv_precision).kv_bits if kv_precision else 16
    context = prompt + output
    prefill_tps = speed(SpeedInput(model=model_id, precision=precision, gpu=gpu_id, gpus=tp, context=prompt,
                                   engine=engine, kv_precision=kv_precision)).prefill_tokens_per_s

    def step(batch: int) -> float:
        d = decode_step_seconds(model, fmt, kv_bits or 16, gpu, engine, tp, max(1, batch), context)  # type: ignore[arg-type]
        return max(d["memory"], d["compute"]) + d["overhead"] + d["comm"]

    rho = min(0.99, rate / copies * prompt / prefill_tps)
    # colocated: the decode batch per copy from Little's law at the stalled step, found by a few rounds
    batch = max(1, math.ceil(rate / copies * output * step(1)))
    for _ in range(8):
        batch = max(1, math.ceil(rate / copies * output * step(batch) / (1 - rho)))
    tpot_colocated = step(batch) / (1 - rho)
    target = tpot_target_s or tpot_colocated
    prefill_copies = max(1, math.ceil(rate * prompt / (prefill_tps * MAX_UTILISATION)))
    decode_copies = copies
    for d in range(1, copies + 1):
        b = max(1, math.ceil(rate / d * output * step(1)))
        for _ in range(8):
            b = max(1, math.ceil(rate / d * output * step(b)))
        if step(b) <= target:
            decode_copies = d
            break
    b = max(1, math.ceil(rate / decode_copies * output * step(1)))
    for _ in range(8):
        b = max(1, math.ceil(rate / decode_copies * output * step(b)))
    per_token = arch.kv_cache_bytes(model, kv_bits or 16, prompt, 1) / prompt
    transfer = prompt * per_token / (INTER_NODE_GBPS * 1e9 * tp)
    gpus = (prefill_copies + decode_copies) * tp
    pays = rho >= PAYS_SHARE and tpot_target_s is not None and gpus <= copies * tp * 1.25
    return Disaggregation(
        pays=pays, prefill_share=rho, copy_gpus=tp, prefill_copies=prefill_copies, decode_copies=decode_copies,
        gpus=gpus, colocated_gpus=copies * tp, tpot_colocated_s=tpot_colocated, tpot_s=step(b), kv_transfer_s=transfer,
        assumptions=[
            f"prompts take {rho:.0%} of a colocated copy's time; it pays from {PAYS_SHARE:.0%} with a per-token "
            "speed held",
            f"prefill pool at {MAX_UTILISATION:.0%} of its {prefill_tps:,.0f} prompt tokens/s per copy; both pools "
            f"use the plan's copy of {tp} GPU(s)",
            f"KV hand-over: {per_token * prompt / 1e9:.2f} GB per prompt over {INTER_NODE_GBPS:g} GB/s per GPU "
            "(one 400 Gb/s InfiniBand/RoCE NIC each)",
            "not modelled: the router, the prefill pool's queue, pools laid out differently from the plan's copy"])


def disaggregation_for(rec: Recommendation) -> Disaggregation | None:
    """The pools beside a request-rate plan sized by the queueing model (vLLM or SGLang copies); None otherwise."""
    best, t, w = rec.best, rec.traffic, rec.workload
    if best is None or t is None or t.utilisation is None or best.engine not in ("vllm", "sglang") or best.owned:
        return None
    copies = max(1, best.replicas)
    tp = best.tp or max(1, best.gpus // copies)
    if best.pp > 1:
        return None  # a copy over several servers: its stages already split the work
    return disaggregation(w.model, best.gpu, best.precision or "bf16", best.kv_precision, tp, copies,
                          t.requests_per_s, t.prompt_tokens, t.output_tokens,
                          1 / w.min_tokens_per_s if w.min_tokens_per_s else None, best.engine)
