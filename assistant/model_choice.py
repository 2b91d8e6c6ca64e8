"""Two or more models weighed for one job (reading/model_choice.py: u.ask["models"]): each sized on the same job by the
recommend tool, the cost that job turns on compared (per million tokens generated when serving, per run for a batch
job or training), and the verdict among the models named only. Models of one architecture (the same layers, width
and attention heads) need the same cards and cost the same per token: said so, and the choice left to quality.
Typed rows and a verdict code here; the catalog (model_choice.*) words them per language."""

from __future__ import annotations

from functools import partial
from typing import Any

from assistant.advice import Recorder, _call, usd_per_million, workload_for
from assistant.catalog import say
from assistant.policy import Profile
from assistant.writers import hours, model_words
from tools.recommend import recommend

# Costs closer than this ratio are about the same (as assistant.verdict's SAME).
SAME = 1.1
# The figures that make two models one architecture.
LAYOUT = ("num_layers", "hidden_size", "intermediate_size", "num_attention_heads", "num_kv_heads", "head_dim")


def _layout(model_id: str) -> tuple[Any, ...] | None:
    from knowledge import find_model

    try:
        arch = find_model(model_id)
    except (LookupError, ValueError):
        return None
    return tuple(getattr(arch, k, None) for k in LAYOUT)


def weigh(profile: Profile, models: list[str], defaulted: list[str], recorder: Recorder | None) -> dict[str, Any] | None:
    """Each model's plan on the job and the verdict code: {"rows", "basis" (token, run or hour), "pick" (None: about
    the same), "same_layout"}; None when fewer than two models could be sized."""
    rows: list[dict[str, Any]] = []
    for model_id in models:
        w = workload_for(profile.model_copy(update={"model": model_id}), defaulted)
        try:
            rec = _call(recorder, "recommend", w.model_dump(mode="json"), partial(recommend, w))
        except (LookupError, ValueError):
            continue
        best = rec.best
        row: dict[str, Any] = {"model": model_id, "name": rec.model_name, "ok": bool(best and best.ok)}
        if best is not None and best.ok:
            per_token = usd_per_million(best, recorder) if w.spec.serves and not w.spec.trains else None
            row |= {"gpu": best.gpu, "gpus": best.gpus, "gpu_name": best.gpu_name, "usd_per_hour": best.usd_per_hour,
                    "usd_per_million_tokens": per_token, "job_usd": best.job_usd, "job_hours": best.job_hours}
        rows.append(row)
    if len(rows) < 2:
        return None
    working = [r for r in rows if r["ok"]]
    basis = next((b for b, key in (("token", "usd_per_million_tokens"), ("run", "job_usd"), ("hour", "usd_per_hour"))
                  if working and all(r.get(key) for r in working)), None)
    key = {"token": "usd_per_million_tokens", "run": "job_usd", "hour": "usd_per_hour"}.get(basis or "")
    pick = None
    if len(working) == 1:
        pick = working[0]["model"]
    elif key:
        ranked = sorted(working, key=lambda r: r[key])
        if ranked[1][key] > SAME * ranked[0][key]:
            pick = ranked[0]["model"]
    layouts = {_layout(r["model"]) for r in rows}
    same_layout = len(layouts) == 1 and None not in layouts
    return {"rows": rows, "basis": basis, "pick": pick, "same_layout": same_layout}


def block(choice: dict[str, Any], planned: str, lang: str, money: Any) -> str:
    """The models weighed, one line each, and the verdict; `planned` is the model the plan below is for; `money`
    turns dollars into the answer's currency words."""
    rows = choice["rows"]
    names = {r["model"]: model_words(r["name"], lang) for r in rows}
    lines = [say(lang, "model_choice.head", models=say(lang, "model_choice.or").join(names.values()))]
    for r in rows:
        if not r["ok"]:
            lines.append(say(lang, "model_choice.row_none", model=names[r["model"]]))
            continue
        option = f"{r['gpus']} × {r['gpu_name']}"
        if choice["basis"] == "run":
            lines.append(say(lang, "model_choice.row_run", model=names[r["model"]], option=option,
                             hours=hours(r["job_hours"] or 0), cost=money(r["job_usd"])))
        elif choice["basis"] == "token":
            lines.append(say(lang, "model_choice.row_token", model=names[r["model"]], option=option,
                             hour=money(r["usd_per_hour"]), cost=money(r["usd_per_million_tokens"])))
        else:
            lines.append(say(lang, "model_choice.row_hour", model=names[r["model"]], option=option,
                             hour=money(r["usd_per_hour"]) if r.get("usd_per_hour") else say(lang, "model_choice.no_price")))
    pick = choice["pick"]
    if pick is not None and len([r for r in rows if r["ok"]]) == 1:
        verdict = say(lang, "model_choice.only", model=names[pick])
    elif pick is not None:
        verdict = say(lang, f"model_choice.cheaper.{choice['basis']}", model=names[pick])
    elif choice["same_layout"]:
        verdict = say(lang, "model_choice.same_layout", models=say(lang, "model_choice.and").join(names.values()))
    else:
        verdict = say(lang, "model_choice.same")
    lines += ["", verdict + say(lang, "model_choice.plan_for", model=names.get(planned, planned))]
    return "\n".join(lines)
