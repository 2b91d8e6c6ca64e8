"""An embedding or reranking job ('embed 10M documents of 500 tokens by Friday', 'reranker 200 QPS each with 50
candidates', '向量化1000万条文本', '重排服务，每秒200个查询，每个查询50个候选文档'): which of the two (words/encoder_job.yaml,
or the encoder model named), and the candidates a reranking query scores. The candidates' count is masked when the
message is prepared (reading.message), so it is no headcount and no corpus. tools.encoder_serving sizes the job
(assistant.encoder_reply writes it); with no model named, the slot table's default encoder of that job is used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.text import MASK, word_pattern
from gpu_advisor.knowledge import find_model

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

MOST_CANDIDATES = 10_000  # tools.encoder_serving's inputs per request


def find_candidates(masked: str) -> tuple[str, int | None]:
    """(the text with the candidates' count masked, the count); None when none is said."""
    for x in word_pattern("encoder_candidates").finditer(masked):
        n = int(x["n"] or x["top"])
        if 1 <= n <= MOST_CANDIDATES and not negated(masked, x.start()):
            return masked[:x.start()] + MASK * (x.end() - x.start()) + masked[x.end():], n
    return masked, None


def _named(m: Message) -> list[bool]:
    """For each model named: whether it is an encoder."""
    out = []
    for _start, _end, model_id in m.names:
        try:
            out.append(find_model(model_id).encoder)
        except (LookupError, ValueError):
            continue
    return out


def read_encoder_job(m: Message) -> str | None:
    """'embed' or 'rerank': the encoder named says which; else the job's words, when no generator is named."""
    for _start, _end, model_id in m.names:
        try:
            model = find_model(model_id)
        except (LookupError, ValueError):
            continue
        if model.encoder:
            return "rerank" if "rerank" in model.family or "rerank" in model.id else "embed"
    if any(not encoder for encoder in _named(m)):
        return None  # 'summarise with llama, then embed': the generator is the job sized
    said = m.candidates or m.role("items", "request_rate") or m.live("encoder_context")
    if not said:
        return None  # 'we embed the model in our app': no texts, no rate, no service of an encoder
    if m.live("encoder_rerank"):
        return "rerank"
    if m.live("encoder_embed"):
        return "embed"
    return None
