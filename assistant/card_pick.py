"""One card asked for ("if I rent instead, what card would you pick", "你会选哪张", reading/model_switch.py:
ask["pick"]): ONE named pick with its reason, then the alternatives, right under the plan's headline (the table
alone names no pick). The pick is the plan's own card when it is rented or bought; when the plan uses the user's own
card, the first card the tools ranked that meets the job on rented or bought cards (the cheapest that does).

extra["pick"]: {gpu, gpus, reason ("plan": the plan's own; "cheapest": the cheapest that meets the job besides
the user's own), tps, ttft_s, usd_per_hour, spare, alternatives: [{gpu, gpus, tps, usd_per_hour}]}."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

ALTERNATIVES = 2


def _row(o: Any) -> dict[str, Any]:
    """An option's figures; a job with no token speed (a fine-tuning run, a batch job) carries its hours and cost
    per run instead, and is said in those (catalog keys ending in _job)."""
    return {"gpu": o.gpu, "gpus": o.gpus, "gpu_name": o.gpu_name, "tps": o.decode_tokens_per_s, "ttft_s": o.ttft_s,
            "usd_per_hour": o.usd_per_hour, "precision": o.precision,
            "hours": o.job_hours or o.training_hours, "run_usd": o.job_usd or o.training_usd}


def _job(a: dict[str, Any]) -> bool:
    return not a.get("tps") and a.get("hours") is not None


def pick_figures(ask: dict[str, Any], rec: Any) -> dict[str, Any] | None:
    if not ask.get("pick") or rec is None or rec.best is None:
        return None
    ok = [o for o in rec.options if o.ok and not o.owned]
    best = rec.best
    if not best.owned and best.ok:
        pick, reason = best, "plan"
    elif ok:
        pick, reason = ok[0], "cheapest"
    else:
        return None
    alts = [o for o in ok if (o.gpu, o.gpus) != (pick.gpu, pick.gpus)][:ALTERNATIVES]
    return {**_row(pick), "reason": reason, "alternatives": [_row(o) for o in alts]}


def _alt_words(a: dict[str, Any], lang: str, rec: Any) -> str:
    from gpu_advisor.assistant.writers import cash

    price = say(lang, "second3.pick_hour", price_usd=cash(a["usd_per_hour"], rec)) if a.get("usd_per_hour") else ""
    if _job(a):
        return say(lang, "second3.pick_alt_job", option=f"{a['gpus']} × {a['gpu_name']}", price=price,
                   **_run_words(a, lang, rec))
    return say(lang, "second3.pick_alt", option=f"{a['gpus']} × {a['gpu_name']}", tps=f"{a['tps'] or 0:,.0f}",
               price=price)


def _run_words(a: dict[str, Any], lang: str, rec: Any) -> dict[str, str]:
    from gpu_advisor.assistant.writers import cash, hours

    return {"hours": hours(a["hours"]),
            "cost": say(lang, "second3.pick_run_cost", usd=cash(a["run_usd"], rec)) if a.get("run_usd") else ""}


def with_pick(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Any, lang: str) -> tuple[str, dict[str, Any]]:
    """The reply with one pick named right under its headline (or first, with no headline)."""
    from gpu_advisor.assistant.writers import cash, seconds

    f = pick_figures(ask, rec)
    if f is None:
        return text, extra
    price = say(lang, "second3.pick_hour", price_usd=cash(f["usd_per_hour"], rec)) if f.get("usd_per_hour") else ""
    if _job(f):
        line = say(lang, f"second3.pick_{f['reason']}_job", option=f"{f['gpus']} × {f['gpu_name']}", price=price,
                   **_run_words(f, lang, rec))
    else:
        line = say(lang, f"second3.pick_{f['reason']}", option=f"{f['gpus']} × {f['gpu_name']}", price=price,
                   fmt=str(f["precision"] or "").upper(), tps=f"{f['tps'] or 0:,.0f}",
                   ttft=seconds(f["ttft_s"]) if f.get("ttft_s") is not None else "-")
    if f["alternatives"]:
        line += "\n" + say(lang, "second3.pick_alts", alts=say(lang, "sep").join(
            _alt_words(a, lang, rec) for a in f["alternatives"]))
    at = 0 if text.startswith("## ") else text.find("\n## ") + 1
    if at <= 0 and not text.startswith("## "):
        return line + "\n\n" + text, {**extra, "pick": f}
    end = text.find("\n\n", at)
    text = text + "\n\n" + line if end < 0 else text[:end] + "\n\n" + line + text[end:]
    return text, {**extra, "pick": f}
