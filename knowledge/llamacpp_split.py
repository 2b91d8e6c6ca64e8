"""llama.cpp's layer split over several GPUs: how much of a prompt's pipelining it reaches
(data/llamacpp_layer_split.yaml).

With the default split (`-sm layer`) each GPU holds a run of whole layers. Since PR #6017 (March 2024)
`llama_decode` cuts a call of up to n_batch tokens into micro-batches of n_ubatch and the backend
scheduler keeps several copies of the graph's inputs, so GPU k can work on micro-batch i while GPU k+1
works on micro-batch i-1. The records say, by backend, kind of weights, model size and number of GPUs,
how many micro-batches of one call effectively overlap; each names the measurements it was fitted on.
"""

from __future__ import annotations

from functools import cache

from pydantic import Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, KnowledgeError, load_records
from gpu_advisor.knowledge.schema import LlamaCppBackend, LlamaCppWeights, Record

PATH = DATA_DIR / "llamacpp_layer_split.yaml"
# the (model size, GPU count) points the coverage check probes for every backend and kind of weights
_PROBE_PARAMS_B = (0.5, 8.0, 29.9, 30.0, 70.0, 405.0, 1000.0)
_PROBE_GPUS = (2, 3, 4, 5, 6, 7, 8, 16, 64)


class LlamaCppLayerSplit(Record):
    """One band of llama.cpp layer-split pipelining: the micro-batches of one llama_decode call that run on
    different GPUs at once (effective, fitted), with the band the measurements spread over."""

    id: str
    backend: LlamaCppBackend
    weights: list[LlamaCppWeights] = Field(min_length=1)
    min_params_b: float = Field(0.0, ge=0, description="models with at least this many parameters (billions)")
    max_params_b: float | None = Field(None, gt=0, description="and fewer than this many")
    min_gpus: int = Field(2, ge=2)
    max_gpus: int | None = Field(None, ge=2)
    in_flight: float = Field(ge=1, le=64, description="micro-batches that overlap, central figure; 1 = one GPU at a time")
    in_flight_range: tuple[float, float] = Field(description="slow and fast ends of the overlap the measurements spread over")
    fitted_on: str = Field(min_length=3, description="the measurements the figures were fitted to")
    notes: list[str] = []

    @model_validator(mode="after")
    def _range_holds_the_central_figure(self) -> LlamaCppLayerSplit:
        lo, hi = self.in_flight_range
        if not 1 <= lo <= self.in_flight <= hi:
            raise ValueError(f"in_flight_range {self.in_flight_range} must hold in_flight {self.in_flight} and start at 1 or more")
        return self

    def matches(self, backend: str, weights: str, params_b: float, gpus: int) -> bool:
        return (backend == self.backend and weights in self.weights
                and self.min_params_b <= params_b and (self.max_params_b is None or params_b < self.max_params_b)
                and self.min_gpus <= gpus and (self.max_gpus is None or gpus <= self.max_gpus))


@cache
def llamacpp_layer_splits() -> tuple[LlamaCppLayerSplit, ...]:
    """The layer-split records; for each backend they name, every kind of weights, model size and GPU count
    finds exactly one."""
    records = tuple(load_records(PATH, LlamaCppLayerSplit))
    for backend in sorted({r.backend for r in records}):
        for weights in ("f16", "q8_0", "legacy", "k-quant"):
            for params_b in _PROBE_PARAMS_B:
                for gpus in _PROBE_GPUS:
                    hits = [r.id for r in records if r.matches(backend, weights, params_b, gpus)]
                    if len(hits) != 1:
                        raise KnowledgeError(f"{PATH.name}: {backend}/{weights} at {params_b:g}B on {gpus} GPUs is covered by "
                                             f"{len(hits)} records ({', '.join(hits) or 'none'}); exactly one must match")
    return records


def layer_split_for(backend: str, weights: str, params_b: float, gpus: int) -> tuple[LlamaCppLayerSplit, bool]:
    """(record, measured on this backend): a backend without multi-GPU records takes CUDA's."""
    records = llamacpp_layer_splits()
    for candidate in (backend, "cuda"):
        for r in records:
            if r.matches(candidate, weights, params_b, gpus):
                return r, candidate == backend
    raise KnowledgeError(f"{PATH.name}: no record for {backend}/{weights} at {params_b:g}B on {gpus} GPUs")
