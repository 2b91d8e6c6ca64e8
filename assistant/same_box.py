"""The second job asked on the first job's machine ("lora it on a rented box, then serve it on the same box for 10
users", "微调完在同一台机器上部署给10个人用", reading/model_switch.py: ask["same_box"]): when the plan fine-tunes on
one rented set of cards (rec.training_run) and serves on another, the serving is also sized on the fine-tuning cards
(tools.recommend.evaluate, recorded), and the answer goes right under the headline.

Codes (extra["same_box"]["code"]): yes (the training cards serve the job: memory and speed per user), no (they do
not: what they miss). The plan below stays the cheapest way; the line says the training cards' month when kept
around the clock."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def same_box_figures(ask: dict[str, Any], rec: Any, recorder: Any) -> dict[str, Any] | None:
    run = rec.training_run if rec is not None else None
    if not ask.get("same_box") or run is None or rec.best is None or not rec.workload.spec.serves:
        return None
    from gpu_advisor.assistant.direct import _call
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate

    w = rec.workload.model_copy(update={"phase": "serve"})
    if rec.relaxed:
        w = w.model_copy(update={"serve_precision": rec.relaxed})
    gpu = find_gpu(run.gpu)
    o = _call(recorder, "evaluate_option", {"workload": w.model_dump(mode="json"), "gpu": run.gpu, "gpus": run.gpus},
              lambda: evaluate(w, gpu, run.gpus))
    if o is None:
        return None
    fits = bool(o.serves)
    return {"code": "yes" if fits else "no", "gpu": run.gpu, "gpus": run.gpus, "gpu_name": run.gpu_name,
            "precision": o.precision, "per_gpu_bytes": o.serve_per_gpu_bytes,
            "capacity_bytes": o.capacity_bytes, "tps": o.decode_tokens_per_s, "users": w.users,
            "usd_per_month": o.usd_per_month, "plan": f"{rec.best.gpus} × {rec.best.gpu_name}"}


def with_same_box(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Any, lang: str,
                  recorder: Any) -> tuple[str, dict[str, Any]]:
    from gpu_advisor.assistant.writers import cash, gb

    f = same_box_figures(ask, rec, recorder)
    if f is None:
        return text, extra
    common = {"n": f["gpus"], "card": f["gpu_name"], "users": f"{f['users']:,}", "need": gb(f["per_gpu_bytes"] or 0),
              "have": gb(f["capacity_bytes"] or 0), "fmt": str(f["precision"] or "").upper(), "plan": f["plan"]}
    if f["code"] == "yes":
        line = say(lang, "second3.same_box_yes", tps=f"{f['tps'] or 0:,.0f}", **common)
        if f.get("usd_per_month"):
            line += ("" if lang == "zh" else " ") + say(lang, "second3.same_box_month", month=cash(f["usd_per_month"], rec),
                                                       **common)
    else:
        line = say(lang, "second3.same_box_no", **common)
    head, sep, rest = text.partition("\n\n")
    text = head + sep + line + "\n\n" + rest if sep and head.startswith("## ") else line + "\n\n" + text
    return text, {**extra, "same_box": f}
