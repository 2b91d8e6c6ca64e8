"""The cards and users said right after a tensor-against-pipeline verdict (assistant/parallel_choice.py), before any
plan: "8x h100 in each node, about 50 ppl" after "TP or PP for a 70b across 2 nodes?" is the same question applied to
their cluster, not a sizing to start from scratch (review CF #5).

- The cards said are the ones in the servers of the question: the user's own (owned, with the cards per server), never
  a rental filter ("only 8 × H100") that the plan would then offer to rent back to them.
- A count of at most MAX_PER_NODE cards is the cards in each server ("8x h100 in each node", "每台8张h100"); a larger
  count is all of them, split evenly over the servers said ("16 h100 in total").
- The users said are sized on one copy (assistant/parallel_choice.py users line): whether one server holds them all, and
  what the other servers add.
- The model (and serving) stay in the profile, so a later "working hours" or "rent or buy?" is about that job on the
  cards they own.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.writers import gb, tps

MAX_PER_NODE = 8  # the most cards one server holds (HGX, 8-card PCIe servers)
# What such a message may also say and still be the same question: who uses it and how, not another job.
FOLLOW_SLOTS = {"users", "phase", "owned", "only", "server_gpus", "precision", "context", "network", "network_gbit",
                "population", "users_range"}
# Intents the reader gives such a message on its own ("8x h100", "does it fit?"): nothing asked beside it.
QUIET_INTENTS = {"whatif", "fit_check"}


def _last_verdict(state: Any) -> dict[str, Any] | None:
    """The last reply's tensor-against-pipeline data, when the last reply was one and no plan has been made since."""
    from langchain_core.messages import AIMessage

    if state.get("results"):
        return None
    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    payload = (last.additional_kwargs.get("gpu_advisor") or {}) if last is not None else {}
    data = (payload.get("results") or {}).get("par_choice") if payload.get("topic") == "parallelism" else None
    return data if isinstance(data, dict) and data.get("model") and data.get("code") != "fixed_format" else None


def _cards(u: Understanding) -> tuple[int, str | None]:
    """The cards said: (count, catalog id); (0, None) when none."""
    if u.whatif_gpus:
        return int(u.whatif_gpus[0]), str(u.whatif_gpus[1])
    for slot in ("owned", "only"):
        for item in u.updates.get(slot) or []:
            count, _, gpu = str(item).partition("x ")
            if gpu and count.isdigit():
                return int(count), gpu
            return 1, str(item)
    if len(u.compare_gpus) == 1:
        return 0, u.compare_gpus[0]
    return 0, None


def par_choice_followed(u: Understanding, state: Any) -> None:
    """Rewrites `u` in place: the verdict asked again on the cards and users said, the cards owned."""
    before = _last_verdict(state)
    if before is None or u.topic or u.intents - QUIET_INTENTS or set(u.updates) - FOLLOW_SLOTS or u.owned_untyped:
        return
    count, gpu = _cards(u)
    users = u.updates.get("users")
    if not (gpu or users or u.updates.get("server_gpus")):
        return
    servers = int(before.get("servers") or 0)
    per_node = int(u.updates.get("server_gpus") or 0)
    if not per_node and count:
        per_node = count if count <= MAX_PER_NODE or servers < 2 else max(count // servers, 1)
    per_node = per_node or int(before.get("per_node") or MAX_PER_NODE)
    gpu = gpu or (str(before["gpu"]) if before.get("gpu_said") else None)
    spec = {"model": before["model"], "servers": servers, "per_node": per_node, "gpu": gpu, "fixed": 0,
            "explain": False, "precision": u.updates.get("precision") or before.get("precision_said"),
            "users": int(users) if users else 0, "context": u.updates.get("context"), "follow": True}
    updates: dict[str, Any] = {k: u.updates[k] for k in ("users", "precision", "context", "network", "network_gbit")
                               if u.updates.get(k) is not None}
    updates.update({"model": before["model"], "phase": "serve"})
    if gpu:  # the cards in their servers: theirs, counted per server
        updates.update({"owned": [f"{max(servers, 1) * per_node}x {gpu}"], "server_gpus": per_node})
    u.updates = updates
    u.ask = {**u.ask, "par_choice": spec}
    u.intents = {"parallelism", "no_sizing"}
    u.whatif_gpus, u.compare_gpus = None, []


def users_lines(ctx: Any, memory: Any, users: int, data: dict[str, Any]) -> list[str]:
    """The people said, on the verdict's layout: the fewest copies that hold them all at once (inference_memory at
    that many conversations each), each person's speed there (speed), and what the other copies are for."""
    from gpu_advisor.knowledge import find_gpu

    code = data.get("code")
    if code not in ("one_node", "one_card", "cross_node"):
        return []
    per_node, servers = int(data["per_node"]), max(int(data.get("servers") or 0), 1)
    tp = 1 if code == "one_card" else per_node
    pp = int(data["pp"]) if code == "cross_node" else 1
    copies = max(per_node // tp * servers // pp, 1)
    model, fmt, gpu = str(data["model"]), str(data["precision"]), str(data["gpu"])
    need, mem = 0, None
    for k in range(1, copies + 1):
        mem = memory(ctx, model, fmt, gpu, tp, pp, -(-users // k))
        if mem is not None and mem.fits:
            need = k
            break
    context = f"{int(mem.context if mem else data.get('context') or 0):,}"
    if not need or mem is None:
        data.update({"users": users, "copies": copies, "users_copies": 0})
        return [ctx.say("parc.users_short", users=users, copies=copies, context=context)]
    assert mem is not None  # the loop found `need` copies that hold the users
    each = -(-users // need)
    rate = _speed(ctx, model, fmt, gpu, (tp, pp), each, mem.context)
    data.update({"users": users, "copies": copies, "users_copies": need, "users_per_copy": each,
                 "users_per_gpu_bytes": mem.per_gpu_total_bytes, "users_tokens_per_s": rate})
    figures = {"users": users, "cards": tp * pp, "gpu": find_gpu(gpu).name,
               "tp": tp, "per_gpu": gb(mem.per_gpu_total_bytes), "cap": gb(mem.gpu_capacity_bytes or 0),
               "context": context, "tps": tps(rate) if rate else "?", "each": each, "need": need, "copies": copies}
    lines = [ctx.say("parc.users_one" if need == 1 else "parc.users_split", **figures)]
    if copies > need:
        lines.append(ctx.say("parc.users_spare", copies=copies))
    return lines


def _speed(ctx: Any, model: str, fmt: str, gpu: str, layout: tuple[int, int], batch: int, context: int) -> float:
    """Tokens a second each person gets with `batch` conversations on one copy (the speed tool); 0 when it refuses."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.throughput import SpeedInput, speed

    try:
        return float(_call(ctx, "speed", speed, SpeedInput(model=model, precision=fmt, gpu=gpu, gpus=layout[0],
                                                          pp=layout[1], batch=batch, context=context)).decode_tokens_per_s)
    except (ToolError, LookupError, ValueError):
        return 0.0
