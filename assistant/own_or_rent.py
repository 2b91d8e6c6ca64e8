"""Renting asked about beside the user's own card ("can my M2 Ultra run DeepSeek V3? or is renting better?",
"还是说去租卡更好", reading/model_switch.py: ask["rent_verdict"]): a verdict, right under the headline, with what
decides it. The own card's plan (format, speed per user) against the model sized on rented cards alone in its
normal format (tools.recommend with no owned cards and no format forced, recorded):

- rent: the own card runs it only in a format of large or severe quality loss, or below the plan's speed floor:
  rent for real use (the rented plan's format, speed, hourly price and month at the plan's use); the own card is
  for trying it out.
- own: the own card does the job in a usable format: keep it; renting would cost the month said for the speed said.
extra["own_or_rent"]: {code, own: {...}, rent: {...}}."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

POOR = ("large", "severe")  # knowledge precision quality classes too lossy for real use


def own_or_rent_figures(ask: dict[str, Any], rec: Any, recorder: Any) -> tuple[dict[str, Any], Any] | None:
    best = rec.best if rec is not None else None
    if not ask.get("rent_verdict") or best is None or not best.owned or not rec.workload.spec.serves:
        return None
    from gpu_advisor.assistant.direct import _call
    from gpu_advisor.knowledge import find_precision
    from gpu_advisor.tools.recommend import recommend

    w = rec.workload.model_copy(update={"owned": [], "serve_precision": None, "preference": "rent"})
    rented = _call(recorder, "recommend", w.model_dump(mode="json"), lambda: recommend(w, with_levers=False))
    alt = rented.best if rented is not None else None
    if alt is None or alt.owned or not alt.usd_per_hour:
        return None
    try:
        quality = find_precision(str(best.precision)).quality
    except (LookupError, ValueError):
        quality = None
    slow = (best.decode_tokens_per_s or 0) < rec.workload.speed_floor
    code = "rent" if quality in POOR or slow or not best.ok else "own"
    return {"code": code, "own": {"gpu": best.gpu, "gpus": best.gpus, "gpu_name": best.gpu_name, "precision": best.precision,
                                  "quality": quality, "tps": best.decode_tokens_per_s},
            "rent": {"gpu": alt.gpu, "gpus": alt.gpus, "gpu_name": alt.gpu_name, "precision": alt.precision,
                     "tps": alt.decode_tokens_per_s, "usd_per_hour": alt.usd_per_hour,
                     "usd_per_month": alt.billed_usd_per_month or alt.usd_per_month}}, rented


def with_own_or_rent(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Any, lang: str,
                     recorder: Any) -> tuple[str, dict[str, Any]]:
    from gpu_advisor.assistant.writers import cash

    got = own_or_rent_figures(ask, rec, recorder)
    if got is None:
        return text, extra
    f, rented = got
    own, rent = f["own"], f["rent"]
    line = say(lang, f"second3.rent_verdict_{f['code']}", own=f"{own['gpus']} × {own['gpu_name']}",
               own_fmt=str(own["precision"] or "").upper(), own_tps=f"{own['tps'] or 0:,.0f}",
               rent=f"{rent['gpus']} × {rent['gpu_name']}", rent_fmt=str(rent["precision"] or "").upper(),
               rent_tps=f"{rent['tps'] or 0:,.0f}", hour=cash(rent["usd_per_hour"], rented),
               month=cash(rent["usd_per_month"] or 0, rented))
    head, sep, rest = text.partition("\n\n")
    if head.startswith("## ") and sep:
        text = head + sep + line + "\n\n" + rest
    else:
        at = text.find("\n## ")
        end = text.find("\n\n", at + 1) if at >= 0 else -1
        text = text[:end] + "\n\n" + line + text[end:] if end >= 0 else line + "\n\n" + text
    return text, {**extra, "own_or_rent": f}
