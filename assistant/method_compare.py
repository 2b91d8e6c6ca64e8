"""The reply to two fine-tuning methods compared (intent method_compare): each one's training memory on one GPU
for the model asked about (tools.training.training_memory, the usual 2,048-token sequences, micro-batch 1), what
makes the difference (16-bit weights and no optimizer for the frozen base in LoRA; a 4-bit base in QLoRA; every
weight's gradient and optimizer state in a full fine-tune), and the cards each fits."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb

# The glossary's words for each method, for the concept answer when no model is known.
WORDS = {"lora": "lora", "qlora": "qlora", "full": "full fine-tuning"}
# The model the methods are measured on when the conversation has none: a typical 7-8B model.
EXAMPLE_MODEL = "llama-3.1-8b"
# The card and tokens the training-time tool compares the methods' speed on (both methods of a 7-8B model fit on it).
SPEED_CARD, SPEED_TOKENS = "a100-80gb-sxm", 10e6
# Methods whose name is the same in every language.
NAMES = {"lora": "LoRA", "qlora": "QLoRA"}
# Card memories people own, the smallest first: where each method fits is said against them.
COMMON_CARDS_GB = (12, 16, 24, 48, 80)


def method_compare(ctx: Any) -> str:
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

    methods = ctx.turn.ask.get("methods") or []
    if ctx.turn.ask.get("seq_lens"):  # "from 4k to 32k seq len, lora": one method at two lengths
        from gpu_advisor.assistant.seq_compare import seq_compare

        return seq_compare(ctx)
    if ctx.turn.ask.get("options"):  # "LoRA on gemma 3 27b or full finetune gemma 2 9b": each method on its own model
        from gpu_advisor.assistant.method_options import options_reply

        return options_reply(ctx, ctx.turn.ask["options"])
    rec = ctx.rec
    model = ctx.profile.get("model") or (rec.workload.model if rec else None)
    example = not model and bool(ctx.turn.ask.get("methods"))  # "lora 和 qlora 差多少 显存 速度": a typical model shows it
    model = model or (EXAMPLE_MODEL if example else None)
    if not model:  # "what's the difference between LoRA and QLoRA?": the glossary's answer, then the offer
        from gpu_advisor.assistant.writers import glossary_reply
        from gpu_advisor.knowledge import find_topic

        ctx.data["method_compare"] = None
        topics = dict.fromkeys(t for t in (find_topic(WORDS[m]) for m in methods) if t)
        return "\n\n".join([*(glossary_reply(t, ctx.lang) for t in topics), ctx.say("mcmp.no_model")])
    rows = []
    seq = _seq_len(ctx)
    for method in methods:
        try:
            r = _call(ctx, "training_memory", training_memory, TrainingMemoryInput(model=model, method=method, seq_len=seq))
        except (ToolError, LookupError, ValueError):
            continue
        rows.append((method, r))
    if not rows:
        return ctx.say("mcmp.no_model")
    ctx.data["method_compare"] = [{"method": m, "per_gpu_bytes": r.per_gpu_total_bytes, "weights_bytes": r.weights_bytes,
                                   "activation_bytes": r.activation_bytes, "seq_len": seq, "gpus": r.gpus}
                                  for m, r in rows]
    lines = [ctx.say("mcmp.head", model=rows[0][1].model, seq=f"{seq:,}")]
    if example:
        lines.append(ctx.say("mcmp.example", model=rows[0][1].model))
    for method, r in rows:
        fits = next((c for c in COMMON_CARDS_GB if c * 1e9 * 0.95 >= r.per_gpu_total_bytes), None)
        where = ctx.say("mcmp.fits", gb=fits) if fits else ctx.say("mcmp.several")
        lines.append("- " + ctx.say(f"mcmp.{method}", total=gb(r.per_gpu_total_bytes), weights=gb(r.weights_bytes)) + where)
    (m1, r1), (m2, r2) = rows[0], rows[-1]
    if m1 != m2 and r2.per_gpu_total_bytes > 0:
        (lm, low), (hm, high) = sorted(((m1, r1), (m2, r2)), key=lambda t: t[1].per_gpu_total_bytes)
        x = high.per_gpu_total_bytes / low.per_gpu_total_bytes
        ctx.data["method_saves"] = {"basis": "total_one_gpu", "times": round(x, 1)}
        lines.append(ctx.say("mcmp.saves" if round(x, 1) > 1.0 else "mcmp.saves_same", x=f"{x:.1f}", heavy=_name(ctx, hm),
                             light=_name(ctx, lm), high=gb(high.per_gpu_total_bytes), low=gb(low.per_gpu_total_bytes)))
    lines += _speed(ctx, model, [m for m, _r in rows])
    lines.append(ctx.say("mcmp.quality"))
    on_cards = _on_cards(ctx, model, [m for m, _r in rows])
    lines += on_cards
    if not on_cards or not ctx.data.get("method_on_cards_pick"):
        lines.append(_verdict(ctx, rows))
    return "\n".join(lines)


def _seq_len(ctx: Any) -> int:
    """The sequence length both methods are measured at: the one said (profile), else the tool's usual 2,048."""
    from gpu_advisor.tools.training import TrainingMemoryInput

    said = ctx.profile.get("seq_len")
    return int(said) if isinstance(said, (int, float)) and said > 0 else int(TrainingMemoryInput.model_fields["seq_len"].default)


def _speed(ctx: Any, model: str, methods: list[str]) -> list[str]:
    """How long the same run takes with each method on one card (tools.training_time), slowest against fastest."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.assistant.writers import hours
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

    timed = []
    for method in dict.fromkeys(methods):
        try:
            r = _call(ctx, "training_time", training_time,
                      TrainingTimeInput(model=model, gpu=SPEED_CARD, method=method, tokens=SPEED_TOKENS))
        except (ToolError, LookupError, ValueError):
            return []
        timed.append((method, r.hours))
    if len(timed) < 2:
        return []
    ctx.data["method_hours"] = {"gpu": SPEED_CARD, "tokens": SPEED_TOKENS, "hours": dict(timed)}
    (fast, a), (slow, b) = sorted(timed, key=lambda t: t[1])[0], sorted(timed, key=lambda t: t[1])[-1]
    from gpu_advisor.knowledge import find_gpu

    ctx.data["method_hours"]["slower"] = {"method": slow, "times": round(b / a, 1)}
    if b < 1.1 * a:
        return [ctx.say("mcmp.speed_same", gpu=find_gpu(SPEED_CARD).name, a=hours(a), b=hours(b))]
    why = ctx.say("mcmp.slow_why." + slow) if slow in ("qlora", "full") else ""
    return [ctx.say("mcmp.speed", slow=_name(ctx, slow), fast=_name(ctx, fast), x=f"{b / a:.1f}",
                    gpu=find_gpu(SPEED_CARD).name, a=hours(b), b=hours(a), tokens=f"{SPEED_TOKENS / 1e6:g}M", why=why)]


def _name(ctx: Any, method: str) -> str:
    """A method's name in a sentence: LoRA and QLoRA are names in either language; a full fine-tune is words."""
    return NAMES.get(method) or ctx.say(f"mcmp.name.{method}")


def _verdict(ctx: Any, rows: list[tuple[str, Any]]) -> str:
    """Which method, as a typed code: the lightest that keeps quality, with the memory that decides."""
    got = {m: r for m, r in rows}
    ctx.data["method_verdict"] = None
    if "lora" in got and "qlora" in got:
        ctx.data["method_verdict"] = "lora_if_fits"
        return ctx.say("mcmp.verdict.lora_qlora", lora=gb(got["lora"].per_gpu_total_bytes),
                       qlora=gb(got["qlora"].per_gpu_total_bytes))
    if "lora" in got and "full" in got:
        ctx.data["method_verdict"] = "lora_unless_data"
        return ctx.say("mcmp.verdict.lora_full", lora=gb(got["lora"].per_gpu_total_bytes),
                       full=gb(got["full"].per_gpu_total_bytes))
    if "qlora" in got and "full" in got:
        ctx.data["method_verdict"] = "qlora_unless_data"
        return ctx.say("mcmp.verdict.qlora_full", qlora=gb(got["qlora"].per_gpu_total_bytes),
                       full=gb(got["full"].per_gpu_total_bytes))
    return ""


def _on_cards(ctx: Any, model: str, methods: list[str]) -> list[str]:
    """'8 张 3090 微调 GLM-4-9B，全参还是 lora？显存够吗': each method on the cards said (one kind, 'Nx card'), sharded
    over them (ZeRO-3) when there are several, and which to use when only one of them fits."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import usable_bytes
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

    said = ctx.profile.get("owned") or ctx.profile.get("only") or []
    kinds = {c.partition("x ")[2].strip() if "x " in c else c for c in said}
    if len(kinds) != 1:
        return []
    entry = said[0]
    n = int(entry.partition("x ")[0]) if "x " in entry and entry.partition("x ")[0].isdigit() else 1
    try:
        gpu = find_gpu(kinds.pop())
    except (LookupError, ValueError):
        return []
    room = usable_bytes(gpu)
    option = f"{n} × {gpu.name}"
    lines, fitting, data = [], [], []
    for method in methods:
        try:
            r = _call(ctx, "training_memory", training_memory,
                      TrainingMemoryInput(model=model, method=method, gpus=n, zero=3 if n > 1 else None,
                                                        seq_len=_seq_len(ctx)))
        except (ToolError, LookupError, ValueError):
            continue
        fits = r.per_gpu_total_bytes <= room
        fitting += [method] if fits else []
        data.append({"method": method, "gpus": n, "gpu": gpu.id, "per_gpu_bytes": r.per_gpu_total_bytes, "fits": fits})
        how = ctx.say("mcmp.cards.sharded", n=n) if n > 1 else ""
        lines.append(ctx.say("mcmp.cards.fits" if fits else "mcmp.cards.no", option=option, name=_name(ctx, method),
                             gb=gb(r.per_gpu_total_bytes), capacity=gb(room), how=how))
    ctx.data["method_on_cards"] = data
    ctx.data["method_on_cards_pick"] = fitting[0] if len(fitting) == 1 else None
    if len(fitting) == 1:
        lines.append(ctx.say("mcmp.cards.pick", name=_name(ctx, fitting[0]), option=option))
    elif not fitting and lines:
        lines.append(ctx.say("mcmp.cards.none", option=option))
    return [ctx.say("mcmp.cards.head", option=option), *lines] if lines else []
