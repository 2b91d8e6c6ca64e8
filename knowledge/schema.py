"""Pydantic records for every fact the sizing tools read.

Each record names where it came from (`source`) and when that was true (`as_of`). Units are in the
field names: `_gb` is 10^9 bytes, `_gbps` is 10^9 bytes per second, `_tflops` is 10^12 dense
(non-sparse) tensor operations per second.
"""

from __future__ import annotations

from datetime import date
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    source: str = Field(min_length=3)
    as_of: date


HostKind = Literal["consumer", "workstation", "datacenter-pcie", "datacenter-board", "apple"]
Stack = Literal["cuda", "rocm", "metal", "cann", "gaudi"]
SizedEngine = Literal["transformers", "vllm", "llama.cpp", "sglang"]

# NVIDIA architectures, oldest first: an engine's `min_arch` admits that one and every later one.
NVIDIA_ARCHS: tuple[str, ...] = ("pascal", "volta", "turing", "ampere", "ada", "hopper", "blackwell")
# Architectures that compute FP16 but not BF16: NVIDIA's Volta and Turing tensor cores (whitepapers), AMD's RDNA 2
# shaders (no matrix cores, packed FP16 only); NVIDIA's Pascal has no tensor cores and no BF16 at all (FP16 at 1/64
# rate on GP102/GP104, so the card record's bf16_tflops holds its FP32 rate there).
NO_BF16_ARCHS: tuple[str, ...] = ("pascal", "volta", "turing", "rdna2")
# Architectures without tensor cores: 16-bit and quantized multiplies run on the CUDA cores (FP32, FP16, DP4A).
TENSORLESS_ARCHS: tuple[str, ...] = ("pascal",)
Arch = Literal["pascal", "volta", "turing", "ampere", "ada", "hopper", "blackwell", "cdna3", "cdna4", "rdna2", "rdna3", "rdna3.5",
               "rdna4"]

# The software stack each vendor's cards run; a record that disagrees is a typo.
_VENDOR_STACK: dict[str, str] = {
    "nvidia": "cuda", "amd": "rocm", "apple": "metal", "huawei": "cann", "intel": "gaudi",
}


class Gpu(Record):
    id: str
    name: str
    aliases: list[str] = []
    vendor: Literal["nvidia", "amd", "apple", "huawei", "intel"]
    stack: Stack = Field(
        default="cuda",
        description="software ecosystem the card needs: CUDA, ROCm, Metal, CANN, Intel Gaudi software (SynapseAI)",
    )
    segment: Literal["consumer", "workstation", "datacenter", "apple"]
    memory_gb: float = Field(gt=0)
    memory_bandwidth_gbps: float = Field(gt=0)
    memory_type: Literal["gddr", "hbm", "lpddr"]
    bf16_tflops: float = Field(gt=0, description="dense BF16/FP16 tensor throughput, FP32 accumulate")
    fp8_tflops: float | None = Field(default=None, gt=0, description="dense FP8 tensor; None: no FP8 units")
    int8_tops: float | None = Field(default=None, gt=0)
    arch: Arch | None = Field(
        default=None, description="chip architecture (NVIDIA and AMD): which engines run there depends on it",
    )
    interconnect: Literal["nvlink", "nvlink-bridge", "pcie", "infinity-fabric", "hccs", "roce", "unified"]
    nvlink_gbps: float | None = Field(
        default=None, gt=0,
        description="per-GPU NVLink (Infinity Fabric, HCCS, Gaudi's on-chip RoCE) bandwidth, both directions",
    )
    pcie_gen: int | None = None
    tdp_w: float = Field(gt=0)
    buy_price_usd: float | None = Field(default=None, gt=0, description="typical price of one card, new")
    sold_in: int = Field(
        default=1, ge=1,
        description="GPUs per purchasable unit: 8 for HGX/OAM boards (modules are not sold singly), 1 for cards",
    )
    china_specific: bool = False
    export_limited: bool = False
    domestic_china: bool = Field(
        default=False, description="made by a Chinese vendor: what a domestic-only (国产化, 信创) policy allows",
    )
    unified_memory: bool = False
    china_channel: Literal["official", "licence", "grey"] | None = Field(
        default=None, description="how it is bought in China when the export rules do not say it (a modified board: "
                                  "grey); None: from the rules (knowledge/china_channel.py)",
    )
    server_models: dict[str, int] = Field(
        default_factory=dict,
        description="servers sold with this card, by name, and how many of it each holds (Atlas 800I A2: 8 x 910B)",
    )
    npus_per_package: int = Field(
        default=1, ge=1,
        description="devices the software sees in one package a person counts as a card: the Ascend 910C's two "
                    "dies are two 64 GB NPUs, so '8卡910C' is 16 of this record",
    )
    laptop: bool = Field(
        default=False, description="a laptop GPU: soldered into the laptop that holds it, owned, never rented or sold alone",
    )
    market_notes: list[str] = []

    @model_validator(mode="after")
    def _stack_matches_vendor(self) -> Gpu:
        if self.stack != _VENDOR_STACK[self.vendor]:
            raise ValueError(f"stack '{self.stack}' does not match vendor '{self.vendor}'")
        return self

    @property
    def has_nvlink(self) -> bool:
        """A fast GPU-to-GPU link inside the server (NVLink/NVSwitch, AMD Infinity Fabric, Huawei HCCS, the
        all-to-all 200 GbE RoCE ports built into Intel Gaudi): tensor parallelism across these cards does
        not crawl over PCIe."""
        return self.interconnect in ("nvlink", "infinity-fabric", "hccs", "roce")

    @property
    def native_bf16(self) -> bool:
        """Whether the card computes BF16 in hardware: NVIDIA's Volta (V100) and Turing (T4, RTX 20) tensor cores
        take FP16 only, so a bf16 run there trains in fp16 mixed precision or fp32 instead."""
        return self.arch not in NO_BF16_ARCHS

    @property
    def tensor_cores(self) -> bool:
        """Whether the card has matrix units: NVIDIA's Pascal (GTX 10, P40, P100) has none, so its 16-bit multiplies
        run on the CUDA cores (FP32 on GP102/GP104, whose FP16 runs at 1/64 rate)."""
        return self.arch not in TENSORLESS_ARCHS

    @property
    def host_kind(self) -> HostKind:
        """The machine the card goes into (a key of Rules.host_systems): buying a card means buying
        or owning that machine too, and board parts only come as whole 8-GPU servers."""
        if self.segment in ("apple", "consumer", "workstation"):
            return self.segment
        return "datacenter-board" if self.sold_in > 1 else "datacenter-pcie"

    @property
    def at_home(self) -> bool:
        """Bought hardware that sits on a desk (PC, workstation, Mac): no hosting fee to pay."""
        return self.host_kind in ("consumer", "workstation", "apple")


class UnsizedCard(Record):
    """An accelerator named by users that the catalog cannot size (data/unsized_cards.yaml): the figures on
    record, each None where no source gives it."""

    id: str
    name: str
    name_zh: str
    aliases: list[str] = []
    vendor: str
    domestic_china: bool = Field(default=False, description="made by a Chinese vendor (a domestic-only rule allows it)")
    memory_gb: float | None = Field(default=None, gt=0)
    memory_bandwidth_gbps: float | None = Field(default=None, gt=0)
    fp16_tflops: float | None = Field(default=None, gt=0)
    int8_tops: float | None = Field(default=None, gt=0)
    tdp_w: float | None = Field(default=None, gt=0)
    software: str
    software_zh: str

    @property
    def missing(self) -> list[str]:
        """The figures sizing needs that are not on record, by field name."""
        return [k for k in ("memory_gb", "memory_bandwidth_gbps", "fp16_tflops") if getattr(self, k) is None]

    @property
    def spec(self) -> str | None:
        """A custom-card spec of the figures on record when memory and bandwidth both are, else None."""
        if self.memory_gb is None or self.memory_bandwidth_gbps is None:
            return None
        extra = {"bf16": self.fp16_tflops, "int8": self.int8_tops, "power": self.tdp_w}
        parts = [f"memory={self.memory_gb:g}GB", f"bandwidth={self.memory_bandwidth_gbps:g}GB/s"]
        parts += [f"{k}={v:g}" + ("W" if k == "power" else "") for k, v in extra.items() if v is not None]
        return "custom:" + ",".join(parts + ["domestic=yes"] * self.domestic_china)


class EngineSupport(BaseModel):
    """One software stack an engine runs on, and how."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    stack: Stack
    shown_as: str | None = Field(None, description="the engine's name on this stack (vLLM-Ascend), if it differs")
    min_arch: str | None = Field(None, description="oldest NVIDIA architecture supported (NVIDIA_ARCHS)")
    archs: list[str] | None = Field(None, description="only these architectures (AMD: the gfx targets it ships)")
    note: str = ""

    @model_validator(mode="after")
    def _known_arch(self) -> EngineSupport:
        if self.min_arch is not None and self.min_arch not in NVIDIA_ARCHS:
            raise ValueError(f"min_arch '{self.min_arch}' is not one of {', '.join(NVIDIA_ARCHS)}")
        known = set(get_args(Arch))
        for a in self.archs or []:
            if a not in known:
                raise ValueError(f"archs: '{a}' is not a known architecture")
        return self


class Engine(Record):
    """A serving engine and the hardware it runs on. `sized_as` names the memory and speed model the
    tools apply to it; an engine without one of its own is sized as the nearest (SGLang as vLLM)."""

    id: str
    name: str
    sized_as: SizedEngine
    runs_on: list[EngineSupport] = Field(min_length=1)
    notes: str = ""
    speed_as: SizedEngine | None = Field(None, description="the speed model applied, when not sized_as's own")
    aliases: list[str] = Field(default_factory=list, description="lower-case names people type for it")
    for_en: str = Field("", description="what the engine is for, in plain English")
    for_zh: str = Field("", description="what the engine is for, in Chinese")
    suggested: bool = Field(True, description="named in an answer's 'also runs here' line; False for an engine "
                                              "in maintenance mode, described only when asked about")
    batching: str = Field("", description="how the engine batches requests from many users, in its own words "
                                          "('in-flight batching'), from its documentation; empty: not on record")

    def support_on(self, gpu: Gpu) -> EngineSupport | None:
        """How this engine runs on that card, or None when it does not."""
        for s in self.runs_on:
            if s.stack != gpu.stack:
                continue
            if s.archs is not None and gpu.arch is not None and gpu.arch not in s.archs:
                continue
            if s.min_arch is not None and gpu.arch in NVIDIA_ARCHS and \
                    NVIDIA_ARCHS.index(gpu.arch) < NVIDIA_ARCHS.index(s.min_arch):
                continue
            return s
        return None

    def name_on(self, gpu: Gpu) -> str | None:
        s = self.support_on(gpu)
        return None if s is None else (s.shown_as or self.name)


class AppleVariant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    gpu_cores: int = Field(gt=0)
    bandwidth_gbps: float = Field(gt=0)
    memory_gb: list[int] = Field(min_length=1)


class AppleChip(Record):
    """An Apple silicon chip and the configurations it was sold in (data/apple_chips.yaml)."""

    id: str
    name: str
    fp32_tflops_per_core: float = Field(gt=0)
    tdp_w: float = Field(gt=0)
    variants: list[AppleVariant] = Field(min_length=1)


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
    family: Literal["float", "int", "gptq", "awq", "bnb", "gguf", "mx"] = Field(
        description="mx: OCP microscaling block formats (MXFP4), not a training compute format"
    )
    bits_per_weight: float = Field(gt=0, le=32, description="effective bits, scales and zero points included")
    quantizes_embeddings: bool = Field(
        description="False: embeddings and output head stay at 16 bits (GPTQ, AWQ, bitsandbytes, FP8)"
    )
    engines: list[SizedEngine]
    usable_for_kv: bool = False
    kv_bits: float | None = None
    compute: Literal["bf16", "fp8", "int8"] = Field(
        default="bf16", description="tensor-core format the matrix multiplies run in"
    )
    tensor_core_archs: list[Arch] = Field(
        default_factory=list, description="chip architectures whose tensor cores compute in this format natively "
        "(FP4 on Blackwell); on the others engines unpack it to 16 bits: it saves memory, not compute",
    )
    weight_only_archs: list[Arch] = Field(
        default_factory=list, description="chip architectures without tensor cores for this format where engines still "
        "load it weight-only, unpacking the weights to 16 bits in the kernel (FP8 on Ampere through vLLM's Marlin "
        "W8A16 kernels): it saves memory and decode reads, not compute. An NVIDIA card outside this list and without "
        "the tensor cores has no kernel for the format in vLLM",
    )
    unconverted_stacks: list[Stack] = Field(
        default_factory=list, description="software stacks whose engines cannot load a checkpoint in this format: "
        "there it is converted (Ascend serves FP8 and FP4 checkpoints as W8A8 INT8)",
    )
    quality: Literal["reference", "near_lossless", "small_loss", "noticeable", "large", "severe"] | None = Field(
        None, description="output quality against BF16 as published comparisons put it (a code the writers say)")
    accuracy_drop_pct: tuple[float, float] | None = Field(
        None, description="published accuracy loss against BF16 on benchmark averages, low and high, in percent "
        "(0, 0: effectively lossless); accuracy_source names the study")
    accuracy_source: str = ""
    accuracy_models: str = Field("", description="the model family the accuracy figures were measured on")
    calibration: Literal["activation_aware", "second_order"] | None = Field(
        None, description="how a calibrated low-bit format rounds its weights (a code the writers say): "
        "activation_aware (AWQ: scales up the input channels that large activations hit before rounding, fits no "
        "weights to the calibration set, so it is less sensitive to it), second_order (GPTQ: rounds a column at a "
        "time and corrects the error on the columns left with the layer's Hessian; act-order and group size 128 "
        "bring it close to AWQ); None: rounded to nearest or not a calibrated format")
    calibration_rank: int | None = Field(
        None, description="among the formats of one width, the more robust calibration ranks lower (1 before 2), as "
        "calibration_source measures it")
    calibration_source: str = ""
    training_stacks: list[Stack] | None = Field(
        default=None, description="software stacks whose fine-tuning frameworks hold a frozen base in this format "
        "(QLoRA's NF4 needs bitsandbytes kernels); None: every stack")
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
    yarn_context: int | None = Field(default=None, gt=0, description="the context its model card documents with "
                                     "YaRN RoPE scaling (Qwen2.5 7B: 131072 from 32768 native); None: none documented")
    yarn_original: int | None = Field(default=None, gt=0, description="the native context YaRN scales from "
                                      "(original_max_position_embeddings); None: max_context")
    tied_embeddings: bool = False
    strong_languages: list[str] = Field(
        default=[], description="languages besides English its model card and public benchmarks (C-Eval, CMMLU) show it "
        "writes well ('zh'): the model taken when the user's work is writing in that language and no model is named "
        "(knowledge.language_pick)")
    attention: Literal["mha", "gqa", "mla", "sliding", "hybrid"]
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_layers: int = Field(default=0, ge=0, description="how many layers use the sliding window")
    recurrent_layers: int = Field(
        default=0, ge=0, description="layers without a KV cache: linear attention, state-space or MLP-only blocks",
    )
    recurrent_state_bytes: float = Field(
        default=0, ge=0, description="fixed state those layers keep per sequence, all of them together",
    )
    state_kind: Literal["recurrent", "image_cross_attention"] = Field(
        default="recurrent", description="what those layers are: 'recurrent' (linear attention, state-space) or "
        "'image_cross_attention' (Llama 3.2 Vision: layers that attend to one request's image patches, whose keys "
        "and values are the per-request state)",
    )
    recurrent_projections: int = Field(
        default=0, ge=0, description="matrices of hidden x heads x head_dim in each of those layers' mixer, in place "
        "of the attention layer's (MiniMax lightning attention: q, k, v on every head, an output gate and the output: "
        "5); 0: counted as an attention layer",
    )
    per_layer_input_size: int = Field(
        default=0, ge=0, description="Gemma 3n per-layer embeddings: the width each layer's own embedding of the "
        "token adds (hidden_size_per_layer_input); 0: none",
    )
    per_layer_vocab_size: int | None = Field(
        default=None, gt=0, description="rows of the per-layer embedding table (vocab_size_per_layer_input)",
    )
    kv_lora_rank: int | None = Field(default=None, gt=0, description="MLA: latent width cached per token")
    qk_rope_head_dim: int | None = Field(default=None, gt=0, description="MLA: rotary part cached per token")
    q_lora_rank: int | None = Field(default=None, gt=0, description="MLA: query compression rank (None: no compression)")
    v_head_dim: int | None = Field(default=None, gt=0, description="MLA: value width per head")
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    num_shared_experts: int = 0
    shared_expert_intermediate_size: int | None = Field(
        default=None, gt=0, description="MoE: MLP width of each shared expert (None: intermediate_size)",
    )
    dense_layers: int = Field(
        default=0, ge=0, description="MoE: layers with one dense MLP instead of experts (DeepSeek's first_k_dense_replace, "
                                     "Llama 4 Maverick's interleaved dense layers)",
    )
    dense_intermediate_size: int | None = Field(default=None, gt=0, description="MoE: MLP width of those dense layers")
    modality: Literal["text", "vision-language"] = "text"
    gated_mlp: bool = Field(default=True, description="MLP of three matrices (SwiGLU/GeGLU); False: two with GELU "
                                                     "between (BERT, XLM-RoBERTa)")
    learned_positions: int = Field(default=0, ge=0, description="rows of a learned position-embedding table (BERT's "
                                                              "512, XLM-RoBERTa's 514 or 8194); 0: rotary or none")
    encoder: bool = Field(
        default=False, description="an embedding or reranking model: it reads text and returns vectors or scores and "
                                   "generates no tokens, so a job on it is prefill only (about 2 x parameters FLOPs per token)",
    )
    reasoning_output_tokens: int | None = Field(
        default=None, gt=0, description="a reasoning model (DeepSeek-R1 and its distills, QwQ) writes its thinking "
                                        "before the answer: the tokens of a typical answer, thinking included, sized "
                                        "when no output length is said; None: not a reasoning model",
    )
    instruct_alternative: str | None = Field(
        default=None, description="a reasoning model's non-reasoning model of the same size and layout (its base's "
                                  "instruct model): the one to serve where waiting for its thinking is too slow",
    )
    vision_params_b: float = Field(
        default=0, ge=0, description="vision tower + projector, billions; already counted in total_params_b"
    )
    audio_params_b: float = Field(
        default=0, ge=0, description="audio encoder + projector, billions (Gemma 3n); already counted in total_params_b"
    )
    image_tokens: int | None = Field(default=None, gt=0, description="tokens a typical image becomes")
    native_precision: str | None = Field(
        default=None, description="Precision.id of the official checkpoint (gpt-oss: mxfp4); None: 16-bit"
    )
    native_bits_per_weight: float | None = Field(
        default=None, gt=0, le=32,
        description="bits per quantized weight as this checkpoint stores them (its own group size), when they "
                    "differ from the catalog precision's figure",
    )
    checkpoint_bytes: float | None = Field(
        default=None, gt=0, description="bytes of all tensors as the checkpoint stores them (safetensors headers)"
    )
    gguf_file_bytes: dict[str, int] = Field(
        default={}, description="bytes of the repository's GGUF files per precision id (shards summed)"
    )
    params_by_dtype: dict[str, int] = Field(
        default={}, description="stored values per safetensors dtype (packed formats count packed words)"
    )
    revision: str | None = Field(default=None, description="Hub commit the facts were read from")
    resolved_from: Literal["catalog", "config", "hub", "hf-cache", "name", "size"] = Field(
        default="catalog", description="where the shape came from: the catalog, a config.json, the Hub (or its "
                                       "cache on this machine), the size in the name, or a bare size",
    )
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
        if self.sliding_layers + self.recurrent_layers > self.num_layers:
            raise ValueError("sliding_layers plus recurrent_layers exceeds num_layers")
        if (self.num_experts is None) != (self.experts_per_token is None):
            raise ValueError("MoE needs both num_experts and experts_per_token")
        if self.dense_layers and (self.num_experts is None or self.dense_layers >= self.num_layers
                                  or self.dense_intermediate_size is None):
            raise ValueError("dense_layers belong to an MoE model, with fewer than num_layers and a "
                             "dense_intermediate_size")
        if self.modality == "text" and (self.vision_params_b or self.image_tokens):
            raise ValueError("a text-only model has no vision tower or image tokens")
        if self.vision_params_b + self.audio_params_b >= self.total_params_b:
            raise ValueError("vision_params_b and audio_params_b must be a part of total_params_b")
        if self.per_layer_input_size and self.per_layer_vocab_size is None:
            raise ValueError("per-layer embeddings need per_layer_vocab_size")
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


class HostSystem(BaseModel):
    """The machine around the cards: its price and how many cards one such machine takes."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    usd: float = Field(ge=0)
    gpus: int = Field(ge=1)
    lead_days: int = Field(0, ge=0, description="usual days from order to the machine running")
    note: str


class GlossaryTopic(Record):
    """A concept the assistant explains in plain words ("what is a KV cache?"), in both languages."""

    id: str
    title_en: str
    title_zh: str
    aliases: list[str] = Field(min_length=1, description="lower-case English and Chinese names of the topic")
    en: str = Field(min_length=40)
    zh: str = Field(min_length=20)

    @model_validator(mode="after")
    def _lower_case_aliases(self) -> GlossaryTopic:
        upper = [a for a in self.aliases if a != a.lower()]
        if upper:
            raise ValueError(f"aliases must be lower-case: {upper}")
        return self


class Rules(Record):
    """The seed guide's rules of thumb, as data the tools and the assistant read."""

    inference_headroom_low: float = Field(ge=0, le=1)
    inference_headroom_high: float = Field(ge=0, le=1)
    training_margin_gb: float = Field(ge=0, description="fine-tuning: GB kept free on each card beyond the estimate "
                                                        "(NCCL buffers, workspaces, the CUDA context's kernels)")
    training_margin_share: float = Field(ge=0, lt=1, description="fine-tuning: share of the card's usable memory kept "
                                                                 "free besides (fragmentation, activation peaks)")
    training_room_slowdown_max: float = Field(ge=1, description="online RL: a layout with the margin free is taken "
                                                                "over a faster one at the edge up to this many times "
                                                                "its hours")
    buy_utilisation_low: float = Field(ge=0, le=1)
    buy_utilisation_high: float = Field(ge=0, le=1)
    usd_per_cny: float = Field(gt=0)
    usd_per_cny_as_of: date
    usd_per_cny_source: str
    usd_per_currency: dict[str, float] = Field(default_factory=dict, description="USD per unit of other currencies "
                                                                         "a budget is said in (EUR, GBP)")
    usd_per_currency_as_of: date | None = None
    usd_per_currency_source: str = ""
    default_mfu_training: float = Field(gt=0, le=1)
    few_offers_below: int = Field(ge=1, description="a rental price from fewer offers than this is marked and "
                                                    "ranked dearer by the spread of well-sourced prices")
    well_sourced_offers: int = Field(ge=2, description="cards priced from at least this many offers measure that "
                                                       "spread")
    software_risk_over_spread: bool = Field(True, description="a card whose answer warns about its software stack "
                                            "(off CUDA) must beat a CUDA card by more than the measured price spread, "
                                            "on top of its stack margin, unless the user named it")
    providers: list[Provider]
    capability_table: list[CapabilityRow]
    scenarios: list[Scenario]
    china_caveats: list[str]
    interconnect_warning: str
    cost_levers: list[str]
    host_systems: dict[HostKind, HostSystem]
    peak_share_online: float = Field(gt=0, le=1, description="of the people who use a service, generating at once at the busiest moment")
    peak_share_quantile: float = Field(gt=0, lt=1, description="the count at once is sized for this quantile")
    product_min_tokens_per_s: float = Field(gt=0, description="per-user decode speed at load a product people use "
                                            "(customer-facing chat, a public API) is held at, unless one is said")
    product_min_tokens_per_s_source: str
    reasoning_context_tokens: int = Field(32768, gt=0, description="the context per conversation a reasoning model "
                                          "(R1, QwQ, Qwen3 thinking) is sized at when none is said: room for its thinking")
    reasoning_context_source: str = ""
    unknown_native_context_tokens: int = Field(32768, gt=0, description="a model known only by its size: past this "
                                               "context, its own native context and RoPE scaling are asked for "
                                               "(its config.json), none being on record")
    peak_share_source: str
    peak_share_daily: float = Field(gt=0, le=1, description="of the people who use a service in a day, generating at once at the busiest moment")
    peak_share_daily_source: str
    short_chat_prompt_tokens: int = Field(gt=0, description="prompt tokens of a request in a service of short chats")
    short_chat_output_tokens: int = Field(gt=0, description="tokens an answer writes in a service of short chats")
    short_chat_source: str
    size_variant_words: list[str] = Field(default_factory=list, description="words that name a smaller or larger "
                                          "variant of a release ('mini', 'small'): a name that adds one to a catalog "
                                          "id is another model, not a checkpoint of that one")
    daily_requests_peak_factor: float = Field(
        default=3.0, ge=1, le=24, description="the busiest hour's request rate over the day's average rate")
    daily_requests_peak_factor_source: str = ""

    @model_validator(mode="after")
    def _every_host_kind(self) -> Rules:
        missing = set(get_args(HostKind)) - set(self.host_systems)
        if missing:
            raise ValueError(f"host_systems lacks {sorted(missing)}")
        return self


TrainingOptimizer = Literal["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd"]


class FrameworkPreset(Record):
    """How a fine-tuning framework lays out memory by default (data/frameworks.yaml), read from its
    recipes and source: which dtypes it keeps, which optimizer, what it recomputes or offloads."""

    id: str
    name: str
    aliases: list[str] = []
    master_weights_fp32: bool = Field(
        description="full fine-tuning keeps FP32 trainable weights with FP32 gradients and optimizer states"
    )
    fp32_gradients: bool = Field(
        default=False, description="with FP32 master weights, the gradients are FP32 too (DeepSpeed's ZeRO "
                                   "optimizer partition, an FP32 trainable copy); else 16-bit"
    )
    optimizer_full: TrainingOptimizer
    optimizer_adapters: TrainingOptimizer
    optimizer_in_backward: bool = Field(
        default=False, description="each parameter steps as its gradient arrives: gradients are never all held"
    )
    adapter_dtype: Literal["fp32", "bf16"]
    activation_checkpointing: bool
    checkpoint_offload: bool = Field(default=False, description="checkpointed layer inputs kept in CPU memory")
    loss: Literal["full", "chunked", "fused"] = Field(
        description="full: whole logits with an FP32 copy; chunked: FP32 one chunk at a time; fused: never materialised"
    )
    multi_gpu_zero: Literal[0, 1, 2, 3] = Field(description="what several GPUs shard by default (3: FSDP full shard)")
    max_gpus: int | None = Field(default=None, ge=1, description="the most GPUs one run uses (None: no limit)")
    stacks: list[Stack] | None = Field(
        default=None, description="software stacks the framework trains on (None: every stack; Unsloth: CUDA only)")
    on_several_gpus: str | None = Field(
        default=None, description="the preset the framework uses on more than one GPU (torchtune's distributed recipes)"
    )
    default_method: Literal["full", "lora", "qlora"] | None = Field(
        default=None, description="the method a run uses when none is configured (verl, OpenRLHF, TRL's "
                                  "GRPOTrainer: every weight trains unless a LoRA rank is set); None: none on record")
    notes: list[str] = []


class ResidualBand(Record):
    """The measured error of one bench category (data/residuals.yaml, written by `python -m bench
    residuals`): the 10th and 90th percentiles of prediction / measured - 1 over its reference rows.
    A category without rows has rows 0 and no percentiles; the tools then state their fallback."""

    category: str = Field(description="bench category, e.g. 'inference memory (vllm)', 'fine-tuning memory (unsloth)'")
    rows: int = Field(ge=0)
    p10: float | None = Field(None, gt=-1)
    p90: float | None = Field(None, gt=-1)
    sources: list[str] = Field(default=[], description="reference source ids of the rows")

    @model_validator(mode="after")
    def _percentiles_with_rows(self) -> ResidualBand:
        if self.rows and (self.p10 is None or self.p90 is None):
            raise ValueError("a category with rows needs p10 and p90")
        if self.p10 is not None and self.p90 is not None and self.p10 > self.p90:
            raise ValueError("p10 is above p90")
        return self


LlamaCppBackend = Literal["cuda", "metal", "rocm", "vulkan"]
LlamaCppWeights = Literal["f16", "q8_0", "legacy", "k-quant"]


class LlamaCppEfficiency(Record):
    """How fast llama.cpp's kernels run on one backend for one kind of weights
    (data/llamacpp_efficiency.yaml). `legacy` is Q4_0/Q4_1/Q5_0/Q5_1; `k-quant` covers K- and I-quants.
    A field left empty takes the engine's default (tools/throughput.py ENGINE_EFFICIENCY)."""

    id: str
    backend: LlamaCppBackend
    weights: list[LlamaCppWeights] = Field(min_length=1)
    memory_types: list[Literal["gddr", "hbm", "lpddr"]] = Field(min_length=1)
    decode_bandwidth_eff: float = Field(gt=0, le=1, description="share of peak memory bandwidth a decode step's reads reach")
    layer_overhead_s: float | None = Field(default=None, ge=0, description="fixed time per layer per decode step")
    prefill_mfu: float | None = Field(
        default=None, gt=0, le=1, description="share of peak matmul throughput the prompt's weight multiplies reach",
    )
    token_overhead_s_per_bparam: float | None = Field(default=None, ge=0)
    fitted_on: str = Field(min_length=3, description="the measurements the constants were fitted to")
    notes: list[str] = []


TrainingWorkload = Literal["fine-tune", "pretrain"]


class TrainingMfu(Record):
    """The model FLOPs utilisation a training run reaches on one class of GPU (data/training_mfu.yaml):
    model FLOPs per second (the FLOPs tools/training_time.py counts, attention included) over the card's
    dense BF16 tensor rate. The first record whose filters all match a GPU applies; a filter left empty
    matches every card."""

    id: str
    workload: TrainingWorkload
    memory_types: list[Literal["gddr", "hbm", "lpddr"]] = Field(min_length=1)
    segments: list[Literal["consumer", "workstation", "datacenter", "apple"]] = []
    archs: list[str] = Field(default=[], description="GPU architectures (Gpu.arch); empty: any, unknown included")
    mfu: float = Field(gt=0, le=1)
    fitted_on: str = Field(min_length=3, description="the reference rows the value was fitted to, or how it was derived")
    notes: list[str] = []

    def matches(self, gpu: Gpu) -> bool:
        return (gpu.memory_type in self.memory_types and (not self.segments or gpu.segment in self.segments)
                and (not self.archs or gpu.arch in self.archs))


class FrameworkTrainingSpeed(Record):
    """How much faster (or slower) one fine-tuning framework trains than HF Trainer + PEFT on the same card."""

    framework: str = Field(description="FrameworkPreset.id")
    factor: float = Field(gt=0, le=4)
    fitted_on: str = Field(min_length=3)
    notes: list[str] = []


class TrainingEfficiency(BaseModel):
    """data/training_mfu.yaml: MFU by GPU class and workload, framework factors, and FP8's speed-up."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    classes: list[TrainingMfu] = Field(min_length=1)
    frameworks: list[FrameworkTrainingSpeed] = []
    fp8_speedup: float = Field(gt=0, le=2, description="FP8 linears (Transformer Engine, torchao Float8) over BF16, "
                                                       "on cards with FP8 tensor cores")
    fp8_fitted_on: str = Field(min_length=3)
    fp8_source: str = Field(min_length=3)


SupportCode = Literal["native", "weight_only", "other_kernels", "none"]


class SupportPath(BaseModel):
    """How one set of GPU architectures runs a format or feature (data/format_support.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    archs: list[str] = Field(min_length=1)
    code: SupportCode
    kernels: str | None = None  # kernel names (Marlin, Triton, FlashAttention-2): the same in every language
    engines: list[str] = []  # engines.yaml ids that take this path


class FormatSupport(Record):
    """A number format or kernel feature and what each architecture does with it (data/format_support.yaml)."""

    id: str
    paths: list[SupportPath] = Field(min_length=1)

    def path(self, arch: str | None) -> SupportPath | None:
        """The path this architecture takes, or None when none is on record."""
        return next((p for p in self.paths if arch in p.archs), None)


class UsedPrice(Record):
    """What one card sells for second-hand (eBay and similar), a range and the typical figure a buyer who
    accepts used cards plans with: data/used_prices.yaml, each row with its source and date."""

    gpu: str = Field(description="Gpu.id")
    usd_low: float = Field(gt=0)
    usd_high: float = Field(gt=0)
    usd: float = Field(gt=0, description="typical used price of one card: the middle of the range")
    used_only: bool = Field(False, description="no longer sold new (the source says 'used-only'): a purchase of it is "
                                               "priced used even where used was not said (tools.budget_rigs)")

    @model_validator(mode="after")
    def _typical_in_range(self) -> UsedPrice:
        if not self.usd_low <= self.usd <= self.usd_high:
            raise ValueError("usd is outside usd_low..usd_high")
        return self
