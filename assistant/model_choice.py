"""Two or more models weighed for one job (reading/model_choice.py: u.ask["models"]): each sized on the same job by the
recommend tool, the cost that job turns on compared (per million tokens generated when serving, per run for a batch
job or training), and the verdict among the models named only. Models of one architecture (the same layers, width
and attention heads) need the same cards and cost the same per token: said so, and the choice left to quality.
Typed rows and a verdict code here; the catalog (model_choice.*) words them per language."""

from __future__ import annotations

from functools import partial
from typing import Any

from gpu_advisor.assistant.advice import Recorder, _call, usd_per_million, workload_for
from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.writers import hours, model_words
from gpu_advisor.tools.recommend import recommend

# Costs closer than this ratio are about the same (as assistant.verdict's SAME).
SAME = 1.1
# The figures that make two models one architecture.
LAYOUT = ("num_layers", "hidden_size", "intermediate_size", "num_attention_heads", "num_kv_heads", "head_dim")


def _layout(model_id: str) -> tuple[Any, ...] | None:
    from gpu_advisor.knowledge import find_model

    try:
        arch = find_model(model_id)
    except (LookupError, ValueError):
        return None
    return tuple(getattr(arch, k, None) for k in LAYOUT)


def _common_card(profile: Profile, rows: list[dict[str, Any]]) -> tuple[str, int | None, bool] | None:
    """The one card the models are set side by side on for speed and memory: the user's own, else the largest of the
    cards their plans chose (what fits on a smaller one fits there too); with the count owned."""
    from gpu_advisor.knowledge import find_gpu

    for spec in profile.owned or []:
        count, _x, card = spec.partition("x ")
        try:
            return find_gpu(card.strip()).id, int(count), True
        except (LookupError, ValueError):
            continue
    cards = [r["gpu"] for r in rows if r.get("gpu")]
    return (max(cards, key=lambda g: find_gpu(g).memory_gb), None, False) if cards else None


def _on_card(profile: Profile, rows: list[dict[str, Any]], defaulted: list[str], dims: list[str],
             recorder: Recorder | None) -> dict[str, Any] | None:
    """Each model sized on one common card (its count owned, else the fewest of 1, 2, 4, 8 that do the job) and the
    verdict on each dimension asked (assistant.choice_dims): {"card", "rows", "verdicts"}; None when not asked."""
    from gpu_advisor.assistant import choice_dims
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate

    common = _common_card(profile, rows) if set(dims) & set(choice_dims.ON_CARD) else None
    if common is None:
        return None
    gpu = find_gpu(common[0])
    sized = []
    for r in rows:
        w = workload_for(profile.model_copy(update={"model": r["model"]}), defaulted)
        found = None
        for n in [common[1]] if common[1] else [1, 2, 4, 8]:
            found = _call(recorder, "evaluate_option", {"workload": w.model_dump(mode="json"), "gpu": gpu.id, "gpus": n},
                          partial(evaluate, w, gpu, n, common[2]))
            if found is not None and found.ok:
                break
        if found is not None and found.serve_per_gpu_bytes and found.decode_tokens_per_s:
            sized.append({"model": r["model"], "name": r["name"], "gpus": found.gpus, "precision": found.precision,
                          "tps": found.decode_tokens_per_s, "mem_bytes": (found.serve_per_gpu_bytes or 0) * found.gpus,
                          "hours": found.job_hours})
    if len({r["precision"] for r in sized}) > 1:  # '上下文拉到32k': one fits only in a smaller format, said with it
        sized = [{**r, "name": f"{r['name']} ({r['precision']})"} for r in sized]
    verdicts = choice_dims.codes(sized, dims)
    if not verdicts:
        return None
    return {"card": gpu.id, "card_name": gpu.name, "owned": common[2], "rows": sized, "verdicts": verdicts}


def weigh(profile: Profile, models: list[str], defaulted: list[str], recorder: Recorder | None,
          dims: list[str] | None = None) -> dict[str, Any] | None:
    """Each model's plan on the job and the verdict code: {"rows", "basis" (token, run or hour), "pick" (None: about
    the same), "same_layout"}, and with speed or memory asked ('哪个更省显存？速度哪个快') "on_card": both sized on one
    card with a verdict on each (the pick is then that verdict's); None when fewer than two models could be sized."""
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
    on_card = _on_card(profile, rows, defaulted, list(dims or []), recorder)
    if on_card is not None and "cost" not in (dims or []):  # the dimension asked decides, not the cost
        pick = next((v["pick"] for v in on_card["verdicts"].values() if v["pick"]), None)
    return {"rows": rows, "basis": basis, "pick": pick, "same_layout": same_layout, "on_card": on_card,
            "dims": list(dims or [])}


def block(choice: dict[str, Any], planned: str, lang: str, money: Any) -> str:
    """The models weighed, one line each, and the verdict; `planned` is the model the plan below is for; `money`
    turns dollars into the answer's currency words."""
    rows = choice["rows"]
    names = {r["model"]: model_words(r["name"], lang) for r in rows}
    on_card = choice.get("on_card")
    own = on_card is not None and on_card["owned"] and "cost" not in choice.get("dims", [])
    said = say(lang, "model_choice.or").join(names.values())
    lines = [] if own else [say(lang, "model_choice.head", models=said)]
    for r in [] if own else rows:  # on the user's own card, speed or memory asked: no rental rows
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
    if on_card is not None:  # '哪个更省显存？速度哪个快': each dimension asked, on one card, with its figures
        from gpu_advisor.assistant import choice_dims

        lines += [*([] if own else [""]), say(lang, "model_choice.on_card", card=on_card["card_name"], models=said)]
        lines += choice_dims.lines(lang, on_card["rows"], on_card["verdicts"], on_card["card_name"])
        if "cost" not in choice.get("dims", []):
            return "\n".join([*lines, say(lang, "model_choice.plan_for", model=names.get(planned, planned)).strip()])
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
