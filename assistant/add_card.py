"""'需要再加一张卡吗', 'do I need to add a second card?' (review WC C1: the add-a-card question was ignored and a
2-bit file on one card offered instead): yes or no, with the figures of the user's own cards and of one card more,
in the 4-bit file people run at home (llama.cpp's Q4_K_M) or the plan's own format when it has more bits.
Every figure is tools.recommend.evaluate's (recorded); the words are the catalogs'."""

from __future__ import annotations

import time
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.named_format import named_format_lines
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.tools.recommend import Option, Recommendation, Workload

HOME_FOUR_BIT = "q4_k_m"  # the file people run at home on llama.cpp
FOUR_BIT = "int4"  # on a serving engine
LOW = ("q3", "q2", "iq")  # files below 4 bits: the add-a-card question is asked to avoid them


def _evaluate(w: Workload, gpu_id: str, n: int, recorder: Any) -> Option | None:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate

    start = time.perf_counter()
    o = evaluate(w, find_gpu(gpu_id), n, owned=True)
    if recorder is not None:
        recorder("evaluate_option", {"workload": w.model_dump(mode="json"), "gpu": gpu_id, "gpus": n, "owned": True},
                 o.model_dump(mode="json") if o is not None else None, (time.perf_counter() - start) * 1000)
    return o


def _format(rec: Recommendation) -> str:
    best = rec.best
    precision = (best.precision if best is not None else None) or ""
    if precision and not precision.startswith(LOW) and precision not in ("int3", "int2"):
        return precision  # the plan's own file holds 4 bits or more: the question is about cards, not the file
    engine = (best.engine if best is not None else None) or (rec.workload.engine if rec.workload else None)
    return HOME_FOUR_BIT if engine in (None, "llama.cpp") or precision.startswith(LOW) else FOUR_BIT


def add_card(answer: Any, lang: str, recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """Yes or no to one card more beside the user's own, with both setups' figures; None without one kind of
    owned card or a serving plan."""
    from gpu_advisor.tools.recommend import parse_owned

    rec: Recommendation | None = answer.recommend
    w = rec.workload if rec is not None else None
    if rec is None or w is None or len(w.owned) != 1 or not w.spec.serves or w.spec.trains:
        return None
    count, gpu = parse_owned(w.owned[0])
    fmt = _format(rec)
    sized = w.model_copy(update={"serve_precision": fmt, "flexible": [f for f in w.flexible if f != "precision"]})
    now, more = _evaluate(sized, gpu.id, count, recorder), _evaluate(sized, gpu.id, count + 1, recorder)
    data: dict[str, Any] = {"code": "figure.add_card", "gpu": gpu.id, "owned": count, "format": fmt,
                            "fits_now": bool(now and now.ok), "fits_more": bool(more and more.ok),
                            "per_gpu_bytes": [o.serve_per_gpu_bytes if o else None for o in (now, more)],
                            "tokens_per_s": [o.decode_tokens_per_s if o else None for o in (now, more)]}
    args = {"precision": fmt.upper(), "gpu": gpu.name, "model": rec.model_name or w.model}
    lead, extra = named_format_lines(rec, gpu, count, lang, _evaluate)  # 'awq int4 … 加一张凑三张？': the file and TP kept
    if now is not None and now.ok:
        data["verdict"] = "no"
        return lead + say(lang, "addcard.no", n=count, used=gb(now.serve_per_gpu_bytes or 0), cap=gb(now.capacity_bytes),
                   tps=tps(now.decode_tokens_per_s or 0), **args) + extra, data
    if extra and fmt == w.serve_precision and (more is None or not more.ok):
        data["verdict"] = "tp_not_divisible"  # vLLM cannot use count + 1 cards: the answer is the count it can use
        return lead + extra.strip(), data
    if more is None or not more.ok:
        data["verdict"] = "more_than_one"
        need = more.serve_per_gpu_bytes if more is not None else None
        return lead + say(lang, "addcard.not_enough", n=count + 1, used=gb(need or 0),
                   cap=gb(more.capacity_bytes if more is not None else gpu.memory_gb * 1e9), **args) + extra, data
    data["verdict"] = "yes"
    before = say(lang, "addcard.now_short", n=count, used=gb(now.serve_per_gpu_bytes or 0),
                 cap=gb(now.capacity_bytes), **args) if now is not None and now.serve_per_gpu_bytes else ""
    return lead + say(lang, "addcard.yes", n=count + 1, used=gb(more.serve_per_gpu_bytes or 0), cap=gb(more.capacity_bytes),
               tps=tps(more.decode_tokens_per_s or 0), before=before, **args) + extra, data
