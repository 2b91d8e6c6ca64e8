"""The verdict on each dimension a choice between models asks about (reading/choice_dims.py: u.ask["dims"]):
'哪个跑得快' is answered on speed, '哪个更省显存' on memory, both when both are asked, each with its figures and on ONE
card (the user's, else the one the candidates were sized on), never on cost when cost was not asked.

Rows in: {"model", "name", "gpus", "gpu_name", "tps" (decode tokens/s per user), "mem_bytes" (all the cards' memory
the model takes: weights, KV cache, overhead)}. Out: typed codes {dim: {"pick", "other", "a", "b"} or {"pick": None}}
and the lines the catalog words them with (choice.*)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import hours, tps

# Figures closer than this ratio are about the same (as assistant.verdict's SAME).
SAME = 1.1
# The dimensions answered from a card's figures (cost is the model-choice verdict's own).
ON_CARD = ("speed", "memory")


def _moe(model_id: str) -> tuple[float, float] | None:
    """(active, total) billions of a mixture-of-experts model; None for a dense one."""
    from gpu_advisor.knowledge import find_model

    try:
        arch = find_model(model_id)
    except (LookupError, ValueError):
        return None
    active = getattr(arch, "active_params_b", None)
    return (active, arch.total_params_b) if active and active < arch.total_params_b * 0.8 else None


def codes(rows: list[dict[str, Any]], dims: list[str]) -> dict[str, dict[str, Any]]:
    """The verdict code on each dimension asked that a card's figures answer: the better model and both figures,
    or pick None when they are about the same."""
    out: dict[str, dict[str, Any]] = {}
    for dim in (d for d in dims if d in ON_CARD):
        key, better = ("tps", max) if dim == "speed" else ("mem_bytes", min)
        if dim == "speed" and rows and all(r.get("hours") for r in rows):
            key, better = "hours", min  # a job that ends ('离线翻译 5000 万 token'): the sooner done is faster
        have = [r for r in rows if r.get(key)]
        if len(have) < 2:
            continue
        best = better(have, key=lambda r: r[key])
        other = next(r for r in have if r is not best)
        hi, lo = max(best[key], other[key]), min(best[key], other[key])
        pick = best["model"] if hi > SAME * lo else None
        moe = _moe(pick) if pick and dim == "speed" else None
        out[dim] = {"pick": pick, "other": other["model"], "first": best["model"], "a": best[key], "b": other[key],
                    "figure": key,
                    **({"moe": {"active_b": moe[0], "total_b": moe[1]}} if moe else {})}
    return out


def lines(lang: str, rows: list[dict[str, Any]], verdicts: dict[str, dict[str, Any]], card: str) -> list[str]:
    """One verdict line per dimension asked, with the figures, and the MoE's reason when one wins on speed."""
    names = {r["model"]: r["name"] for r in rows}
    out = []
    for dim, v in verdicts.items():
        figure = v.get("figure", "tps")
        fig = {"tps": tps, "hours": hours}.get(figure, lambda x: f"{x / 1e9:.1f}")
        kind = f"{dim}_hours" if figure == "hours" else dim
        if v["pick"] is None:
            out.append(say(lang, f"choice.same.{kind}", card=card, a=names[v["first"]], b=names[v["other"]],
                           x=fig(v["a"]), y=fig(v["b"])))
            continue
        out.append(say(lang, f"choice.pick.{kind}", card=card, model=names[v["pick"]], other=names[v["other"]],
                       x=fig(v["a"]), y=fig(v["b"])))
        moe = v.get("moe")
        if moe:
            from gpu_advisor.knowledge import find_model

            out.append(say(lang, "choice.moe_speed", model=find_model(v["pick"]).name, active=f"{moe['active_b']:g}",
                           total=f"{moe['total_b']:g}"))
    return out
