"""Two cards compared for a job in two parts ('macbook m4 pro 48gb vs a desktop with a 4090, for running models + small
finetunes'): each part weighed on what decides it, then one pick for the mix (u.ask["jobs"], reading/compare_job.py).

Running models at home: the larger model one card holds decides (fit tool, 4-bit); when both hold the same ladder
model, memory bandwidth (the speed of each token). Fine-tuning: when both hold a LoRA of a small model, compute decides
(training is compute bound: a card with several times the compute finishes several times sooner); else the memory
that holds the larger one. The mix: the part's pick when both agree; else the fine-tuning pick when it is ahead on
compute by TRAIN_LEAD or more (the other card cannot make that up), else the running pick. Codes in ctx.data["verdict"]
({"code": "mixed", "parts": {job: {"pick", "figure"}}, "pick"}); words: catalog mixed.*."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.verdict import FIGURES, _figure_words, fit_lines

# Compute ahead by this much: the fine-tuning part decides the mix.
TRAIN_LEAD = 2.0


def _held(ctx: Any, phase: str, how: str) -> dict[str, Any]:
    return next((h["largest"] for h in reversed(ctx.data.get("holds") or [])
                 if h["phase"] == phase and h["how"] == how), {})


def _ahead(a: dict[str, Any], b: dict[str, Any], figure: str) -> float:
    key = FIGURES[figure]
    return a[key] / b[key] if b[key] else float("inf")


def _by(facts: list[dict[str, Any]], figure: str) -> tuple[dict[str, Any], dict[str, Any]]:
    a, b = facts
    return (a, b) if _ahead(a, b, figure) >= 1 else (b, a)


def _part(ctx: Any, facts: list[dict[str, Any]], job: str) -> dict[str, Any]:
    """The card a part picks and the figure that decides it."""
    phase, how = ("serve", "q4_k_m") if job == "local" else ("train", "lora")
    held = _held(ctx, phase, how)
    models = {f["id"]: (held.get(f["id"]) or {}).get("model") for f in facts}
    both = all(models.values())
    if job == "local":
        figure = "bandwidth" if both and len(set(models.values())) == 1 else "memory"
    else:
        figure = "compute" if both else "memory"
    pick, other = _by(facts, figure)
    return {"pick": pick["id"], "other": other["id"], "figure": figure, "ratio": round(_ahead(pick, other, figure), 1)}


def lines(ctx: Any, facts: list[dict[str, Any]], jobs: list[str]) -> tuple[list[str], str]:
    """What one card of each holds for each part, and the verdict line."""
    held: list[str] = []
    for job in jobs:
        part_lines, _differ = fit_lines(ctx, facts, job)
        held += part_lines if not held else part_lines[1:]  # one head for both parts
    parts = {job: _part(ctx, facts, job) for job in jobs}
    picks = {p["pick"] for p in parts.values()}
    train = parts.get("train")
    if len(picks) == 1:
        pick = picks.pop()
    elif train and train["figure"] == "compute" and train["ratio"] >= TRAIN_LEAD:
        pick = train["pick"]
    else:
        pick = parts[jobs[0]]["pick"]
    by_id = {f["id"]: f for f in facts}
    ctx.data["verdict"] = {"code": "mixed", "job": "+".join(jobs), "parts": parts, "pick": pick}
    gap = "" if ctx.lang == "zh" else " "
    said = [ctx.say("mixed.part", job=ctx.say(f"verdict.job.{job}"), card=by_id[p["pick"]]["name"],
                    why=_figure_words(ctx, p["figure"], by_id[p["pick"]], by_id[p["other"]]))
            for job, p in parts.items()]
    why = "mixed.same" if len({p["pick"] for p in parts.values()}) == 1 else \
        "mixed.train_decides" if pick == (train or {}).get("pick") else "mixed.run_decides"
    other = next(f for f in facts if f["id"] != pick)
    head = ctx.say("verdict.head", job=ctx.say("mixed.job"))
    return held, head + gap + ctx.say("mixed.sep").join(said) + ctx.say("mixed.end") + gap + ctx.say(
        why, card=by_id[pick]["name"], other=other["name"], x=f"{(train or {}).get('ratio', 0):g}")
