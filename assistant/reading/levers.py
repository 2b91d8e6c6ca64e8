"""The serving levers said in a message: a prompt prefix every request shares ('all requests share a 3k token
system prompt', 'RAG with the same 2000-token instructions', '系统提示词有4000 token，每次都一样'), the cache's hit
rate ('hit rate 70%', '命中率80%'), and speculative decoding ('with speculative decoding', '开投机解码', '用MTP').
The words: words/levers.yaml. The count of a shared prefix is claimed before the slot readers run (its role
becomes shared_prefix_tokens), so it is not also read as the prompt or the context."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.intents import concept_asked
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern

# ('shared_prompt_tokens', 'each question ~300 tokens plus a 2k token system prompt', keeps its role: the prompt is the
# two added, and the prefix is read from it too)
TOKEN_ROLES = ("prompt_tokens", "context", "per_item_tokens", "")
PERCENT_ROLES = ("utilisation_percent", "percent", "")
WINDOW = 60
MAX_PREFIX = 10_000_000


def claim_levers(m: Message) -> None:
    """Give the counts said as a shared prefix or a hit rate their own roles (before any slot reader)."""
    for i, q in enumerate(m.qty):
        before = m.masked[max(0, q.start - WINDOW):q.start]
        after = m.masked[q.end:q.end + WINDOW]
        if q.role in TOKEN_ROLES and q.value >= 1 and _shared(before, after):
            m.qty[i] = replace(q, role="shared_prefix_tokens")
        elif q.role in PERCENT_ROLES and (word_pattern("hit_rate_before").search(before)
                                          or word_pattern("hit_rate_after").match(after)):
            m.qty[i] = replace(q, role="prefix_hit_rate")


def _shared(before: str, after: str) -> bool:
    """A system prompt is the same for every request; instructions or a prefix when said shared or the same."""
    said_after = word_pattern("shared_prefix_after").match(after)
    if said_after and (word_pattern("shared_prefix_before").search(before) or "system" in said_after.group(0)):
        return True  # 'a 3k token system prompt', 'the same 2000-token instructions'
    return bool(word_pattern("shared_prefix_lead").search(before))  # 'system prompt: 4000 tokens', '系统提示词有4000'



def read_shared_prefix(m: Message) -> int | None:
    """The tokens of a prefix every request shares, for a service (a batch job's shared prompt is added to each item
    and not cached: reading.shared_prompt)."""
    if m.phase == "batch":
        return None
    found = m.role("shared_prefix_tokens", "shared_prompt_tokens")
    if not found:
        return None
    value = round(found[-1].value)
    return value if 1 <= value <= MAX_PREFIX else None


def read_hit_rate(m: Message) -> float | None:
    """The hit rate as a share; one above 100% is a problem said back, never read."""
    found = m.role("prefix_hit_rate")
    if not found:
        return None
    value = found[-1].value / 100
    if not 0 <= value <= 1:
        m.problems.append(("hit_rate_range", {"value": f"{found[-1].value:g}%"}))
        return None
    return value


def read_speculative(m: Message) -> str | None:
    """The method asked for: eagle3, mtp or draft when named, 'auto' for speculative decoding said without one
    (tools.speculative picks the model's own MTP layers, else an EAGLE-3 head); None when not said or said off."""
    asked = any(word_pattern("speculative_asked").search(t) for t in (m.text, m.raw.lower()))
    if asked or concept_asked(m, None) or (not m.names and word_pattern("lever_question").search(m.raw.lower())):
        return None  # '投机解码有什么用', "what's speculative decoding": the concept asked about (the glossary answers)
    texts = (m.masked, m.raw.lower())
    said = [(t, x) for t in texts for x in [word_pattern("speculative").search(t)] if x is not None]
    if not said or any(negated(t, x.start()) or word_pattern("speculative_off").search(t) for t, x in said):
        return None
    for method in ("mtp", "eagle", "draft"):
        if any(word_pattern(f"speculative_{method}").search(t) for t in texts):
            return "eagle3" if method == "eagle" else method
    return "auto"
