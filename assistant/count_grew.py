"""The user's count of a card grew in the plan ('大概要4张H100' then '20-100 人' -> 8 × H100, review AQ 16): why,
under the headline, from the sized row of their own count (what it needs per card against what a card holds), so
the cards said never silently become more."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.catalog import say


def grew_lines(rec: Any, lang: str) -> list[str]:
    """The reason line, or [] when the plan keeps the count said (or none was said, or the cards are owned)."""
    from gpu_advisor.assistant.writers import gb
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import parse_owned

    best, w = rec.best, rec.workload
    if best is None or best.owned or w is None or not w.candidates or not w.spec.serves:
        return []
    said = [parse_owned(c) for c in w.candidates if re.match(r"\s*\d", c)]
    counts = [n for n, gpu in said if gpu.id == best.gpu and n < best.gpus]
    if not counts:
        return []
    row = next((o for o in rec.options if o.gpu == best.gpu and o.gpus == counts[0] and not o.owned), None)
    if row is None or row.ok or row.serves is not False or not row.serve_per_gpu_bytes:
        return []
    return [say(lang, "zhmarket.grew", n=counts[0], gpu=find_gpu(best.gpu).name, users=f"{w.users:,}",
                context=f"{w.context:,}", need=gb(row.serve_per_gpu_bytes), have=gb(row.capacity_bytes),
                m=best.gpus), ""]
