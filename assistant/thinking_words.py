"""The wait for a reasoning model's thinking in an interactive service, in the reply (review advice29 #2): the
typical trace's tokens at the plan's per-user speed against the use's limit; over it, the rows that reach the speed
the limit asks, else the speed to ask for, and the non-reasoning model of the same size. Figures and the code from
tools.thinking_wait."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Recommendation
from gpu_advisor.tools.thinking_wait import thinking_wait


def thinking_lines(rec: Recommendation, lang: str) -> list[str]:
    """'**Thinking time:** ... about 107 s before the answer is complete, over the 30 s ...'; [] when no wait applies."""
    from gpu_advisor.assistant.writers import gpu_words, model_words, tps  # writers imports this module

    t = thinking_wait(rec)
    if t is None:
        return []
    line = say(lang, "thinking.head", model=model_words(rec.model_name, lang), tokens=f"{t.tokens:,}",
               tps=tps(t.tokens_per_s), seconds=f"{t.seconds:,.0f}")
    if t.code == "thinking.within":
        return [line + say(lang, "thinking.within", limit=f"{t.limit_s:,.0f}"), ""]
    line += say(lang, "thinking.slow", limit=f"{t.limit_s:,.0f}", need=f"{t.needed_tokens_per_s:,.0f}")
    if t.code == "thinking.slow_rows":
        rows = [say(lang, "thinking.row", option=gpu_words(o, lang), tps=tps(o.decode_tokens_per_s or 0),
                    seconds=f"{t.tokens / (o.decode_tokens_per_s or 1):,.0f}") for o in t.reaching]
        line += say(lang, "thinking.rows", rows=("；" if lang == "zh" else "; ").join(rows))
    else:
        line += say(lang, "thinking.none", need=f"{t.needed_tokens_per_s:,.0f}")
    if t.alternative:
        line += say(lang, "thinking.alternative", alt=resolve_model(t.alternative).name)
    return [line, ""]
