"""Compute an answer with the sizing tools and write it as Markdown.

Every number written here is read from a tool result (kept in the state and in the message's
structured payload); none is typed into a template.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from assistant.policy import Profile, serves, trains
from assistant.questions import relevant
from tools.common import Explained
from tools.recommend import Option, Recommendation, Workload, evaluate, recommend

GB = 1e9
# The guide says rent first: the headline says "buy" only when owning saves at least this share.
BUY_MARGIN = 0.15


def workload_for(profile: Profile) -> Workload:
    return Workload(
        phase=profile.phase or "experiment", model=profile.model or "llama-3.1-8b",
        serve_precision=profile.precision or "int8", method=profile.method or "qlora",
        context=profile.context or 8192, users=profile.users or 1, utilisation=profile.utilisation or 0.24,
        region=profile.region or "global", budget_usd_per_month=profile.budget_usd_per_month,
        budget_usd=profile.budget_usd,
        owned=profile.owned, preference=profile.preference or "either",
    )


def _key(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str)


Recorder = Callable[[str, dict[str, Any], dict[str, Any], float], None]


def _call(recorder: Recorder | None, tool: str, arguments: dict[str, Any], fn: Callable[[], Any]) -> Any:
    """Run one tool call; tell the recorder (the history store) what ran, with what, for how long."""
    start = time.perf_counter()
    result = fn()
    if recorder is not None:
        data = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
        recorder(tool, arguments, data, (time.perf_counter() - start) * 1000)
    return result


def compute(profile: Profile, previous: dict[str, Any] | None, compare: list[str], whatif: tuple[int, str] | None,
            recorder: Recorder | None = None) -> dict[str, Any]:
    """Tool results for this profile. A result whose inputs did not change is reused, not recomputed."""
    from knowledge import find_gpu

    w = workload_for(profile)
    previous = previous or {}
    results: dict[str, Any] = {"inputs": json.loads(_key(w.model_dump(mode="json")))}
    if previous.get("inputs") == results["inputs"] and "recommend" in previous:
        results["recommend"] = previous["recommend"]
        results["reused"] = True
    else:
        rec = _call(recorder, "recommend", results["inputs"], lambda: recommend(w))
        results["recommend"] = rec.model_dump(mode="json")
    extra: list[dict[str, Any]] = []

    def option(gpu_id: str, n: int) -> Option | None:
        args = {"workload": results["inputs"], "gpu": gpu_id, "gpus": n}
        return _call(recorder, "evaluate_option", args, lambda: evaluate(w, find_gpu(gpu_id), n))

    for gpu_id in compare:
        for n in (1, 2, 4, 8):
            o = option(gpu_id, n)
            if o and (o.ok or n == 8):
                extra.append(o.model_dump(mode="json"))
                break
    if whatif:
        count, gpu_id = whatif
        o = option(gpu_id, count)
        if o:
            extra.append(o.model_dump(mode="json"))
    if extra:
        results["options"] = extra
    results.update(_breakdowns(results, recorder))
    results.update(_one_card(results, recorder))
    return results


def _one_card(results: dict[str, Any], recorder: Recorder | None) -> dict[str, Any]:
    """When fine-tuning needs several cards, what would make it fit on one of them (the arithmetic
    behind rules of thumb such as "an 80 GB card fully fine-tunes a 14B model")."""
    from tools.fit import FitInput, fit

    rec = results["recommend"]
    best, w = rec.get("best"), rec["workload"]
    if not best or not trains(w["phase"]) or best["gpus"] == 1 or best.get("owned"):
        return {}
    inp = FitInput(model=w["model"], gpu=best["gpu"], phase="train", counts=[1], method=w["method"],
                   seq_len=w["seq_len"])
    result = _call(recorder, "fit", inp.model_dump(mode="json"), lambda: fit(inp))
    return {"one_card": result.model_dump(mode="json")} if result.remedies else {}


def _breakdowns(results: dict[str, Any], recorder: Recorder | None) -> dict[str, Any]:
    """Memory breakdown of the recommended option (for charts): the tools' own term lists."""
    from tools.inference import InferenceMemoryInput, inference_memory
    from tools.training import TrainingMemoryInput, training_memory

    rec = results["recommend"]
    best, w = rec.get("best"), rec["workload"]
    if not best:
        return {}
    out: dict[str, Any] = {}
    if serves(w["phase"]):
        inp = InferenceMemoryInput(model=w["model"], precision=w["serve_precision"], context=w["context"],
                                   batch=w["users"], gpus=best["gpus"], gpu=best["gpu"])
        out["serving_memory"] = _call(recorder, "inference_memory", inp.model_dump(mode="json"),
                                      lambda: inference_memory(inp)).model_dump(mode="json")
    if trains(w["phase"]):
        tin = TrainingMemoryInput(model=w["model"], method=w["method"], seq_len=w["seq_len"], gpus=best["gpus"],
                                  zero=3 if best["gpus"] > 1 and w["method"] == "full" else 0)
        out["training_memory"] = _call(recorder, "training_memory", tin.model_dump(mode="json"),
                                       lambda: training_memory(tin)).model_dump(mode="json")
    return out


# ---------------------------------------------------------------- formatting


def gb(n: float) -> str:
    return f"{n / GB:,.1f}"


def tps(n: float) -> str:
    return f"{n:,.0f}" if n >= 10 else f"{n:,.1f}"


def money(n: float) -> str:
    return f"${n:,.0f}" if n >= 100 else f"${n:,.2f}"


def pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def _option_row(o: Option, serving: bool = True) -> str:
    fits = "yes" if o.ok else "no"
    if serving:
        speed = tps(o.decode_tokens_per_s) if o.decode_tokens_per_s else "-"
    else:
        speed = f"{o.training_hours:,.1f}" if o.training_hours is not None else "-"
    price = "owned" if o.owned else (money(o.usd_per_hour) if o.usd_per_hour else "-")
    if o.cny_per_hour:
        price += f" (¥{o.cny_per_hour:,.2f})"
    return f"| {o.gpus} × {o.gpu_name} | {fits} | {pct(o.headroom_fraction)} | {speed} | {price} |"


def headline(rec: Recommendation, profile: Profile) -> str:
    best = rec.best
    if best is None:
        return "## No single machine fits this workload"
    job = {"train-and-serve": " for both jobs", "fine-tune": " for fine-tuning", "serve": " for serving",
           "production": " for production", "experiment": " to get started"}[rec.workload.phase]
    if best.owned:
        return f"## Use your {best.gpus} × {best.gpu_name}{job}"
    verb = "Rent"
    rb = rec.rent_or_buy
    clearly_cheaper = rb is not None and rb.buy_total_usd <= (1 - BUY_MARGIN) * rb.rent_total_usd
    bought = rec.workload.budget_usd is not None and best.purchase_usd is not None and (
        rb is None or rb.cheaper == "buy")
    if profile.preference == "buy" or bought or (clearly_cheaper and profile.preference != "rent"):
        verb = "Buy"
    return f"## {verb} {best.gpus} × {best.gpu_name}{job}"


def write_answer(results: dict[str, Any], profile: Profile, defaulted: dict[str, str], changed: list[str]) -> str:
    rec = Recommendation.model_validate(results["recommend"])
    w = rec.workload
    best = rec.best
    lines = [headline(rec, profile), ""]
    if changed:
        lines += [f"_Updated for: {', '.join(changed)}._", ""]
    if best:
        if trains(w.phase) and best.train_per_gpu_bytes is not None:
            line = (f"**Fine-tuning** ({w.method}, {_model_name(results)}): "
                    f"{gb(best.train_per_gpu_bytes)} GB of {gb(best.capacity_bytes)} GB per GPU")
            if best.training_hours is not None:
                line += f"; about {best.training_hours:,.1f} h per run of {w.train_tokens / 1e6:,.0f}M tokens"
                if best.training_usd is not None:
                    line += f" (≈ {money(best.training_usd)} rented)"
            lines += [line + ".", ""]
        if serves(w.phase) and best.serve_per_gpu_bytes is not None:
            line = (f"**Serving** ({w.serve_precision}, {w.users} user{'s' if w.users != 1 else ''} × "
                    f"{w.context:,} tokens): {gb(best.serve_per_gpu_bytes)} GB of {gb(best.capacity_bytes)} GB per GPU")
            if best.decode_tokens_per_s:
                line += (f"; {tps(best.decode_tokens_per_s)} tokens/s per user, "
                         f"{tps(best.aggregate_tokens_per_s or 0)} in all")
            lines += [line + ".", ""]
    extra = [Option.model_validate(o) for o in results.get("options", [])]
    fitting = [o for o in rec.options if o.ok][:5]
    shown = extra + (fitting or rec.options[:3])
    if not fitting:
        lines.append("The closest options, and why they fall short:")
        lines.append("")
    seen: set[tuple[str, int]] = set()
    serving = serves(w.phase)
    speed_header = "tokens/s per user" if serving else "hours per run"
    lines += [f"| option | fits | memory to spare | {speed_header} | per hour |", "|---|---|---|---|---|"]
    for o in shown:
        if (o.gpu, o.gpus) in seen:
            continue
        seen.add((o.gpu, o.gpus))
        lines.append(_option_row(o, serving))
    lines.append("")
    for o in extra + ([] if fitting else rec.options[:3]):
        if not o.ok and o.reasons:
            lines.append(f"- {o.gpus} × {o.gpu_name}: " + "; ".join(o.reasons) + ".")
        elif o.ok and best and (o.gpu, o.gpus) != (best.gpu, best.gpus):
            lines.append(_versus(o, best))
    if extra or not fitting:
        lines.append("")
    lines += _one_card_lines(results)
    lines += _budget_lines(rec)
    rb = rec.rent_or_buy
    if best and not rb and not best.owned:
        lines += [f"**Rent or buy:** there is no purchase price on record for the {best.gpu_name}, "
                  "so only renting is priced.", ""]
    if rb:
        be = ("buying never pays off at these prices" if rb.break_even_utilisation is None
              else f"buying pays off above {pct(rb.break_even_utilisation)}")
        lines.append(f"**Rent or buy:** at {pct(rb.utilisation)} utilisation, renting costs {money(rb.rent_total_usd)} "
                     f"over {rb.horizon_months} months and buying {money(rb.buy_total_usd)}; {be}.")
        for warning in rb.warnings:
            lines.append(f"_{warning[0].upper()}{warning[1:]}._")
        lines.append("")
    warnings = list(dict.fromkeys((best.warnings if best else []) + rec.warnings
                                  + [x for o in extra for x in o.warnings]))
    for warning in warnings:
        lines.append(f"⚠ {warning}")
    if warnings:
        lines.append("")
    lines.append("**Assumptions** (say so to change any):")
    for slot, words in defaulted.items():
        if not relevant(slot, w.phase):
            continue
        lines.append(f"- {words}")
    for a in rec.assumptions:
        if not a.startswith("serving in"):  # the Serving line above already says it
            lines.append(f"- {a}")
    lines += ["", '_Say "show the math" for every formula, "rent or buy?", or change anything: '
              '"make it 32k context", "what about int4?", "compare L40S and A100"._']
    return "\n".join(lines)


def _versus(o: Option, best: Option) -> str:
    """How an option the user asked about compares with the recommendation."""
    parts = [f"- {o.gpus} × {o.gpu_name} also fits ({pct(o.headroom_fraction)} memory to spare)"]
    if o.decode_tokens_per_s and best.decode_tokens_per_s:
        parts.append(f"{tps(o.decode_tokens_per_s)} tokens/s per user against {tps(best.decode_tokens_per_s)}")
    if o.usd_per_hour and best.usd_per_hour:
        parts.append(f"{money(o.usd_per_hour)} an hour against {money(best.usd_per_hour)}")
    return ": ".join(parts[:1]) + ("; " + ", ".join(parts[1:]) if len(parts) > 1 else "") + "."


def _one_card_lines(results: dict[str, Any]) -> list[str]:
    one = results.get("one_card")
    if not one:
        return []
    option = one["options"][0]
    fits = [r for r in one["remedies"] if r["fits"]]
    lines = [f"**On one card?** Fine-tuning as planned needs {gb(option['per_gpu_bytes'])} GB on a single "
             f"{results['recommend']['best']['gpu_name']} of {gb(option['capacity_bytes'])} GB."]
    if fits:
        lines.append("It fits on one with: " + "; ".join(f"{r['change']} ({gb(r['per_gpu_bytes'])} GB)" for r in fits) + ".")
    else:
        lines.append("None of the usual savings (8-bit optimizer, CPU offload, LoRA, QLoRA) brings it onto one card.")
    return lines + [""]


def _budget_lines(rec: Recommendation) -> list[str]:
    w, best = rec.workload, rec.best
    if best is None or best.owned:
        return []
    lines = []
    if w.budget_usd and best.purchase_usd:
        verdict = "within" if best.purchase_usd <= w.budget_usd else "over"
        lines.append(f"**Budget:** buying {best.gpus} × {best.gpu_name} costs about {money(best.purchase_usd)}, "
                     f"{verdict} your {money(w.budget_usd)}.")
    if w.budget_usd_per_month and best.usd_per_month:
        verdict = "within" if best.usd_per_month <= w.budget_usd_per_month else "over"
        lines.append(f"**Budget:** renting costs about {money(best.usd_per_month)} a month at "
                     f"{pct(w.utilisation)} use, {verdict} your {money(w.budget_usd_per_month)} a month.")
    return lines + [""] if lines else []


def _model_name(results: dict[str, Any]) -> str:
    from tools.models import resolve_model

    return resolve_model(results["recommend"]["workload"]["model"]).name


def write_rent_or_buy(results: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The rent-or-buy question on its own, for the recommended option."""
    rec = Recommendation.model_validate(results["recommend"])
    best, rb = rec.best, rec.rent_or_buy
    if best is None:
        return "There is no recommendation to price yet.", {}
    if best.owned:
        return f"You already own the {best.gpus} × {best.gpu_name}: there is nothing to rent or buy.", {}
    if rb is None:
        return (f"There is no purchase price on record for the {best.gpu_name}, so I can only price renting it: "
                f"about {money(best.usd_per_hour or 0)} an hour for {best.gpus} card(s)."), {"option": best.model_dump(mode="json")}
    be = ("buying never pays off at these prices" if rb.break_even_utilisation is None
          else f"buying pays off above {pct(rb.break_even_utilisation)} utilisation")
    lines = [f"## Rent or buy {best.gpus} × {best.gpu_name}?", "",
             f"At {pct(rb.utilisation)} utilisation over {rb.horizon_months} months, renting costs "
             f"{money(rb.rent_total_usd)} and owning {money(rb.buy_total_usd)}: {be}. "
             + ("Renting is the cheaper choice." if rb.cheaper == "rent" else "Owning is cheaper at this utilisation."),
             ""]
    lines += [f"_{w[0].upper()}{w[1:]}._" for w in rb.warnings]
    lines += ["", "**Assumed:**"] + [f"- {a}" for a in rb.assumptions]
    lines += ["", "_Tell me how busy the cards will be to see this move._"]
    return "\n".join(lines), {"rent_or_buy": rb.model_dump(mode="json")}


def write_math(results: dict[str, Any], recorder: Recorder | None = None) -> tuple[str, dict[str, Any]]:
    """Every term behind the recommended option: run the tools for it and list formulas and inputs."""
    from tools.inference import InferenceMemoryInput, inference_memory
    from tools.throughput import SpeedInput, speed
    from tools.training import TrainingMemoryInput, training_memory

    rec = Recommendation.model_validate(results["recommend"])
    best, w = rec.best, rec.workload
    if best is None:
        return "There is no recommendation to explain yet.", {}
    parts: list[tuple[str, Explained]] = []

    def run(title: str, tool: str, fn: Callable[[Any], Explained], inp: Any) -> None:
        parts.append((title, _call(recorder, tool, inp.model_dump(mode="json"), lambda: fn(inp))))

    if serves(w.phase):
        run("Serving memory", "inference_memory", inference_memory, InferenceMemoryInput(
            model=w.model, precision=w.serve_precision, context=w.context, batch=w.users, gpus=best.gpus, gpu=best.gpu))
        if best.decode_tokens_per_s:
            run("Serving speed", "speed", speed, SpeedInput(model=w.model, precision=w.serve_precision, gpu=best.gpu,
                                                            gpus=best.gpus, batch=w.users, context=w.context))
    if trains(w.phase):
        run("Fine-tuning memory", "training_memory", training_memory, TrainingMemoryInput(
            model=w.model, method=w.method, seq_len=w.seq_len, gpus=best.gpus,
            zero=3 if best.gpus > 1 and w.method == "full" else 0))
    if rec.rent_or_buy:
        parts.append(("Rent or buy", rec.rent_or_buy))
    lines = [f"## The math behind {best.gpus} × {best.gpu_name}", ""]
    payload: dict[str, Any] = {}
    for title, result in parts:
        payload[title] = result.model_dump(mode="json")
        lines += [f"### {title}", ""]
        for t in result.terms:
            lines.append(f"- **{t.label}** = {_term_value(t.value, t.unit)}: {t.formula}")
            if t.inputs:
                lines.append("  - inputs: " + ", ".join(f"{k} = {_plain(v)}" for k, v in t.inputs.items()))
        for a in result.assumptions:
            lines.append(f"- _assumed:_ {a}")
        lines.append("")
    return "\n".join(lines).rstrip(), payload


def _term_value(value: float, unit: str) -> str:
    if unit == "bytes":
        return f"{gb(value)} GB"
    if unit == "fraction":
        return pct(value)
    if unit in ("USD", "USD/h"):
        return money(value)
    return f"{value:,.1f} {unit}" if value < 1000 else f"{value:,.0f} {unit}"


def _plain(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, int) or float(v).is_integer() or abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:,.4g}"
