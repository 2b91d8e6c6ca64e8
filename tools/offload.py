"""llama.cpp with part of a model in system RAM: how much stays on the card, how much RAM it takes, how fast it runs.

Two splits, the ones people use on a card too small for the model:
- layers (`-ngl N`): the last N layers on the card, the rest (and the output head) in system RAM; a decode
  step reads the RAM-side layers' weights on the CPU, at the RAM's bandwidth.
- experts (`-ngl 99 --n-cpu-moe N`, or `-ot exps=CPU` / `--cpu-moe` for all): a mixture-of-experts model's
  attention, shared experts and KV cache on the card, the routed experts of the first N layers in RAM; a
  decode step reads only the experts the router picks (experts per token of the experts), so the RAM side
  costs the active expert bytes, not the file.
Every tensor's bytes come from the GGUF file type's own rules (knowledge/gguf.py); the card-side speed is the
all-on-card speed (tools.throughput) scaled by the share of the bytes read there; the RAM side is bytes over
the RAM's bandwidth (knowledge/host_memory.py). A long prompt's batches copy the RAM-side weights to the card
over PCIe (llama.cpp's op offload for batches of 32 tokens or more), which bounds prompt reading.

On several equal cards (`gpus`), llama.cpp's layer split (-sm layer, the default) places the card-side layers in
order over the cards, in the shares `-ts` gives (layers per card); each card holds its layers' weights and KV cache
and its own compute buffer, so N cards hold about N times one card's share, while a decode step still runs the layers
one card after another: the card side reads at one card's bandwidth (tools.throughput's llama.cpp speed on N GPUs).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.knowledge.gguf import assign_types, normalise_file_type, type_bytes
from gpu_advisor.knowledge.host_memory import host_links, pcie_link, ram_band
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.common import (
    GPU_HELP,
    MAX_COUNT,
    MAX_LIST_ITEMS,
    MODEL_HELP,
    Explained,
    Term,
    ToolError,
    ToolInput,
    term,
)
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.throughput import SpeedInput, speed

OffloadMode = Literal["layers", "experts"]
# What the operating system and the desktop keep of system RAM beside the model's share.
OS_RESERVE_GB = 4.0
# -ngl for every layer on the card (llama.cpp counts the output layer as one more; any value past the count works):
# the usual spelling, raised for a model of more layers.
ALL_LAYERS_NGL = 99
# llama.cpp's prompt batches (n_ubatch): each copies the RAM-side weights to the card once.
UBATCH = 512
# Equal cards one computer holds for a layer split (a board's x16/x8 slots; 8 is a mining-style frame).
MAX_OFFLOAD_GPUS = 8


class OffloadInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, ge=1, le=MAX_OFFLOAD_GPUS, description="how many of that card the computer holds (all the "
                      "same): llama.cpp splits the card-side layers over them in order (-ts), each card with its own "
                      "compute buffer; decode still runs one card at a time")
    precision: str = Field("q4_k_m", description="a GGUF file type: q4_k_m, q3_k_m, iq2_xs ...")
    context: int = Field(8192, gt=0, le=MAX_COUNT, description="tokens of context the KV cache holds")
    kv_precision: str | None = Field(None, description="llama.cpp's KV cache type: f16 (default) or q8_0")
    system_ram_gb: float | None = Field(None, gt=0, le=16384, description="the computer's system memory, GiB")
    ram: str | None = Field(None, description="the system memory, a knowledge/host_memory record id "
                                               "(ddr5-4800-server-12ch); default: a desktop's, a band")
    mode: OffloadMode | None = Field(None, description="layers (-ngl) or experts (--n-cpu-moe); default: experts "
                                                        "for a mixture-of-experts model, layers otherwise")


class OffloadResult(Explained):
    model: str
    model_id: str
    gpu: str
    gpus: int = 1
    precision: str
    kv_precision: str | None = Field(None, description="llama.cpp's KV cache type sized (-ctk/-ctv); None: f16")
    mode: OffloadMode
    layers: int
    tensor_split: list[int] | None = Field(None, description="-ts: layers per card (the output layer counted on the "
                                                             "last), when the split is over several cards")
    gpu_gb_per_card: float = Field(0.0, description="GB on the fullest card")
    gpu_layers: int = Field(description="layers on the card")
    ngl: int = Field(description="the -ngl value of the flags (ALL_LAYERS_NGL when every layer is on the card): the "
                                 "launch command carries the same")
    cpu_moe_layers: int | None = Field(None, description="--n-cpu-moe: layers whose routed experts stay in RAM")
    gpu_gb: float = Field(description="GB on the card, on all the cards together (weights, KV cache, buffers)")
    ram_gb: float = Field(description="GB of weights (and KV) kept in system RAM")
    ram_needed_gb: float = Field(description="system RAM needed: the RAM-side share and OS_RESERVE_GB")
    ram_ok: bool | None = Field(None, description="whether the system RAM said holds it (None: not said)")
    decode_tokens_per_s: float
    decode_tokens_per_s_range: tuple[float, float]
    all_on_card_tokens_per_s: float = Field(description="the same file all on a card big enough: what offload costs")
    prefill_tokens_per_s_range: tuple[float, float]
    flags: str = Field(description="llama-server flags for the split")
    fits: bool = Field(description="whether any split puts the card-side share within the card")


def _file_type(precision_id: str) -> str:
    if precision_id == "mxfp4":
        return "MXFP4_MOE"  # gpt-oss's own GGUF: MXFP4 experts, the rest 8-bit
    try:
        return normalise_file_type(precision_id)
    except KeyError:
        raise ToolError(f"{precision_id} is not a GGUF file type: CPU offload is sized for llama.cpp's files") from None


def _layer_bytes(model: ModelArch, ft: str) -> tuple[list[float], list[float], float, float]:
    """(bytes per layer, routed-expert bytes per layer, output head and final norm, token embedding)."""
    per_layer = [0.0] * model.num_layers
    experts = [0.0] * model.num_layers
    head = embd = 0.0
    for t, ty in assign_types(model, ft):
        b = type_bytes(ty, t.numel)
        if t.layer >= 0:
            per_layer[t.layer] += b
            if "_exps" in t.name:
                experts[t.layer] += b
        elif t.category == "token_embd":
            embd += b
        else:
            head += b
    if model.tied_embeddings:
        head += embd  # the output multiplies by the embedding matrix: a copy of it where the head runs
    return per_layer, experts, head, embd


def _split(sizes: list[float], room: float, cards: int) -> list[int] | None:
    """Layers per card when the layers (in order, `sizes` bytes each on a card) fill up to `cards` cards of `room`
    bytes each, as evenly as whole layers allow (the fullest card as empty as it can be); None when they do not fit."""
    def fill(limit: float) -> list[int] | None:
        counts, load = [0], 0.0
        for size in sizes:
            if size > limit:
                return None
            if load + size > limit:
                if len(counts) == cards:
                    return None
                counts.append(0)
                load = 0.0
            counts[-1] += 1
            load += size
        return counts + [0] * (cards - len(counts))

    if fill(room) is None:
        return None
    low, high = max(sizes, default=0.0), room
    for _ in range(48):  # the smallest limit per card that still holds every layer
        mid = (low + high) / 2
        low, high = (low, mid) if fill(mid) is not None else (mid, high)
    return fill(high)


def offload(inp: OffloadInput) -> OffloadResult:
    model = resolve_model(inp.model)
    gpu = find_gpu(inp.gpu)
    precision = find_precision(inp.precision)
    if gpu.unified_memory:
        raise ToolError(f"{gpu.name} shares one memory between CPU and GPU: there is no system RAM to offload to")
    ft = _file_type(precision.id)
    mode: OffloadMode = inp.mode or ("experts" if model.num_experts else "layers")
    if mode == "experts" and not model.num_experts:
        raise ToolError(f"{model.name} is a dense model: it has no experts to keep in RAM (offload layers with -ngl)")
    mem = inference_memory(InferenceMemoryInput(model=model.id, precision=precision.id, gpu=gpu.id, engine="llama.cpp",
                                                context=inp.context, batch=1, kv_precision=inp.kv_precision))
    cap = mem.term("gpu_capacity_bytes").value
    kv = mem.term("kv_cache_bytes").high
    buffers = mem.term("activation_bytes").high + mem.term("overhead_bytes").high
    per_layer, experts, head, embd = _layer_bytes(model, ft)
    n_layers = model.num_layers
    kv_layer = kv / n_layers
    active = (model.experts_per_token or 1) / (model.num_experts or 1)

    def read(layer: int) -> float:  # bytes a decode step reads of one layer's weights
        return per_layer[layer] - experts[layer] * (1 - active)

    cards = inp.gpus
    room = cap - buffers  # each card: its layers' weights and KV cache beside its own compute buffer

    def on_cards(sizes: list[float]) -> list[int] | None:
        return _split(sizes, room, cards)

    cpu_moe: int | None = None
    split: list[int] | None = None
    if mode == "experts":
        def sizes_moe(n: int) -> list[float]:  # the first n layers' routed experts in RAM, the head on the last card
            return [per_layer[i] - (experts[i] if i < n else 0.0) + kv_layer + (head if i == n_layers - 1 else 0.0)
                    for i in range(n_layers)]
        n = next((n for n in range(n_layers + 1) if on_cards(sizes_moe(n)) is not None), None)
        if n is None:
            mode = "layers"  # even attention and the shared weights alone overflow the cards: whole layers go
        else:
            cpu_moe, ngl, split = n, n_layers, on_cards(sizes_moe(n))
            placed = sizes_moe(n)
            ram_bytes = sum(experts[:n]) + embd
            gpu_read = sum(read(i) for i in range(n_layers)) - sum(experts[:n]) * active + head + kv
            cpu_read = sum(experts[:n]) * active
            copied = sum(experts[:n])
    if mode == "layers":
        def sizes_top(g: int) -> list[float]:  # the last g layers on the cards (the head too when all of them are)
            return [per_layer[i] + kv_layer + (head if g == n_layers and i == n_layers - 1 else 0.0)
                    for i in range(n_layers - g, n_layers)]
        ngl = max((g for g in range(n_layers + 1) if on_cards(sizes_top(g)) is not None), default=0)
        split, placed = on_cards(sizes_top(ngl)), sizes_top(ngl)
        low = n_layers - ngl  # layers 0 .. low-1 stay in RAM
        ram_bytes = sum(per_layer[:low]) + kv_layer * low + embd + (head if ngl < n_layers else 0.0)
        gpu_read = sum(read(i) for i in range(low, n_layers)) + kv_layer * ngl + (head if ngl == n_layers else 0.0)
        cpu_read = sum(read(i) for i in range(low)) + kv_layer * low + (head if ngl < n_layers else 0.0)
        copied = sum(per_layer[:low]) + (head if ngl < n_layers else 0.0)
    counts = split or [0] * cards
    starts = [sum(counts[:c]) for c in range(cards)]
    per_card = [sum(placed[starts[c]:starts[c] + counts[c]]) + buffers for c in range(cards)]
    gpu_bytes = sum(per_card)
    fits = split is not None and ngl > 0

    # the card side at llama.cpp's layer-split speed on these cards: one card's bandwidth and a hop per card
    full = speed(SpeedInput(model=model.id, precision=precision.id, gpu=gpu.id, gpus=cards, batch=1,
                            context=inp.context, engine="llama.cpp", kv_precision=inp.kv_precision))
    whole_read = sum(read(i) for i in range(n_layers)) + head + kv
    share = gpu_read / whole_read if whole_read else 1.0
    slow_card, fast_card = full.decode_tokens_per_s_range
    slow_ram, fast_ram = ram_band() if inp.ram is None else (host_links()[inp.ram], host_links()[inp.ram])
    ram_slow, ram_mid_a = slow_ram.reached_gbps[0] * 1e9, slow_ram.reached_gbps[1] * 1e9
    ram_fast, ram_mid_b = fast_ram.reached_gbps[2] * 1e9, fast_ram.reached_gbps[1] * 1e9
    ram_mid = (ram_mid_a + ram_mid_b) / 2

    def tokens_per_s(card_tps: float, ram_bps: float) -> float:
        return 1.0 / (share / card_tps + cpu_read / ram_bps)

    decode = tokens_per_s(full.decode_tokens_per_s, ram_mid)
    decode_range = (tokens_per_s(slow_card, ram_slow), tokens_per_s(fast_card, ram_fast))
    link = pcie_link(gpu.pcie_gen)
    link_slow, _, link_fast = link.reached_gbps
    pre_slow, pre_fast = full.prefill_tokens_per_s_range
    prefill = (1.0 / (1.0 / pre_slow + copied / (link_slow * 1e9 * UBATCH)),
               1.0 / (1.0 / pre_fast + copied / (link_fast * 1e9 * UBATCH)))
    ram_needed = round(ram_bytes / 1e9, 1) + OS_RESERVE_GB  # the share as the answer says it (GB, to the tenth) + the reserve
    ram_ok = None if inp.system_ram_gb is None else inp.system_ram_gb >= ram_needed
    ngl_flag = max(ALL_LAYERS_NGL, n_layers + 1) if mode == "experts" else ngl
    flags = f"-ngl {ngl_flag} --n-cpu-moe {cpu_moe}" if mode == "experts" and cpu_moe else f"-ngl {ngl_flag}"
    # -ts shares count the layers llama.cpp puts on the cards, the output layer with them when -ngl passes the
    # layer count (llama-model.cpp load_tensors: layer i goes to the card whose cumulative share passes i / layers)
    tensor_split = None if cards == 1 or split is None else \
        [*split[:-1], split[-1] + (1 if mode == "experts" or ngl > n_layers else 0)]
    if tensor_split is not None:
        flags += " -ts " + ",".join(str(c) for c in tensor_split)

    terms: list[Term] = [
        term("gpu_bytes", "On the card", gpu_bytes, "bytes",
             "layers on the card x their weights + their KV cache + compute buffer and llama.cpp's own"
             if mode == "layers" else "attention, shared experts and norms of every layer + routed experts of the "
             "layers on the card + KV cache + buffers", {"layers_on_card": ngl, "layers": n_layers}),
        term("gpu_bytes_per_card", "On the fullest card", max(per_card), "bytes",
             "the card-side layers placed in order over the cards (-ts: layers per card), each card its layers' "
             "weights and KV cache + its own compute buffer; N equal cards hold about N x one card's share",
             {"gpus": cards, "layers_per_card": ",".join(str(c) for c in counts), "capacity_bytes": round(cap)}),
        term("ram_bytes", "In system RAM", ram_bytes, "bytes",
             "the other layers' weights (and KV) + the token embedding (always in RAM)" if mode == "layers"
             else "routed experts of the first --n-cpu-moe layers + the token embedding", {"cpu_moe_layers": cpu_moe or 0}),
        term("decode_tokens_per_s", "Decode speed", decode, "tokens/s",
             "1 / (share of bytes read on the card / all-on-card speed + bytes read in RAM / RAM bandwidth)",
             {"share_on_card": round(share, 3), "ram_read_bytes": round(cpu_read), "ram_gbps": round(ram_mid / 1e9, 1),
              "all_on_card_tokens_per_s": round(full.decode_tokens_per_s, 1), "active_share": round(active, 4)}),
    ]
    terms[-1] = terms[-1].model_copy(update={"low": decode_range[0], "high": decode_range[1]})
    split_words = [] if cards == 1 else [
        f"{cards} equal cards in one computer, llama.cpp's layer split (-sm layer): the card-side layers in order over "
        f"the cards (-ts {','.join(str(c) for c in tensor_split or counts)}), each with its own compute buffer; a decode step runs the "
        f"cards one after another, so the card side reads at one card's bandwidth plus a hand-over per card"]
    assumptions = [*split_words,
        f"system RAM between {slow_ram.label} ({slow_ram.peak_gbps:g} GB/s peak) and {fast_ram.label} "
        f"({fast_ram.peak_gbps:g} GB/s), {slow_ram.reached_range[0]:.0%}-{fast_ram.reached_range[1]:.0%} of peak reached "
        "(not fitted to offload measurements: a band)",
        f"prompt batches of {UBATCH} tokens copy the RAM-side weights to the card over {link.label} "
        f"({link.peak_gbps:g} GB/s)",
        f"{OS_RESERVE_GB:g} GB of system RAM left to the operating system",
    ]
    warnings = [] if fits else [f"even with every layer in RAM but one, {model.name} in {precision.id} does not fit "
                                f"{gpu.name}'s memory"]
    if ram_ok is False:
        warnings.append(f"needs about {ram_needed:.0f} GB of system RAM; {inp.system_ram_gb:g} GB said")
    return OffloadResult(
        model=model.name, model_id=model.id, gpu=gpu.name, gpus=cards, precision=precision.id,
        kv_precision=inp.kv_precision if inp.kv_precision not in (None, "f16") else None, mode=mode,
        layers=n_layers, tensor_split=tensor_split, gpu_gb_per_card=max(per_card) / 1e9,
        gpu_layers=ngl, ngl=ngl_flag, cpu_moe_layers=cpu_moe, gpu_gb=gpu_bytes / 1e9, ram_gb=ram_bytes / 1e9, ram_needed_gb=ram_needed,
        ram_ok=ram_ok, decode_tokens_per_s=decode, decode_tokens_per_s_range=decode_range,
        all_on_card_tokens_per_s=full.decode_tokens_per_s, prefill_tokens_per_s_range=prefill, flags=flags, fits=fits,
        terms=terms, assumptions=assumptions, warnings=warnings)


# Shares of a GPU's weights put in system RAM when a plan's memory spills over: a tenth, a quarter, a half.
SPILL_SHARES = (0.1, 0.25, 0.5)


class SpillInput(ToolInput):
    gpu: str = Field(description=GPU_HELP)
    weights_bytes: float = Field(gt=0, description="the weights each GPU of the plan holds, bytes")
    tpot_s: float = Field(gt=0, description="the plan's time per output token with everything on the card, s")
    through: Literal["pcie", "ram"] = Field("pcie", description="pcie: the spilled weights are copied to the card "
                                            "every step (vLLM --cpu-offload-gb); ram: the CPU reads them (llama.cpp -ngl)")
    shares: tuple[float, ...] = Field(SPILL_SHARES, max_length=MAX_LIST_ITEMS, description="shares of each GPU's weights kept in system RAM")


class SpillRow(BaseModel):
    share: float
    spilled_bytes: float
    tpot_s: float
    tokens_per_s: float
    tokens_per_s_range: tuple[float, float]
    slowdown: float = Field(description="how many times slower than all on the card")


class SpillResult(Explained):
    gpu: str
    through: Literal["pcie", "ram"]
    link: str
    link_gbps: tuple[float, float, float] = Field(description="(slow, central, fast) GB/s reached")
    all_on_card_tokens_per_s: float
    rows: list[SpillRow]


def spill(inp: SpillInput) -> SpillResult:
    """A plan's decode when part of each GPU's weights sits in system RAM: every step moves (or reads) those bytes
    over the slower link, so the time per token grows by spilled bytes / link bandwidth, whatever the batch."""
    gpu = find_gpu(inp.gpu)
    if gpu.unified_memory:
        raise ToolError(f"{gpu.name} shares one memory between CPU and GPU: there is no system RAM to spill to")
    if inp.through == "pcie":
        link = pcie_link(gpu.pcie_gen)
        slow, mid, fast = link.reached_gbps
        label = link.label
    else:
        slow_ram, fast_ram = ram_band()
        slow, mid, fast = slow_ram.reached_gbps[0], (slow_ram.reached_gbps[1] + fast_ram.reached_gbps[1]) / 2, \
            fast_ram.reached_gbps[2]
        label = f"{slow_ram.label} .. {fast_ram.label}"
    rows = []
    for share in inp.shares:
        moved = inp.weights_bytes * share
        t_mid = inp.tpot_s + moved / (mid * 1e9)
        t_slow, t_fast = inp.tpot_s + moved / (slow * 1e9), inp.tpot_s + moved / (fast * 1e9)
        rows.append(SpillRow(share=share, spilled_bytes=moved, tpot_s=t_mid, tokens_per_s=1 / t_mid,
                             tokens_per_s_range=(1 / t_slow, 1 / t_fast), slowdown=t_mid / inp.tpot_s))
    terms = [term("tpot_s", "Time per token", rows[0].tpot_s, "s",
                  "the plan's time per token + weights in RAM / link bandwidth (every decode step moves them)",
                  {"tpot_s": inp.tpot_s, "link_gbps": round(mid, 1), "share": rows[0].share})]
    assumptions = [f"{label}: {slow:.0f}-{fast:.0f} GB/s reached (not fitted to offload measurements: a band)",
                   "the card's own part keeps its speed; the spilled bytes cross the link once per decode step"]
    return SpillResult(gpu=gpu.name, through=inp.through, link=label, link_gbps=(slow, mid, fast),
                       all_on_card_tokens_per_s=1 / inp.tpot_s, rows=rows, terms=terms, assumptions=assumptions)
