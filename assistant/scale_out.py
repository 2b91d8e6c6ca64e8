"""More of the same cards asked beside a job ('and if we got a second node of 8 would it halve it?', 'how long on 16
h100 instead of 8?', '加一台能快一倍吗'; reading/scale_out.py reads it as u.ask["scale_out"]): the job's time on that
many cards from the tools (tools.recommend.evaluate, every card used), against the plan's, and why it scales the way
it does: a batch job's model copies are independent (no link between the servers needed), data-parallel training
syncs gradients every step (a fast link between the servers keeps it near linear). A copy split over servers (tensor
parallel across nodes) is never the plan: the tools keep every copy within one server."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import hours
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import NODE_GPUS, Option, Recommendation


def _target(asked: dict[str, Any], now: int) -> int:
    if asked.get("to"):
        return int(asked["to"])
    if asked.get("added"):
        return now + int(asked["added"])
    if asked.get("times"):
        return now * int(asked["times"])
    return now + min(now, NODE_GPUS)  # one more node of the size you have (a server is at most NODE_GPUS)


def _cards(o: Option) -> str:
    return f"{o.gpus} × {o.gpu_name}"


def scale_out(asked: dict[str, Any] | None, rec: Recommendation | None, lang: str, recorder: Any = None
              ) -> tuple[str, dict[str, Any]] | None:
    """The job on more of the plan's cards (text, data); None when nothing was asked or the plan is no timed job."""
    from gpu_advisor.assistant.advice import _call
    from gpu_advisor.tools.recommend import evaluate

    if not asked or rec is None or rec.best is None:
        return None
    best, w = rec.best, rec.workload
    if not best.job_hours or not (w.spec.batch or w.spec.trains) or (w.spec.serves and not w.spec.batch):
        return None
    target = _target(asked, best.gpus)
    if target <= best.gpus:
        return None
    more = _call(recorder, "evaluate", {"workload": w.model_dump(mode="json"), "gpu": best.gpu, "gpus": target,
                                        "owned": best.owned, "all_cards": True},
                 lambda: evaluate(w, find_gpu(best.gpu), target, owned=best.owned, all_cards=True))
    if more is None or not more.job_hours:
        return None
    speedup = best.job_hours / more.job_hours
    kind = "batch" if w.spec.batch else "train"
    how = say(lang, f"scale_out.why_{kind}", copy=max(1, more.gpus // max(1, more.replicas)), copies=more.replicas)
    verdict = "scale_out.near" if speedup >= 0.9 * target / best.gpus else "scale_out.less"
    text = say(lang, verdict, cards=_cards(more), now_cards=_cards(best), hours=hours(more.job_hours),
               now=hours(best.job_hours), speedup=f"{speedup:.1f}") + ("" if lang == "zh" else " ") + how
    return text, {"code": "scale_out", "gpu": best.gpu, "gpus": more.gpus, "job_hours": more.job_hours,
                  "now_gpus": best.gpus, "now_hours": best.job_hours, "speedup": speedup}
