"""Pydantic records for every fact the sizing tools read.

Each record names where it came from (`source`) and when that was true (`as_of`). Units are in the
field names: `_gb` is 10^9 bytes, `_gbps` is 10^9 bytes per second, `_tflops` is 10^12 dense
(non-sparse) tensor operations per second.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    source: str = Field(min_length=3)
    as_of: date


class Gpu(Record):
    id: str
    name: str
    aliases: list[str] = []
    vendor: Literal["nvidia", "amd", "apple"]
    segment: Literal["consumer", "workstation", "datacenter", "apple"]
    memory_gb: float = Field(gt=0)
    memory_bandwidth_gbps: float = Field(gt=0)
    memory_type: Literal["gddr", "hbm", "lpddr"]
    bf16_tflops: float = Field(gt=0, description="dense BF16/FP16 tensor throughput, FP32 accumulate")
    fp8_tflops: float | None = Field(default=None, gt=0, description="dense FP8 tensor; None: no FP8 units")
    int8_tops: float | None = Field(default=None, gt=0)
    interconnect: Literal["nvlink", "nvlink-bridge", "pcie", "infinity-fabric", "unified"]
    nvlink_gbps: float | None = Field(default=None, gt=0, description="per-GPU NVLink bandwidth, both directions")
    pcie_gen: int | None = None
    tdp_w: float = Field(gt=0)
    buy_price_usd: float | None = Field(default=None, gt=0, description="typical price of one card, new")
    china_specific: bool = False
    export_limited: bool = False
    unified_memory: bool = False
    market_notes: list[str] = []

    @property
    def has_nvlink(self) -> bool:
        return self.interconnect in ("nvlink", "infinity-fabric")


class RentalPrice(Record):
    provider: str
    gpu: str = Field(description="Gpu.id")
    region: Literal["global", "us", "eu", "china"]
    offering: str
    gpus_per_instance: int = Field(default=1, ge=1)
    price_low: float = Field(gt=0)
    price_high: float = Field(gt=0)
    currency: Literal["USD", "CNY"] = "USD"
    kind: Literal["on-demand", "spot", "marketplace", "serverless"] = "on-demand"

    @model_validator(mode="after")
    def _low_le_high(self) -> RentalPrice:
        if self.price_high < self.price_low:
            raise ValueError("price_high is below price_low")
        return self


class Precision(Record):
    id: str
    name: str
    aliases: list[str] = []
    family: Literal["float", "int", "gptq", "awq", "bnb", "gguf"]
    bits_per_weight: float = Field(gt=0, le=32, description="effective bits, scales and zero points included")
    quantizes_embeddings: bool = Field(
        description="False: embeddings and output head stay at 16 bits (GPTQ, AWQ, bitsandbytes, FP8)"
    )
    engines: list[Literal["transformers", "vllm", "llama.cpp"]]
    usable_for_kv: bool = False
    kv_bits: float | None = None
    compute: Literal["bf16", "fp8", "int8"] = Field(
        default="bf16", description="tensor-core format the matrix multiplies run in"
    )
    notes: str = ""


class ModelArch(Record):
    id: str
    name: str
    family: str
    aliases: list[str] = []
    hf_ids: list[str] = []
    total_params_b: float = Field(gt=0, description="billions of parameters, as published")
    active_params_b: float = Field(gt=0)
    num_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    intermediate_size: int = Field(gt=0, description="dense MLP width (per expert for MoE: moe_intermediate_size)")
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    vocab_size: int = Field(gt=0)
    max_context: int = Field(gt=0)
    tied_embeddings: bool = False
    attention: Literal["mha", "gqa", "mla", "sliding", "hybrid"]
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_layers: int = Field(default=0, ge=0, description="how many layers use the sliding window")
    kv_lora_rank: int | None = Field(default=None, gt=0, description="MLA: latent width cached per token")
    qk_rope_head_dim: int | None = Field(default=None, gt=0, description="MLA: rotary part cached per token")
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    num_shared_experts: int = 0
    modality: Literal["text", "vision-language"] = "text"
    notes: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> ModelArch:
        if self.active_params_b > self.total_params_b:
            raise ValueError("active_params_b exceeds total_params_b")
        if self.num_attention_heads % self.num_kv_heads:
            raise ValueError("num_attention_heads is not a multiple of num_kv_heads")
        if self.attention == "mla" and (self.kv_lora_rank is None or self.qk_rope_head_dim is None):
            raise ValueError("MLA needs kv_lora_rank and qk_rope_head_dim")
        if self.attention in ("sliding", "hybrid") and (self.sliding_window is None or not self.sliding_layers):
            raise ValueError("sliding/hybrid attention needs sliding_window and sliding_layers")
        if self.sliding_layers > self.num_layers:
            raise ValueError("sliding_layers exceeds num_layers")
        if (self.num_experts is None) != (self.experts_per_token is None):
            raise ValueError("MoE needs both num_experts and experts_per_token")
        return self

    @property
    def is_moe(self) -> bool:
        return self.num_experts is not None


class Provider(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str
    region: Literal["global", "us", "eu", "china"]
    notes: str = ""


class CapabilityRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    memory_gb: float
    typical_cards: list[str]
    can_do: str


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: str
    title: str
    picks: list[str] = Field(description="'count x gpu-id' options, first is the default")
    rent_first: bool
    why: str


class Rules(Record):
    """The seed guide's rules of thumb, as data the tools and the assistant read."""

    inference_headroom_low: float = Field(ge=0, le=1)
    inference_headroom_high: float = Field(ge=0, le=1)
    buy_utilisation_low: float = Field(ge=0, le=1)
    buy_utilisation_high: float = Field(ge=0, le=1)
    usd_per_cny: float = Field(gt=0)
    usd_per_cny_as_of: date
    usd_per_cny_source: str
    default_mfu_training: float = Field(gt=0, le=1)
    providers: list[Provider]
    capability_table: list[CapabilityRow]
    scenarios: list[Scenario]
    china_caveats: list[str]
    interconnect_warning: str
    cost_levers: list[str]
