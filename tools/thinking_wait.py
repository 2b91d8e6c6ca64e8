"""A reasoning model (DeepSeek-R1 and its distills, QwQ, Magistral: knowledge reasoning_output_tokens) served for an
interactive use (chat, customer support, questions over documents, a coding assistant: knowledge use_cases
thinking_wait_s): it writes its thinking before the answer, so at the plan's per-user speed a typical trace is a
wait before the answer is there (review advice29 #2: R1-Distill-Llama-70B for customer service at 14 tokens/s per
user is about 107 s of thinking). The wait against the use's limit; over it, the rows sized that reach the speed
the limit asks (fastest first), else none, and the model's non-reasoning alternative of the same size (knowledge
instruct_alternative)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge.use_cases import use_case
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Option, Recommendation

WaitCode = Literal["thinking.within", "thinking.slow_rows", "thinking.slow_none"]


class ThinkingWait(BaseModel):
    code: WaitCode
    tokens: int = Field(description="a typical answer's tokens, thinking included (the model's reasoning_output_tokens)")
    tokens_per_s: float = Field(description="the plan's speed per user")
    seconds: float = Field(description="tokens / tokens_per_s: the wait before the answer is complete")
    limit_s: float = Field(description="the most a user of the use waits (knowledge use_cases thinking_wait_s)")
    needed_tokens_per_s: float = Field(description="tokens / limit_s: the per-user speed that keeps within it")
    reaching: list[Option] = Field(default_factory=list, description="rows sized that reach it, fastest first")
    alternative: str | None = Field(None, description="the non-reasoning model of the same size (its id)")


def thinking_wait(rec: Recommendation) -> ThinkingWait | None:
    """The wait for a reasoning model's thinking in an interactive service at the plan's per-user speed; None when
    the model does not reason, the use is not interactive (or not said), or the plan has no speed."""
    w, best = rec.workload, rec.best
    if w is None or best is None or not w.spec.serves or not best.decode_tokens_per_s:
        return None
    model = resolve_model(w.model)
    use = use_case(w.use_case)
    if not model.reasoning_output_tokens or use is None or use.thinking_wait_s is None:
        return None
    tokens, limit = model.reasoning_output_tokens, use.thinking_wait_s
    per_user = best.decode_tokens_per_s
    needed = tokens / limit
    reaching = sorted((o for o in rec.options if o is not best and o.ok and o.serves and o.decode_tokens_per_s
                       and o.decode_tokens_per_s >= needed), key=lambda o: -(o.decode_tokens_per_s or 0))
    code: WaitCode = ("thinking.within" if per_user >= needed else
                      "thinking.slow_rows" if reaching else "thinking.slow_none")
    return ThinkingWait(code=code, tokens=tokens, tokens_per_s=per_user, seconds=tokens / per_user, limit_s=limit,
                        needed_tokens_per_s=needed, reaching=reaching if code != "thinking.within" else [],
                        alternative=model.instruct_alternative)
