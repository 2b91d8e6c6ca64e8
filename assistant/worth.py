"""The verdict on one technique asked about with nothing to size ("is fp8 kv cache actually worth it for serving or does
it tank quality?", "AWQ会掉点吗", "开投机解码划算吗"; assistant/reading/worth.py sets turn.ask["worth"]): what it saves,
with figures from the tools on an example model, what it costs in quality, with the published source, when it is worth
it, and how engines turn it on. Codes and flags are knowledge/data/trade_offs.yaml's; the sentences are the catalogs'
worth.<kind>.* entries; the figures come from:
- kv: tools.arch.kv_cache_bytes for the example model in 16 bits and in the format's kv_bits (precisions.yaml);
- w8, w4: the format's bits per weight and published accuracy gap (precisions.yaml) on the example model's parameters;
- qlora: tools.training.training_memory for LoRA and QLoRA on the example model;
- spec: tools.speculative.speculative's speed-up at one request and at a full batch;
- prefix: none (it saves repeated prefill, whose size is the user's prompts).
With a plan on screen the figures are its model's (its context and users for the KV cache) and no offer closes it.
worth_reply returns the block with its data (the technique, its kind and the figures used)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say, sentence_gap
from gpu_advisor.assistant.writers import gb

KV_MODEL = "llama-3.1-8b"  # the KV cache example: the model people start from
KV_CONTEXT = 32_768  # tokens one user holds in the example
WEIGHTS_MODEL = "llama-3.1-70b"  # weight formats matter most where 16 bits do not fit one card
SPEC_MODEL, SPEC_GPU, SPEC_METHOD = "llama-3.1-70b", "h100-sxm", "draft"  # a draft model of its family on record
TRAIN_MODEL, TRAIN_SEQ = "llama-3.1-8b", 2048  # as assistant/method_compare.py weighs LoRA and QLoRA


def _name(t: Any, lang: str) -> str:
    return t.name_zh if lang == "zh" else t.name_en


def _source(text: str) -> str:
    return text.split(" (")[0]


def _kv(t: Any, lang: str, data: dict[str, Any], plan: dict[str, Any]) -> str:
    from gpu_advisor.knowledge import find_precision
    from gpu_advisor.tools.arch import kv_cache_bytes

    model = _model(plan, KV_MODEL)
    context = int(plan.get("context") or KV_CONTEXT) if model.id == plan.get("model") else KV_CONTEXT
    bits = find_precision(t.format).kv_bits or 8
    sixteen, narrow = kv_cache_bytes(model, 16, context, 1), kv_cache_bytes(model, bits, context, 1)
    data.update({"model": model.id, "context": context, "kv16_bytes": round(sixteen), "kv_bytes": round(narrow),
                 "share": round(narrow / sixteen, 2)})
    text = say(lang, "worth.kv.saves", model=model.name, context=f"{context:,}", gb16=gb(sixteen), gbq=gb(narrow),
               fmt=t.format.upper(), ratio=f"{sixteen / narrow:.0f}")
    users = int(plan.get("users") or 0) if model.id == plan.get("model") else 0
    if users > 1:  # the plan's users at once: the cache for all of them, both ways
        data["users"] = users
        text += sentence_gap(lang) + say(lang, "worth.kv.users", users=f"{users:,}", all16=gb(sixteen * users), allq=gb(narrow * users))
    return text


def _weights(t: Any, lang: str, data: dict[str, Any], plan: dict[str, Any]) -> str:
    from gpu_advisor.knowledge import find_precision

    model, p = _model(plan, WEIGHTS_MODEL), find_precision(t.format)
    per_b = 1e9 * model.total_params_b
    sixteen, narrow = per_b * 2, per_b * p.bits_per_weight / 8
    data.update({"model": model.id, "weights16_bytes": round(sixteen), "weights_bytes": round(narrow),
                 "bits_per_weight": p.bits_per_weight, "quality": p.quality})
    return say(lang, f"worth.{t.kind}.saves", model=model.name, fmt=p.name.split(" (")[0], gb16=gb(sixteen),
               gbq=gb(narrow), bits=f"{p.bits_per_weight:g}", ratio=f"{16 / p.bits_per_weight:.1f}")


def _gap(t: Any, lang: str) -> str:
    """The format's published accuracy gap against BF16 with its study (assistant/precision_verdict.py's words)."""
    from types import SimpleNamespace

    from gpu_advisor.assistant.precision_verdict import published_gap
    from gpu_advisor.knowledge import find_precision

    return published_gap(SimpleNamespace(say=lambda key, **v: say(lang, key, **v)), find_precision(t.format))


def _qlora(t: Any, lang: str, data: dict[str, Any], plan: dict[str, Any]) -> str:
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

    model = _model(plan, TRAIN_MODEL)
    lora = training_memory(TrainingMemoryInput(model=model.id, method="lora", seq_len=TRAIN_SEQ))
    qlora = training_memory(TrainingMemoryInput(model=model.id, method="qlora", seq_len=TRAIN_SEQ))
    data.update({"model": model.id, "lora_bytes": round(lora.per_gpu_total_bytes),
                 "qlora_bytes": round(qlora.per_gpu_total_bytes)})
    return say(lang, "worth.qlora.saves", model=model.name, gb16=gb(lora.per_gpu_total_bytes),
               gbq=gb(qlora.per_gpu_total_bytes), seq=f"{TRAIN_SEQ:,}")


def _spec(t: Any, lang: str, data: dict[str, Any], plan: dict[str, Any]) -> str:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.speculative import speculative_methods
    from gpu_advisor.tools.models import resolve_model
    from gpu_advisor.tools.speculative import SpeculativeInput, speculative

    r = speculative(SpeculativeInput(model=SPEC_MODEL, method=SPEC_METHOD, gpu=SPEC_GPU))  # a draft on record
    (_one, lo1, hi1), (bn, lon, hin) = r.speedup_by_batch[0], r.speedup_by_batch[-1]
    low, high = speculative_methods()[SPEC_METHOD].acceptance
    data.update({"model": SPEC_MODEL, "gpu": SPEC_GPU, "speedup_one": [round(lo1, 1), round(hi1, 1)],
                 "batch": bn, "speedup_batch": [round(lon, 1), round(hin, 1)]})
    return say(lang, "worth.spec.saves", model=resolve_model(SPEC_MODEL).name, gpu=find_gpu(SPEC_GPU).name,
               draft=r.draft, k=r.tokens, acc_lo=f"{low:.0%}", acc_hi=f"{high:.0%}", lo1=f"{lo1:.1f}", hi1=f"{hi1:.1f}",
               batch=bn, lon=f"{lon:.1f}", hin=f"{hin:.1f}")


def _model(plan: dict[str, Any], example: str) -> Any:
    """The plan's model when one is on screen and its figures are known, else the example."""
    from gpu_advisor.tools.models import resolve_model

    if plan.get("model"):
        try:
            return resolve_model(str(plan["model"]))
        except (LookupError, ValueError):
            pass
    return resolve_model(example)


def plan_example(profile: Any) -> dict[str, Any]:
    """What the verdict's figures use from the plan on screen: its model, context and users at once."""
    return {k: getattr(profile, k, None) for k in ("model", "context", "users") if getattr(profile, k, None)}


def _quality_source(t: Any) -> str:
    """The study behind the quality sentence: the entry's own, or the data it names (speculative.yaml's draft row)."""
    if t.kind == "spec":
        from gpu_advisor.knowledge.speculative import speculative_methods

        return _source(speculative_methods()[SPEC_METHOD].source)
    return _source(t.source)


def worth_reply(tid: str, lang: str, plan: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The verdict block (title, the verdict in a sentence, saves, quality, when, how to turn it on) and its data."""
    from gpu_advisor.knowledge.trade_offs import trade_offs

    t = trade_offs()[tid]
    data: dict[str, Any] = {"technique": t.id, "kind": t.kind}
    saves = {"kv": _kv, "w8": _weights, "w4": _weights, "qlora": _qlora, "spec": _spec}.get(t.kind)
    lines = [say(lang, "worth.title", name=_name(t, lang)), "", say(lang, f"worth.{t.kind}.verdict"), ""]
    lines.append(say(lang, "worth.saves", text=saves(t, lang, data, plan or {}) if saves else say(lang, f"worth.{t.kind}.saves")))
    gap = _gap(t, lang) if t.kind in ("w8", "w4") else ""
    lines.append(say(lang, "worth.quality", text=say(lang, f"worth.{t.kind}.quality", gap=gap,
                                                     source=_quality_source(t))))
    lines.append(say(lang, "worth.when", text=say(lang, f"worth.{t.kind}.when")))
    ways = [say(lang, "worth.flag", engine=e, flag=f) for e, f in t.flags.items()]
    if t.how:
        ways.append(say(lang, f"worth.how.{t.how}"))
    lines.append(say(lang, "worth.on", ways=say(lang, "worth.sep").join(ways)))
    return "\n".join(lines), data


def worth_answer(tid: str, how_it_works: str, lang: str, plan: dict[str, Any] | None = None) -> str:
    """The verdict, then how the technique works (its glossary entry), then, with no plan on screen, the offer to size
    a concrete model: a training technique's run, a serving one's load. No question follows it (intent no_sizing).
    plan: the plan's model, context and users (plan_example), whose figures the verdict then uses."""
    from gpu_advisor.knowledge.trade_offs import trade_offs

    block, _data = worth_reply(tid, lang, plan)
    if plan and plan.get("model"):
        return f"{block}\n\n{how_it_works}"
    offer = "worth.offer.train" if trade_offs()[tid].kind == "qlora" else "worth.offer"
    return f"{block}\n\n{how_it_works}\n\n{say(lang, offer)}"
