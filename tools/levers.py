"""The serving levers an expert reaches for when no plan meets the requirements as asked, as typed codes with
the changed workload fields. tools.recommend sizes each one on the whole card search (card x count, fits,
speed, price), ranks them by what the user pays, and takes the first that meets everything as the plan when
it only changes something the user did not state (said as an assumption the user can undo).

Codes (the writers' `lever.<code>` sentences):
- kv8: the KV cache in FP8 (vLLM --kv-cache-dtype fp8): half the KV memory and half the KV read per token.
- int4_kv8: 4-bit weights (AWQ/GPTQ) and the KV cache in FP8.
- users_peak=N: the users said are people who use the service, not all at once: N generating at once at the
  busiest moment (tools.traffic.peak_at_once). Listed, never taken: the user may have meant all at once.
- model=<id>: the closest smaller (often MoE) model of the same family (tools.models.smaller_in_family).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpu_advisor.tools.models import smaller_in_family
from gpu_advisor.tools.traffic import PeakInput, peak_at_once

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Workload

# Levers taken as the plan when nothing meets the requirements as asked: they change only how the model is
# stored (a format the user did not name), never what the user asked for.
TAKEN = ("kv8", "int4_kv8")
# From this many people a count said without "at once" may be a staff rather than users at once.
PEAK_FROM_USERS = 10


def smaller_model_change(w: Workload, model: str) -> dict[str, Any]:
    """The workload change that tries a smaller model: its own format chosen afresh. A format the user stated was for
    the model they named, so on their own cards the smaller one may take 4 bits too; '满血版' (the checkpoint's own
    weights: no format and precision not flexible) stays as it was."""
    flexible = sorted({*w.flexible, "precision"}) if w.serve_precision is not None else w.flexible
    return {"model": model, "serve_precision": None, "flexible": flexible}


def serving_lever_tries(w: Workload) -> list[tuple[str, dict[str, Any]]]:
    """The serving levers for `w`, each (code, the changed fields); none for a job that does not serve."""
    if not w.spec.serves or w.owned:
        return []  # cards you own: tools.recommend's owned levers try the KV cache and smaller files on them
    tries: list[tuple[str, dict[str, Any]]] = []
    if w.kv_cache is None:
        tries.append(("kv8", {"kv_cache": 8}))
        if w.serve_precision is None:  # (a format said is kept: no 4-bit weights in its place)
            tries.append(("int4_kv8", {"serve_precision": "int4", "kv_cache": 8}))
    rated = bool(w.requests_per_s or w._rate_per_s)
    if w.population is None and w.users >= PEAK_FROM_USERS and not rated:
        at_once = peak_at_once(PeakInput(people=w.users)).at_once
        if at_once < w.users:
            tries.append((f"users_peak={at_once}", {"users": at_once, "population": w.users}))
    smaller = smaller_in_family(w.model, w.line_said)
    if smaller:
        tries.append((f"model={smaller[0]}", smaller_model_change(w, smaller[0])))
    return tries


def takeable(code: str, w: Workload) -> bool:
    """A lever the plan may take without asking: a storage format the user left open."""
    key = code.partition("=")[0]
    if key not in TAKEN:
        return False
    if w.flexible and "precision" not in w.flexible:
        return False  # the user asked for the checkpoint's own weights
    return key == "kv8" or w.serve_precision is None
