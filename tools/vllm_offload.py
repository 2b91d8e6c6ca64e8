"""A batching server with part of the model, or of old conversations' KV cache, in system memory.

- Weights (vLLM `--cpu-offload-gb G`): G GB of each GPU's weights stay in pinned system memory and are copied to
  the card over PCIe at every forward pass (vLLM's docs: "a virtual way to increase GPU memory", it needs a fast
  CPU-GPU link). Each decode step then waits G / PCIe bandwidth on top of its own time, whatever the batch, so
  the cost is per generated token; G is the smallest whole number of GB that lets the plan fit (tools.offload.spill
  does the PCIe arithmetic).
- KV cache (vLLM's `--kv-transfer-config` with the OffloadingConnector or LMCache's LMCacheConnectorV1): the KV
  blocks of conversations that left the GPU are kept in system memory, so a returning conversation's prefix is
  copied back over PCIe instead of computed again. It does not hold the running sequences (their KV stays on the
  card): it saves prefill time, not decode memory. The reload time is the prefix's KV bytes / PCIe bandwidth,
  against the prefix's tokens / prefill speed to compute it again.
llama.cpp's layer and expert offload (the CPU reads the RAM-side weights) is tools.offload.
"""

from __future__ import annotations

import math

from pydantic import Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.knowledge.host_memory import pcie_link
from gpu_advisor.tools.common import GPU_HELP, MAX_COUNT, MODEL_HELP, Explained, ToolError, ToolInput, term
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.offload import OS_RESERVE_GB, SpillInput, spill
from gpu_advisor.tools.throughput import SpeedInput, speed

# vLLM's KV block: 16 tokens (--block-size default on CUDA); the OffloadingConnector counts CPU blocks of it
# (vLLM 0.11: kv_connector_extra_config num_cpu_blocks).
KV_BLOCK = 16


class VllmOffloadInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, gt=0, le=8, description="tensor-parallel GPUs of the one server")
    precision: str = Field("bf16", description="weight format")
    context: int = Field(8192, gt=0, le=MAX_COUNT, description="tokens per conversation")
    users: int = Field(1, gt=0, le=MAX_COUNT, description="conversations decoded at once")
    system_ram_gb: float | None = Field(None, gt=0, le=16384, description="the server's system memory, GB")
    kv_offload_conversations: int = Field(0, ge=0, le=MAX_COUNT, description="idle conversations whose KV cache "
                                          "is kept in system memory (LMCache / vLLM's KV offloading); 0: none")


class VllmOffloadResult(Explained):
    model: str
    gpu: str
    gpus: int
    precision: str
    fits_without: bool = Field(description="the plan fits the GPUs with nothing offloaded")
    cpu_offload_gb: int = Field(description="--cpu-offload-gb: GB of each GPU's weights kept in system memory")
    link: str
    tokens_per_s: float = Field(description="per conversation, with the offload")
    tokens_per_s_range: tuple[float, float]
    all_on_card_tokens_per_s: float
    slowdown: float
    kv_offload_gb: float = Field(description="system memory for the idle conversations' KV cache, GB")
    kv_reload_s: float = Field(description="one conversation's KV copied back over PCIe, s")
    kv_recompute_s: float = Field(description="the same prefix computed again at prefill speed, s")
    ram_needed_gb: float
    ram_ok: bool | None
    flags: list[str]


def vllm_offload(inp: VllmOffloadInput) -> VllmOffloadResult:
    model = resolve_model(inp.model)
    gpu = find_gpu(inp.gpu)
    precision = find_precision(inp.precision)
    if gpu.unified_memory:
        raise ToolError(f"{gpu.name} shares one memory between CPU and GPU: there is no system RAM to offload to")
    mem = inference_memory(InferenceMemoryInput(model=model.id, precision=precision.id, gpu=gpu.id, engine="vllm",
                                                context=inp.context, batch=inp.users, gpus=inp.gpus))
    cap = mem.gpu_capacity_bytes or 0.0
    weights = mem.term("weights_bytes").value  # per GPU
    over = max(0.0, mem.per_gpu_total_bytes - cap)
    offload_gb = math.ceil(over / 1e9) if over else 0
    if offload_gb * 1e9 >= weights:
        raise ToolError(f"the KV cache of {inp.users} x {inp.context:,} tokens alone overflows {gpu.name}: offloading "
                        "weights cannot make room; fewer conversations or a shorter context")
    sp = speed(SpeedInput(model=model.id, precision=precision.id, gpu=gpu.id, gpus=inp.gpus, batch=inp.users,
                          context=inp.context, engine="vllm"))
    tpot = 1 / sp.decode_tokens_per_s
    share = offload_gb * 1e9 / weights if offload_gb else 0.0
    sp_rows = spill(SpillInput(gpu=gpu.id, weights_bytes=weights, tpot_s=tpot, through="pcie", shares=(max(share, 1e-6),)))
    row = sp_rows.rows[0]
    link = pcie_link(gpu.pcie_gen)
    link_mid = link.reached_gbps[1] * 1e9
    kv_per_conv = mem.term("kv_cache_bytes").value * inp.gpus / inp.users  # a whole conversation, all GPUs
    kv_gb = inp.kv_offload_conversations * kv_per_conv / 1e9
    reload_s = kv_per_conv / (link_mid * inp.gpus)  # each GPU copies its share over its own link
    recompute_s = inp.context / sp.prefill_tokens_per_s
    ram = offload_gb * inp.gpus + kv_gb + OS_RESERVE_GB
    ram_ok = None if inp.system_ram_gb is None else inp.system_ram_gb >= ram
    flags = ["--cpu-offload-gb", str(offload_gb)] if offload_gb else []
    if inp.kv_offload_conversations:
        flags += ["--kv-transfer-config",
                  '{"kv_connector":"OffloadingConnector","kv_role":"kv_both","kv_connector_extra_config":'
                  f'{{"num_cpu_blocks":{inp.kv_offload_conversations * math.ceil(inp.context / KV_BLOCK)}}}}}']
    terms = [
        term("cpu_offload_gb", "Weights in system memory per GPU", offload_gb, "GB",
             "per-GPU memory the plan needs - the GPU's usable memory, rounded up to a whole GB",
             {"needed_gb": round(mem.per_gpu_total_bytes / 1e9, 1), "usable_gb": round(cap / 1e9, 1)}),
        term("tokens_per_s", "Decode speed per conversation", row.tokens_per_s, "tokens/s",
             "1 / (time per token on the card + offloaded bytes / PCIe bandwidth): every step copies them",
             {"all_on_card_tokens_per_s": round(sp.decode_tokens_per_s, 1), "link_gbps": round(link_mid / 1e9, 1),
              "offloaded_bytes": round(offload_gb * 1e9)}),
        term("kv_reload_s", "A conversation's KV copied back", reload_s, "s",
             "KV bytes of one conversation / PCIe bandwidth (each GPU its share)",
             {"kv_bytes": round(kv_per_conv), "recompute_s": round(recompute_s, 3)}),
        term("ram_needed_gb", "System memory", ram, "GB",
             "offloaded weights x GPUs + idle conversations' KV + the operating system's share",
             {"os_reserve_gb": OS_RESERVE_GB}),
    ]
    terms[1] = terms[1].model_copy(update={"low": row.tokens_per_s_range[0], "high": row.tokens_per_s_range[1]})
    assumptions = [
        f"{link.label}: {link.reached_gbps[0]:.0f}-{link.reached_gbps[2]:.0f} GB/s reached (a band, not fitted to "
        "offload measurements); the offloaded weights cross it at every decode step",
        "vLLM's --cpu-offload-gb and KV offloading keep pinned system memory: the RAM is reserved, not swapped",
    ]
    if inp.kv_offload_conversations:
        assumptions.append("KV offloading keeps idle conversations' prefixes: the running ones stay on the GPU, so "
                           "it saves prefill time on return, not memory for more conversations at once")
    warnings = []
    if ram_ok is False:
        warnings.append(f"needs about {ram:.0f} GB of system memory; {inp.system_ram_gb:g} GB said")
    if row.slowdown > 3:
        warnings.append(f"{row.slowdown:.0f}x slower than on cards that hold it: offloading this much is a "
                        "stopgap, a second card or a smaller format is the plan")
    return VllmOffloadResult(
        model=model.name, gpu=gpu.name, gpus=inp.gpus, precision=precision.id, fits_without=not offload_gb,
        cpu_offload_gb=offload_gb, link=link.label, tokens_per_s=row.tokens_per_s,
        tokens_per_s_range=row.tokens_per_s_range, all_on_card_tokens_per_s=sp.decode_tokens_per_s,
        slowdown=row.slowdown, kv_offload_gb=kv_gb, kv_reload_s=reload_s, kv_recompute_s=recompute_s,
        ram_needed_gb=ram, ram_ok=ram_ok, flags=flags, terms=terms, assumptions=assumptions, warnings=warnings)
