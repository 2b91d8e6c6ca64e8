"""Replies to questions about the plan on screen that are not sizing requests (assistant/reading/asks.py):
which link between the cards the job needs, which weight format for which engine, which parallelism.

Each reply is short and tied to the plan when there is one: the card's link and the formats' engines come
from the knowledge data, the bytes a step moves and whether a layout fits from the tools (training_memory,
evaluate), the words from the language catalogs. Nothing is sized anew: the plan stays as it is."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, glossary_reply
from gpu_advisor.knowledge import engines, find_gpu, find_model, find_precision
from gpu_advisor.knowledge.schema import NVIDIA_ARCHS, Gpu
from gpu_advisor.tools.recommend import Option, training_setup
from gpu_advisor.tools.training import training_memory
from gpu_advisor.tools.training_time import PCIE_DATA_PARALLEL_FACTOR

LINK_NAMES = {"nvlink": "NVLink", "infinity-fabric": "Infinity Fabric", "hccs": "HCCS", "roce": "RoCE"}


def _link_line(ctx: Any, gpu: Gpu, no_bridge: bool) -> str:
    """What the card's link between GPUs is (knowledge/data/gpus.yaml), and what the user said of a bridge."""
    if gpu.interconnect == "nvlink-bridge":
        line = ctx.say("asks.link.bridge", gpu=gpu.name, gbps=f"{gpu.nvlink_gbps or 0:g}", gen=gpu.pcie_gen or 4)
        return _joined(ctx, [line, ctx.say("asks.link.no_bridge_said") if no_bridge else ""])
    if gpu.interconnect in LINK_NAMES:
        return ctx.say("asks.link.fast", gpu=gpu.name, link=LINK_NAMES[gpu.interconnect],
                       gbps=f"{gpu.nvlink_gbps:g}" if gpu.nvlink_gbps else "?")
    if gpu.interconnect == "unified":
        return ctx.say("asks.link.unified", gpu=gpu.name)
    return ctx.say("asks.link.pcie", gpu=gpu.name, gen=gpu.pcie_gen or 4)


def interconnect(ctx: Any) -> str:
    """Whether the plan needs NVLink: LoRA on several cards moves only adapter gradients; full fine-tuning with
    sharded states moves every weight and gradient each step; serving moves data only when a copy spans cards.
    A card named ('4090为啥不能nvlink'): that card's link first, then the plan's need when the plan runs on it."""
    rec = ctx.rec
    no_bridge = bool(ctx.turn.ask.get("no_bridge"))
    ctx.data["no_bridge"] = no_bridge
    named = find_gpu(str(ctx.turn.ask["card"])) if ctx.turn.ask.get("card") else None
    first: list[str] = []
    if named is not None:
        ctx.data["card"] = {"id": named.id, "interconnect": named.interconnect, "nvlink_gbps": named.nvlink_gbps}
        first.append(_link_line(ctx, named, no_bridge))
        if named.interconnect == "pcie":
            first.append(ctx.say("asks.link.no_connector", gpu=named.name))
    if rec is None or rec.best is None:
        if first and not ctx.turn.ask.get("link_need"):
            return _joined(ctx, first)
        from gpu_advisor.assistant.link_need import link_need_reply

        return link_need_reply(ctx)  # no plan: whether inference needs the link at all, answered (assistant/link_need.py)
    lines: list[str] = []
    run = rec.trains_on
    on_plan = named is None or named.id in {rec.best.gpu, run.gpu if run else None}
    if not on_plan:
        return _joined(ctx, first)
    if rec.workload.spec.trains and run is not None:
        gpu = find_gpu(run.gpu)
        lines.append(first.pop(0) if first and named and named.id == gpu.id else _link_line(ctx, gpu, no_bridge))
        lines.append(_training_need(ctx, rec, run, gpu))
    if rec.workload.spec.serves or rec.workload.spec.batch:
        best = rec.best
        gpu = find_gpu(best.gpu)
        if not lines:
            lines.append(first.pop(0) if first and named and named.id == gpu.id else _link_line(ctx, gpu, no_bridge))
        lines.append(_serving_need(ctx, best, gpu))
    return _joined(ctx, [*lines[:1], *first, *lines[1:]])


def _training_need(ctx: Any, rec: Any, run: Option, gpu: Gpu) -> str:
    w = rec.workload
    method = "full" if w.spec.pretrains else w.method
    if run.gpus == 1:
        ctx.data["training"] = {"gpus": 1}
        return ctx.say("asks.need.train_one")
    tm = training_memory(training_setup(w, run.gpus, run.gpu))
    ctx.data["training"] = {"gpus": run.gpus, "method": method, "trainable": tm.trainable_params}
    if method in ("lora", "qlora"):
        sharded = next((t.value for t in tm.terms if t.key == "gradient_bytes"), tm.trainable_params * 4)
        grads = sharded * run.gpus  # the adapters' gradients as the tool holds them (FP32), all shards together
        ctx.data["training"]["adapter_gradient_bytes"] = grads
        return ctx.say("asks.need.lora", method=ctx.say(f"method.{method}"), gpus=run.gpus,
                       params=f"{tm.trainable_params / 1e6:,.0f}", mb=f"{grads / 1e6:,.0f}")
    weights = next((t.inputs.get("parameters") for t in tm.terms if t.key == "weights_bytes"), None) or 0
    moved = float(weights) * 2  # the BF16 weights gathered, and as many gradient bytes reduce-scattered
    ctx.data["training"]["weight_bytes"] = moved
    penalty = not gpu.has_nvlink
    return _joined(ctx, [ctx.say("asks.need.full", gpus=run.gpus, gb=gb(moved)),
                              ctx.say("asks.need.full_pcie", pct=f"{PCIE_DATA_PARALLEL_FACTOR:.0%}") if penalty
                              else ctx.say("asks.need.full_fast")])


def _serving_need(ctx: Any, best: Option, gpu: Gpu) -> str:
    tp = best.tp or (best.gpus // max(best.replicas, 1))
    ctx.data["serving"] = {"tp": tp, "replicas": best.replicas}
    if tp <= 1:
        return ctx.say("asks.need.serve_one")
    if best.engine == "llama.cpp":
        return ctx.say("asks.need.serve_layers", tp=tp)
    if gpu.interconnect == "nvlink-bridge":  # tools.throughput.link: the speed is taken over the bridge
        after = ctx.say("asks.need.serve_bridge_pair" if tp == 2 else "asks.need.serve_bridge_more")
    else:
        after = ctx.say("asks.need.serve_fast") if gpu.has_nvlink else ctx.say("asks.need.serve_pcie")
    return _joined(ctx, [ctx.say("asks.need.serve_tp", tp=tp), after])


# ---------------------------------------------------------------- weight formats


def _format_line(ctx: Any, name: str) -> tuple[str, dict[str, Any]]:
    """One format: its bits per weight and the engines that load it (knowledge/data/precisions.yaml)."""
    try:
        p = find_precision(name)
    except (LookupError, ValueError):
        return ctx.say(f"asks.format.family.{name}") if name in ("gguf", "exl2", "mlx", "bnb") else \
            ctx.say("asks.format.unknown", name=name), {"id": name}
    engine_names = [next((e.name for e in engines() if e.id == x), x) for x in p.engines]
    line = ctx.say("asks.format.line", name=p.name if ctx.lang == "en" else p.name.split(" (")[0],
                   bits=f"{p.bits_per_weight:g}", engines=ctx.say("list_sep").join(engine_names))
    return line, {"id": p.id, "bits": p.bits_per_weight, "engines": list(p.engines)}


def formats(ctx: Any) -> str:
    """The formats named side by side, then which one for the engine asked about (or the plan's)."""
    named = list(ctx.turn.ask.get("formats") or [])
    rec = ctx.rec
    if not (rec and rec.best and rec.best.precision):
        from gpu_advisor.assistant.format_pair import format_pair, one_width_pair

        pair = one_width_pair(named)
        if pair:  # 'AWQ跟GPTQ有啥区别' with no plan: two formats of one width in one engine, weighed from knowledge
            ctx.turn.ask["pair"] = pair
            return format_pair(ctx)
    engine = (ctx.turn.engines or [None])[0] or (rec.best.engine if rec and rec.best else None)
    lines, data = [], []
    for name in named:
        line, facts = _format_line(ctx, name)
        lines.append("- " + line)
        data.append(facts)
    ctx.data["formats"] = data
    ctx.data["engine"] = engine
    families = {("gguf" if str(f.get("id", "")).startswith("q") or f.get("id") == "gguf" else f.get("id")) for f in data}
    pick = "asks.format.pick.vllm" if engine in ("vllm", "sglang", "tensorrt-llm") else \
        "asks.format.pick.llamacpp" if engine in ("llama.cpp", "ollama") else "asks.format.pick.any"
    out = [ctx.say("asks.format.head"), "", *lines, "", ctx.say(pick)]
    if "gguf" in families and engine in ("vllm", "sglang", None):
        out.append(ctx.say("asks.format.gguf_in_vllm"))
    if rec and rec.best and rec.best.precision:
        out.append(ctx.say("asks.format.plan", precision=rec.best.precision.upper(),
                           engine=rec.best.runtime or rec.best.engine or ""))
    elif ctx.turn.ask.get("model"):  # 'AWQ、GPTQ、GGUF、FP8…我用vLLM部署Qwen3-32B': each format's memory for that model
        out += _model_memory(ctx, str(ctx.turn.ask["model"]), [str(f.get("id")) for f in data])
    return "\n".join(out)


def _model_memory(ctx: Any, model_id: str, ids: list[str]) -> list[str]:
    """The weights of the model asked about in each format on record (a family such as GGUF has no one size), and
    the KV cache of one conversation at the default context, from inference_memory."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.knowledge import find_model, gpus
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    context = int(SLOTS["context"].default)
    parts, rows = [], []
    for pid in ids:
        try:
            p = find_precision(pid)
            mem = _call(ctx, "inference_memory", inference_memory,
                        InferenceMemoryInput(model=model_id, precision=p.id, context=context, batch=1))
        except (ToolError, LookupError, ValueError):
            continue
        rows.append({"precision": p.id, "weights_bytes": mem.weights_bytes, "kv_cache_bytes": mem.kv_cache_bytes})
        parts.append(ctx.say("asks.format.weights", name=p.name.split(" (")[0], weights=gb(mem.weights_bytes)))
    if not rows:
        return []
    ctx.data["model_memory"] = {"model": model_id, "context": context, "rows": rows}
    order = NVIDIA_ARCHS  # the NVIDIA archs, oldest first
    fp8 = sorted({str(g.arch) for g in gpus() if g.fp8_tflops and g.vendor == "nvidia" and g.arch in order}, key=order.index)
    return ["", ctx.say("asks.format.memory", model=find_model(model_id).name, sizes=ctx.say("list_sep").join(parts),
                        kv=gb(rows[0]["kv_cache_bytes"]), context=f"{context:,}",
                        archs=ctx.say("list_sep").join(a.capitalize() for a in fp8))]


# ---------------------------------------------------------------- parallelism


def parallelism(ctx: Any) -> str:
    """Which parallelism this plan uses and why, and whether a tensor-parallel degree the user proposes holds
    the model (the tools' evaluate on the plan's card at that count)."""
    if ctx.turn.ask.get("tp_rule"):  # 'can vllm do tp=3 on three 3090s?': the head-division rule, the model's sizes
        from gpu_advisor.assistant.tp_divide import tp_rule

        return tp_rule(ctx)
    if ctx.turn.ask.get("par_choice"):  # 'TP or PP for 70B across 2 nodes?': that model's layout, from the tools
        from gpu_advisor.assistant.parallel_choice import verdict

        return verdict(ctx)
    rec = ctx.rec
    if rec is None or rec.best is None or not (rec.workload.spec.serves or rec.workload.spec.batch):
        topics = "tensor-parallel+expert-parallel+pipeline-parallel"
        return "\n\n".join([glossary_reply(topics, ctx.lang), ctx.say("asks.par.no_plan")])
    best = rec.best
    gpu = find_gpu(best.gpu)
    tp = best.tp or best.gpus // max(best.replicas, 1)
    pp = best.pp or 1
    ctx.data["layout"] = {"tp": tp, "pp": pp, "replicas": best.replicas, "expert_parallel": best.expert_parallel,
                          "gpus": best.gpus, "gpu": best.gpu}
    plan = ctx.say("asks.par.plan", option=f"{best.gpus} × {best.gpu_name}", layout=_layout_words(ctx, tp, pp, best))
    why = ctx.say("asks.par.why_ep" if best.expert_parallel else "asks.par.why_pp" if pp > 1
                  else "asks.par.why_tp" if tp > 1 else "asks.par.why_one")
    if ctx.turn.ask.get("tp_ep") and find_model(rec.workload.model).is_moe and tp > 1:
        return _joined(ctx, [_tp_or_ep(ctx, best, tp), plan])  # 'TP or EP for qwen3-235b on 8x h100'
    asked = ctx.turn.ask.get("tp")
    if asked:  # "是不是直接tp=8就行": the verdict first, then the plan it comes from
        return _joined(ctx, [_tp_check(ctx, int(asked), tp, pp, gpu), plan])
    if ctx.turn.ask.get("ascend"):  # "昇腾上一般用哪个": Ascend's practice, then this plan
        return _joined(ctx, [ctx.say("asks.par.ascend"), plan])
    slow = tp >= 4 and pp == 1 and gpu.interconnect == "pcie" and not gpu.nvlink_gbps
    pcie = ctx.say("asks.par.pcie_tp", tp=tp, half=tp // 2) if slow else ""  # 4 L40S in one box: TP4, or TP2 x PP2
    return _joined(ctx, [plan, why, pcie] + ([ctx.say("asks.par.ascend")] if gpu.vendor == "huawei" else []))


def _tp_or_ep(ctx: Any, best: Option, n: int) -> str:
    """Tensor against expert parallelism for a mixture-of-experts model on the plan's cards: TP for a few requests at
    once, EP with data-parallel attention for many; the KV heads a TP split copies, from the model's shape."""
    model = find_model(ctx.rec.workload.model)
    line = ctx.say("asks.par.tp_ep", option=f"{best.gpus} × {best.gpu_name}", n=n)
    if model.num_kv_heads < n:
        line = _joined(ctx, [line, ctx.say("asks.par.tp_ep_kv", model=model.name, kv=model.num_kv_heads, n=n,
                                           copies=n // model.num_kv_heads)])
    return line


def _joined(ctx: Any, sentences: list[str]) -> str:
    return ("" if ctx.lang == "zh" else " ").join(x for x in sentences if x)


def _layout_words(ctx: Any, tp: int, pp: int, best: Option) -> str:
    parts = [ctx.say("asks.par.tp", tp=tp) if tp > 1 else ctx.say("asks.par.single")]
    if pp > 1:
        parts.append(ctx.say("asks.par.pp", pp=pp))
    if best.expert_parallel:
        parts.append(ctx.say("asks.par.ep"))
    if best.replicas > 1:
        parts.append(ctx.say("asks.par.copies", n=best.replicas))
    return ctx.say("sep").join(parts)


def _tp_check(ctx: Any, asked: int, tp: int, pp: int, gpu: Gpu) -> str:
    """'is tp=8 enough?': yes when the plan's copy is that one tensor-parallel group; else whether the model
    fits on that many of the plan's cards, from the tools (evaluate)."""
    from gpu_advisor.assistant.inform import _sized, _workload

    ctx.data["asked_tp"] = asked
    if asked == tp and pp == 1:
        return ctx.say("asks.par.tp_yes", tp=asked)
    if asked == tp:
        return ctx.say("asks.par.tp_no_pp", tp=asked, pp=pp, gpus=tp * pp)
    found = _workload(ctx)
    option = _sized(ctx, found[0], found[1], gpu, asked) if found else None
    ctx.data["asked_tp_fits"] = bool(option and option.serves)
    if option is None or not option.serves:
        return ctx.say("asks.par.tp_no", tp=asked, gpu=gpu.name, gpus=tp * pp)
    if not option.ok:
        from gpu_advisor.assistant.catalog import localise

        why = localise(ctx.lang, option.reasons[0]) if option.reasons else ""
        return ctx.say("asks.par.tp_short", tp=asked, gpu=gpu.name, why=why)
    return ctx.say("asks.par.tp_fits", tp=asked, gpu=gpu.name)


# ---------------------------------------------------------------- each provider's price


def provider_lines(ctx: Any, gpus: list[Gpu]) -> list[str]:
    """Each rental offer on record for the cards asked about, cheapest first, with its provider, offering kind
    and capture date (knowledge/data/prices.yaml), in the conversation's region when it has any; and what the
    data holds for a provider the user named."""
    from gpu_advisor.knowledge import prices, rules

    rate = {"USD": 1.0, "CNY": rules().usd_per_cny}
    named = str(ctx.turn.ask.get("provider") or "")
    lines: list[str] = []
    listed: list[dict[str, Any]] = []
    for gpu in gpus:
        offers = [p for p in prices() if p.gpu == gpu.id]
        local = [p for p in offers if (p.region == "china") == (ctx.region == "china")]
        newest: dict[tuple[Any, ...], Any] = {}
        for p in local or offers:  # the same offer captured several times: its newest snapshot
            key = (p.provider, p.kind, p.price_low, p.price_high, p.currency)
            if key not in newest or p.as_of > newest[key].as_of:
                newest[key] = p
        pool = sorted(newest.values(), key=lambda p: (p.price_low * rate[p.currency], p.provider))
        if named:
            pool = [p for p in pool if _same_provider(named, p.provider)]
        if not pool:
            continue
        lines.append(f"**{gpu.name}**" + ctx.say("colon").rstrip()
                     + ("" if local or ctx.region != "china" else ("" if ctx.lang == "zh" else " ")
                        + ctx.say("asks.price.elsewhere")))
        for p in pool[:MAX_OFFERS]:
            low, high = p.price_low * rate[p.currency], p.price_high * rate[p.currency]
            price = ctx.usd(low) if low == high else f"{ctx.usd(low)}–{ctx.usd(high)}"
            lines.append("- " + ctx.say("asks.price.offer", provider=p.provider, price=price,
                                        kind=ctx.say(f"asks.price.kind.{p.kind}"), date=p.as_of.isoformat()))
            listed.append({"provider": p.provider, "gpu": gpu.id, "usd_low": low, "usd_high": high,
                           "kind": p.kind, "as_of": p.as_of.isoformat()})
        if len(pool) > MAX_OFFERS:
            lines.append("- " + ctx.say("asks.price.more", n=len(pool) - MAX_OFFERS))
    ctx.data["offers"] = listed
    if named and not listed:
        known = sorted({p.provider for p in prices() if (p.region == "china") == (ctx.region == "china")})
        return [ctx.say("asks.price.no_provider", provider=named, cards=ctx.say("list_sep").join(g.name for g in gpus)
                        or ctx.say("asks.price.any_card"), known=ctx.say("list_sep").join(known))]
    if not listed:
        return [ctx.say("asks.price.none", cards=ctx.say("list_sep").join(g.name for g in gpus))]
    return [ctx.say("asks.price.head"), "", *lines]


MAX_OFFERS = 8  # offers listed per card; the rest counted


def _same_provider(named: str, provider: str) -> bool:
    """'autodl' and 'AutoDL', '矩池云' and 'Matpool (矩池云)'."""
    a, b = named.lower().replace(" ", ""), provider.lower().replace(" ", "")
    return a in b or b.split("(")[0] in a
