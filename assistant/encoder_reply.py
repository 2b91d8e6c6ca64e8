"""The answer to an embedding or reranking service at a request rate ('reranker 200 QPS each with 50 candidates',
'召回用的embedding服务，每秒500个请求'): tools.encoder_plan sizes it on the user's own cards first, else on the cards one
rents, ranked by what an hour costs; the reply says the tokens read per second, one card's speed, the GPUs and
how busy they run, the wait, the rent an hour and a month, a table of the options, and the command that starts it
(vLLM's pooling runner, Text Embeddings Inference beside it). A corpus by a deadline is a batch job
(tools.recommend sizes it); this is the live service."""

from __future__ import annotations

import shlex
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.launch_reply import wrapped_argv
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.writers import cash_at, pct
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.engine_flags import engine_flags
from gpu_advisor.tools.cost import few_offers
from gpu_advisor.tools.encoder_plan import EncoderOption, EncoderPlanInput, EncoderPlanResult, encoder_plan
from gpu_advisor.tools.encoder_serving import MAX_UTILISATION

SERVING = ("serve", "production")
# A service named with no rate: sized at this many requests a second, said (a search box of a small team).
DEFAULT_RATE = 10.0


def encoder_service(p: Profile) -> bool:
    """A live service of an embedding or reranking model (a corpus by a deadline is the batch path's)."""
    if p.phase not in SERVING or not p.model:
        return False
    try:
        return find_model(p.model).encoder
    except (LookupError, ValueError):
        return False


def said_tokens(p: Profile, defaulted: dict[str, str]) -> int | None:
    """The tokens of each text said ('candidates of 300 tokens', '每条500个token'), else None (the tool's default)."""
    return p.prompt_tokens or (p.batch_input_tokens if "batch_input_tokens" not in defaulted else None)


def plan_for(p: Profile, defaulted: dict[str, str]) -> EncoderPlanResult:
    tokens = said_tokens(p, defaulted)
    return encoder_plan(EncoderPlanInput(
        model=p.model or "", requests_per_s=p.requests_per_s or DEFAULT_RATE,
        **({"tokens_per_input": tokens} if tokens else {}), inputs_per_request=p.candidates_per_query or 1,
        region=p.region or "global", owned=list(p.owned or [])))


def _row(o: EncoderOption, lang: str, rate: float | None) -> str:
    name = f"{o.gpus} × {o.gpu}"
    if o.owned:
        hour = month = say(lang, "encoder.yours", n=o.owned) if o.enough else say(lang, "encoder.short", n=o.owned)
    else:
        few = say(lang, "encoder.few_offers", n=o.offers) if few_offers(o.offers) else ""
        hour, month = cash_at(o.usd_per_hour or 0.0, rate) + few, cash_at(o.usd_per_month or 0.0, rate)
    return f"| {name} | {pct(o.sized.utilisation)} | {hour} | {month} |"


def _headline(plan: EncoderPlanResult, lang: str) -> str:
    job = say(lang, "encoder.job_rerank" if plan.reranker else "encoder.job_embed", rate=f"{plan.requests_per_s:,g}")
    best = plan.best
    if best is None:
        o = plan.options[0]
        return say(lang, "encoder.head_short", n=o.owned, gpu=o.gpu, need=o.gpus, job=job)
    key = "encoder.head_owned" if best.owned else "encoder.head_rent"
    return say(lang, key, n=best.gpus, gpu=best.gpu, job=job)


def _figures(plan: EncoderPlanResult, o: EncoderOption, lang: str, rate: float | None) -> str:
    s = o.sized
    slow, fast = s.per_gpu_tokens_per_s_range
    each = (say(lang, "encoder.pair_tokens", tokens=f"{s.tokens_per_input:,}", query=f"{s.query_tokens:,}") if s.reranker
            else f"{s.tokens_per_input:,}")
    per = s.pairs_per_s / s.requests_per_s
    text = say(lang, "encoder.figures_rerank" if s.reranker else "encoder.figures_embed",
               model=s.model, rate=f"{s.requests_per_s:,g}", n=f"{per:,.0f}", each=each,
               need=f"{s.tokens_per_s_needed:,.0f}", gpu=o.gpu, speed=f"{s.per_gpu_tokens_per_s:,.0f}",
               slow=f"{slow:,.0f}", fast=f"{fast:,.0f}", gpus=s.gpus, busy=pct(s.utilisation),
               texts=say(lang, "encoder.texts", n=f"{per:,.0f}") if per > 1 else "",
               band=say(lang, "encoder.band", low=s.gpus_range[0], high=s.gpus_range[1])
               if s.gpus_range[0] != s.gpus_range[1] else "", alone=f"{s.request_s * 1000:,.1f}",
               wait=f"{s.mean_wait_s * 1000:,.0f}")
    if s.servers > 1:
        text += say(lang, "encoder.servers", servers=s.servers)
    if o.usd_per_hour is not None:
        text += say(lang, "encoder.rent", hour=cash_at(o.usd_per_hour, rate), month=cash_at(o.usd_per_month or 0.0, rate))
    return text


def _start(o: EncoderOption, lang: str) -> list[str]:
    s = o.sized
    vllm = engine_flags()["vllm"]
    lines = [say(lang, "encoder.start", version=vllm.version), "```bash",
             *wrapped_argv(s.vllm_argv, len(vllm.program)), "```"]
    notes = [say(lang, "encoder.tei", command=shlex.join(s.tei_argv))]
    if s.servers > 1:
        notes.insert(0, say(lang, "encoder.per_server", servers=s.servers, dp=min(s.gpus, 8)))
    return [*lines, " ".join(notes) if lang != "zh" else "".join(notes)]


def encoder_answer(p: Profile, defaulted: dict[str, str], said: list[str], lang: str) -> tuple[str, dict[str, Any]]:
    """The reply's Markdown and the plan (tools.encoder_plan's result, for the message's structured data)."""
    plan = plan_for(p, defaulted)
    rate = plan.usd_per_cny
    shown = plan.best or plan.options[0]
    short = [o for o in plan.options if o.owned and not o.enough]
    lines = [_headline(plan, lang), ""]
    if short and plan.best is not None:  # their own cards first: said why they are not the plan
        o = short[0]
        lines += [say(lang, "encoder.owned_short", n=o.owned, gpu=o.gpu, need=o.gpus), ""]
    lines += [_figures(plan, shown, lang, rate), ""]
    lines += [say(lang, "encoder.table_head"), "|---|---|---|---|",
              *(_row(o, lang, rate) for o in plan.options), ""]
    lines += [f"⚠ {say(lang, 'encoder.qwen3_reranker')}" for w in plan.warnings if "hf-overrides" in w]
    if said:
        lines += [say(lang, "answer.you_said", said=say(lang, "sep").join(said)), ""]
    assumed = [say(lang, "slot.model.default_" + (p.encoder_job or ("rerank" if plan.reranker else "embed")))
               ] if "model" in defaulted else []
    if not p.requests_per_s:
        assumed.append(say(lang, "encoder.rate_default", rate=f"{DEFAULT_RATE:g}"))
    s = shown.sized
    if not said_tokens(p, defaulted):
        assumed.append(say(lang, "encoder.tokens_default", tokens=f"{s.tokens_per_input - s.query_tokens:,}"))
    if s.reranker:
        assumed.append(say(lang, "encoder.query_default", query=s.query_tokens))
    assumed += [say(lang, "encoder.bf16"), say(lang, "encoder.busy", share=pct(MAX_UTILISATION))]
    if not shown.owned:
        assumed.append(say(lang, "encoder.around_the_clock"))
    lines += [say(lang, "answer.assumptions"), *(f"- {a}" for a in assumed), ""]
    lines += _start(shown, lang)
    return "\n".join(lines), {"encoder_plan": plan.model_dump(mode="json")}


def encoder_decision(results: dict[str, Any], lang: str) -> dict[str, Any]:
    """What was decided, as data (the keys writers.decision gives a generator's plan)."""
    plan = EncoderPlanResult.model_validate(results["encoder_plan"])
    best = plan.best
    shown = best or plan.options[0]
    return {"action": ("use" if best.owned else "rent") if best else "none", "gpu": shown.gpu_id,
            "gpus": shown.gpus, "owned": bool(best and best.owned), "fits": best is not None,
            "owned_gpus": shown.owned, "meets": {}, "model": shown.sized.model_id, "precision": "bf16",
            "engine": "vllm", "runtime": None, "lang": lang, "training": None,
            "layout": {"replicas": shown.gpus, "tp": 1, "pp": 1, "servers": shown.sized.servers}}
