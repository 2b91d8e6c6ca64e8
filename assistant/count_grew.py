"""The user's count of a card grew in the plan ('大概要4张H100' then '20-100 人' -> 8 × H100, review AQ 16): why,
under the headline, from the sized row of their own count (what it needs per card against what a card holds), so
the cards said never silently become more."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.catalog import say


def _grown_row(rec: Any) -> Any:
    """The sized row of the count said when the plan grew past it for memory, else None."""
    from gpu_advisor.tools.recommend import parse_owned

    best, w = rec.best, rec.workload
    if best is None or best.owned or w is None or not w.candidates or not w.spec.serves:
        return None
    said = [parse_owned(c) for c in w.candidates if re.match(r"\s*\d", c)]
    counts = [n for n, gpu in said if gpu.id == best.gpu and n < best.gpus]
    if not counts:
        return None
    row = next((o for o in rec.options if o.gpu == best.gpu and o.gpus == counts[0] and not o.owned), None)
    if row is None or row.ok or row.serves is not False or not row.serve_per_gpu_bytes:
        return None
    return row


def grew_lower(rec: Any) -> Any:
    """The count said, at the highest format below the one said that holds one person there ('5090 跑 fp8' grown to
    two cards: Q4_K_M fits the one, tools.lower_format); None when the count did not grow or no lower format fits."""
    from gpu_advisor.tools.lower_format import lower_fits

    row = _grown_row(rec)
    return lower_fits(rec.workload, row.gpu, row.gpus) if row is not None else None


def grew_lines(rec: Any, lang: str) -> list[str]:
    """The reason line, or [] when the plan keeps the count said (or none was said, or the cards are owned); with the
    lower format that holds it on the count said, when the user named a format."""
    from gpu_advisor.assistant.writers import gb, tps
    from gpu_advisor.knowledge import find_gpu

    row = _grown_row(rec)
    if row is None:
        return []
    best, w = rec.best, rec.workload
    line = say(lang, "zhmarket.grew", n=row.gpus, gpu=find_gpu(best.gpu).name, users=f"{w.users:,}",
               context=f"{w.context:,}", need=gb(row.serve_per_gpu_bytes), have=gb(row.capacity_bytes), m=best.gpus)
    lower = grew_lower(rec)
    if lower is not None and lower.serve_per_gpu_bytes:
        line += say(lang, "zhmarket.grew_lower", said=(w.serve_precision or "").upper(), n=row.gpus,
                    lower=(lower.precision or "").upper(), used=gb(lower.serve_per_gpu_bytes),
                    have=gb(lower.capacity_bytes), tps=tps(lower.decode_tokens_per_s or 0), engine=lower.engine or "")
    return [line, ""]
