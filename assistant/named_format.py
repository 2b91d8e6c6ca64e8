"""The weight file the user named, kept (review AU13: '两张 3090 跑 qwen2.5 72b 的 awq int4 … 加一张凑三张？' was sized as
llama.cpp's Q4_K_M without a word, and the third card answered for that file only).

When the user named a file made for vLLM (AWQ, GPTQ) and the plan runs another one, the answer says the switch and
why, with the named file's figure on their cards (tools.recommend.evaluate). When one card more is asked, it says
whether vLLM can use that count at all: its tensor parallel splits the attention heads, so the card count must divide
them (tools.arch.valid_tensor_parallel: Qwen2.5 72B's 64 heads take 2 or 4, never 3); a count it cannot use helps
only llama.cpp's layer split or pipeline parallel, and the next count vLLM takes is sized."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.tools.recommend import VLLM_FORMATS, Recommendation


def named_format_lines(rec: Recommendation, gpu: Any, count: int, lang: str, evaluate: Any) -> tuple[str, str]:
    """(the switch said before the add-a-card answer, the tensor-parallel answer after it); '' when the user named
    no vLLM file."""
    from gpu_advisor.tools import arch
    from gpu_advisor.tools.models import resolve_model

    w, best = rec.workload, rec.best
    if w is None or w.serve_precision not in VLLM_FORMATS:
        return "", ""
    fmt = str(w.serve_precision)
    sized = w.model_copy(update={"engine": "vllm", "flexible": [f for f in w.flexible if f != "precision"]})
    out, first = [], ""
    args = {"format": fmt.upper(), "gpu": gpu.name, "model": rec.model_name or w.model}
    if best is not None and best.precision != fmt:
        now = evaluate(sized, gpu.id, count, None)
        need = gb(now.serve_per_gpu_bytes or 0) if now is not None and now.serve_per_gpu_bytes else "?"
        first = (say(lang, "mixed.format_switched", n=count, need=need, cap=gb(now.capacity_bytes if now is not None else gpu.memory_gb * 1e9),
                       plan=str(best.precision or "").upper(), engine=best.runtime or best.engine or "", **args) + "\n\n")
    model = resolve_model(w.model)
    valid = arch.valid_tensor_parallel(model, 8)
    more = count + 1
    if more not in valid:
        nxt = next((t for t in valid if t > count), None)
        line = say(lang, "mixed.tp_not_divisible", more=more, heads=model.num_attention_heads,
                   valid=" / ".join(str(t) for t in valid if t > 1), **args)
        if nxt is not None:
            o = evaluate(sized, gpu.id, nxt, None)
            if o is not None and o.ok:
                line += say(lang, "mixed.tp_next_fits", n=nxt, used=gb(o.serve_per_gpu_bytes or 0),
                            tps=tps(o.decode_tokens_per_s or 0), **args)
            elif o is not None:
                line += say(lang, "mixed.tp_next_short", n=nxt, used=gb(o.serve_per_gpu_bytes or 0), **args)
        out.append(line)
    return first, ("\n\n" + "\n\n".join(out)) if out else ""
