"""What a correction of the cards owned does to the plan, said first (review s29: 'two 8-card A6000 servers, full
fine-tune of InternVL3-38B, or else LoRA?' weighed full fine-tuning on the 16 cards beside LoRA on 8; then '不好意思说错
了，只有一台，8 张卡' re-planned LoRA and never said that full fine-tuning was now out of reach). When the reply before
weighed another method on more of the user's cards than they now have, that method is sized again on the cards left:
if it no longer fits there (or only at the edge of memory), the reply opens with that consequence: the other method is
out, the plan's method is the plan, and what the other would take (the cards it had, or CPU offload)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.premise import counted
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.train_margin import roomy
from gpu_advisor.tools.training import training_memory


def _payload_before(state: Any) -> dict[str, Any]:
    """The payload of the reply before this turn's (the state's last AI message), or {}."""
    ais = [m for m in state.get("messages") or [] if isinstance(m, AIMessage) and m.content]
    return (ais[-1].additional_kwargs.get("gpu_advisor") or {}) if ais else {}


def _owned_of(profile: Any, gpu: str) -> int:
    return sum(n for n, card in (counted(e) for e in profile.owned or []) if card == gpu)


def consequence(state: Any, answer: Any, filled: Any, lang: str, recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """The consequence line and its data ({'code': 'method_out', ...}), or None when the reply before weighed no other
    method on the user's cards, the cards did not become fewer, or the other method still fits the cards left."""
    from gpu_advisor.assistant.method_switch import WEIGHT, _name
    from gpu_advisor.assistant.writers import gb, gpu_words
    from gpu_advisor.tools.recommend import training_setup

    weighed = _payload_before(state).get("method_switch") or {}
    rec = answer.recommend
    best, w = rec.best, rec.workload
    other, gpu = weighed.get("from"), weighed.get("old_gpu")
    if not weighed.get("weighed") or best is None or w is None or not best.owned or other not in WEIGHT \
            or other == w.method or gpu != best.gpu:
        return None
    had, now = int(weighed.get("old_gpus") or 0), _owned_of(filled, best.gpu)
    if not now or now >= had:
        return None
    mem = training_memory(training_setup(w.model_copy(update={"method": other}), now, best.gpu, owned=True))
    need, cap = mem.per_gpu_total_bytes, usable_bytes(find_gpu(best.gpu))
    if roomy(need, cap, now):
        return None  # the other method still fits the cards left: nothing to say first
    memory = weighed.get("memory") or {}
    total = memory.get("old_bytes") if memory.get("basis") == "total" else None
    values = {"other": _name(lang, other), "plan": _name(lang, w.method), "cards": gpu_words(best, lang),
              "had": str(had), "gpus": str(now), "used": gb(best.train_per_gpu_bytes or 0)}
    parts = [say(lang, "consequence.method_out.head", **values)]
    parts.append(say(lang, "consequence.method_out." + ("need" if need > cap else "edge"), need=gb(need), cap=gb(cap),
                     gpus=str(now)))
    if total:
        parts.append(say(lang, "consequence.method_out.total", total=f"{total / 1e9:,.0f}"))
    line = parts[0] + say(lang, "sep").join(parts[1:]) + say(lang, "fig.end") + "\n\n" \
        + say(lang, "consequence.method_out.plan", **values)
    data = {"code": "method_out", "method": other, "plan": w.method, "gpus": now, "old_gpus": had, "gpu": best.gpu}
    return line, data


def with_consequence(text: str, extra: dict[str, Any], state: Any, answer: Any, filled: Any, lang: str,
                     recorder: Any = None) -> tuple[str, dict[str, Any]]:
    """The consequence, first: under the plan's heading when the reply opens with one, else above it."""
    said = consequence(state, answer, filled, lang, recorder)
    if said is None:
        return text, extra
    head, sep, rest = text.partition("\n\n")
    text = f"{head}\n\n{said[0]}\n\n{rest}" if sep and head.startswith("## ") else f"{said[0]}\n\n{text}"
    return text, {**extra, "consequence": said[1]}
