"""The verdict on a draft model the user named for speculative decoding ('is llama 3.1 8b as draft worth it for 70b
on 2x a6000?'): the served model's per-user speed at one request on the plan's cards without and with the draft
(the range from the acceptance rates on record, said), the draft's memory against what the plan leaves free, how the
gain shrinks as more requests decode together, and the family's smaller draft when the named one is large for the
model. Every figure is tools.speculative_plan's; the sentences are the catalogs' `spec_verdict.*`."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.speculative import speculative_methods
from gpu_advisor.tools.recommend import Recommendation
from gpu_advisor.tools.speculative import FADED

GB = 1e9


def _x(v: float) -> str:
    return f"{v:.2f}"


def _tps(pair: tuple[float, float]) -> tuple[str, str]:
    return f"{pair[0]:,.0f}", f"{pair[1]:,.0f}"


def verdict_code(rec: Recommendation) -> str | None:
    """fits_not (the draft does not fit beside the plan), smaller (the named draft is large for the model: the
    family's smaller one gains more), faded (it gains little even at one request), worth (it pays at low load)."""
    s = rec.speculative
    if s is None or s.named is None or s.one is None:
        return None
    if not s.fits:
        return "fits_not"
    if s.smaller is not None and s.smaller.speedup[0] > s.one.speedup[0]:
        return "smaller"
    return "faded" if s.one.speedup[0] < FADED else "worth"


def draft_verdict_lines(rec: Recommendation, lang: str) -> list[str]:
    s, best = rec.speculative, rec.best
    code = verdict_code(rec)
    if s is None or s.one is None or s.named is None or best is None or code is None:
        return []
    one, draft, model = s.one, find_model(s.named).name, rec.model_name
    sep = "" if lang == "zh" else " "
    lines = [say(lang, "spec_verdict.head", draft=draft, model=model, cards=f"{best.gpus:,} × {best.gpu_name}"), ""]
    body = []
    if s.tokens_per_s_one is not None and s.tokens_per_s_one_with is not None:
        lo, hi = _tps(s.tokens_per_s_one_with)
        body.append(say(lang, "spec_verdict.one", model=model, draft=draft, tps=f"{s.tokens_per_s_one:,.0f}",
                        tps_lo=lo, tps_hi=hi, x_lo=_x(one.speedup[0]), x_hi=_x(one.speedup[1]), k=one.tokens,
                        a_low=f"{one.acceptance[0]:.0%}", a_high=f"{one.acceptance[1]:.0%}"))
    room = f"{(s.headroom_bytes or 0) / GB:,.1f}"
    body.append(say(lang, "spec_verdict.fits" if s.fits else "spec_verdict.fits_not", draft=draft, room=room,
                    gb=f"{(s.result.draft_bytes_per_gpu if s.result else one.draft_bytes_per_gpu) / GB:,.1f}",
                    users=f"{max(1, rec.workload.users):,}"))
    rows = say(lang, "list_sep").join(say(lang, "lever.spec.by_batch_row", batch=f"{b:,}", lo=_x(lo), hi=_x(hi))
                                      for b, lo, hi in one.speedup_by_batch)
    body.append(say(lang, "spec_verdict.shrinks", rows=rows))
    lines.append(sep.join(body))
    if s.smaller is not None and s.smaller_one_with is not None:
        lo, hi = _tps(s.smaller_one_with)
        share_max = speculative_methods()["draft"].share_max or 0
        lines += ["", say(lang, "spec_verdict.smaller", draft=draft, model=model, share=f"{one.draft_share or 0:.0%}",
                          share_max=f"{share_max:.0%}", small=s.smaller.draft,
                          small_share=f"{s.smaller.draft_share or 0:.0%}",
                          gb=f"{s.smaller.draft_bytes_per_gpu / GB:,.1f}", tps_lo=lo, tps_hi=hi,
                          x_lo=_x(s.smaller.speedup[0]), x_hi=_x(s.smaller.speedup[1]))]
    lines += ["", say(lang, f"spec_verdict.verdict.{code}", draft=draft, model=model,
                      small=s.smaller.draft if s.smaller else ""), ""]
    return lines
