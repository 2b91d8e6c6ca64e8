"""What a serving job is for ("a coding assistant for 30 developers", "RAG over our contracts", "客服机器人",
"长文档总结"): the id of a row of knowledge/data/use_cases.yaml, from words/use_case.yaml. The plan then sizes that
use's context when none is said, and a request rate its typical prompt and answer (slots.Slot.default_for)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern

TRAINS = ("fine-tune", "pretrain", "continued-pretrain")  # what the training data is about is no serving use


def read_use_case(m: Message) -> str | None:
    """The first use of the table's order said in the message (masked, then as typed), not negated. The job nouns of
    the team that builds the service ('3 devs, 1 designer', '团队有3个开发人员') say who the team is, not what the
    service is for: they set no use (review BZ #9, close-22: '3 devs' made a chat product a coding one)."""
    if m.phase in TRAINS:
        return None
    masked, typed = m.masked, m.raw.lower()
    for start, end in m.team:
        word = masked[start:end].strip()
        masked = masked[:start] + " " * (end - start) + masked[end:]
        typed = typed.replace(word, " " * len(word), 1) if word else typed
    for pattern, use in pattern_rows("use_cases"):
        for text in (masked, typed):
            if any(not _refused(text, x.start()) for x in pattern.finditer(text)):
                return str(use)
    return None


def _refused(text: str, start: int) -> bool:
    """The use's word follows a negation: 'not a chatbot', '不是聊天', '不是用来聊天的'."""
    return negated(text, start) or bool(word_pattern("use_case_refused_zh").search(text[max(0, start - 12):start]))
