"""An end-to-end target the plan misses is said as missed, first (review AZ #11: 'Rent 3 replicas of 1 × L4' headlined
a plan that takes 24.9 s against a 2 s p99 target): the heading names the plan with the target it misses, and where
one stream alone on the card is slower than the target needs (tools.stream_bound), that the target is out of reach
on that card at any count, why (memory bandwidth sets one answer's pace), and what meets it. One source: the plan
(Option.meets['e2e'], Option.e2e_*) and its traffic."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.queueing import percentile_name
from gpu_advisor.tools.recommend import Recommendation


def _missed(rec: Recommendation) -> bool:
    best, w = rec.best, rec.workload
    return best is not None and w is not None and w.e2e_ms is not None and best.meets.get("e2e") is False \
        and not best.owned and not any(o.meets.get("e2e") and o.ok for o in rec.options)


def stream_bound(rec: Recommendation) -> bool:
    """One answer alone on one copy of the plan's card streams slower than the end-to-end target needs."""
    t = rec.traffic
    return _missed(rec) and t is not None and t.stream_tps_max is not None and t.stream_tps_needed is not None \
        and t.stream_tps_max < t.stream_tps_needed


def reach_headline(rec: Recommendation, lang: str) -> str | None:
    """'## 3 × L4 for serving: your 2.0 s end to end (p99) is out of reach on L4: …', never 'Rent 3 × L4'; the
    no-plan heading when nothing was planned; None for any other plan."""
    from gpu_advisor.assistant.writers import plan_words, seconds, tps

    if rec.best is None:
        return "## " + say(lang, "head.none")
    if not _missed(rec):
        return None
    best, w, t = rec.best, rec.workload, rec.traffic
    assert best is not None and w is not None and w.e2e_ms is not None
    common = {"option": plan_words(best, lang), "job": say(lang, f"job.{w.phase}"), "target": seconds(w.e2e_ms / 1000),
              "pct": percentile_name(best.e2e_percentile or w.ttft_percentile or 0.99), "gpu": best.gpu_name}
    if stream_bound(rec) and t is not None and t.stream_tps_max and t.stream_tps_needed:
        return "## " + say(lang, "onevoice.head_e2e_reach", max=tps(t.stream_tps_max), need=tps(t.stream_tps_needed),
                           **common)
    if best.e2e_s is None:
        return None
    return "## " + say(lang, "onevoice.head_e2e_missed", e2e=seconds(best.e2e_s), **common)


def reach_line(rec: Recommendation, lang: str) -> str | None:
    """The 'out of reach at any count' paragraph, in place of 'none of the options meets it'; None when more cards
    or copies could still meet the target."""
    from gpu_advisor.assistant.writers import seconds, tps

    t, best, w = rec.traffic, rec.best, rec.workload
    if not stream_bound(rec) or t is None or best is None or w is None or w.e2e_ms is None \
            or not t.stream_tps_max or not t.stream_tps_needed:
        return None
    return say(lang, "onevoice.e2e_reach", gpu=best.gpu_name, output=f"{best.e2e_output_tokens or 0:,}",
               target=seconds(w.e2e_ms / 1000), need=tps(t.stream_tps_needed), max=tps(t.stream_tps_max),
               ttft=seconds(best.e2e_first_s or 0), pct=percentile_name(best.e2e_percentile or 0.99))
