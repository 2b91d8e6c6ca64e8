"""Candidates weighed on one card: formats of one model ("q4 vs fp8 on my M3 Ultra?"), sizes or models
("qwen2.5-coder 14b and 32b, which on a 24 GB Mac mini?"), or the models that run well on a card
("4090: which model?"). Each candidate is sized on the card with the tools (`evaluate`): memory per GPU,
whether it fits, tokens per second; the quality of each format is said from its class (16-bit, 8-bit,
4-bit, below 4 bits), never measured. The pick: the candidates that do the job, fewest cards first, then
the larger model, then the format that loses least.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant import format_concept, format_load, format_verdict, same_format
from gpu_advisor.assistant.catalog import localise
from gpu_advisor.assistant.sized_load import context_each, users_at_once
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu, find_model, find_precision, models
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.recommend import HOME_FORMATS, TIGHT_HEADROOM, Option, Workload

# Formats by how much quality they lose (the class said for each): bits per weight at or above each bound.
QUALITY_CLASSES = ((15.5, "lossless"), (7.5, "near"), (4.0, "small"), (0.0, "large"))
# Models offered for "which model?" on a card: chat models of these families, newest line first.
SUGGEST_LINES = ("qwen3", "llama-3.1", "gemma-3", "mistral")
MAX_SHOWN = 6
FOUR_BIT_GGUF = "q4_k_m"  # the usual 4-bit file on a desktop card or a Mac


def _card(ctx: Any) -> tuple[Gpu | None, int, bool]:
    """The card weighed on: one the user owns, else the one named, else the plan's; its count."""
    owned = ctx.profile.get("owned") or []
    if owned:
        count, _x, card = owned[0].partition("x ")
        try:
            return find_gpu(card), int(count), True
        except (LookupError, ValueError):
            pass
    card_id = (ctx.turn.cards or [None])[0] or ctx.plan_card()
    if card_id is None:
        return None, 1, False
    pinned = next((int(c.partition("x ")[0]) for c in ctx.profile.get("only") or []
                   if "x " in c and c.partition("x ")[2].strip() == card_id), 0)  # "on one L4": that many, no more
    said = int((ctx.turn.ask.get("weigh") or {}).get("count") or 0)  # "on one H100"
    return find_gpu(card_id), ctx.turn.counts.get(card_id, 0) or pinned or said, False


def _workload(ctx: Any, model: str, precision: str | None, users: int | None = None) -> Workload:
    from gpu_advisor.assistant.advice import workload_for
    from gpu_advisor.assistant.policy import Profile

    load = {"users": users or users_at_once(ctx.profile), "context": context_each(ctx.profile)}
    profile = Profile.model_validate({**ctx.profile, "model": model, "precision": precision, **load})
    return workload_for(profile)


def _run(ctx: Any, model: str, precision: str | None, gpu: Gpu, count: int, owned: bool,
         users: int | None = None) -> Option | None:
    """One candidate on the card (at `users` at once when given): the count owned or said, else the fewest of
    1, 2, 4, 8 that do the job; on a datacenter card in the datacenter engine's format (format_load)."""
    from gpu_advisor.assistant.inform import _sized

    w = format_load.datacenter_engine(_workload(ctx, model, precision, users), gpu)
    return _sized(ctx, w, None, gpu, count or None, owned=owned)


def _usual_or_four_bit(ctx: Any, model: str, gpu: Gpu, count: int, owned: bool) -> tuple[str, str | None, Option | None]:
    o = _run(ctx, model, None, gpu, count, owned)
    if o is not None and not o.ok and (o.precision or "") != FOUR_BIT_GGUF:
        four = _run(ctx, model, FOUR_BIT_GGUF if gpu.segment in ("consumer", "apple") else "int4", gpu, count, owned)
        if four is not None and four.ok:
            return model, None, four
    return model, None, o


def quality_class(precision: str) -> str:
    bits = find_precision(precision).bits_per_weight
    return next(name for bound, name in QUALITY_CLASSES if bits >= bound)


def _label(ctx: Any, model: str, precision: str | None, many_models: bool) -> str:
    from gpu_advisor.assistant.engine import describe

    name = describe("model", model, ctx.lang)
    fmt = precision.upper() if precision else ""
    return f"{name}, {fmt}" if many_models and fmt else (fmt or name)


def _suggested(gpu: Gpu) -> list[str]:
    """Chat models of the usual lines, largest first, for a card with none named: the tools then keep those
    that do the job."""
    found = [m for m in models() if m.modality == "text" and any(m.id.startswith(line + "-") for line in SUGGEST_LINES)
             and m.total_params_b <= gpu.memory_gb * 2.2 and "embedding" not in m.id and "coder" not in m.id]
    return [m.id for m in sorted(found, key=lambda m: -m.total_params_b)][:8]


Run = tuple[str, "str | None", Option]


def _candidates(ctx: Any, spec: dict[str, Any], gpu: Gpu, count: int, owned: bool) -> list[Run]:
    """Each candidate sized on the card: the models and formats asked about, or for "which model?" the
    catalog's chat models that do the job on one card in their usual format, else in 4-bit."""
    which = bool(spec.get("which_model")) and not spec.get("models")
    chosen = list(spec.get("models") or []) or ([ctx.profile["model"]] if ctx.profile.get("model") else [])
    if which or not chosen:
        tried = [_usual_or_four_bit(ctx, m, gpu, count or 1, owned) for m in _suggested(gpu)]
        found = [(m, p, o) for m, p, o in tried if o is not None]
        return [r for r in found if r[2].ok][:3] or found[:2]
    precisions = list(spec.get("precisions") or []) or [None]
    pairs = [(m, p) for m in chosen for p in precisions][:MAX_SHOWN]
    if count and precisions == [None]:  # models on a count said ("on one L4"): each in its usual format, else 4-bit
        tried = [_usual_or_four_bit(ctx, m, gpu, count, owned) for m in chosen[:MAX_SHOWN]]
        return [(m, p, o) for m, p, o in tried if o is not None]
    sized = [(m, p, _run(ctx, m, p, gpu, count, owned)) for m, p in pairs]
    return [(m, p, o) for m, p, o in sized if o is not None]


def _line(ctx: Any, run: Run, gpu: Gpu, named: bool) -> str:
    m, p, o = run
    fmt = o.precision or p or ""
    n = f"{o.gpus} × " if o.gpus > 1 else ""
    mem = ctx.say("weigh.memory", gb=gb(o.serve_per_gpu_bytes or 0), cap=gb(o.capacity_bytes), n=n, gpu=gpu.name)
    if o.ok:
        result = ctx.say("weigh.runs", tps=tps(o.decode_tokens_per_s or 0))
    elif o.serves is False:
        result = ctx.say("weigh.no_fit")
    else:
        why = localise(ctx.lang, o.reasons[0]) if o.reasons else ctx.say("weigh.too_slow")
        result = ctx.say("weigh.not_ok", why=why)
    quality = ctx.say(f"weigh.quality.{quality_class(fmt)}") if fmt else ""
    shown = ctx.say("weigh.format_used", asked=p.upper(), used=fmt.upper()) if p and fmt and p != fmt else ""
    return "- " + ctx.say("weigh.line", label=_label(ctx, m, fmt, named), mem=mem, run=result, quality=quality,
                          shown=shown)


def _in_between(ctx: Any, runs: list[Run], gpu: Gpu, count: int, owned: bool) -> list[Run]:
    """A llama.cpp format between the ones asked about when the larger does not fit and the one that fits loses
    more ('q4 or q2?' on a card that holds Q3_K_M): the first of the tools' ladder (HOME_FORMATS) that does the job."""
    fits = [r for r in runs if r[2].ok]
    short = [r for r in runs if not r[2].ok]
    if not fits or not short or len({m for m, _p, _o in runs}) > 1:
        return []
    def bits(r: Run) -> float:
        return find_precision(r[2].precision or "bf16").bits_per_weight
    low, high = max(bits(r) for r in fits), min(bits(r) for r in short)
    asked = {r[2].precision for r in runs}
    for fmt in HOME_FORMATS:
        if low < find_precision(fmt).bits_per_weight < high and fmt not in asked:
            o = _run(ctx, runs[0][0], fmt, gpu, count, owned)
            if o is not None and o.ok:
                return [(runs[0][0], fmt, o)]
    return []


def _pick_key(run: Run) -> tuple[int, bool, float, float]:
    """Fewest cards, then one that leaves the memory a warning asks for (review BW #10: Qwen3 14B at 11.2 of a
    16 GB MacBook Air's 11.5 GB led, with the editor and browser beside it), then the larger model, then the format
    that loses least."""
    m, _p, o = run
    return (o.gpus, o.headroom_fraction < TIGHT_HEADROOM, -find_model(m).total_params_b,
            -find_precision(o.precision or "bf16").bits_per_weight)


def _dims_asked(ctx: Any, good: list[Run], option: str) -> list[str]:
    """The verdict on each dimension asked of two or more models on the card (assistant.choice_dims); [] when none
    was asked or fewer than two models do the job."""
    from gpu_advisor.assistant import choice_dims

    dims = list(ctx.turn.ask.get("dims") or [])
    first: dict[str, Option] = {}
    for m, _p, o in good:
        first.setdefault(m, o)  # a model's first run: its usual format, else 4-bit
    if not dims or len(first) < 2:
        return []
    rows: list[dict[str, Any]] = [{"model": m, "name": _label(ctx, m, o.precision or "", True), "tps": o.decode_tokens_per_s,
             "mem_bytes": (o.serve_per_gpu_bytes or 0) * o.gpus} for m, o in first.items()]
    verdicts = choice_dims.codes(rows, dims)
    if not verdicts:
        return []
    ctx.data["dims"] = verdicts
    ctx.data["mem_gb"] = {r["model"]: round(r["mem_bytes"] / 1e9, 1) for r in rows}
    pick = next((v["pick"] for v in verdicts.values() if v["pick"]), None)
    if pick:
        o = first[pick]
        ctx.data["pick"] = {"model": pick, "precision": o.precision, "gpus": o.gpus}
    return choice_dims.lines(ctx.lang, rows, verdicts, option)


def weigh(ctx: Any) -> str:
    spec = ctx.turn.ask.get("weigh") or {}
    gpu, count, owned = _card(ctx)
    if gpu is None:
        return ctx.say("weigh.no_card")
    if format_concept.wanted(ctx, spec):  # 'fp8 vs int4 on my A100?', no model named: the concept, none sized
        return format_concept.format_concept(ctx, spec, gpu)
    which = bool(spec.get("which_model")) and not spec.get("models")
    formats = len(spec.get("precisions") or []) > 1
    runs = _candidates(ctx, spec, gpu, count, owned)
    if formats:
        runs += _in_between(ctx, runs, gpu, count, owned)
    option = f"{count} × {gpu.name}" if count > 1 else gpu.name
    title = "weigh.title_which" if which else "weigh.title_formats" if formats else "weigh.title_models"
    lines = ["## " + ctx.say(title, option=option), ""]
    users, context = users_at_once(ctx.profile), context_each(ctx.profile)
    ctx.data.update({"card": gpu.name, "users": users, "context": context})
    if which:  # kept for a follow-up that changes the figures ('10 users', '16k context'): asked again (which_kept)
        ctx.data.update({"which_model": True, "card_id": gpu.id, "count": count, "speech": bool(spec.get("speech"))})
    lines.append(ctx.say("weigh.setting", users=users, context=f"{context:,}", yours=ctx.say("weigh.yours") if owned else ""))
    for model_id, asked in (spec.get("stand_in") or {}).items():
        ctx.data.setdefault("stand_in", {})[model_id] = asked
        lines.append(ctx.say("weigh.stand_in", asked=asked, name=find_model(model_id).name))
    named = len({m for m, _p, _o in runs}) > 1 or which or not formats
    lines += [_line(ctx, r, gpu, named) for r in runs]
    ctx.data["weigh"] = [{"model": m, "name": find_model(m).name, "precision_asked": p,
                          "bits_per_weight": find_precision(o.precision or "bf16").bits_per_weight, **o.model_dump(mode="json", include={
        "precision", "gpus", "ok", "serves", "serve_per_gpu_bytes", "capacity_bytes", "decode_tokens_per_s", "engine"})}
        for m, p, o in runs]
    if not runs:
        return "\n".join([*lines, "", ctx.say("weigh.none")])
    good = [r for r in runs if r[2].ok]
    lines.append("")
    judged = same_format.aligned(ctx, good, gpu, count, owned)  # 'glm4-9b or qwen2.5-14b, faster': at one format
    asked = _dims_asked(ctx, judged, option)
    if asked:  # 'gemma 3 27b和qwen3-30b-a3b，哪个在我的4090上跑得快': the dimension asked decides, with its figures
        lines += asked + same_format.note(ctx, judged)
    elif formats and (verdict := format_verdict.verdict(ctx, runs, gpu, count, owned, option)):
        # 'FP8 or INT4 for 70B on H100?': the verdict for the cards said, its figures, what changes it; on a
        # datacenter card each format at a load too, first when throughput was said to count
        load = format_load.load_lines(ctx, runs, gpu, owned)
        lines += [*load, *verdict] if spec.get("throughput") else [*verdict, *load]
    elif good:
        m, p, o = min(good, key=_pick_key)
        lines.append(ctx.say("weigh.pick", label=_label(ctx, m, o.precision or p or "", True),
                             tps=tps(o.decode_tokens_per_s or 0)))
        ctx.data["pick"] = {"model": m, "precision": o.precision, "gpus": o.gpus}
        if which:
            lines.append(ctx.say("weigh.which_note"))
    else:
        lines.append(ctx.say("weigh.none_fit", option=option))
    if spec.get("speech"):
        lines.append(ctx.say("weigh.speech"))
    lines.append(ctx.say("weigh.quality_note"))
    return "\n".join(lines)
