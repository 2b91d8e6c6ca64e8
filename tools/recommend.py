"""Recommend: rank card x count options for a described workload, rent or buy, with the reasons."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from knowledge import find_gpu, rules
from knowledge.schema import Gpu
from tools import arch
from tools.common import ToolInput, Explained, ToolError
from tools.cost import HOURS_PER_MONTH, Region, RentBuyInput, RentBuyResult, rent_vs_buy, try_price
from tools.inference import InferenceMemoryInput, inference_memory, usable_bytes
from tools.models import resolve_model
from tools.throughput import SpeedInput, speed
from tools.training import Method, TrainingMemoryInput, training_memory
from tools.training_time import TrainingTimeInput, training_time

Phase = Literal["experiment", "fine-tune", "serve", "train-and-serve", "production"]

CANDIDATES = {
    "global": ["rtx-4090", "rtx-5090", "l40s", "rtx-6000-ada", "a100-80gb-sxm", "h100-sxm", "h200", "b200"],
    "china": ["rtx-4090", "rtx-3090", "rtx-5090", "l20", "a800-80gb-sxm", "h20", "h800-sxm", "a100-80gb-sxm"],
}
COUNTS = (1, 2, 4, 8)
# Below this many tokens per second per user, a chat feels slower than reading.
MIN_TOKENS_PER_S = 10.0
# Options with less free memory than this rank after roomier ones: the estimate has a range, and
# real workloads spike (the guide asks for 20-40% reserve beyond the weights).
TIGHT_HEADROOM = 0.10


class Workload(ToolInput):
    phase: Phase = "train-and-serve"
    model: str
    serve_precision: str = Field("int8", description="weight format for serving")
    method: Method = "qlora"
    context: int = Field(8192, gt=0, description="tokens per conversation held in memory")
    users: int = Field(1, gt=0, description="people generating at the same time")
    utilisation: float = Field(0.5, ge=0, le=1)
    region: Region = "global"
    budget_usd_per_month: float | None = Field(None, gt=0, description="for renting")
    budget_usd: float | None = Field(None, gt=0, description="to buy cards outright")
    owned: list[str] = Field(default_factory=list, description="cards already owned, e.g. '2x rtx-3090'")
    preference: Literal["rent", "buy", "either"] = "either"
    train_tokens: float = Field(20e6, gt=0, description="fine-tuning tokens per run")
    seq_len: int = Field(2048, gt=0)
    min_tokens_per_s: float = Field(MIN_TOKENS_PER_S, gt=0)
    candidates: list[str] | None = None


class Option(BaseModel):
    gpu: str
    gpu_name: str
    gpus: int
    owned: bool = False
    serves: bool | None = None
    trains: bool | None = None
    serve_per_gpu_bytes: float | None = None
    train_per_gpu_bytes: float | None = None
    capacity_bytes: float
    headroom_fraction: float
    decode_tokens_per_s: float | None = None
    aggregate_tokens_per_s: float | None = None
    training_hours: float | None = None
    training_usd: float | None = None
    usd_per_hour: float | None = None
    usd_per_month: float | None = None
    cny_per_hour: float | None = None
    purchase_usd: float | None = None
    ok: bool
    warnings: list[str] = []
    reasons: list[str] = []


class Recommendation(Explained):
    workload: Workload
    best: Option | None
    options: list[Option]
    rent_or_buy: RentBuyResult | None = None
    scenario: str | None = None


def parse_owned(text: str) -> tuple[int, Gpu]:
    m = re.match(r"^\s*(\d+)\s*[x×*]?\s*(.+)$", text)
    count, name = (int(m[1]), m[2]) if m else (1, text)
    return count, find_gpu(name)


def _serves(w: Workload) -> bool:
    return w.phase in ("serve", "train-and-serve", "production", "experiment")


def _trains(w: Workload) -> bool:
    return w.phase in ("fine-tune", "train-and-serve", "production", "experiment")


def evaluate(w: Workload, gpu: Gpu, n: int, owned: bool = False) -> Option | None:
    model = resolve_model(w.model)
    if w.phase != "fine-tune" and n not in arch.valid_tensor_parallel(model, 8):
        return None
    warnings: list[str] = []
    reasons: list[str] = []
    headrooms: list[float] = []
    opt = Option(gpu=gpu.id, gpu_name=gpu.name, gpus=n, owned=owned, capacity_bytes=0, headroom_fraction=0, ok=False)
    if _serves(w):
        mem = inference_memory(InferenceMemoryInput(model=w.model, precision=w.serve_precision, context=w.context,
                                                    batch=w.users, gpus=n, gpu=gpu.id))
        opt.serves, opt.serve_per_gpu_bytes = bool(mem.fits), mem.per_gpu_total_bytes
        opt.capacity_bytes = mem.gpu_capacity_bytes or 0
        budget = opt.capacity_bytes * (0.9 if mem.engine == "vllm" else 1)
        headrooms.append((budget - mem.per_gpu_total_bytes) / budget)
        if mem.fits:
            sp = speed(SpeedInput(model=w.model, precision=w.serve_precision, gpu=gpu.id, gpus=n, batch=w.users,
                                  context=w.context))
            opt.decode_tokens_per_s, opt.aggregate_tokens_per_s = sp.decode_tokens_per_s, sp.aggregate_decode_tokens_per_s
            warnings += sp.warnings
            if sp.decode_tokens_per_s < w.min_tokens_per_s:
                warnings.append(f"{sp.decode_tokens_per_s:.0f} tokens/s per user is slower than reading speed")
    if _trains(w):
        tm = training_memory(TrainingMemoryInput(model=w.model, method=w.method, seq_len=w.seq_len, gpus=n,
                                                 zero=3 if n > 1 and w.method == "full" else 0))
        cap = usable_bytes(gpu)
        opt.capacity_bytes = opt.capacity_bytes or cap
        opt.trains, opt.train_per_gpu_bytes = tm.per_gpu_total_bytes <= cap, tm.per_gpu_total_bytes
        headrooms.append((cap - tm.per_gpu_total_bytes) / cap)
        tt = training_time(TrainingTimeInput(model=w.model, gpu=gpu.id, gpus=n, method=w.method, tokens=w.train_tokens,
                                             region=w.region))
        opt.training_hours, opt.training_usd = tt.hours, tt.usd
        warnings += tt.warnings
    opt.headroom_fraction = min(headrooms)
    quote = try_price(gpu.id, w.region)
    if quote and not owned:
        opt.usd_per_hour = quote.usd_per_gpu_hour_typical * n
        opt.usd_per_month = opt.usd_per_hour * HOURS_PER_MONTH * max(w.utilisation, 0.01)
        if w.region == "china":
            opt.cny_per_hour = opt.usd_per_hour / rules().usd_per_cny
    if gpu.buy_price_usd and not owned:
        opt.purchase_usd = gpu.buy_price_usd * n
    if gpu.unified_memory:
        warnings.append("Apple unified memory: fine for one person's inference with llama.cpp/MLX, no CUDA training")
    if w.region == "china" and gpu.export_limited and not gpu.china_specific:
        warnings.append(f"{gpu.name} is export-restricted: supply in China depends on channels")
    opt.ok = all(x is not False for x in (opt.serves, opt.trains)) and (
        opt.decode_tokens_per_s is None or opt.decode_tokens_per_s >= w.min_tokens_per_s)
    cap_gb = opt.capacity_bytes / 1e9
    if opt.serves is False and opt.serve_per_gpu_bytes:
        reasons.append(f"serving needs {opt.serve_per_gpu_bytes / 1e9:,.1f} GB per GPU; the card has {cap_gb:,.1f} GB")
    if opt.trains is False and opt.train_per_gpu_bytes:
        reasons.append(f"fine-tuning needs {opt.train_per_gpu_bytes / 1e9:,.1f} GB per GPU; the card has {cap_gb:,.1f} GB")
    if opt.ok:
        if opt.serves:
            reasons.append(f"serves {w.users} user(s) at {w.context:,} tokens with {opt.headroom_fraction:.0%} memory to spare")
        if opt.trains:
            reasons.append(f"{w.method} fine-tuning fits")
    if opt.ok and opt.headroom_fraction < TIGHT_HEADROOM:
        warnings.append(f"only {opt.headroom_fraction:.0%} of memory to spare: little room for longer chats or spikes")
    opt.warnings = list(dict.fromkeys(warnings))
    opt.reasons = reasons
    return opt


def _rank_key(o: Option, w: Workload) -> tuple:
    concerns = sum(1 for x in o.warnings if "NVLink" in x or "consumer" in x or "poor value" in x)
    price = 0.0 if o.owned else (o.purchase_usd if w.preference == "buy" else o.usd_per_hour) or 1e12
    tight = o.headroom_fraction < TIGHT_HEADROOM
    return (not o.ok, not o.owned, tight, concerns if w.phase == "production" else 0, price, o.gpus, -o.headroom_fraction)


def recommend(w: Workload) -> Recommendation:
    resolve_model(w.model)  # fail early on an unknown model
    names = w.candidates or CANDIDATES["china" if w.region == "china" else "global"]
    options: list[Option] = []
    for text in w.owned:
        count, gpu = parse_owned(text)
        o = evaluate(w, gpu, count, owned=True)
        if o:
            options.append(o)
    for name in names:
        gpu = find_gpu(name)
        for n in COUNTS:
            o = evaluate(w, gpu, n)
            if o:
                options.append(o)
                if o.ok:
                    break  # more of the same card only costs more
    if not options:
        raise ToolError("no candidate card could be evaluated for this model")
    if w.budget_usd_per_month:
        for o in options:
            if o.usd_per_month and o.usd_per_month > w.budget_usd_per_month:
                o.warnings.append(f"about {o.usd_per_month:,.0f} USD a month at {w.utilisation:.0%} use, over the budget")
    options.sort(key=lambda o: _rank_key(o, w))
    fitting = [o for o in options if o.ok]
    best = fitting[0] if fitting else None
    if w.budget_usd:
        for o in options:
            if o.purchase_usd and o.purchase_usd > w.budget_usd:
                o.warnings.append(f"buying costs {o.purchase_usd:,.0f} USD, over the {w.budget_usd:,.0f} USD budget")
        affordable = [o for o in fitting if o.owned or (o.purchase_usd or 1e18) <= w.budget_usd]
        if affordable and w.preference != "rent":
            best = min(affordable, key=lambda o: (not o.owned, o.purchase_usd or 0, o.gpus))
    if w.budget_usd_per_month:
        within = [o for o in fitting if o.owned or (o.usd_per_month or 0) <= w.budget_usd_per_month]
        if within:
            best = within[0] if not (w.budget_usd and best in within) else best
    assumptions = []
    if _serves(w):
        assumptions.append(f"serving in {w.serve_precision}, {w.users} concurrent user(s), {w.context:,}-token context")
    if _trains(w):
        method = {"full": "full fine-tuning", "lora": "LoRA fine-tuning", "qlora": "QLoRA fine-tuning"}[w.method]
        assumptions.append(f"{method} on {w.train_tokens / 1e6:g}M tokens per run, "
                           f"sequences of {w.seq_len:,}")
    assumptions.append(f"utilisation {w.utilisation:.0%}; region {w.region}")
    rb = None
    if best and not best.owned:
        try:
            rb = rent_vs_buy(RentBuyInput(gpu=best.gpu, gpus=best.gpus, utilisation=w.utilisation, region=w.region))
        except ToolError:
            rb = None
    scenario = {"experiment": "experiment", "production": "production"}.get(w.phase)
    if scenario is None:
        scenario = "small-team" if w.phase == "train-and-serve" else None
    warnings = []
    if best is None:
        warnings.append("no single-node option fits: consider a smaller model, 4-bit weights, or a multi-node setup")
    if w.region == "china" and _trains(w) and any(o.gpu == "h20" and o.ok for o in fitting[:5]):
        warnings += rules().china_caveats[:1]
    return Recommendation(workload=w, best=best, options=options, rent_or_buy=rb, scenario=scenario,
                          assumptions=assumptions, warnings=warnings)
