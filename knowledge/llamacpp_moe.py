"""llama.cpp's mixture-of-experts path: how its routed experts run next to a dense model's weights
(data/llamacpp_moe.yaml).

llama.cpp multiplies a MoE layer's routed experts with ggml's mul_mat_id: the router's top-k expert ids
pick k slices of the stacked expert matrices (ffn_gate_exps, ffn_up_exps, ffn_down_exps) for each token.
How a backend runs it decides the cost. CUDA (and HIP, built from the same ggml-cuda code) chose the
experts on the CPU: the ids were copied to the host, which forces a synchronisation and kept CUDA graphs
off, and at batch 1 each selected expert got its own matrix-vector product (llama.cpp issue #12859,
April 2025; PR #15525 moved the MoE helper to device code in August 2025). Metal's mul_mat_id kernels read
the ids on the GPU. The records give, by backend, the share of the dense decode bandwidth efficiency the
routed experts' bytes reach, a fixed time per layer per routed expert of a decode step, and the share of
the dense prefill matrix rate the routed experts' multiplies reach, each with the band the measurements
spread over (different builds and GPUs), and name the rows they were fitted on.
"""

from __future__ import annotations

from functools import cache

from pydantic import Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, KnowledgeError, load_records
from gpu_advisor.knowledge.schema import LlamaCppBackend, Record

PATH = DATA_DIR / "llamacpp_moe.yaml"


def _holds(name: str, central: float, band: tuple[float, float]) -> None:
    lo, hi = band
    if not lo <= central <= hi:
        raise ValueError(f"{name}_range {band} must hold {name} {central}")


class LlamaCppMoe(Record):
    """How llama.cpp's routed experts run on one or more backends, central figures and the ends of the band
    the measurements spread over."""

    id: str
    backends: list[LlamaCppBackend] = Field(min_length=1)
    routed_decode_eff: float = Field(gt=0, le=2, description="share of the dense decode bandwidth efficiency the routed experts' bytes reach")
    routed_decode_eff_range: tuple[float, float]
    expert_overhead_s: float = Field(ge=0, description="fixed time per layer per routed expert of a decode step")
    expert_overhead_s_range: tuple[float, float]
    routed_prefill_eff: float = Field(gt=0, le=2, description="share of the dense prefill matrix rate the routed experts' multiplies reach")
    routed_prefill_eff_range: tuple[float, float]
    decode_measured: bool = Field(description="whether decode rows on these backends were fitted (else the figures are borrowed)")
    prefill_measured: bool
    fitted_on: str = Field(min_length=3, description="the measurements the figures were fitted to")
    notes: list[str] = []

    @model_validator(mode="after")
    def _ranges_hold_the_central_figures(self) -> LlamaCppMoe:
        _holds("routed_decode_eff", self.routed_decode_eff, self.routed_decode_eff_range)
        _holds("expert_overhead_s", self.expert_overhead_s, self.expert_overhead_s_range)
        _holds("routed_prefill_eff", self.routed_prefill_eff, self.routed_prefill_eff_range)
        return self


@cache
def llamacpp_moe_records() -> tuple[LlamaCppMoe, ...]:
    """The MoE records; every llama.cpp backend finds exactly one."""
    records = tuple(load_records(PATH, LlamaCppMoe))
    for backend in ("cuda", "metal", "rocm", "vulkan"):
        hits = [r.id for r in records if backend in r.backends]
        if len(hits) != 1:
            raise KnowledgeError(f"{PATH.name}: backend {backend} is covered by {len(hits)} records "
                                 f"({', '.join(hits) or 'none'}); exactly one must match")
    return records


def moe_record_for(backend: str) -> LlamaCppMoe:
    return next(r for r in llamacpp_moe_records() if backend in r.backends)
