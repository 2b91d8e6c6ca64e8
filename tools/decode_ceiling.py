"""One user's decode speed ceiling on one card, set against a speed the user measured ('my H100 does 40 tok/s on an
8B model in fp16, why so slow?').

At batch 1 every generated token reads all of the weights (and the sequence's KV cache) from GPU memory once, and the
arithmetic on them is tiny: the card's memory bandwidth divided by the bytes read per token is the most tokens per
second any software can reach (the roofline's memory side, shared/seed/gpu-guide.md section 2). A tuned serving engine
gets a share of it (tools.throughput.speed at batch 1, its measured range); a measured speed far below that share
points at the software or the machine, not the card."""

from __future__ import annotations

from pydantic import Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import GPU_HELP, MODEL_HELP, PRECISION_HELP, Explained, ToolInput, term
from gpu_advisor.tools.inference import default_engine, kv_precision_for
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.throughput import SpeedInput, speed

# A measured speed at least this share of the engine's own estimate is what the card does (the estimate's low end
# is about 0.85 of it): nothing is wrong, the card is the limit.
AS_EXPECTED = 0.8
# A measured speed above the bandwidth ceiling by more than this cannot be plain 16-bit decoding of that model.
ABOVE = 1.1
# The context a sequence holds while it is timed when none is said: a short chat (the speed tool's default).
CONTEXT = 2048


class CeilingInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    precision: str = Field("bf16", description=PRECISION_HELP)
    gpu: str = Field(description=GPU_HELP)
    context: int = Field(CONTEXT, gt=0, le=1_048_576, description="tokens in the sequence while it decodes")
    measured_tokens_per_s: float | None = Field(None, gt=0, le=100_000, description="one user's speed as measured")


class CeilingResult(Explained):
    model: str
    gpu: str
    precision: str
    weight_gb: float = Field(description="bytes of weights read per token, GB")
    kv_gb: float = Field(description="bytes of KV cache read per token at the context, GB")
    bandwidth_gbps: float = Field(description="the card's peak memory bandwidth, GB/s")
    ceiling_tokens_per_s: float = Field(description="bandwidth / bytes read per token")
    engine: str
    engine_tokens_per_s: float = Field(description="the speed tool's batch-1 decode with the default engine")
    engine_tokens_per_s_range: tuple[float, float]
    measured_tokens_per_s: float | None = None
    share_of_ceiling: float | None = None
    share_of_engine: float | None = None
    verdict: str | None = Field(None, description="expected | slow | above (the measured speed against the figures)")


def decode_ceiling(inp: CeilingInput) -> CeilingResult:
    model = resolve_model(inp.model)
    precision = find_precision(inp.precision)
    gpu = find_gpu(inp.gpu)
    engine = default_engine(precision, gpu)
    kv = kv_precision_for(precision, None, engine)
    weights = arch.weight_bytes(model, precision, arch.params_read_per_step(model, 1))
    kv_read = arch.kv_cache_bytes(model, kv.kv_bits or 16, inp.context, 1)
    read = weights + kv_read
    ceiling = gpu.memory_bandwidth_gbps * 1e9 / read
    s = speed(SpeedInput(model=inp.model, precision=inp.precision, gpu=inp.gpu, context=inp.context))
    terms = [term("decode_ceiling_tokens_per_s", "decode ceiling, one user", ceiling, "tokens/s",
                  "memory bandwidth / (weight bytes + KV-cache bytes read per token)",
                  {"bandwidth_gbps": gpu.memory_bandwidth_gbps, "weight_bytes": weights, "kv_bytes": kv_read})]
    measured = inp.measured_tokens_per_s
    verdict = None
    if measured is not None:
        verdict = "above" if measured > ceiling * ABOVE else (
            "expected" if measured >= s.decode_tokens_per_s * AS_EXPECTED else "slow")
    return CeilingResult(
        model=model.name, gpu=gpu.id, precision=precision.id, weight_gb=weights / 1e9, kv_gb=kv_read / 1e9,
        bandwidth_gbps=gpu.memory_bandwidth_gbps, ceiling_tokens_per_s=ceiling, engine=s.engine,
        engine_tokens_per_s=s.decode_tokens_per_s, engine_tokens_per_s_range=s.decode_tokens_per_s_range,
        measured_tokens_per_s=measured, share_of_ceiling=measured / ceiling if measured else None,
        share_of_engine=measured / s.decode_tokens_per_s if measured else None, verdict=verdict, terms=terms,
        assumptions=[f"one sequence at {inp.context:,} tokens of context, {kv.id} KV cache"], warnings=s.warnings)
