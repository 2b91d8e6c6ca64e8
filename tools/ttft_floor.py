"""A first-token target below the physics: no layout of any card in the plan's table reaches it even with
no queue at all (the prompt's own prefill takes longer). Said in one line naming the fastest there is,
instead of a plan whose every row misses the target (`gpu-advisor recommend --ttft-p99-ms 1`)."""

from __future__ import annotations

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.queueing import P99, BelowPhysics, RateInput, size_by_rate
from gpu_advisor.tools.recommend import Recommendation, Workload, rate_lengths, rate_precision
from gpu_advisor.tools.scale import MAX_SERVING_GPUS, SERVER_GPUS

CARDS_TRIED = 8  # the table's first cards; a plan's table rarely holds more kinds
IDLE_RATE = 1e-3  # requests per second: no queue, the prefill alone


def below_physics(w: Workload, rec: Recommendation) -> str | None:
    """The one line when the first-token target is below what every card of the table does with no queue;
    None when any card reaches it (or the plan meets it, or no target was given)."""
    if w.ttft_ms is None or (rec.best is not None and rec.best.meets.get("latency", False)):
        return None
    prompt, output, _context = rate_lengths(w)
    rated = w.requests_per_s is not None
    pct = w.ttft_percentile or P99
    fastest: tuple[float, int, str, BelowPhysics] | None = None
    seen: set[str] = set()
    for o in rec.options:
        if o.gpu in seen or not o.precision or len(seen) >= CARDS_TRIED:
            continue
        seen.add(o.gpu)
        target = {"ttft_target_ms": w.ttft_ms, "ttft_percentile": pct} if rated else {"ttft_p50_ms": w.ttft_ms}
        try:
            size_by_rate(RateInput(
                model=w.model, gpu=o.gpu, precision=rate_precision(w, o.gpu, o.precision, o.engine),
                kv_precision=o.kv_precision, engine="sglang" if o.engine == "sglang" else "vllm",
                requests_per_s=IDLE_RATE, prompt_tokens=prompt, output_tokens=output, target_margin=0.0,
                server_gpus=w.server_gpus or SERVER_GPUS, max_gpus=w.max_gpus or MAX_SERVING_GPUS, **target))
        except BelowPhysics as e:
            if fastest is None or e.fastest_s < fastest[0]:
                fastest = (e.fastest_s, e.gpus, o.gpu, e)
            continue
        except ValueError:
            continue  # this card cannot be sized at a rate (its format or engine): it decides nothing
        return None  # this card reaches the target with no queue
    if fastest is None:
        return None
    seconds, gpus, gpu, _e = fastest
    said = f"p{pct * 100:.10g} time to first token" if rated else "time to first token"
    return (f"a {said} of {w.ttft_ms:,.0f} ms is below the physics: the fastest there is, {gpus} x "
            f"{find_gpu(gpu).name}, gives {seconds * 1000:,.0f} ms with no queue at all ({prompt:,}-token prompts); "
            "relax the target, shorten the prompts, or try a faster card")
