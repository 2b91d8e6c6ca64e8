"""Questions asked beside a sizing that the plan alone does not answer, each answered under the plan with its tools'
figures (reading/asked_more.py reads them as u.ask codes):

- `biggest_model`: 'if not, what's the biggest model we can serve for that money at the same load' (tools.biggest):
  the model asked when it meets the budget, else the biggest catalog model that does, its cards and monthly cost;
- `first_month`: 'what does the first month cost total (training + one month of serving)?': the fine-tuning run's
  rented cost plus a month of the serving plan's, summed.

Every figure comes from a tool result (recorded); the writers put it in the user's language."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.budget_rate import budget_rate_answer
from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.legal_buy import legal_beside
from gpu_advisor.assistant.licence import licence_answer
from gpu_advisor.assistant.scale_out import scale_out
from gpu_advisor.assistant.writers import cash, gpu_words, tps
from gpu_advisor.tools.recommend import Recommendation


def _b(params_b: float) -> str:
    return f"{params_b:.0f}" if params_b >= 10 else f"{params_b:.1f}"


def _biggest(rec: Recommendation, lang: str, recorder: Any) -> tuple[str, dict[str, Any]] | None:
    from gpu_advisor.assistant.advice import _call
    from gpu_advisor.tools.biggest import biggest_within

    w = rec.workload
    if not (w.budget_usd_per_month or w.budget_usd) or not w.spec.serves:
        return None
    found = _call(recorder, "biggest_model", {"workload": w.model_dump(mode="json")},
                  lambda: biggest_within(w, rec.best))
    monthly = w.budget_usd_per_month is not None
    budget = cash(float((w.budget_usd_per_month if monthly else w.budget_usd) or 0), rec)
    if found is None:
        return say(lang, "asked.biggest_none", budget=budget), {"code": "biggest_model", "model": None}
    o = found.option
    spend = o.billed_usd_per_month if monthly else (o.purchase_usd or o.billed_usd_per_month)
    active = say(lang, "asked.biggest_active", active=_b(found.active_params_b)) \
        if found.active_params_b and found.active_params_b < found.params_b else ""
    key = "asked.biggest_fits" if found.asked_fits else "asked.biggest"
    text = say(lang, key, model=found.model_name, params=_b(found.params_b), active=active,
               cards=gpu_words(o, lang), precision=o.precision or "", cost=cash(spend or 0, rec),
               per=say(lang, "asked.per_month" if monthly else "asked.in_all"), budget=budget,
               tps=tps(o.decode_tokens_per_s or 0))
    if found.tried_over:
        from gpu_advisor.tools.models import resolve_model

        text += say(lang, "asked.biggest_over", names=say(lang, "asked.list_sep").join(
            resolve_model(m).name for m in found.tried_over))
    return text, {"code": "biggest_model", "model": found.model, "gpu": o.gpu, "gpus": o.gpus,
                  "usd": spend, "fits_asked": found.asked_fits}


def _first_month(rec: Recommendation, lang: str) -> tuple[str, dict[str, Any]] | None:
    train, serve = rec.trains_on, rec.best
    if not (rec.workload.spec.trains and rec.workload.spec.serves) or train is None or serve is None:
        return None
    run, month = train.job_usd, serve.billed_usd_per_month
    if run is None or month is None:
        return None
    total = run + month
    text = say(lang, "asked.first_month", total=cash(total, rec), train=cash(run, rec), serve=cash(month, rec),
               train_cards=gpu_words(train, lang), serve_cards=gpu_words(serve, lang))
    return text, {"code": "first_month", "training_usd": run, "serving_usd_per_month": month, "total_usd": total}


def asked_more(ask: dict[str, Any], rec: Recommendation | None, lang: str, recorder: Any = None
               ) -> tuple[str, list[dict[str, Any]]]:
    """The questions asked beside the sizing, answered (text, each answer's data); ('', []) when none was asked."""
    if rec is None:
        return "", []
    found = [legal_beside(ask.get("legal_beside"), lang),  # 'can we legally buy h100s in shanghai?': first
             licence_answer(ask.get("licence"), lang),  # 'can we legally use llama 3.1 70b commercially?'
             _biggest(rec, lang, recorder) if ask.get("biggest_model") else None,
             _first_month(rec, lang) if ask.get("first_month") else None,
             scale_out(ask.get("scale_out"), rec, lang, recorder),  # 'would a second node halve it?'
             budget_rate_answer(ask.get("budget_rate"), rec, lang, recorder)]  # 'how many req/s can 40k get me?'

    done = [f for f in found if f]
    return "\n\n".join(t for t, _d in done), [d for _t, d in done]


def with_asked_more(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Recommendation | None, lang: str,
                    recorder: Any = None) -> tuple[str, dict[str, Any]]:
    """The reply with the questions asked beside the sizing answered right under its headline, and their data."""
    more, data = asked_more(ask, rec, lang, recorder)
    if not more:
        return text, extra
    paras = text.split("\n\n")
    at = next((i + 1 for i, p in enumerate(paras) if p.startswith("## ")), 1)  # under the plan's headline
    text = "\n\n".join([*paras[:at], more, *paras[at:]])
    return text, {**extra, "asked_more": data}
