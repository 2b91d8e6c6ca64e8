"""A fine-tune on several servers of your own joined by ordinary Ethernet: what crosses the network between them each
step decides whether the run spreads over all of them.

A full fine-tune sharded with ZeRO-3 / FSDP over every card gathers the weights twice and reduce-scatters the
gradients each micro-batch: tens of gigabytes a step for a 14B model, which Ethernet carries slower than the cards
compute, and below fast links it is not hidden behind the compute. LoRA and QLoRA run data parallel across the servers (HSDP:
the frozen base and the adapters' states sharded over each server's cards, replicated across servers): only the
adapters' gradients cross, one all-reduce a step (tools.rl_sync.server_sync), megabytes to a few hundred. All the
servers are the plan when that exchange takes at most SHARE_MAX of a step's compute and the run is at least
ACROSS_GAIN_MIN faster than on one server's cards; else one server's cards run it when they hold it (the others
stay free). The figures (bytes a step, seconds on the link, seconds of compute) are the training_time tool's network
term, said in the answer (findings across_servers_training, one_server_training)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpu_advisor.tools.durations import hours_figure, seconds_figure
from gpu_advisor.tools.rl_sync import ACROSS_GAIN_MIN
from gpu_advisor.tools.training_time import training_time

if TYPE_CHECKING:
    from gpu_advisor.knowledge.schema import Gpu
    from gpu_advisor.tools.recommend import Option, Workload

ADAPTER_METHODS = ("lora", "qlora")
# The most of a step's compute the exchange between the servers may take for the run to spread over them: NCCL
# overlaps it with the backward pass only in part (the last buckets, the optimizer step and the first gathers wait on
# it), so an exchange near the compute's length is not hidden.
SHARE_MAX = 0.25


def adapters_across(network: str | None, method: str, gpus: int, per: int) -> bool:
    """Whether a run is LoRA or QLoRA over more cards than one server holds, the servers joined by Ethernet: data
    parallel across them, sharded inside each."""
    return network == "slow" and method in ADAPTER_METHODS and gpus > per


def crossing(w: Workload, gpu: Gpu, count: int) -> dict[str, Any] | None:
    """What crosses between the servers each step of the run on `count` of your cards over their Ethernet, and how
    long it takes: bytes (a micro-batch's), net_s (on the link), step_s (the cards' compute for it), layout
    ('data_parallel' or 'zero3'), servers, gbit; None when the run does not cross servers."""
    from gpu_advisor.tools.recommend import training_time_setup

    tt = training_time(training_time_setup(w, gpu.id, count, True))
    network = next((t for t in tt.terms if t.key == "network_seconds"), None)
    compute = next((t for t in tt.terms if t.key == "compute_hours"), None)
    if network is None or compute is None:
        return None
    micro = float(network.inputs["micro_batches"]) or 1.0
    return {"bytes": float(network.inputs["bytes_per_micro_batch"]),
            "net_s": float(network.inputs["seconds_per_micro_batch"]),
            "step_s": compute.value * 3600 / micro, "layout": str(network.inputs["layout"]),
            "servers": int(network.inputs["servers"]), "gbit": float(network.inputs["gbit_per_s"]),
            "hours": tt.hours}


def values(x: dict[str, Any], count: int, per: int) -> dict[str, float | str]:
    """The figures a finding says of the exchange: gpus, servers, per, gbit, mb or gb (a step's bytes), sync_s,
    step_s, share (the one against the other)."""
    share = x["net_s"] / x["step_s"] if x["step_s"] else 1.0
    return {"gpus": str(count), "servers": str(x["servers"]), "per": str(per), "gbit": f"{x['gbit']:g}",
            "mb": f"{x['bytes'] / 1e6:,.0f}", "gb": f"{x['bytes'] / 1e9:,.1f}", "sync_s": seconds_figure(x["net_s"]),
            "step_s": seconds_figure(x["step_s"]), "share": f"{share:.0%}" if share >= 0.01 else "<1%",
            "layout": x["layout"]}


def spread(w: Workload, gpu: Gpu, count: int, per: int, one: Option | None, whole: Option | None) -> Option | None:
    """A fine-tune on your servers over Ethernet: all of them (finding across_servers_training with what crosses
    between the servers a step against the step) when that exchange is at most SHARE_MAX of the step's compute and
    the run is at least ACROSS_GAIN_MIN faster than on one server's cards; None otherwise (one server's cards)."""
    from gpu_advisor.tools.recommend import Finding

    if whole is None or not whole.ok or not whole.training_hours or one is None or not one.training_hours \
            or w.spec.pretrains or whole.training_hours > one.training_hours * (1 - ACROSS_GAIN_MIN):
        return None
    x = crossing(w, gpu, count)
    if x is None or x["net_s"] > SHARE_MAX * x["step_s"]:
        return None
    whole.findings.append(Finding(code="across_servers_training", values={
        **values(x, count, per), "hours": hours_figure(whole.training_hours),
        "one_hours": hours_figure(one.training_hours), "link": "nvlink" if gpu.has_nvlink else "pcie"}))
    return whole


def one_server_values(w: Workload, gpu: Gpu, count: int, per: int) -> dict[str, float | str]:
    """A run kept on one server's cards: what ZeRO-3 over all of them would move between the servers each step
    (gb, sync_s against step_s); {} when it would not cross them."""
    x = crossing(w, gpu, count)
    return values(x, count, per) if x is not None else {}
