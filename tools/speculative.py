"""Speculative decoding: a cheap draft proposes k tokens, the model checks them in one step and keeps the run of
accepted ones plus one of its own.

The arithmetic (Leviathan et al. 2023), for a chance a that each drafted token is accepted:
- tokens per step E = (1 - a^(k+1)) / (1 - a) (k drafted tokens, each kept only if all before it were);
- a step costs one verify pass of the model over k + 1 tokens per sequence plus k draft steps. At a small batch
  the verify pass reads the weights once, as a plain decode step does (memory-bound, so the extra tokens are
  nearly free); as the batch grows its multiply-adds, (k + 1) times a plain step's, take longer than the reads,
  and the step grows with them;
- speed-up = E x plain step / (verify + k x draft step), at the low and high acceptance rates on record
  (knowledge/data/speculative.yaml). At high concurrency the decode step is already compute-bound: the speed-up
  fades towards, and below, 1, which the same arithmetic shows.
Drafts: a small model of the same family (its own decode steps and KV cache); an EAGLE-3 head (one decoder layer
fed by the model's hidden states, with a 32k-token draft vocabulary); MTP layers the model ships (DeepSeek-V3/R1,
GLM-4.5, Qwen3-Next; one layer per drafted token). Their weights and KV are memory the plan must hold.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.knowledge.speculative import Method, speculative_methods
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import GPU_HELP, MAX_COUNT, MODEL_HELP, Explained, ToolError, ToolInput, term
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.throughput import decode_step_seconds

EAGLE_DRAFT_VOCAB = 32_000  # EAGLE-3 heads predict over a reduced vocabulary (their configs' draft_vocab_size)
# The same tokenizer's embedding rows padded to another multiple (Qwen2.5 0.5B 151,936, Qwen2.5 32B 152,064): within
# this share of each other; another tokenizer differs by far more (Llama 2 32,000, Llama 3 128,256)
VOCAB_PAD = 0.01
HEAD_BITS = 16  # heads and MTP layers run in 16 bits beside any weight format
# Batches at which the speed-up is shown, so the answer can say where it fades
BATCHES = (1, 8, 32, 128)
FADED = 1.1  # the low end of the speed-up under this at the plan's batch: the gain is not assured there (faded)
SpecEngine = Literal["vllm", "sglang"]


class SpeculativeInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    method: Method = Field(description="draft (a small model of the same family), eagle3 (an EAGLE-3 head) or mtp "
                                       "(the model's own multi-token-prediction layers)")
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, gt=0, le=64, description="tensor-parallel GPUs of one copy")
    precision: str = Field("bf16", description="the model's weight format")
    batch: int = Field(1, gt=0, le=MAX_COUNT, description="requests decoding together on one copy")
    context: int = Field(4096, gt=0, le=MAX_COUNT, description="tokens each request holds")
    tokens: int | None = Field(None, gt=0, le=16, description="tokens drafted per step; default the method's")
    acceptance: float | None = Field(None, gt=0, lt=1, description="chance each drafted token is accepted; default: "
                                     "the published range of the method")
    engine: SpecEngine = Field("vllm", description="the serving engine whose decode step is sped up")
    draft: str | None = Field(None, description="method draft: the draft model asked for (a model of the same family "
                              "and tokenizer, smaller); default the family's draft on record")


class SpeculativeResult(Explained):
    model: str
    method: Method
    tokens: int
    acceptance: tuple[float, float]
    tokens_per_step: tuple[float, float]
    speedup: tuple[float, float] = Field(description="decode speed-up at the batch asked: low, high")
    speedup_by_batch: list[tuple[int, float, float]] = Field(description="(batch, low, high) at 1, 8, 32, 128")
    faded: bool = Field(description="at the batch asked the speed-up is under FADED: it helps little there")
    draft: str = Field(description="what drafts: a model's name, a head repository, or the MTP layers")
    draft_repo: str | None = None
    vllm_method: str = Field(description="vLLM --speculative-config method")
    draft_bytes: float = Field(description="draft weights and KV on one copy, all its GPUs together")
    draft_bytes_per_gpu: float
    draft_share: float | None = Field(None, description="a draft model's parameters as a share of the model's")


def pick_method(model_id: str) -> Method:
    """The method 'speculative decoding' means for a model when none is named: its own MTP layers when it ships
    them, else an EAGLE-3 head on record, else a draft model of its family, else an EAGLE-3 head to train."""
    rows = speculative_methods()
    if model_id in rows["mtp"].mtp:
        return "mtp"
    if model_id in rows["eagle3"].heads:
        return "eagle3"
    return "draft" if model_id in rows["draft"].drafts else "eagle3"


def check_draft(model: ModelArch, draft: ModelArch) -> None:
    """A draft model proposes tokens the model checks by id: it needs the model's tokenizer (the same family and
    vocabulary) and fewer parameters."""
    if draft.family != model.family or abs(draft.vocab_size - model.vocab_size) > VOCAB_PAD * model.vocab_size:
        raise ToolError(f"{draft.name} cannot draft for {model.name}: a draft model needs the same tokenizer "
                        f"(vocabularies {draft.vocab_size:,} and {model.vocab_size:,})")
    if draft.total_params_b >= model.total_params_b:
        raise ToolError(f"{draft.name} is not smaller than {model.name}: a draft model must be")


def _head_params(model: ModelArch, method: Method) -> float:
    """Parameters one draft step reads: an EAGLE-3 head is one decoder layer, a fusion layer over three layers'
    hidden states and an output head over the draft vocabulary; an MTP layer one decoder layer of the model."""
    layer = (model.active_params_b * 1e9 - arch.embedding_params(model)) / model.num_layers
    if method == "eagle3":
        return layer + 3 * model.hidden_size ** 2 + EAGLE_DRAFT_VOCAB * model.hidden_size
    return layer


def _step(d: dict[str, float]) -> float:
    return max(d["memory"], d["compute"]) + d["overhead"] + d["comm"]


def speculative(inp: SpeculativeInput) -> SpeculativeResult:
    model, gpu, precision = resolve_model(inp.model), find_gpu(inp.gpu), find_precision(inp.precision)
    row = speculative_methods()[inp.method]
    k = inp.tokens or row.tokens
    low, high = (inp.acceptance, inp.acceptance) if inp.acceptance else row.acceptance
    draft_model: ModelArch | None = None
    repo: str | None = None
    vllm_method = inp.method
    if inp.method == "mtp":
        layers = row.mtp.get(model.id)
        if layers is None:
            have = ", ".join(resolve_model(m).name for m in row.mtp)
            raise ToolError(f"{model.name} ships no MTP layers on record (those that do: {have}): use eagle3 or a "
                            "draft model")
        vllm_method = layers.method  # type: ignore[assignment]
        head_b = layers.params_b * 1e9 if layers.params_b else _head_params(model, "mtp")
        draft_words = f"{model.name}'s MTP layers"
    elif inp.method == "draft":
        draft_id = resolve_model(inp.draft).id if inp.draft else row.drafts.get(model.id)
        if draft_id is None:
            raise ToolError(f"no draft model of {model.name}'s family on record (it needs the same tokenizer): use "
                            "eagle3" + (" or mtp" if model.id in speculative_methods()["mtp"].mtp else ""))
        draft_model = resolve_model(draft_id)
        check_draft(model, draft_model)
        vllm_method = "draft_model"  # type: ignore[assignment]
        draft_words = draft_model.name
        repo = draft_model.hf_ids[0] if draft_model.hf_ids else None
        head_b = draft_model.total_params_b * 1e9
    else:
        repo = row.heads.get(model.id)
        head_b = _head_params(model, "eagle3")
        draft_words = repo or f"an EAGLE-3 head for {model.name}"
    kv_bits = 16.0
    batch_figures: list[tuple[int, float, float]] = []

    def at(batch: int) -> tuple[float, float, float, float]:
        plain = decode_step_seconds(model, precision, kv_bits, gpu, inp.engine, inp.gpus, batch, inp.context)
        wide = decode_step_seconds(model, precision, kv_bits, gpu, inp.engine, inp.gpus, batch * (k + 1), inp.context)
        # the verify pass reads the KV once (every drafted token attends to the same cache) and the weights its
        # k + 1 tokens per request route to: a MoE model's extra experts, a dense model's same weights
        weights = plain["weight_read"] / max(1.0, plain["weight_read"] + plain["kv_read"])
        memory = plain["memory"] * (weights * wide["weight_read"] / max(1.0, plain["weight_read"]) + 1 - weights)
        verify = max(memory, wide["compute"]) + plain["overhead"] + plain["comm"]
        if draft_model is not None:
            small = find_precision("bf16")
            draft = _step(decode_step_seconds(draft_model, small, kv_bits, gpu, inp.engine, inp.gpus, batch, inp.context))
        else:  # a head: its share of the model's reads and multiply-adds, and one layer's fixed cost
            share = head_b / max(1.0, arch.params_read_per_step(model, batch))
            draft = share * max(plain["memory"], plain["compute"]) + plain["overhead"] / model.num_layers
        step = verify + k * draft
        lo = (1 - low ** (k + 1)) / (1 - low) * _step(plain) / step
        hi = (1 - high ** (k + 1)) / (1 - high) * _step(plain) / step
        return lo, hi, verify, draft

    for b in BATCHES:
        lo, hi, _, _ = at(b)
        batch_figures.append((b, lo, hi))
    lo, hi, verify, draft = at(inp.batch)
    e_low, e_high = (1 - low ** (k + 1)) / (1 - low), (1 - high ** (k + 1)) / (1 - high)
    if draft_model is not None:
        weights = arch.weight_bytes(draft_model, find_precision("bf16"))
        kv = arch.kv_cache_bytes(draft_model, kv_bits, inp.context, inp.batch)
    else:
        weights = head_b * HEAD_BITS / 8
        kv = arch.kv_bytes_per_token_layer(model, kv_bits) * inp.context * inp.batch  # one layer's cache
    total = weights + kv
    terms = [
        term("tokens_per_step", "Tokens per verify step", e_low, "tokens", "(1 - a^(k+1)) / (1 - a)",
             {"acceptance_low": low, "acceptance_high": high, "speculative_tokens": k}, rel_high=e_high / e_low - 1),
        term("speedup", "Decode speed-up", lo, "x", "tokens per step x plain decode step / (verify step + k x draft "
             "step)", {"batch": inp.batch, "verify_step_s": verify, "draft_step_s": draft}, rel_high=hi / lo - 1),
        term("draft_bytes", "Draft weights and KV, one copy", total, "bytes",
             "draft parameters x bytes per weight + the draft's KV cache", {"draft_weight_bytes": weights,
                                                                            "draft_kv_bytes": kv}),
    ]
    faded = lo < FADED
    assumptions = [
        f"{inp.method}: {k} token(s) drafted per step, each accepted with a chance of {low:.0%}-{high:.0%} "
        f"({row.source.split(';')[0]})",
        "acceptance falls with a high temperature and on text unlike the draft's training data (free-form creative "
        "writing); code and structured output accept more",
        "the verify pass reads the weights once and does k + 1 tokens' multiply-adds per request: nearly free while "
        "decoding is memory-bound, not once it is compute-bound"]
    warnings = []
    if faded:
        warnings.append(f"at {inp.batch:,} requests per copy the decode step is compute-bound: speculative decoding "
                        f"gains {lo:.2f}x-{hi:.2f}x here, worth it at low load only")
    if inp.method == "eagle3" and repo is None:
        warnings.append(f"no EAGLE-3 head for {model.name} on record: one must be trained (SpecForge, the EAGLE "
                        "repository) or found on the Hub")
    return SpeculativeResult(
        model=model.name, method=inp.method, tokens=k, acceptance=(low, high), tokens_per_step=(e_low, e_high),
        speedup=(lo, hi), speedup_by_batch=batch_figures, faded=faded, draft=draft_words, draft_repo=repo,
        vllm_method=vllm_method, draft_bytes=total, draft_bytes_per_gpu=total / inp.gpus,
        draft_share=draft_model.total_params_b / model.total_params_b if draft_model is not None else None, terms=terms,
        assumptions=assumptions, warnings=warnings)
