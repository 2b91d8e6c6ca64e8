"""A MoE model against a dense one, named in a concept question ('mixtral 8x7b vs llama 2 70b, which is cheaper to
host'; reading/moe_pair.py): each one's parameters (total, active), its weights in BF16 and FP8 (tools.arch.weight_bytes),
the weights a decode step reads (tools.arch.params_read_per_step), and the fewest cards of one server that hold it
in FP8 with room for a working KV cache (tools.inference.inference_memory); the conclusion follows from those
(conclusion): memory, and so the cards, follow the total parameters, speed per token the active ones."""

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
    found = conclusion(a_mem, b_mem, a_step, b_step, a_cards, b_cards)
    fewer = {"moe": moe, "dense": dense}.get(str(found["fewer_cards"]))
    values = {"moe": moe.name, "dense": dense.name, "memory": f"{memory:.0%}", "reads": f"{reads:,.1f}",
              "moe_total": f"{moe.total_params_b:g}", "dense_total": f"{dense.total_params_b:g}",
              "moe_active": f"{(moe.active_params_b or moe.total_params_b):g}",
              "dense_active": f"{(dense.active_params_b or dense.total_params_b):g}", "gpu": find_gpu(CARD).name}
    cards_said = say(lang, f"moe_pair.cards.{found['cards']}", **values, fewer=fewer.name if fewer else "",
                     fewer_n=min(a_cards or 0, b_cards or 0), more_n=max(a_cards or 0, b_cards or 0), n=a_cards or b_cards,
                     fits=moe.name if a_cards else dense.name, other=dense.name if a_cards else moe.name)
    verdict = say(lang, "moe_pair.verdict", memory=say(lang, f"moe_pair.memory.{found['memory']}", **values),
                  speed=say(lang, f"moe_pair.speed.{found['speed']}", **values), cards=cards_said)
    text = "\n".join([say(lang, "moe_pair.head", moe=moe.name, dense=dense.name, context=f"{CONTEXT:,}"), "", *rows, "", verdict])
    return text, {"code": "moe_pair", "card": CARD, "precision": FORMAT, **{"models": data}, "cheaper": cheaper.id,
                  "conclusion": {**found, "fewer_cards": fewer.id if fewer else None}}


# Figures within this share of each other are said to be alike (no side is named the smaller or the faster).
ALIKE = 0.05


def _side(a: float, b: float, more: str, less: str) -> str:
    return "alike" if abs(a / b - 1) <= ALIKE else more if a > b else less


def conclusion(moe_mem: float, dense_mem: float, moe_step: float, dense_step: float, moe_cards: int | None,
               dense_cards: int | None) -> dict[str, str | None]:
    """What the comparison concludes, as codes: memory follows the total parameters (the MoE's weights against the
    dense model's: more, less, alike), speed the active ones (the weights a decode step reads: moe_faster,
    dense_faster, alike), and the fewer cards follow the memory (fewer_cards: moe, dense or None when the same; cards:
    fewer, same, one (only one fits a server), neither). Never 'MoE saves memory' from its active share."""
    if moe_cards and dense_cards:
        fewer = "moe" if moe_cards < dense_cards else "dense" if dense_cards < moe_cards else None
        cards = "fewer" if fewer else "same"
    else:
        fewer = "moe" if moe_cards else "dense" if dense_cards else None
        cards = "one" if fewer else "neither"
    return {"memory": _side(moe_mem, dense_mem, "more", "less"),
            "speed": _side(dense_step, moe_step, "moe_faster", "dense_faster"), "fewer_cards": fewer, "cards": cards}
