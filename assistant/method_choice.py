"""'full or lora? will it fit and how long' inside a sizing request (review CV #4; reading/method_compare.py sets
ask["method_choice"] to the methods weighed): each method sized on the plan's cards (the ones owned, else the plan's
pick) by tools.method_choice, said under the plan's heading: which fits and by how much, what a full fine-tune would
need when it does not (more cards, 8-bit AdamW, ZeRO-3 with the optimizer in CPU memory and its PCIe cost), and the
pick with its reason, from the tool's codes. extra["method_choice"]: the tool's result."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def _cards(rec: Any) -> tuple[str, int, bool] | None:
    """The cards the methods are weighed on: the one kind owned (else None: the plan's card weighs the other method,
    assistant.method_switch.weighed)."""
    from gpu_advisor.tools.recommend import _owned_card

    kinds = {_owned_card(text)[0].id for text in rec.workload.owned}
    if len(kinds) != 1:
        return None
    return kinds.pop(), sum(_owned_card(text)[1] for text in rec.workload.owned), True


def method_choice_figures(ask: dict[str, Any], rec: Any, recorder: Any) -> Any:
    """The tool's result for the methods asked, or None (no such question, no training plan, no cards)."""
    from gpu_advisor.assistant.direct import _call
    from gpu_advisor.tools.method_choice import method_choice

    methods = list(ask.get("method_choice") or [])
    if len(methods) < 2 or rec is None or rec.workload is None:
        return None
    cards = _cards(rec)
    if cards is None:
        return None
    gpu, n, owned = cards
    w = rec.workload
    args = {"workload": w.model_dump(mode="json"), "methods": methods, "gpu": gpu, "gpus": n, "owned": owned}
    return _call(recorder, "method_choice", args, lambda: method_choice(w, methods, gpu, n, owned))


def method_choice_lines(mc: Any, lang: str) -> list[str]:
    from gpu_advisor.assistant.writers import gb, hours

    def name(method: str) -> str:
        return _method(method, lang)

    option = f"{mc.gpus} × {mc.gpu_name}"
    how = say(lang, "mcmp.cards.sharded", n=mc.gpus) if mc.gpus > 1 else ""
    rows = [say(lang, "mch.head", names=say(lang, "mch.or").join(name(r.method) for r in mc.rows),
                option=option, yours=say(lang, "mch.yours" if mc.owned else "mch.plans"))]
    for r in mc.rows:
        ref = say(lang, "mch.reference", gb=gb(r.reference_bytes)) if r.reference_bytes else ""
        what = say(lang, f"mch.what.{r.method}" + ("_dpo" if mc.reference and r.method != "full" else ""))
        time = say(lang, "mch.time", hours=hours(r.hours)) if r.fits and r.hours is not None else ""
        rows.append(say(lang, "mch.fits" if r.fits else "mch.no", name=_row_name(r.method, lang),
                        gb=gb(r.per_gpu_bytes), capacity=gb(mc.capacity_bytes), how=how, what=what, ref=ref, time=time))
    lines = ["\n".join(rows)]
    if mc.full is not None:
        lines += _needs(mc, lang)
    lines.append(_verdict(mc, lang, name))
    return lines


def _needs(mc: Any, lang: str) -> list[str]:
    from gpu_advisor.assistant.writers import gb, hours

    f = mc.full
    parts = [say(lang, "mch.need.cards", cards=f.cards, gpu=mc.gpu_name) if f.cards
             else say(lang, "mch.need.many", gpu=mc.gpu_name)]
    parts.append(say(lang, "mch.need.adam8_fits" if f.adam8_fits else "mch.need.adam8_no", gb=gb(f.adam8_per_gpu_bytes),
                     capacity=gb(mc.capacity_bytes)))
    if f.offload_per_gpu_bytes is not None and f.offload_hours is not None:
        light = next((r for r in mc.rows if r.method != "full" and r.fits and r.hours is not None), None)
        against = say(lang, "mch.need.against", hours=hours(light.hours), name=_method(light.method, lang)) \
            if light is not None else ""
        parts.append(say(lang, "mch.need.offload" if f.offload_fits else "mch.need.offload_no",
                         gb=gb(f.offload_per_gpu_bytes), ram=f"{(f.offload_host_bytes or 0) / 1e9:,.0f}",
                         low=hours(f.offload_hours[0]), high=hours(f.offload_hours[1]), against=against))
    lines = [say(lang, "mch.need.head") + say(lang, "mch.sep").join(parts) + say(lang, "mch.end")]
    if f.pcie and f.gather_bytes_per_step:
        lines.append(say(lang, "mch.pcie", moved=f"{f.gather_bytes_per_step / 1e9:,.0f}",
                         s=f"{f.gather_s_per_step:,.1f}"))
    return lines


def _row_name(method: str, lang: str) -> str:
    """A method's name at the start of a line: LoRA and QLoRA, or 'Full fine-tune'."""
    from gpu_advisor.assistant.method_compare import NAMES

    return NAMES.get(method) or say(lang, f"mch.row.{method}")


def _method(method: str, lang: str) -> str:
    """A method's name in a sentence: LoRA and QLoRA in either language, a full fine-tune in words."""
    from gpu_advisor.assistant.method_compare import NAMES

    return NAMES.get(method) or say(lang, f"mcmp.name.{method}")


def _verdict(mc: Any, lang: str, name: Any) -> str:
    from gpu_advisor.assistant.writers import gb, hours

    rows = {r.method: r for r in mc.rows}
    if mc.pick is None:
        return say(lang, "mch.verdict.none", option=f"{mc.gpus} × {mc.gpu_name}")
    pick = rows[mc.pick]
    heavy = max(mc.rows, key=lambda r: r.per_gpu_bytes)
    values = {"name": name(mc.pick), "gb": gb(pick.per_gpu_bytes), "capacity": gb(mc.capacity_bytes),
              "spare": f"{max(0.0, 1 - pick.per_gpu_bytes / mc.capacity_bytes):.0%}",
              "heavy": name(heavy.method), "heavy_gb": gb(heavy.per_gpu_bytes),
              "x": f"{heavy.per_gpu_bytes / pick.per_gpu_bytes:.1f}"}
    if mc.reason == "both_fit" and "full" in rows and rows["full"].hours and pick.hours:
        values.update(a=hours(pick.hours), b=hours(rows["full"].hours or 0.0))
        return say(lang, "mch.verdict.both_fit", **values)
    if mc.reason in ("only_full", "adapters"):
        return say(lang, f"mch.verdict.{mc.reason}", **values)
    return say(lang, "mch.verdict.only_light", **values)


def with_method_choice(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Any, lang: str,
                       recorder: Any) -> tuple[str, dict[str, Any]]:
    """The comparison placed right under the plan's heading (before the plan's own lines)."""
    mc = method_choice_figures(ask, rec, recorder)
    if mc is None:
        return text, extra
    block = "\n\n".join(method_choice_lines(mc, lang))
    at = text.find("## ")
    end = text.find("\n", at) if at >= 0 else -1
    text = text[:end] + "\n\n" + block + text[end:] if end >= 0 else block + "\n\n" + text
    return text, {**extra, "method_choice": mc.model_dump(mode="json")}
