"""A card weighed as an addition to the one the user owns ('i have a 4090 … or should i buy a used 3090 as a
second card', '要不要再买一张3090'; reading/considered.py): the owned card alone, with part of the model in system
RAM (tools.offload), against both cards as one llama.cpp layer split (tools.pool, tools.pool_speed), and whether
buying it is worth it. Led with, above the plan for the owned card; the card weighed is never called owned."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.offload import OffloadInput, OffloadResult, offload
from gpu_advisor.tools.pool import PoolResult, pool
from gpu_advisor.tools.pool_speed import PoolSpeedResult, pool_speed
from gpu_advisor.tools.recommend import parse_owned

GB = 1e9
READABLE = 5.0  # tokens/s: about reading speed, below it a chat is a wait
WORTH = 2.0  # times faster than the owned card alone for the card to be worth buying for this


def _tps(n: float) -> str:
    return f"{n:,.0f}" if n >= 10 else f"{n:,.1f}"


def _cards(cards: list[tuple[int, str, str]]) -> str:
    return " + ".join(f"{n} × {name}" for n, _g, name in cards)


def _pooled(cards: list[tuple[int, str, str]], model: str, context: int) -> tuple[PoolResult, PoolSpeedResult | None]:
    """The pool at the 4-bit file, with llama.cpp's 8-bit cache if that is what makes it fit, else the largest smaller
    file it holds whole."""
    p = pool(cards, model, "q4_k_m", context)
    if p is None:
        raise ValueError("one kind of card")
    if not p.fits:
        q8 = pool(cards, model, "q4_k_m", context, "q8_0")
        if q8 is not None and q8.fits:
            p = q8
        elif p.smaller:
            p = pool(cards, model, p.smaller, context) or p
    return p, pool_speed(p, model, context)


def _alone(answer: Any, model: str, gpu: str, context: int, ram: float | None) -> tuple[float, OffloadResult | None]:
    """The owned card alone: all on the card when an owned option does the job, else with part in system RAM."""
    rec = answer.recommend
    same = rec.model_id == resolve_model(model).id  # not the smaller model offered in its place
    on_card = next((o for o in rec.owned_options if same and o.ok and o.decode_tokens_per_s and o.gpu == gpu), None)
    if on_card is not None:
        return float(on_card.decode_tokens_per_s), None
    plan = rec.offload if rec.offload is not None and rec.offload.gpu == gpu else None
    if plan is None:
        try:
            plan = offload(OffloadInput(model=model, gpu=gpu, context=context, system_ram_gb=ram))
        except (ToolError, ValueError, KeyError):
            return 0.0, None
    return (plan.decode_tokens_per_s, plan) if plan.fits else (0.0, None)


def considered_block(answer: Any, profile: Any, considered: dict[str, int], lang: str) -> tuple[str, dict[str, Any]] | None:
    """The comparison and verdict, and its figures as data; None without one owned card kind and a model."""
    if not profile.model or not profile.owned or not considered:
        return None
    try:
        owned = [(n, g.id, g.name) for n, g in (parse_owned(t) for t in profile.owned)]
        added = [(n, g.id, g.name) for n, g in (parse_owned(f"{c}x {i}") for i, c in considered.items())]
    except (ToolError, ValueError, LookupError):
        return None
    if len(owned) != 1 or owned[0][0] != 1:
        return None
    context = int(profile.context or 8192)
    try:
        alone, plan = _alone(answer, profile.model, owned[0][1], context, profile.system_ram_gb)
        p, fast = _pooled(owned + added, profile.model, context)
    except (ToolError, ValueError, KeyError):
        return None
    common = {"owned": _cards(owned), "added": _cards(added), "model": p.model}
    lines = ["## " + say(lang, "considered.head", **common)]
    if plan is not None:
        lines.append(say(lang, "considered.alone_offload", precision=plan.precision, ngl=plan.gpu_layers,
                         layers=plan.layers, tps=_tps(alone), **common))
    elif alone:  # all on the owned card: a second card adds memory, not speed, to one person's chat
        lines.append(say(lang, "considered.alone_card", tps=_tps(alone), **common))
        lines.append(say(lang, "considered.verdict_fits", tps=_tps(alone), **common))
        return "\n\n".join(lines), {"code": "considered", "owned": owned[0][1], "added": dict(considered),
                                     "alone_tokens_per_s": round(alone, 2), "verdict": "skip"}
    else:
        lines.append(say(lang, "considered.alone_none", **common))
    data: dict[str, Any] = {"code": "considered", "owned": owned[0][1], "added": dict(considered),
                            "alone_tokens_per_s": round(alone, 2), "pool_fits": p.fits, "precision": p.precision}
    if fast is None:
        lines.append(say(lang, "considered.pool_short", cards=_cards(owned + added), capacity=f"{p.capacity_bytes / GB:,.1f}",
                         needed=f"{p.needed_bytes / GB:,.1f}", precision=p.precision,
                         short=f"{(p.needed_bytes - p.capacity_bytes) / GB:,.1f}", **common))
        lines.append(say(lang, "considered.verdict_short", **common))
        data["verdict"] = "short"
        return "\n\n".join(lines), data
    layers = say(lang, "list_sep").join(say(lang, "considered.layers_on", n=c.layers, gpu=c.gpu_name) for c in fast.cards)
    paces = say(lang, "list_sep").join(say(lang, "considered.pace", gpu=c.gpu_name, tps=_tps(c.all_on_card_tokens_per_s))
                                       for c in fast.cards)
    lines.append(say(lang, "considered.pool", cards=_cards(owned + added), capacity=f"{p.capacity_bytes / GB:,.1f}",
                     needed=f"{p.needed_bytes / GB:,.1f}", precision=p.precision, split=p.split, layers=layers,
                     tps=_tps(fast.decode_tokens_per_s), paces=paces, **common))
    tps_, gain = fast.decode_tokens_per_s, fast.decode_tokens_per_s / alone if alone else float("inf")
    verdict = "buy" if tps_ >= READABLE and gain >= WORTH else "skip"
    times = f"{gain:,.0f}" if alone else ""
    lines.append(say(lang, f"considered.verdict_{verdict}" + ("" if alone else "_none"), tps=_tps(tps_),
                     alone=_tps(alone), x=times, **common))
    data.update(verdict=verdict, pool_tokens_per_s=round(tps_, 2))
    return "\n\n".join(lines), data


def with_considered(text: str, extra: dict[str, Any], ask: dict[str, Any], answer: Any, profile: Any,
                    lang: str) -> tuple[str, dict[str, Any]]:
    """The comparison first, above the plan for the owned card, when a card was weighed as an addition."""
    considered = ask.get("considered")
    if not considered or answer is None:
        return text, extra
    block = considered_block(answer, profile, dict(considered), lang)
    if block is None:
        return text, extra
    return block[0] + "\n\n" + text, {**extra, "considered": block[1]}
