"""Whether inference needs NVLink, asked as a concept ('whats the difference between nvlink and pcie for inference,
do i actually need it'): the links' bandwidths per GPU from the cards' records beside PCIe's, and, for a model named,
the fewest cards that hold it (tools.inference.inference_memory's fit, TP over 1, 2, 4, 8 cards).

The rule the answer gives: a model on one card, or independent copies of it (one per card), never talks between
cards; tensor parallelism over two cards all-reduces one token's activations twice a layer, a few KB per token, so
PCIe costs little in decode; the link matters for TP over four cards or more, for large-batch prefill (the
activations of thousands of tokens per step) and for training (gradients all-reduced, or weights gathered by FSDP,
every step)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import Explained, ToolError, ToolInput, term
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

# PCIe x16 bandwidth by generation, GB/s with both directions counted (as the records' nvlink_gbps): the spec's
# ~2 GB/s per lane per direction at Gen4 (16 GT/s), ~4 at Gen5 (32 GT/s); Gen3 half of Gen4.
PCIE_X16_GBPS = {3: 32.0, 4: 64.0, 5: 128.0}
# The cards whose NVLink figures stand for each generation in the answer (knowledge gpus.yaml nvlink_gbps).
REFERENCE_CARDS = ("a100-80gb-sxm", "h100-sxm", "b200")
TP_SIZES = (1, 2, 4, 8)
DEFAULT_CARD = "h100-sxm"  # the card a model named alone is fitted on (80 GB, the usual data-centre card)
CONTEXT = 4096  # one request of this many tokens: whether the weights and a request's KV fit, not a load


class LinkFigure(BaseModel):
    gpu: str
    name: str
    nvlink_gbps: float = Field(description="per GPU, both directions")


class LinkNeedInput(ToolInput):
    model: str | None = Field(None, description="the model served, for the cards it needs")
    gpu: str | None = Field(None, description="the card it runs on; default H100 SXM 80GB")
    precision: str = Field("bf16", description="the weights' format")


class LinkNeedResult(Explained):
    nvlink: list[LinkFigure]
    pcie_gbps: dict[int, float] = Field(description="PCIe x16 by generation, both directions")
    nvlink_over_pcie: tuple[float, float] = Field(description="each reference card's NVLink over the PCIe "
                                                             "of its generation: the lowest and the highest ratio")
    model: str | None = None
    gpu: str | None = None
    precision: str | None = None
    cards_needed: int | None = Field(None, description="fewest cards (1, 2, 4, 8) that hold the model and one request")
    per_gpu_bytes: float | None = None
    capacity_bytes: float | None = None
    gpu_nvlink_gbps: float | None = None
    gpu_pcie_gbps: float | None = None


def link_need(inp: LinkNeedInput) -> LinkNeedResult:
    refs = [find_gpu(g) for g in REFERENCE_CARDS]
    nvlink = [LinkFigure(gpu=g.id, name=g.name, nvlink_gbps=g.nvlink_gbps or 0) for g in refs]
    ratios = [(g.nvlink_gbps or 0) / PCIE_X16_GBPS[g.pcie_gen or 4] for g in refs]  # each against its own PCIe
    low, high = min(ratios), max(ratios)
    terms = [term("nvlink_over_pcie", "NVLink over PCIe x16", low, "ratio",
                  "NVLink per GPU / PCIe x16 of the same generation (both directions)",
                  {f"pcie_gen{g}_x16_gbps": v for g, v in PCIE_X16_GBPS.items()})]
    out = LinkNeedResult(nvlink=nvlink, pcie_gbps=dict(PCIE_X16_GBPS), nvlink_over_pcie=(low, high), terms=terms)
    if not inp.model:
        return out
    card = find_gpu(inp.gpu or DEFAULT_CARD)
    for n in TP_SIZES:
        try:
            mem = inference_memory(InferenceMemoryInput(model=inp.model, precision=inp.precision, context=CONTEXT,
                                                        batch=1, gpus=n, gpu=card.id))
        except (ToolError, ValueError):
            continue  # a size the model's heads do not divide by
        out.model, out.gpu, out.precision = mem.model, card.id, inp.precision
        out.per_gpu_bytes, out.capacity_bytes = mem.per_gpu_total_bytes, mem.gpu_capacity_bytes
        if mem.fits:
            out.cards_needed = n
            break
    out.gpu_nvlink_gbps = card.nvlink_gbps if card.interconnect == "nvlink" else None
    out.gpu_pcie_gbps = PCIE_X16_GBPS.get(card.pcie_gen or 4)
    out.assumptions.append(f"the model fitted on {card.name} at {inp.precision} with one request of {CONTEXT:,} tokens; "
                           "more users need more KV cache and may need more cards")
    return out
