"""A model already served on part of the user's own cards, and a second one to add (reading/running_job.py: the
`also` slot holds the running model with 'running', the count of cards it holds): "our lab owns 16x H100 ...
currently serving llama 3.1 70b to ~200 users on 8 of them. we want to add ... qwen2.5 72b, for another ~150 users.
do we have enough?". The plan sizes the model added on the cards left free (the engine's owned split: the
recommend tool on those cards, so 'enough?' is answered for them first), and the running model is checked on its own
cards with its own users by the same tool, so both figures said are a tool's. Before, both were weighed as one
choice on all the cards, or served together on them."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def running_split(profile: Any, also: dict[str, Any] | None, defaulted: list[str], recorder: Any = None
                  ) -> dict[str, Any] | None:
    """{'kind': 'running', 'serve_owned': the free cards for the plan, 'busy', 'free', 'total', 'gpu', 'gpu_name',
    'running_model', 'running_users', 'holds', 'per_gpu_bytes', 'capacity_bytes', 'tps'}; None when it does not
    apply (no running model, or not one kind of card owned with some left free)."""
    from gpu_advisor.assistant.advice import workload_for
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import parse_owned, recommend

    busy = int((also or {}).get("running") or 0)
    if also is None or not busy or not also.get("model") or len(profile.owned or []) != 1:
        return None
    try:
        total, gpu = parse_owned(str(profile.owned[0]))
    except LookupError:
        return None
    if not 0 < busy < total:
        return None
    split: dict[str, Any] = {"kind": "running", "serve_owned": f"{total - busy}x {gpu.id}", "busy": busy,
                             "free": total - busy, "total": total, "gpu": gpu.id, "gpu_name": gpu.name,
                             "running_model": also["model"], "running_users": also.get("users"), "holds": None}
    mine = profile.model_copy(update={"model": also["model"], "owned": [f"{busy}x {gpu.id}"],
                                      **({"users": also["users"]} if also.get("users") else {})})
    try:
        w = workload_for(mine, [d for d in defaulted if d != "users" or not also.get("users")])
        rec = recommend(w)
    except (ToolError, LookupError, ValueError):
        return split
    if recorder is not None:
        recorder("recommend", w.model_dump(mode="json"), rec.model_dump(mode="json"), 0.0)
    best = rec.best
    if best is None or not best.owned or best.gpus > busy:
        return split | {"holds": False}
    return split | {"holds": bool(best.ok), "per_gpu_bytes": best.serve_per_gpu_bytes,
                    "capacity_bytes": best.capacity_bytes, "tps": best.decode_tokens_per_s,
                    "running_users": w.users, "precision": best.precision}


def running_words(split: dict[str, Any], lang: str, serve_model: str) -> tuple[str, str]:
    """(headline, paragraph): the model added on the free cards, the running one checked on its own."""
    from gpu_advisor.assistant.pairing import _name
    from gpu_advisor.assistant.writers import gb

    values = {"total": split["total"], "busy": split["busy"], "free": split["free"], "card": split["gpu_name"],
              "model": _name(serve_model), "running": _name(split["running_model"]),
              "users": split.get("running_users") or "", "need": gb(split.get("per_gpu_bytes") or 0),
              "have": gb(split.get("capacity_bytes") or 0), "tps": f"{split.get('tps') or 0:,.0f}",
              "precision": split.get("precision") or ""}
    key = {True: "twojobs.running_holds", False: "twojobs.running_short", None: "twojobs.running_unsized"}[
        split.get("holds")]
    return say(lang, "twojobs.headline", **values), say(lang, key, **values)


def running_ack(also: dict[str, Any], lang: str) -> str:
    """The running model in 'from what you said': on how many of the cards, for how many people."""
    from gpu_advisor.assistant.pairing import _name

    users = also.get("users")
    return say(lang, "twojobs.ack_users" if users else "twojobs.ack", model=_name(str(also.get("model") or "")),
               busy=also.get("running"), users=users or "")
