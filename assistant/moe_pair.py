"""A MoE model against a dense one, named in a concept question ('mixtral 8x7b vs llama 2 70b, which is cheaper to
host'; reading/moe_pair.py): each one's parameters (total, active), its weights in BF16 and FP8 (tools.arch.weight_bytes),
the weights a decode step reads (tools.arch.params_read_per_step), and the fewest cards of one server that hold it
in FP8 with room for a working KV cache (tools.inference.inference_memory); which is cheaper to host follows from
those."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gb
from gpu_advisor.knowledge import find_gpu, find_model, find_precision
from gpu_advisor.tools.arch import params_read_per_step, weight_bytes
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

CARD = "h100-sxm"  # the card the counts are on: the usual one to host on
FORMAT = "fp8"
CONTEXT = 8192  # one conversation's context the cards must hold beside the weights
COUNTS = (1, 2, 4, 8)


def _cards(model_id: str) -> int | None:
    for n in COUNTS:
        try:
            r = inference_memory(InferenceMemoryInput(model=model_id, precision=FORMAT, context=CONTEXT, batch=1,
                                                      gpus=n, gpu=CARD, engine="vllm"))
        except (ValueError, LookupError):
            continue
        if r.fits:
            return n
    return None


def moe_pair_text(pair: dict[str, str] | None, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The two models side by side (text, data); None when no pair was named."""
    if not pair:
        return None
    moe, dense = find_model(pair["moe"]), find_model(pair["dense"])
    bf16, fp8 = find_precision("bf16"), find_precision(FORMAT)
    rows: list[str] = []
    data: dict[str, dict[str, Any]] = {}
    figures: dict[str, tuple[float, float, int | None]] = {}  # (fp8 weights, a step's reads, cards)
    for m in (moe, dense):
        step = weight_bytes(m, fp8, params=params_read_per_step(m, 1))
        cards = _cards(m.id)
        figures[m.id] = (weight_bytes(m, fp8), step, cards)
        data[m.id] = {"total_b": m.total_params_b, "active_b": m.active_params_b or m.total_params_b,
                      "bf16_bytes": weight_bytes(m, bf16), "fp8_bytes": weight_bytes(m, fp8), "step_bytes": step,
                      "cards": cards}
        rows.append(say(lang, "moe_pair.row", model=m.name, total=f"{m.total_params_b:g}",
                        active=f"{(m.active_params_b or m.total_params_b):g}", bf16=gb(weight_bytes(m, bf16)),
                        fp8=gb(weight_bytes(m, fp8)), step=gb(step),
                        cards=say(lang, "moe_pair.cards", n=cards, gpu=find_gpu(CARD).name) if cards
                        else say(lang, "moe_pair.no_cards", gpu=find_gpu(CARD).name)))
    (a_mem, a_step, a_cards), (b_mem, b_step, b_cards) = figures[moe.id], figures[dense.id]
    memory, reads = a_mem / b_mem, b_step / a_step
    cheaper = moe if (a_cards or 10**6) <= (b_cards or 10**6) else dense  # as few cards or fewer, and faster
    verdict = say(lang, "moe_pair.verdict", moe=moe.name, dense=dense.name, memory=f"{memory:.0%}",
                  reads=f"{reads:,.1f}", cheaper=cheaper.name)
    text = "\n".join([say(lang, "moe_pair.head", moe=moe.name, dense=dense.name, context=f"{CONTEXT:,}"), "", *rows, "", verdict])
    return text, {"code": "moe_pair", "card": CARD, "precision": FORMAT, **{"models": data}, "cheaper": cheaper.id}
