"""A full fine-tune on cards you own that are too small for it as planned, kept on them with DeepSpeed ZeRO-3 and the
optimizer in CPU memory (`offload_optimizer: cpu`): the GPUs hold the BF16 weight shards, the layers being gathered
and the activations; the FP32 master weights, Adam moments and gradient shards live in the servers' system RAM, and
every optimizer step runs on the CPUs (DeepSpeed CPU Adam) after the gradient shards cross PCIe.

The time is the run's GPU time (tools.training_time, as sized for those cards) plus, per optimizer step, the CPU
Adam pass over each server's share of the states at the server RAM's bandwidth and the shards' PCIe copies; the
slow end also takes the GPU work at OFFLOAD_GPU_FACTOR of its usual pace (ZeRO-3 gathers every layer at a small
micro-batch, and the copies overlap the compute only in part). A range, not a point: nobody measured it here."""

from __future__ import annotations

from pydantic import BaseModel

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.host_memory import SERVER_RAM, host_links, pcie_link
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Option, Workload, _server_gpus, training_setup
from gpu_advisor.tools.training import training_memory

# Sequences in one optimizer step (global batch), a common SFT setting (e.g. 8 GPUs x micro-batch 1 x 16
# accumulation steps); larger batches spread the CPU step over more tokens.
GLOBAL_BATCH_SEQUENCES = 128
# Bytes DeepSpeed's CPU Adam moves per parameter at each step: reads the FP32 gradient, master weight and both
# moments (16), writes the master weight and moments back (12) and the BF16 copy sent to the GPU (2).
CPU_ADAM_BYTES_PER_PARAM = 30.0
# Bytes per parameter over each GPU's PCIe link per step: its BF16 gradient shard down, its BF16 weight shard up.
PCIE_BYTES_PER_PARAM = 4.0
# The slow end: the GPU work at half its usual pace (ZeRO-3's per-layer gathers at micro-batch 1, copies not hidden).
OFFLOAD_GPU_FACTOR = 2.0


class ZeroOffloadPlan(BaseModel):
    gpu: str
    gpu_name: str
    gpus: int
    servers: int
    per_gpu_bytes: float
    capacity_bytes: float
    fits: bool
    host_bytes: float
    host_bytes_per_server: float
    ram_ok: bool | None  # against the system RAM said (per server); None when none was said
    usual_hours: float
    hours_low: float
    hours_high: float
    steps: int


def zero_offload_plan(w: Workload, mine: Option) -> ZeroOffloadPlan | None:
    """The offload plan on the cards `mine` (owned), for a full fine-tune; None when it is not one or no time
    was sized for those cards."""
    if not w.spec.trains or w.spec.serves or w.spec.pretrains or w.reinforces or w.method != "full" \
            or mine.job_hours is None:
        return None
    gpu = find_gpu(mine.gpu)
    n = mine.gpus
    setup = training_setup(w, n, gpu)
    mixed = True if setup.mixed_precision is None else setup.mixed_precision
    tm = training_memory(setup.model_copy(update={"cpu_offload": True, "zero": 3, "offload_params": False,
                                                   "mixed_precision": mixed}))
    per_server = min(n, _server_gpus(w, gpu))
    servers = -(-n // per_server)
    params = resolve_model(w.model).total_params_b * 1e9
    steps = max(1, round(w.tokens_per_run(resolve_model(w.model)) * w.epochs
                         / (GLOBAL_BATCH_SEQUENCES * w.seq_len)))
    slow_ram, _mid_ram, fast_ram = host_links()[SERVER_RAM].reached_gbps
    slow_link, _mid, fast_link = pcie_link(gpu.pcie_gen).reached_gbps

    def per_step(ram_gbps: float, link_gbps: float) -> float:
        return (CPU_ADAM_BYTES_PER_PARAM * params / servers / (ram_gbps * 1e9)
                + PCIE_BYTES_PER_PARAM * params / n / (link_gbps * 1e9))

    usual = mine.job_hours
    low = usual + steps * per_step(fast_ram, fast_link) / 3600
    high = usual * OFFLOAD_GPU_FACTOR + steps * per_step(slow_ram, slow_link) / 3600
    host_per_server = tm.cpu_bytes * per_server
    ram_ok = None if w.system_ram_gb is None else host_per_server <= w.system_ram_gb * 1e9
    cap = usable_bytes(gpu)
    return ZeroOffloadPlan(gpu=gpu.id, gpu_name=gpu.name, gpus=n, servers=servers, per_gpu_bytes=tm.per_gpu_total_bytes,
                           capacity_bytes=cap, fits=tm.per_gpu_total_bytes <= cap, host_bytes=tm.cpu_bytes * n,
                           host_bytes_per_server=host_per_server, ram_ok=ram_ok, usual_hours=usual, hours_low=low,
                           hours_high=high, steps=steps)
