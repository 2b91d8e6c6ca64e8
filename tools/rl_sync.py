"""An online-RL run over several servers of your own joined by Ethernet (no RDMA), data parallel across them (and
a LoRA fine-tune the same way: tools.training_time, only the adapters' gradients cross between the servers).

HSDP (PyTorch FSDP's HYBRID_SHARD, DeepSpeed ZeRO++ hpZ, verl's and OpenRLHF's FSDP with a per-node shard group):
the training state is sharded over each server's cards (NVLink inside the server) and replicated across servers;
each server generates its share of the rollouts on its own cards (no traffic between servers); the only traffic
between them is the all-reduce of the trainable gradients once per policy step (one optimizer step a step), plus
nothing for the weights (each server's engine is refreshed from its own trainer, in memory).

A ring all-reduce over S servers sends 2 x (S - 1) / S of the gradient bytes through each server's link, at
about NETWORK_EFFICIENCY of the Ethernet line rate (NCCL over TCP). Pipeline or tensor parallel across such a
network would wait on it every micro-batch or layer: they stay inside a server.
"""

from __future__ import annotations

from pydantic import Field

from gpu_advisor.tools.common import Explained, term

# Ethernet reaches about this share of its line rate for NCCL collectives over TCP (no RDMA).
NETWORK_EFFICIENCY = 0.8
# Bytes per trainable gradient exchanged between the replicas: BF16 (FSDP's mixed precision reduce_dtype, verl's
# and OpenRLHF's default).
GRADIENT_BYTES = 2
# Data parallel across your servers is the plan when, its gradient exchange included, the run is at least this much
# faster than on one server's cards (the exchange is small against the step); else one server's cards run it and
# the others stay free for other jobs.
ACROSS_GAIN_MIN = 0.1


class ServerSync(Explained):
    servers: int
    gbit_per_s: float
    gradient_bytes: float = Field(description="the trainable gradients exchanged each step (BF16)")
    seconds_per_step: float = Field(description="one all-reduce of them between the servers")


def server_sync(trainable_params: float, servers: int, gbit_per_s: float,
                bytes_per_gradient: float = GRADIENT_BYTES) -> ServerSync:
    """Each policy step's gradient all-reduce between `servers` replicas over `gbit_per_s` Ethernet (gradients of
    `bytes_per_gradient` each: BF16 unless said, FP32 for adapters a framework keeps in FP32)."""
    grads = trainable_params * bytes_per_gradient
    rate = gbit_per_s * 1e9 / 8 * NETWORK_EFFICIENCY
    seconds = 2 * (servers - 1) / servers * grads / rate
    return ServerSync(servers=servers, gbit_per_s=gbit_per_s, gradient_bytes=grads, seconds_per_step=seconds, terms=[
        term("gradient_bytes", "Gradients exchanged each step", grads, "bytes",
             f"trainable parameters x {bytes_per_gradient:g} bytes ({'FP32' if bytes_per_gradient == 4 else 'BF16'} "
             "gradients)",
             {"trainable_params": trainable_params, "bytes_per_gradient": bytes_per_gradient}),
        term("sync_seconds_per_step", "Gradient all-reduce between the servers, per step", seconds, "s",
             "2 x (servers - 1) / servers x gradient bytes / (link Gb/s / 8 x efficiency)",
             {"servers": servers, "gbit_per_s": gbit_per_s, "efficiency": NETWORK_EFFICIENCY})],
        assumptions=["data parallel across the servers (HSDP: the training state sharded over each server's cards, "
                     "replicated across servers; each server generates its own rollouts): one gradient all-reduce "
                     "between the servers per policy step"])
