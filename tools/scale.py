"""Scale out: a serving plan beyond one server.

A plan is replicas x a unit: tensor parallel (TP) over the GPUs of one server, times pipeline parallel
(PP) over servers when one server cannot hold the model. The unit is the smallest that holds the
weights and the KV cache of its share of the users and gives each user at least the speed asked for;
copies of it (data parallel) share the users out. Across servers the plan uses pipeline stages, not
tensor parallelism: TP sends two all-reduces per layer per token, which over InfiniBand (about 50 GB/s
and 10 us a message against NVLink's 450 GB/s and a few us) costs more than the model's own step,
while PP sends one activation per stage per token.

The memory and speed of a unit come from tools.inference and tools.throughput; this module only
searches the layouts and names the links they need.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.schema import Gpu, ModelArch
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.inference import Engine, InferenceMemoryInput, inference_memory, vllm_batch_defaults
from gpu_advisor.tools.throughput import SpeedInput, speed

# GPUs in one server: an HGX/OAM board (8 x H100, 8 x MI300X), an Atlas 800 A2 (8 x Ascend 910B), the
# common 8-card PCIe servers. Rented and bought plans count whole servers of this size.
SERVER_GPUS = 8
# A serving plan goes up to this many GPUs (16 servers); beyond it the answer is a cluster booking.
MAX_SERVING_GPUS = 128
# Pipeline stages across servers a unit may use: beyond four, each token waits on more network hops
# and the stages' bubbles grow; DeepSeek-V3 and Llama 3.1 405B deploy on two (vLLM, SGLang recipes).
MAX_PIPELINE = 4
# Engines that run one model over several servers (pipeline stages over Ray or torch.distributed).
SCALE_ENGINES: tuple[Engine, ...] = ("vllm", "sglang")
# Cards without a server-grade link (consumer and workstation cards: PCIe, at most an NVLink bridge per
# pair) serve in small units: tensor parallel up to 4 (beyond that the all-reduces cross the CPU's PCIe
# root complexes or sockets, and vLLM's custom all-reduce is off without P2P), and never as pipeline
# stages across servers (such servers rarely have InfiniBand; a 72B model in 4-bit fits 2-4 x 24 GB).
# More users take more copies of the small unit, not a wider one. On servers of them you own, when no small unit
# holds the model, the whole server and pipeline stages across your servers are tried (wide_units).
PCIE_MAX_TP = 4

Link = Literal["nvlink", "hccs", "infinity-fabric", "roce", "pcie", "unified", "nvlink-bridge"]
Between = Literal["infiniband"]


class Layout(BaseModel):
    """One way to serve: replicas x (tp GPUs in a server x pp servers), each replica holding its users."""

    tp: int = Field(gt=0)
    pp: int = Field(1, gt=0)
    replicas: int = Field(1, gt=0)
    users_per_replica: int = Field(gt=0)
    engine: Engine
    precision: str
    kv_precision: str | None = None
    dp_attention: bool = Field(False, description="the copy runs data-parallel attention over all its tp GPUs with "
                               "the experts spread over them (expert parallel), across servers when tp is wider "
                               "than one: an MLA model's latent KV is then held once, not on every GPU")

    @property
    def unit(self) -> int:
        """GPUs of one model copy."""
        return self.tp * self.pp

    @property
    def gpus(self) -> int:
        return self.unit * self.replicas


def servers_for(gpus: int, per_server: int = SERVER_GPUS) -> int:
    """Whole servers that hold this many GPUs."""
    return max(1, math.ceil(gpus / per_server))


def link_within(gpu: Gpu) -> Link:
    """The link between the GPUs of one server: NVLink/NVSwitch, HCCS, Infinity Fabric, Gaudi's RoCE ports, or PCIe."""
    return gpu.interconnect


def small_units_only(gpu: Gpu) -> bool:
    """Whether this card serves in small PCIe units (PCIE_MAX_TP, no pipelines): a card with no server-grade
    link between GPUs (PCIe only, or NVLink bridges joining pairs) outside the data-centre class."""
    return gpu.interconnect in ("pcie", "nvlink-bridge") and gpu.segment != "datacenter"


def units(model: ModelArch, server_gpus: int = SERVER_GPUS, max_gpus: int = MAX_SERVING_GPUS,
          gpu: Gpu | None = None) -> list[tuple[int, int]]:
    """(tp, pp) units from the smallest: each tensor-parallel degree within a server, then the largest
    one with 2, 3 ... pipeline stages (one per server). Cards that serve in small PCIe units
    (small_units_only): tensor parallel up to PCIE_MAX_TP, no pipeline stages."""
    if gpu is not None and small_units_only(gpu):
        return [(t, 1) for t in arch.valid_tensor_parallel(model, min(server_gpus, PCIE_MAX_TP))]
    valid = arch.valid_tensor_parallel(model, server_gpus)
    out = [(t, 1) for t in valid]
    widest = max(valid)
    out += [(widest, p) for p in range(2, MAX_PIPELINE + 1) if widest * p <= max_gpus]
    return out


def wide_units(model: ModelArch, server_gpus: int = SERVER_GPUS, max_gpus: int = MAX_SERVING_GPUS) -> list[tuple[int, int]]:
    """On servers of small-unit cards you own, when no small unit holds the model: the whole server, then
    pipeline stages across your servers (three 8 x 4090 servers hold GLM-4.6 in 4-bit as TP 8 x PP 3, slowly;
    nothing smaller does)."""
    widest = max(arch.valid_tensor_parallel(model, server_gpus))
    wide = [(widest, 1)] if widest > PCIE_MAX_TP else []
    return wide + [(widest, p) for p in range(2, MAX_PIPELINE + 1) if widest * p <= max_gpus]


def latent_moe(model: ModelArch) -> bool:
    """A mixture of experts with MLA attention (DeepSeek V3/R1, Kimi K2): its makers serve it with data-parallel
    attention and expert parallelism (DeepSeek's, Moonshot's, SGLang's and vLLM's deployment docs), each GPU
    keeping its own users' latent KV instead of tensor parallel's copy of it on every GPU."""
    return model.attention == "mla" and model.is_moe


def expert_units(model: ModelArch, server_gpus: int = SERVER_GPUS, max_gpus: int = MAX_SERVING_GPUS,
                 gpu: Gpu | None = None) -> list[int]:
    """GPUs of the data-parallel-attention, expert-parallel copies of an MLA mixture of experts across servers: 2,
    3 ... MAX_PIPELINE whole servers (Moonshot's smallest Kimi K2 FP8 unit is 16 H200 or H20 as DP + EP); none
    on cards that serve in small PCIe units, nor on cards older than FP8 (A100, A800) outside Ascend."""
    if not latent_moe(model) or (gpu is not None and (small_units_only(gpu) or not (gpu.fp8_tflops or gpu.stack == "cann"))):
        return []  # (the internode expert all-to-all kernels, DeepEP's, are Hopper's and later; vLLM-Ascend's own on Ascend)
    return [server_gpus * k for k in range(2, MAX_PIPELINE + 1) if server_gpus * k <= min(max_gpus, 64)]


def attention_ranks(model: ModelArch, tp: int, pp: int, engine: Engine) -> int:
    """Data-parallel attention ranks a one-stage copy of an MLA model runs with on vLLM or SGLang: one per GPU."""
    return tp if model.attention == "mla" and tp > 1 and pp == 1 and engine in SCALE_ENGINES else 1


def users_per_unit(model: str, gpu: Gpu, engine: Engine, precision: str, kv: str | None, tp: int, pp: int,
                   users: int, context: int, floor: float, server_gpus: int = SERVER_GPUS) -> int:
    """The most users (up to `users`) one unit serves: its KV cache holds their contexts, the engine
    schedules them at once (vLLM's max_num_seqs), and each still gets `floor` tokens/s. 0 when it holds
    not even one. Per-user speed falls as the batch grows, so the bound found once serves any `users`."""
    return min(users, unit_capacity(model, gpu.id, engine, precision, kv, tp, pp, context, floor, server_gpus))


def unit_attention(model: str, gpu_id: str, engine: Engine, precision: str, kv: str | None, tp: int, pp: int,
                   context: int, floor: float, server_gpus: int = SERVER_GPUS) -> int:
    """The data-parallel attention ranks a unit runs with: one per GPU for an MLA model where that holds more users
    (always across servers: expert_units), else 1 (tensor-parallel attention, the KV copied on every GPU: R1 FP8
    on one 8 x H20 96GB server, where eight copies of the attention weights leave no room)."""
    dp = attention_ranks(_resolve(model), tp, pp, engine)
    if dp == 1 or tp > server_gpus:
        return dp
    if small_units_only(find_gpu(gpu_id)):
        return 1  # workstation cards over PCIe: tensor-parallel attention, as their plans were sized
    with_dp = _capacity(model, gpu_id, engine, precision, kv, tp, pp, context, floor, dp, 1)
    return dp if with_dp >= _capacity(model, gpu_id, engine, precision, kv, tp, pp, context, floor, 1, 1) else 1


def unit_capacity(model: str, gpu_id: str, engine: Engine, precision: str, kv: str | None, tp: int, pp: int,
                  context: int, floor: float, server_gpus: int = SERVER_GPUS) -> int:
    """users_per_unit without the cap of the users asked for."""
    dp = unit_attention(model, gpu_id, engine, precision, kv, tp, pp, context, floor, server_gpus)
    across = max(1, tp // server_gpus) if dp > 1 else 1
    return _capacity(model, gpu_id, engine, precision, kv, tp, pp, context, floor, dp, across)


@lru_cache(maxsize=4096)
def _capacity(model: str, gpu_id: str, engine: Engine, precision: str, kv: str | None, tp: int, pp: int,
              context: int, floor: float, dp: int, across: int) -> int:
    """unit_capacity with dp data-parallel attention ranks over `across` servers (cached: the search asks it for
    many user counts)."""
    gpu = find_gpu(gpu_id)
    base = InferenceMemoryInput(model=model, precision=precision, context=context, batch=1, gpus=tp, pp=pp,
                                gpu=gpu.id, engine=engine, kv_precision=kv, dp_attention=dp)
    try:
        mem = inference_memory(base)
    except ToolError:
        return 0
    if not mem.fits or not mem.max_concurrent_sequences:
        return 0
    most = min(int(mem.max_concurrent_sequences), vllm_batch_defaults(gpu, "v1")[1] * dp)
    if most < 1:
        return 0

    def fast(batch: int) -> bool:
        sp = speed(SpeedInput(model=model, precision=precision, gpu=gpu.id, gpus=tp, pp=pp, batch=batch,
                              context=context, engine=engine, kv_precision=kv, dp_attention=dp,
                              expert_servers=across))
        return sp.decode_tokens_per_s >= floor

    if fast(most):
        return most
    if not fast(1):
        return 0
    lo, hi = 1, most - 1  # per-user speed falls as the batch grows: the largest batch still fast enough
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fast(mid) else (lo, mid - 1)
    return lo


def plan(model: str, gpu: Gpu, tries: list[tuple[Engine, str, str | None]], users: int, context: int, floor: float,
         owned: int | None = None, server_gpus: int = SERVER_GPUS, max_gpus: int = MAX_SERVING_GPUS,
         all_formats: bool = False) -> list[Layout]:
    """Layouts that serve `users`, best first. Rented or bought: the fewest GPUs in all (then the smaller
    unit: more replicas ride out a failure), in the first format that works. Owned (`owned` GPUs): every
    card used, as many replicas of each unit as fit, in every format tried (the caller evaluates them all
    against the targets; small-unit cards you own go wide only when no small unit serves). Only engines that run
    one model over several servers (vLLM, SGLang)."""
    arch_ = _resolve(model)
    limit = min(owned, max_gpus) if owned else max_gpus
    found: list[tuple[int, int, int, Layout]] = []
    passes = [units(arch_, server_gpus, limit, gpu) + [(n, 1) for n in expert_units(arch_, server_gpus, limit, gpu)]]
    if owned and small_units_only(gpu):
        passes.append(wide_units(arch_, server_gpus, limit))  # your servers, when no small unit holds the model
    for shapes in passes:
        for order, (engine, precision, kv) in enumerate(t for t in tries if t[0] in SCALE_ENGINES):
            for tp, pp in shapes:
                unit = tp * pp
                if unit > limit:
                    continue
                most = users_per_unit(model, gpu, engine, precision, kv, tp, pp, users, context, floor, server_gpus)
                if most < 1:
                    continue
                replicas = limit // unit if owned else math.ceil(users / most)
                if replicas * most < users or replicas * unit > limit:
                    continue
                layout = Layout(tp=tp, pp=pp, replicas=replicas, users_per_replica=math.ceil(users / replicas),
                                engine=engine, precision=precision, kv_precision=kv,
                                dp_attention=unit_attention(model, gpu.id, engine, precision, kv, tp, pp, context,
                                                            floor, server_gpus) > 1)
                found.append((order, 0 if owned else layout.gpus, unit, layout))
            if found and not owned and not all_formats:
                break  # the first format that works (the user's, the checkpoint's, then the levers on owned cards)
        if found:
            break
    return [x[-1] for x in sorted(found, key=lambda x: x[:3])]


def _resolve(model: str) -> ModelArch:
    from gpu_advisor.tools.models import resolve_model

    return resolve_model(model)
