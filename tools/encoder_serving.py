"""Embedding and reranking served at a rate: GPUs from the tokens read per second.

An encoder (bge-m3, Qwen3-Embedding, bge-reranker-v2-m3, Qwen3-Reranker) reads its input and returns a vector
or a score: no token is generated, so a request costs prefill only, about 2 x parameters FLOPs per token read
(tools.throughput's prefill speed, which adds attention over the input's length). An embedding request carries
`inputs_per_request` texts of `tokens_per_input` tokens; a reranking request scores one query against
`inputs_per_request` candidates, each pair read as query + candidate tokens. The tokens per second needed are
requests/s x inputs x tokens; each GPU (one copy of the model: these models fit one card) is run at most at
`max_utilisation` of its prefill speed, so a queue stays short (M/D/1: the mean wait is
utilisation / (2 (1 - utilisation)) service times). A corpus with a deadline is the same arithmetic at
documents / seconds until the deadline.
"""

from __future__ import annotations

import math

from pydantic import Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.engine_flags import engine_flags
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.common import GPU_HELP, MAX_COUNT, MODEL_HELP, Explained, ToolError, ToolInput, term
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.throughput import SpeedInput, speed

# Each GPU run at most at this share of its prefill speed: bursts queue for a fraction of a request's time.
MAX_UTILISATION = 0.7
# A query's tokens beside each candidate when a reranking request does not say (a search query of a sentence).
QUERY_TOKENS = 32
# Tokens TEI and vLLM pack into one forward pass: TEI's --max-batch-tokens default is 16,384; a larger batch
# keeps a big card busy on short inputs.
BATCH_TOKENS = 16_384
TEI_PORT = 8080
VLLM_MEMORY_SHARE = 0.9
SERVER_GPUS = 8  # cards per server: one data-parallel vLLM deployment per server


def is_reranker(model: ModelArch) -> bool:
    """A cross-encoder that scores query-candidate pairs (its family or name says reranker)."""
    return "rerank" in model.family or "rerank" in model.id


class EncoderServingInput(ToolInput):
    model: str = Field(description=MODEL_HELP + " (an embedding or reranking model)")
    gpu: str = Field(description=GPU_HELP)
    precision: str = Field("bf16", description="weight format: these models are served as published, in 16-bit")
    requests_per_s: float = Field(gt=0, le=1e7, description="requests per second (queries for a reranker); a corpus "
                                  "by a deadline: documents / seconds until it / inputs per request (corpus_rate)")
    tokens_per_input: int = Field(512, gt=0, le=MAX_COUNT, description="tokens of each text (each candidate)")
    inputs_per_request: int = Field(1, gt=0, le=10_000, description="texts per request; a reranker's candidates per query")
    query_tokens: int | None = Field(None, ge=0, le=MAX_COUNT, description="a reranker's query tokens read with each "
                                     f"candidate (default {QUERY_TOKENS})")
    max_utilisation: float = Field(MAX_UTILISATION, gt=0, lt=1, description="most of a GPU's prefill speed used")


class EncoderServingResult(Explained):
    model: str
    model_id: str
    gpu: str
    reranker: bool
    requests_per_s: float
    pairs_per_s: float = Field(description="texts (embedding) or query-candidate pairs (reranking) per second")
    tokens_per_input: int = Field(description="tokens read per text; a reranker's candidate with its query")
    query_tokens: int = Field(0, description="a reranker's query tokens read with each candidate (0: embedding)")
    tokens_per_s_needed: float
    per_gpu_tokens_per_s: float
    per_gpu_tokens_per_s_range: tuple[float, float]
    gpus: int
    servers: int = Field(description="servers of SERVER_GPUS cards the GPUs fill")
    gpus_range: tuple[int, int] = Field(description="GPUs at the fast end of the speed band and at its slow end")
    utilisation: float
    request_s: float = Field(description="one request's tokens through one GPU alone, seconds")
    mean_wait_s: float = Field(description="mean queueing wait at this utilisation (M/D/1)")
    per_gpu_bytes: float
    fits: bool
    max_model_len: int
    vllm_argv: list[str]
    tei_argv: list[str]


def _argv(model: ModelArch, reranker: bool, context: int, copies: int) -> tuple[list[str], list[str]]:
    repo = model.hf_ids[0] if model.hf_ids else model.name.replace(" ", "-")
    vllm = [*engine_flags()["vllm"].program, repo, "--runner", "pooling", "--convert",
            "classify" if reranker else "embed", "--max-model-len", str(context),
            "--max-num-batched-tokens", str(max(BATCH_TOKENS, context)),
            "--gpu-memory-utilization", f"{VLLM_MEMORY_SHARE:.2f}"]
    if copies > 1:
        vllm += ["--data-parallel-size", str(min(copies, SERVER_GPUS))]
    tei = [*engine_flags()["tei"].program, "--model-id", repo, "--max-batch-tokens", str(max(BATCH_TOKENS, context)),
           "--port", str(TEI_PORT)]
    return vllm, tei


def corpus_rate(documents: int, hours: float, inputs_per_request: int = 1) -> float:
    """A corpus embedded by a deadline as a request rate: documents spread evenly over the hours."""
    if documents <= 0 or hours <= 0:
        raise ToolError("a corpus needs a positive number of documents and of hours")
    return documents / (hours * 3600) / inputs_per_request


def encoder_serving(inp: EncoderServingInput) -> EncoderServingResult:
    model = resolve_model(inp.model)
    if not model.encoder:
        raise ToolError(f"{model.name} generates text: embedding and reranking are sized for an encoder model "
                        "(bge-m3, Qwen3-Embedding, bge-reranker-v2-m3, Qwen3-Reranker)")
    gpu = find_gpu(inp.gpu)
    reranker = is_reranker(model)
    query = (QUERY_TOKENS if inp.query_tokens is None else inp.query_tokens) if reranker else 0
    pair_tokens = inp.tokens_per_input + query
    if pair_tokens > model.max_context:
        raise ToolError(f"{pair_tokens:,} tokens per input is past {model.name}'s {model.max_context:,}-token limit: "
                        "split the texts into chunks")
    rps = inp.requests_per_s
    pairs = rps * inp.inputs_per_request
    need = pairs * pair_tokens
    sp = speed(SpeedInput(model=model.id, precision=inp.precision, gpu=gpu.id, batch=1, context=pair_tokens,
                          engine="vllm"))
    mid = sp.prefill_tokens_per_s
    slow, fast = sp.prefill_tokens_per_s_range
    usable = inp.max_utilisation

    def count(per_gpu: float) -> int:
        return max(1, math.ceil(need / (per_gpu * usable) - 1e-9))

    gpus = count(mid)
    utilisation = need / (gpus * mid)
    request_s = inp.inputs_per_request * pair_tokens / mid
    wait = utilisation / (2 * (1 - utilisation)) * request_s
    mem = inference_memory(InferenceMemoryInput(model=model.id, precision=inp.precision, gpu=gpu.id, engine="vllm",
                                                context=pair_tokens, batch=1))
    context = min(model.max_context, max(8192, pair_tokens))
    vllm, tei = _argv(model, reranker, context, gpus)
    what = "query-candidate pairs" if reranker else "texts"
    terms = [
        term("tokens_per_s_needed", "Tokens read per second", need, "tokens/s",
             "requests/s x inputs per request x tokens per input" + (" (query + candidate)" if reranker else ""),
             {"requests_per_s": round(rps, 4), "inputs_per_request": inp.inputs_per_request,
              "tokens_per_input": pair_tokens}),
        term("per_gpu_tokens_per_s", "One GPU's prefill speed", mid, "tokens/s",
             "1 / (2 x parameters / (matmul TFLOPS x MFU) + attention over the input), no token generated",
             {"gpu": gpu.name, "precision": inp.precision, "tokens_per_input": pair_tokens}),
        term("gpus", "GPUs", gpus, "GPUs", "tokens/s needed / (one GPU's speed x the most of it used), rounded up",
             {"max_utilisation": usable}),
        term("request_s", "One request alone", request_s, "s", "inputs x tokens / one GPU's prefill speed",
             {"inputs": inp.inputs_per_request}),
    ]
    terms[1] = terms[1].model_copy(update={"low": slow, "high": fast})
    assumptions = [
        f"{model.name} is an encoder: each of the {what} is read once and nothing is generated (prefill only)",
        f"each GPU used at most {usable:.0%} of its prefill speed, so bursts wait a fraction of a request "
        f"(M/D/1 mean wait {wait * 1000:,.0f} ms at {utilisation:.0%})",
        f"served in {inp.precision} on vLLM's pooling runner or Text Embeddings Inference, one copy per GPU",
    ]
    if reranker:
        assumptions.append(f"each candidate read with the query: {inp.tokens_per_input:,} + {query:,} tokens")
    warnings = [] if mem.fits else [f"{model.name} in {inp.precision} does not fit {gpu.name}'s memory"]
    if model.id.startswith("qwen3-reranker"):
        warnings.append(f"{model.name} is a causal model scoring yes/no: vLLM loads it as a classifier with "
                        "--hf-overrides (its model card gives the values)")
    return EncoderServingResult(
        model=model.name, model_id=model.id, gpu=gpu.name, reranker=reranker, requests_per_s=rps, pairs_per_s=pairs,
        tokens_per_input=pair_tokens, query_tokens=query, tokens_per_s_needed=need, per_gpu_tokens_per_s=mid,
        per_gpu_tokens_per_s_range=(slow, fast), gpus=gpus, servers=-(-gpus // SERVER_GPUS), gpus_range=(count(fast), count(slow)),
        utilisation=utilisation, request_s=request_s, mean_wait_s=wait, per_gpu_bytes=mem.per_gpu_total_bytes,
        fits=bool(mem.fits), max_model_len=context, vllm_argv=vllm, tei_argv=tei, terms=terms,
        assumptions=assumptions, warnings=warnings)
