"""The end-to-end target in the reply: the plan's whole-answer time (first token, then each further output token)
against the target said, and that no option meets it when none does. Figures from tools.recommend (Option.e2e_*)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.queueing import percentile_name
from gpu_advisor.tools.recommend import Recommendation


def e2e_lines(rec: Recommendation, lang: str) -> list[str]:
    """'End to end (p95, queue modelled at 10 requests/s): about 6.8 s for 400 output tokens ...: within your
    8.0 s target.', and the 'none meets it' line when no option sized does."""
    from gpu_advisor.assistant.writers import seconds  # writers imports this module

    best, w = rec.best, rec.workload
    if best is None or w is None or w.e2e_ms is None or best.e2e_s is None:
        return []
    output = best.e2e_output_tokens or 0
    at = ""
    if best.e2e_percentile is not None and rec.traffic is not None:
        at = say(lang, "fig.e2e_at", pct=percentile_name(best.e2e_percentile),
                 rate=f"{rec.traffic.requests_per_s:,.3g}")
    met = best.meets.get("e2e", False)
    target = seconds(w.e2e_ms / 1000)
    lines = [say(lang, "fig.e2e_met" if met else "fig.e2e_missed", at=at, e2e=seconds(best.e2e_s),
                 output=f"{output:,}", ttft=seconds(best.e2e_first_s or 0), rest=f"{max(0, output - 1):,}",
                 tpot=seconds(best.e2e_tpot_s or 0), target=target), ""]
    if not met and not any(o.meets.get("e2e") and o.ok for o in rec.options):
        from gpu_advisor.assistant.target_reach import reach_line

        lines += [reach_line(rec, lang) or say(lang, "fig.e2e_none", target=target), ""]
    return lines
