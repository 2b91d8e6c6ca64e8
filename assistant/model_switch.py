"""A later switch to another model asked beside a plan ("…if we later switch to R1, does the hardware change?",
reading/model_switch.py): answered right under the plan's headline, on the plan's cards.

Codes (extra["model_switch"]["code"]):
- same_weights: the same architecture and size (R1 against V3): the weights take the same memory, so the same cards
  hold it; a reasoning model writes its thinking before the answer (knowledge reasoning_output_tokens), so each
  answer is `ratio` times the tokens: at the plan's per-user speed it takes `new_s` s instead of `old_s` s, and at
  the same rate of questions about `ratio` times the requests in flight (more copies, or slower answers).
- other_size: another architecture or size: the plan must be sized again for it (say "switch to X").
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def _same_arch(a: Any, b: Any) -> bool:
    keys = ("total_params_b", "active_params_b", "num_layers", "hidden_size", "num_experts", "attention")
    return all(getattr(a, k) == getattr(b, k) for k in keys)


def switch_figures(ask: dict[str, Any], rec: Any, moved: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """moved: what a follow-up moved ("换成r1硬件需要改吗" after a V3 plan moves the model): the model before."""
    spec = ask.get("model_switch")
    best = rec.best if rec is not None else None
    if not spec or best is None:
        return None
    from gpu_advisor.knowledge import find_model
    from gpu_advisor.tools.recommend import rate_lengths

    before = next((str(x["old"]) for x in moved or [] if x.get("input") == "model" and x.get("old")), None)
    try:
        new = find_model(str(spec["to"]))
        now = find_model(before if before and rec.model_id == new.id else rec.model_id)
    except (LookupError, ValueError):
        return None
    if now.id == new.id:
        return None
    data: dict[str, Any] = {"from": now.id, "to": new.id, "from_name": now.name, "to_name": new.name,
                            "option": f"{best.gpus} × {best.gpu_name}", "gpus": best.gpus, "gpu": best.gpu}
    if not _same_arch(now, new):
        data.update({"code": "other_size", "from_b": now.total_params_b, "to_b": new.total_params_b})
        return data
    old_out = rate_lengths(rec.workload.model_copy(update={"model": now.id}))[1]
    new_out = rate_lengths(rec.workload.model_copy(update={"model": new.id}))[1]
    tps = best.decode_tokens_per_s or 0.0
    data.update({"code": "same_weights", "params_b": now.total_params_b, "old_out": old_out, "new_out": new_out,
                 "ratio": round(new_out / max(old_out, 1), 1), "more": new_out - old_out,
                 "tps": round(tps, 1)})
    if tps > 0:
        data.update({"old_s": round(old_out / tps, 1), "new_s": round(new_out / tps, 1)})
    return data


def with_switch(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Any, lang: str,
                moved: list[dict[str, Any]] | None = None) -> tuple[str, dict[str, Any]]:
    """The reply with the switch answered right under its headline."""
    f = switch_figures(ask, rec, moved)
    if f is None:
        return text, extra
    if f["code"] == "other_size":
        line = say(lang, "second3.switch_other", to=f["to_name"], now=f["from_name"], to_b=f"{f['to_b']:g}",
                   now_b=f"{f['from_b']:g}", option=f["option"])
    else:
        lines = [say(lang, "second3.switch_same", to=f["to_name"], now=f["from_name"], params=f"{f['params_b']:g}",
                     option=f["option"])]
        if f["new_out"] > f["old_out"]:
            lines.append(say(lang, "second3.switch_longer", to=f["to_name"], new_out=f"{f['new_out']:,}",
                             old_out=f"{f['old_out']:,}", ratio=f"{f['ratio']:g}",
                             more=f"{f['more']:,}"))
            if f.get("new_s"):
                lines.append(say(lang, "second3.switch_time", tps=f"{f['tps']:g}", new_s=f"{f['new_s']:g}",
                                 old_s=f"{f['old_s']:g}", ratio=f"{f['ratio']:g}"))
        line = ("" if lang == "zh" else " ").join(lines)
    head, sep, rest = text.partition("\n\n")
    text = head + sep + line + "\n\n" + rest if sep and head.startswith("## ") else line + "\n\n" + text
    return text, {**extra, "model_switch": f}
