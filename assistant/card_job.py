"""Two cards to buy weighed on the user's own models ('should i buy a used 3090 or a new 4070 ti super for running
local llms? llama 3.1 8b and maybe some 30b', '买二手3090还是4070 ti super好？跑qwen2.5-32b和llama 3.1 8b'): every
model named (u.ask["job_models"], reading/weigh.py) is tried on ONE card of each (on each setup as said, when a count
comes with a card: '2 used 3090s vs a single 4090', review BW #1) with the fit tool, at the 4-bit
GGUF a home machine runs, and the verdict is a code: the card that runs every model named on one card (holds_all),
its purchase price beside the other's; when both or neither do, the figures decide (assistant/verdict.py)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.user_price import price_said
from gpu_advisor.assistant.verdict import FIT_CONTEXT, verdict_line

# The format and engine a model is run in at home (as verdict.JOB_FITS["local"]).
LOCAL_FORMAT = "q4_k_m"
LOCAL_ENGINE = "llama.cpp"


def job_models(ctx: Any) -> list[str]:
    """The models the user named for the cards compared, in the order said, when the cards are bought to run
    them ('买二手3090还是4070 ti super好？跑qwen2.5-32b和llama 3.1 8b'); [] otherwise."""
    ask = getattr(ctx.turn, "ask", None) or {}
    home = ask.get("job") in (None, "local") and ctx.profile.get("phase") in (None, "serve")
    if not home or ctx.profile.get("preference") != "buy":
        return []
    return list(ask.get("job_models") or [])


def fit_setup(model: str, gpu_id: str, n: int, recorder: Any = None) -> dict[str, Any] | None:
    """The fit tool's figures for `model` on `n` × `gpu_id` at the home format (None when the tool cannot size it)."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.fit import FitInput, fit

    args = FitInput(model=model, gpu=gpu_id, phase="serve", counts=[n], precision=LOCAL_FORMAT,
                    engine=LOCAL_ENGINE, context=FIT_CONTEXT)
    try:
        r = fit(args)
    except (ToolError, LookupError, ValueError):
        return None
    if recorder is not None:
        recorder("fit", args.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
    o = r.options[0]
    return {"model": r.model, "fits": o.fits, "per_gpu_gb": round(o.per_gpu_bytes / 1e9, 1),
            "capacity_gb": round(o.capacity_bytes / 1e9, 1), "gpus": n}


def counts_said(ctx: Any, facts: list[dict[str, Any]]) -> dict[str, int]:
    """The count the user said with each card ('2 used 3090s vs a single new 4090'), when any is more than one:
    each option is that setup (review BW #1); {} when every card is one (one card of each)."""
    from gpu_advisor.assistant.inform import said_count

    counts = {f["id"]: said_count(ctx.turn, f["id"]) or 1 for f in facts}
    return counts if any(n > 1 for n in counts.values()) else {}


def holds_all(rows: list[Any], models: list[str], recorder: Any = None) -> str | None:
    """Of the setups weighed (each row a card at the count said), the one card whose setup runs every model named
    when the other's does not (the fit tool at the home format); None when both or neither do."""
    held = [o.gpu for o in rows if all((fit_setup(m, o.gpu, o.gpus, recorder) or {}).get("fits") for m in models)]
    return held[0] if len(held) == 1 and len(rows) == 2 else None


def fit_lines(ctx: Any, facts: list[dict[str, Any]], models: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """One line per model named: its memory on one card of each and whether it fits; and, by card, the models
    (display names) that do not fit on one card of it."""
    counts = counts_said(ctx, facts)  # '2 used 3090s vs one 4090': each setup as said, not one card of each
    lines = [ctx.say("cardjob.head_setups" if counts else "cardjob.head")]
    missing: dict[str, list[str]] = {f["id"]: [] for f in facts}
    rows = ctx.data.setdefault("job_fits", [])
    for model in models:
        figs = {f["id"]: fit_setup(model, f["id"], counts.get(f["id"], 1), ctx.recorder) for f in facts}
        known = [x for x in figs.values() if x]
        if not known:
            continue
        name = known[0]["model"]
        rows.append({"model": name, "format": LOCAL_FORMAT, "context": FIT_CONTEXT, "cards": figs})
        cells = []
        for f in facts:
            x = figs[f["id"]]
            if x is None or not x["fits"]:
                missing[f["id"]].append(name)
            key = "cardjob.none" if x is None else "cardjob.fits" if x["fits"] else "cardjob.not_fits"
            cells.append(ctx.say(key + ("_n" if counts else ""), card=f["name"], n=counts.get(f["id"], 1),
                                 gb=f"{(x or {}).get('per_gpu_gb', 0):.1f}", cap=f"{(x or {}).get('capacity_gb', 0):.1f}"))
        lines.append("- " + ctx.say("cardjob.line", model=name, cards=ctx.say("verdict.sep").join(cells)))
    return (lines if len(lines) > 1 else []), missing


def _buy(ctx: Any, f: dict[str, Any], n: int = 1) -> str:
    if not f.get("buy_price_usd"):
        return str(ctx.say("cardjob.no_price"))
    return ctx.usd(f["buy_price_usd"] * n) + price_said(ctx, f)


def verdict(ctx: Any, facts: list[dict[str, Any]], missing: dict[str, list[str]]) -> str:
    """The verdict on the models named: the card that runs them all on one card when only one does (code
    holds_all, with both purchase prices); else the figures' verdict (verdict.verdict_line), after a sentence
    saying both (or neither) run them all."""
    a, b = facts[0], facts[1]
    gap = "" if ctx.lang == "zh" else " "
    held = [f for f in (a, b) if not missing[f["id"]]]
    counts = counts_said(ctx, facts[:2])
    if len(held) == 1:
        pick = held[0]
        other = b if pick is a else a
        ctx.data["verdict"] = {"code": "holds_all", "job": "local", "pick": pick["id"], "other": other["id"],
                               "figure": "models", "missing": missing[other["id"]], "price_kind": "buy",
                               "prices": {f["id"]: f.get("buy_price_usd") for f in (a, b)},
                               **({"counts": counts} if counts else {})}
        head = ctx.say("verdict.head", job=ctx.say("verdict.job.local"))
        if counts:  # the setups as said: each at its count, priced for all its cards
            n, m = counts[pick["id"]], counts[other["id"]]
            said = ctx.say("cardjob.pick_setups", card=f"{n} × {pick['name']}", other=f"{m} × {other['name']}",
                           models=ctx.say("verdict.and").join(missing[other["id"]]), a=_buy(ctx, pick, n),
                           b=_buy(ctx, other, m))
            return head + gap + said
        said = ctx.say("cardjob.pick", card=pick["name"], other=other["name"],
                       models=ctx.say("verdict.and").join(missing[other["id"]]), a=_buy(ctx, pick), b=_buy(ctx, other))
        used = pick["id"] in ((getattr(ctx.turn, "ask", None) or {}).get("used") or []) and not pick.get("used_price")
        cheaper = (other.get("buy_price_usd") or 0) and (pick.get("buy_price_usd") or 0) > other["buy_price_usd"]
        tail = gap + ctx.say("cardjob.used") if used and cheaper else ""
        return head + gap + said + tail
    lead = ctx.say(("cardjob.both" if len(held) == 2 else "cardjob.neither") + ("_setups" if counts else ""))
    order = "serve" if held else "local"  # all fit on both: the speed of each token decides, then memory
    line = verdict_line(ctx, [a, b], order, False, priced="local")
    ctx.data["verdict"] = {**ctx.data.get("verdict", {}), "job": "local",
                           "models_held": "both" if len(held) == 2 else "neither"}
    head = ctx.say("verdict.head", job=ctx.say("verdict.job.local")) + gap
    return head + lead + gap + line.removeprefix(ctx.say("verdict.head", job=ctx.say(f"verdict.job.{order}")) + gap)
