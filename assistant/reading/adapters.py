"""Many LoRA adapters served on one base model ('serve 50 customer-specific LoRAs on llama 3.1 8b', '一个底座挂20个
LoRA'): the count and the rank (words/adapters.yaml). The count's words are masked when the message is prepared
(reading.message), so the number is no headcount and 'LoRA' no fine-tuning method; a message that says only this
is a serving job (tools.multi_lora sizes the adapters on the plan)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.text import MASK, word_pattern

# Adapters a deployment may name (tools.multi_lora.MAX_ADAPTERS); beyond it a count is no adapter count.
MOST_ADAPTERS = 100_000
MOST_RANK = 512


def find_adapters(masked: str) -> tuple[str, int | None, int | None]:
    """(the text with the adapter count's words masked, the count, the rank); the count None when none is said."""
    count: int | None = None
    for x in word_pattern("lora_count").finditer(masked):
        n = int(x["n"].replace(",", ""))
        if 2 <= n <= MOST_ADAPTERS and not negated(masked, x.start()):
            count = n
            masked = masked[:x.start()] + MASK * (x.end() - x.start()) + masked[x.end():]
            break
    rank = None
    if count is not None:
        r = word_pattern("lora_rank").search(masked)
        if r is not None and 1 <= int(r["r"]) <= MOST_RANK:
            rank = int(r["r"])
            masked = masked[:r.start()] + MASK * (r.end() - r.start()) + masked[r.end():]
    return masked, count, rank
