"""vLLM's own offload, said in the serving answer beside llama.cpp's (tools.vllm_offload): when the engine is vLLM
and the user's own cards do not hold the model in the plan's format, or hold it only in a smaller one than they
might want, or when they ask to put part of it in system RAM with vLLM ('can i offload to cpu with vllm',
'vllm能不能把一部分放到内存'). `--cpu-offload-gb` copies the offloaded weights over PCIe at every decode step, so the
block says the speed it costs against the card that holds it all; KV offloading (the OffloadingConnector) keeps
idle conversations' cache in RAM, which saves a returning conversation's prefill, not room for more at once."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.knowledge import find_gpu, find_model
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import Option, Recommendation
from gpu_advisor.tools.vllm_offload import VllmOffloadInput, VllmOffloadResult, vllm_offload

# Formats tried above the plan's own, largest saving first: the one just above that no longer fits is the one
# offloading buys (an int4 plan on a card: FP8 with part of it in RAM).
LARGER = {"int4": ("fp8", "int8"), "awq": ("fp8", "int8"), "gptq": ("fp8", "int8"), "int8": ("bf16",),
          "fp8": ("bf16",), "w8a8-int8": ("bf16",)}
MOST_GPUS = 8  # one server's tensor-parallel GPUs (tools.vllm_offload)


def _owned_card(p: Profile) -> tuple[int, str] | None:
    """One kind of own card, at most a server of them ('2x rtx-4090'), else None."""
    if not p.owned or len(p.owned) != 1:
        return None
    count, sep, card = p.owned[0].partition("x ")
    n = int(count) if sep and count.strip().isdigit() else 1
    return (n, card.strip() if sep else p.owned[0]) if n <= MOST_GPUS else None


def _tps(n: float) -> str:
    return f"{n:,.0f}" if n >= 10 else f"{n:,.1f}"


def _sized(p: Profile, gpu: str, gpus: int, precision: str, users: int) -> VllmOffloadResult | None:
    try:
        return vllm_offload(VllmOffloadInput(model=p.model or "", gpu=gpu, gpus=gpus, precision=precision,
                                             context=p.context or 8192, users=users, system_ram_gb=p.system_ram_gb,
                                             kv_offload_conversations=users))
    except (ToolError, LookupError, ValueError):
        return None


def _own_option(rec: Recommendation) -> Option | None:
    return next((o for o in [rec.best, *rec.options] if o is not None and o.owned), None)


def vllm_offload_lines(rec: Recommendation, p: Profile, lang: str) -> list[str]:
    """The block, or nothing where vLLM is not the engine, no own card of one kind is said, or nothing needs it."""
    if p.engine != "vllm" or not p.model:
        return []
    owned = _owned_card(p)
    if owned is None:
        return []
    n, card = owned
    try:
        gpu = find_gpu(card)
    except (LookupError, ValueError):
        return []
    if gpu.unified_memory:
        return []
    users = max(1, min(p.users or 1, 64))
    own = _own_option(rec)
    plan_precision = (own.precision if own and own.precision else None) or p.precision or "bf16"
    tried = [plan_precision] if not (own and own.ok) else [plan_precision, *LARGER.get(plan_precision, ())]
    if p.precision and p.precision not in tried:
        tried.insert(0, p.precision)  # the format they said comes first
    for precision in tried:
        if precision == "fp8" and gpu.fp8_tflops is None:
            continue  # no FP8 units: vLLM would not run FP8 weights fast on it
        r = _sized(p, gpu.id, n, precision, users)
        if r is None or r.fits_without:
            continue
        return _block(r, n, precision, lang, asked=bool(p.cpu_offload), users=users, context=p.context or 8192)
    if p.cpu_offload:  # asked, and nothing needs it: said so
        return [say(lang, "vllm_offload.not_needed", gpus=n, gpu=gpu.name, precision=plan_precision,
                    model=find_model(p.model).name), ""]
    return []


def _block(r: VllmOffloadResult, n: int, precision: str, lang: str, asked: bool, users: int,
           context: int) -> list[str]:
    low, high = r.tokens_per_s_range
    lines = [say(lang, "vllm_offload.block", gpus=n, gpu=r.gpu, model=r.model, precision=precision, users=users,
                 context=f"{context:,}",
                 gb=r.cpu_offload_gb, link=r.link, tps=_tps(r.tokens_per_s), low=_tps(low), high=_tps(high),
                 all=_tps(r.all_on_card_tokens_per_s), slow=f"{r.slowdown:,.0f}", ram=f"{r.ram_needed_gb:,.0f}")]
    if r.ram_ok is False:
        lines.append(say(lang, "vllm_offload.ram_short", ram=f"{r.ram_needed_gb:,.0f}"))
    lines.append(say(lang, "vllm_offload.llama_cpp"))
    if asked:
        lines.append(say(lang, "vllm_offload.kv", reload=f"{r.kv_reload_s:,.2f}", recompute=f"{r.kv_recompute_s:,.2f}",
                         kv_gb=f"{r.kv_offload_gb:,.1f}"))
    return [("" if lang == "zh" else " ").join(lines), ""]
