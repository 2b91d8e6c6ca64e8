"""Traffic as a request rate: how many requests are in flight, how long they wait, and how many replicas.

The model of one replica (vLLM or SGLang: continuous batching with chunked prefill):
- Every engine step decodes one token for each running sequence and, when prompts are waiting, prefills
  a chunk of up to `max_num_batched_tokens` prompt tokens with them. A decode step at a batch of b takes
  t_dec(b) (tools.throughput: weights and KV read per step, overhead, communication); a prompt token costs
  t_pre seconds of prefill (tools.throughput's prefill rate at that prompt length).
- Prefill share: rho_p = rate x prompt x t_pre, the share of the GPU's time spent on prompts; the decode
  steps get the rest, so each running sequence gets a token every TPOT(b) = t_dec(b) / (1 - rho_p).
- Little's law: in-flight sequences L = rate x time in system = rate x (TTFT + (output - 1) x TPOT(L)),
  solved as a fixed point (the smallest one; none below the batch limit: the replica is overloaded).
- The wait before prefill: prompts queue for the prefill "server", which serves a prompt in
  S = prompt x (t_pre + t_dec(L) / max_num_batched_tokens) (each chunk rides on a decode step). The wait is
  M/G/c with the Allen-Cunneen approximation: Erlang C's M/M/c wait times (Ca^2 + Cs^2) / 2, where Cs^2
  is the squared coefficient of variation of prompt lengths and Ca^2 that of the gaps between arrivals
  (1 for Poisson). c = 1 per replica when a load balancer spreads requests over replicas that each keep
  their own queue (round robin, random: the default), c = replicas when the router holds one queue and
  sends each request to a free replica (least-loaded routing). The wait's distribution is taken as
  exponential beyond the chance of waiting at all: P(wait > t) = P(wait) x exp(-t x P(wait) / mean wait),
  exact for M/M/c.
- The batch at a random moment: the in-flight count of an M/G/infinity system is Poisson(L), so its 99th
  percentile sets the p99 TPOT and the memory that must hold it (the KV cache and max_num_seqs).
- Time to first token at any percentile q (p50, p90, p95, p99: `ttft_percentile`): TTFT = W + S(X), the wait
  plus the own prefill of a prompt of random length X, independent of each other. Its tail is
  P(TTFT > t) = E_X[P(W > t - S(X))], the wait's tail averaged over the prompt lengths' quantiles, and the
  q-quantile is found by bisection. Adding the wait's p99 to the p99 prompt's prefill instead (both tails at
  once) overstates the p99 several-fold when prompts vary, and sizes the plan for a load it never sees.
  Sources: Erlang C and the M/M/c waiting-time tail (Kleinrock, Queueing Systems vol. 1, 1975, sec. 3.5;
  Harchol-Balter, Performance Modeling and Design of Computer Systems, 2013, ch. 14); Allen-Cunneen (Allen,
  Probability, Statistics and Queueing Theory, 1990).

Where it breaks: bursty traffic (Ca^2 well above 1: give it as `arrival_cv2`), a replica run near its
capacity (utilisation near 1: the approximations and the engine's own scheduling diverge; the sizing stops
at `max_utilisation`), very long prompts (a prefill chunk stalls every decode step: TPOT's p99 then comes
from the chunk, not from the batch), preemption when the KV cache fills, and prefix caching (not modelled:
it only makes prompts cheaper).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import (
    GPU_HELP,
    KV_PRECISION_HELP,
    MODEL_HELP,
    Explained,
    ToolError,
    ToolInput,
    term,
)
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory, vllm_batch_defaults
from gpu_advisor.tools.kept import kept_results
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.scale import (
    MAX_SERVING_GPUS,
    SERVER_GPUS,
    expert_units,
    latent_moe,
    servers_for,
    units,
)
from gpu_advisor.tools.throughput import SpeedInput, speed

RateEngine = Literal["vllm", "sglang"]
Routing = Literal["per-replica", "shared"]
PerUnit = Literal["second", "minute", "hour", "day"]
SECONDS_PER = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}

# The percentile a "p99" figure is read at, and the one the batch (and the memory that holds it) is sized for.
P99 = 0.99
# A replica is loaded up to this share of the most it can sustain: near 1 the queue's wait grows without bound
# and the approximations stop holding (M/G/1 waits are heavy-traffic limits; the engine's scheduler is not FCFS).
MAX_UTILISATION = 0.8
# Prompt lengths, unless a p99 is given: lognormal around the mean with a coefficient of variation of 0.5 (CV^2 0.25:
# the p99 prompt about 2.7 times the mean). A served prompt carries a fixed part (system prompt, template, retrieved
# passages, the document to classify) and varies around it: an exponential (CV 1, ShareGPT's free chat) puts most
# prompts near zero tokens and the p99 at 4.6 times the mean, and a p99 first-token target then sizes for prompts
# several times longer than the average said (review L: 2k-token prompts sized as 9.2k, 64 H20 at 33% load).
DEFAULT_PROMPT_CV2 = 0.25
# A per-token time said at a percentile (review CF #9: a p99 TPOT held as a mean 1.48x below it bought 26 L40S where
# about 20 do). The approximation, as vLLM's serving benchmark (`vllm bench serve`) measures it in
# tests/reference/per_token_tails.csv (each run's p99 over its mean):
#   p99 TPOT = TPOT at the p99 of the requests in flight (Poisson around Little's law; load_point) x the spread of
#              one request's time per output token at a fixed in-flight count (TPOT_P99_OVER_MEAN).
# The spread at a fixed in-flight count (some requests' decode steps carry more prefill chunks than others) is the
# median over the runs that held a fixed concurrency: 1.105 over four (1.08, 1.10, 1.11, 1.24). The open-loop runs
# (request rate inf: 2.71; a Poisson rate near saturation: 1.73) also carry the in-flight count's own swing, which the
# queueing model computes from the rate itself: counting their ratio again would count that swing twice. Without a
# request rate the users said are all in flight at once (a fixed concurrency): the mean is held 1.105x below the p99.
# Other percentiles read the same spread as a lognormal (p95 about 1.07x). ITL (each gap between two tokens: the steps
# that carry a prefill chunk stand out) runs 4.99x its mean at p99 (median of three runs, 2.95 to 5.62).
# Those ITL tails are of runs with the default prefill chunk (2,048 tokens or more): a service held to an ITL target
# caps the chunk (vLLM's --max-num-batched-tokens) so no step carries much prefill, and its ITL tail then stays near
# the TPOT's. Sizing the mean 5x below an ITL target instead buys 5-8x the cards (review U2 #14, #18): an ITL target
# is held like a TPOT one, and the answer says the chunk cap it relies on and what untuned runs show.
TPOT_P99_OVER_MEAN = 1.105
STEADY_TPOT_RANGE = (1.08, 1.24)  # the fixed-concurrency runs' p99 / mean TPOT, lowest and highest (said with it)
ITL_P99_OVER_MEAN = 4.99
# Latency targets are sized with this share to spare (a 2 s target is held at 1.9 s): a plan that meets a percentile
# target exactly leaves nothing for the approximations above (Allen-Cunneen, the step-time grid) or a busier minute.
# Small on purpose: a plan 8% under its target keeps its count; one at 99.9% of it gets another copy or layout.
# When no layout keeps the margin, the target itself is held and the plan says it has no margin (edge_of_target).
TARGET_MARGIN = 0.05
# Fixed-point iterations for Little's law; beyond them the replica counts as overloaded.
FIXED_POINT_STEPS = 400
Z99 = NormalDist().inv_cdf(P99)
# Quantiles of the prompt length the TTFT tail is averaged over: fine bins on the body, finer in the tail
# (a p99.9 target reads the last thousandth), each (probability midpoint, weight).
_LENGTH_BINS: tuple[tuple[float, float], ...] = (
    *(((i + 0.5) / 100 * 0.9, 0.9 / 100) for i in range(100)),
    *((0.9 + (i + 0.5) / 90 * 0.09, 0.09 / 90) for i in range(90)),
    *((0.99 + (i + 0.5) / 90 * 0.009, 0.009 / 90) for i in range(90)),
    *((0.999 + (i + 0.5) / 20 * 0.001, 0.001 / 20) for i in range(20)),
)
# Bisection steps for a TTFT quantile (relative precision 2^-40).
QUANTILE_STEPS = 40


def percentile_name(q: float) -> str:
    """0.9 -> 'p90', 0.95 -> 'p95', 0.999 -> 'p99.9'."""
    return f"p{q * 100:.10g}"


def per_second(value: float, per: PerUnit) -> float:
    """A rate said per second, minute, hour or day, in requests per second (spread evenly)."""
    return value / SECONDS_PER[per]


def erlang_c(servers: int, offered: float) -> float:
    """Erlang C: the chance an arrival waits in an M/M/c queue with c = servers and offered load a = rate /
    service rate (a < c). Computed through Erlang B's recursion B(k) = a B(k-1) / (k + a B(k-1)), then
    C = c B / (c - a (1 - B)), which stays stable for large c."""
    if offered <= 0:
        return 0.0
    if offered >= servers:
        return 1.0
    b = 1.0
    for k in range(1, servers + 1):
        b = offered * b / (k + offered * b)
    return servers * b / (servers - offered * (1 - b))


def wait_quantile(p_wait: float, mean_wait: float, q: float) -> float:
    """The q-quantile of the wait when P(wait > t) = p_wait x exp(-t x p_wait / mean_wait): 0 when at least
    a share q of arrivals do not wait."""
    if p_wait <= 1 - q or mean_wait <= 0:
        return 0.0
    return mean_wait / p_wait * math.log(p_wait / (1 - q))


def poisson_quantile(mean: float, q: float) -> int:
    """Smallest k with P(N <= k) >= q for N ~ Poisson(mean); the normal approximation above a mean of 1,000."""
    if mean <= 0:
        return 0
    if mean > 1000:
        return math.ceil(mean + NormalDist().inv_cdf(q) * math.sqrt(mean) - 0.5)
    log_pmf, total, k, log_mean = -mean, 0.0, 0, math.log(mean)
    while True:
        total += math.exp(log_pmf)
        if total >= q:
            return k
        k += 1
        log_pmf += log_mean - math.log(k)


def lognormal_cv2(mean: float, p99: float) -> float:
    """Squared coefficient of variation of a lognormal length with this mean and 99th percentile:
    p99 = mean x exp(sigma z - sigma^2 / 2), so sigma = z - sqrt(z^2 - 2 ln(p99 / mean)), CV^2 = exp(sigma^2) - 1.
    A p99 beyond what a lognormal with that mean can reach is read at the widest (sigma = z)."""
    ratio = max(p99 / mean, 1.0)
    inside = Z99 ** 2 - 2 * math.log(ratio)
    sigma = Z99 - math.sqrt(max(inside, 0.0))
    return math.expm1(sigma ** 2)


def length_quantile(mean: int, cv2: float, u: float, exponential: bool) -> float:
    """The u-quantile of a prompt length with this mean: exponential (-mean ln(1 - u)) when no tail was given,
    else lognormal with that squared coefficient of variation (sigma^2 = ln(1 + CV^2), median mean exp(-sigma^2/2))."""
    if exponential:
        return -mean * math.log(1 - u)
    if cv2 <= 0:
        return float(mean)
    sigma = math.sqrt(math.log1p(cv2))
    return mean * math.exp(sigma * NormalDist().inv_cdf(u) - sigma ** 2 / 2)


def tail_factor(q: float, cv2: float = DEFAULT_PROMPT_CV2) -> float:
    """How far the q-quantile of a per-request time lies above its mean when it spreads as the prompts do
    (lognormal, squared CV `cv2`): at least 1 (a median target is held as a mean)."""
    sigma = math.sqrt(math.log1p(cv2))
    return max(1.0, math.exp(sigma * NormalDist().inv_cdf(q) - sigma ** 2 / 2))


def per_token_tail(q: float, step: bool = False, untuned: bool = False) -> float:
    """How far the q-quantile of a per-token time lies above its mean, as vLLM's serving benchmark measures it
    (the lognormal with that p99), at least 1: of TPOT (each request's mean time per output token), which an ITL
    target (step: each gap between tokens) is held like, with the prefill chunk capped; `untuned`: of ITL in runs with
    the default chunk (ITL_P99_OVER_MEAN), said beside it."""
    ratio = ITL_P99_OVER_MEAN if step and untuned else TPOT_P99_OVER_MEAN
    return tail_factor(q, lognormal_cv2(1.0, ratio))


def swing_tpot(tpot_p99_s: float) -> float:
    """A p99 time per output token without one request's own spread (TPOT_P99_OVER_MEAN): the in-flight count's swing
    alone, the per-token time the whole answer's p99 adds to the first token's (load_point's e2e_p99_s)."""
    return tpot_p99_s / TPOT_P99_OVER_MEAN


def ttft_quantile(q: float, p_wait: float, mean_wait: float, prefills: tuple[tuple[float, float], ...]) -> float:
    """The q-quantile of TTFT = W + S: P(W > w) = p_wait exp(-w p_wait / mean_wait) (w >= 0; the M/M/c
    waiting-time tail, Allen-Cunneen's mean), S the own prefill, given as (seconds, probability) over the prompt
    lengths' quantiles. P(TTFT > t) = sum of weight x P(W > t - s); bisection for the t where it is 1 - q."""
    rate = p_wait / mean_wait if mean_wait > 0 and p_wait > 0 else math.inf
    waits = math.isfinite(rate)

    def tail(t: float) -> float:
        total = 0.0
        for s, weight in prefills:
            if t < s:
                total += weight
            elif waits:
                total += weight * p_wait * math.exp(-(t - s) * rate)
        return total

    hi = max(s for s, _ in prefills) + wait_quantile(p_wait, mean_wait, 1 - (1 - q) / 2)
    lo = 0.0
    if not math.isfinite(hi):
        return math.inf
    for _ in range(QUANTILE_STEPS):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if tail(mid) <= 1 - q else (mid, hi)
    return hi


class RateInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    gpu: str = Field(description=GPU_HELP)
    precision: str = Field("bf16", description="weight format")
    kv_precision: str | None = Field(None, description=KV_PRECISION_HELP)
    engine: RateEngine = Field("vllm", description="continuous batching with chunked prefill: vLLM or SGLang")
    requests_per_s: float = Field(gt=0, le=1e6, description="requests arriving per second at the busiest time")
    prompt_tokens: int = Field(gt=0, le=2_000_000, description="mean prompt length")
    output_tokens: int = Field(gt=0, le=1_000_000, description="mean tokens generated per request")
    prompt_tokens_p99: int | None = Field(None, gt=0, description="99th-percentile prompt length; default: "
                                          "lengths vary around the mean with a CV of 0.5 (lognormal; p99 about "
                                          "2.7 x the mean)")
    output_tokens_p99: int | None = Field(None, gt=0, description="99th-percentile output length (end-to-end p99); "
                                          "default: the mean")
    arrival_cv2: float = Field(1.0, ge=0, le=100, description="squared coefficient of variation of the gaps "
                               "between requests: 1 Poisson, 0 evenly spaced, above 1 bursty")
    ttft_p50_ms: float | None = Field(None, gt=0, description="target median time to first token")
    ttft_p99_ms: float | None = Field(None, gt=0, description="target 99th-percentile time to first token")
    ttft_target_ms: float | None = Field(None, gt=0, description="target time to first token at ttft_percentile")
    ttft_percentile: float = Field(P99, ge=0.5, le=0.999, description="the percentile ttft_target_ms is held at: "
                                   "0.9 for a p90 target, 0.95 for p95, 0.99 for p99")
    tpot_ms: float | None = Field(None, gt=0, description="target median time per output token")
    tpot_p99_ms: float | None = Field(None, gt=0, description="target 99th-percentile time per output token")
    e2e_p99_ms: float | None = Field(None, gt=0, description="target 99th-percentile end-to-end latency")
    routing: Routing = Field("per-replica", description="per-replica: each replica queues its own requests; "
                             "shared: one queue, each request to a free replica (least-loaded routing)")
    max_utilisation: float = Field(MAX_UTILISATION, gt=0, lt=1, description="most of a replica's capacity used")
    tp: int | None = Field(None, gt=0, le=64, description="tensor-parallel GPUs per replica; default: searched")
    pp: int | None = Field(None, gt=0, le=16, description="pipeline stages per replica; default: searched")
    target_margin: float = Field(TARGET_MARGIN, ge=0, lt=1, description="share of each latency target kept to spare "
                                 "(0.05: a 2 s target sized at 1.9 s); when no layout keeps it, the target itself is held")
    replicas: int | None = Field(None, gt=0, le=4096, description="exactly this many copies (cards already chosen, "
                                 "laid out as such); default: the fewest that meet every target")
    server_gpus: int = Field(SERVER_GPUS, gt=0, le=16, description="GPUs in each server")
    max_gpus: int = Field(MAX_SERVING_GPUS, gt=0, le=4096, description="most GPUs in all")

    def targets(self) -> dict[str, float]:
        """The latency targets stated, in seconds, by key."""
        said = {"ttft_p50_s": self.ttft_p50_ms, "ttft_p99_s": self.ttft_p99_ms, "ttft_q_s": self.ttft_target_ms,
                "tpot_p50_s": self.tpot_ms, "tpot_p99_s": self.tpot_p99_ms, "e2e_p99_s": self.e2e_p99_ms}
        return {k: v / 1000 for k, v in said.items() if v is not None}


class LoadPoint(BaseModel):
    """One replica at one request rate."""

    requests_per_s: float = Field(description="per replica")
    stable: bool
    concurrency: float = Field(description="mean in-flight sequences (Little's law)")
    concurrency_p99: int = Field(description="99th percentile of the in-flight count (Poisson)")
    prefill_share: float = Field(description="share of GPU time spent on prompts")
    queue_utilisation: float = Field(description="busy share of the prefill queue's server")
    wait_p50_s: float
    wait_p99_s: float
    ttft_p50_s: float
    ttft_p99_s: float
    ttft_q_s: float = Field(description="time to first token at the percentile asked (ttft_percentile)")
    tpot_p50_s: float
    tpot_p99_s: float
    e2e_p50_s: float
    e2e_p99_s: float


class RateResult(Explained):
    model: str
    gpu: str
    engine: RateEngine
    precision: str
    requests_per_s: float
    prompt_tokens: int
    output_tokens: int
    tp: int
    pp: int
    dp_attention: int = Field(1, description="data-parallel attention ranks of a replica (an MLA mixture of experts: "
                              "one per GPU, the experts spread over all of them)")
    unit_gpus: int = Field(description="GPUs of one replica (tp x pp)")
    replicas: int
    gpus: int
    servers: int
    concurrency: float = Field(description="in-flight requests in all, by Little's law")
    concurrency_per_replica: float
    concurrency_p99_per_replica: int
    max_sequences_per_replica: int = Field(description="sequences one replica's KV cache and max_num_seqs hold")
    replica_capacity_rps: float = Field(description="the most requests per second one replica sustains")
    utilisation: float = Field(description="per-replica rate / replica capacity")
    ttft_p50_s: float
    ttft_p99_s: float
    ttft_percentile: float = Field(description="the percentile ttft_q_s is read at")
    ttft_q_s: float = Field(description="time to first token at ttft_percentile")
    tpot_p50_s: float
    tpot_p99_s: float
    e2e_p50_s: float
    e2e_p99_s: float
    binding: str = Field(description="what set the replica count: a target, memory, or the utilisation cap")
    target_margin: float = Field(0.0, description="the share of each latency target the sizing kept to spare")
    edge_of_target: bool = Field(False, description="no layout keeps target_margin to spare: the plan meets the "
                                 "targets with less")
    routing: Routing
    formula: str
    layouts_tried: list[dict[str, float | int | str]] = []


@dataclass(frozen=True)
class Unit:
    """One replica's physics: decode step times on a grid of batches, prefill cost, batch limit."""

    tp: int
    pp: int
    max_sequences: int
    chunk_tokens: int
    prefill_s_per_token: float  # at the mean prompt
    prefill_s_per_token_tail: float  # at the p99 prompt
    batches: tuple[int, ...]
    steps: tuple[float, ...]
    dp: int = 1  # data-parallel attention ranks (an MLA mixture of experts: one per GPU, experts spread over all)

    @property
    def gpus(self) -> int:
        return self.tp * self.pp

    def step(self, batch: float) -> float:
        """Decode step seconds at a (fractional) batch: linear between the sized batches; the step's time is
        piecewise linear in the batch (max of memory and compute time, plus overheads), so this is close."""
        xs, ys = self.batches, self.steps
        if batch <= xs[0] or len(xs) == 1:
            return ys[0]
        i = bisect_left(xs, batch)  # the first sized batch at or above this one
        if i < len(xs):
            f = (batch - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + f * (ys[i] - ys[i - 1])
        return ys[-1] + (batch - xs[-1]) * (ys[-1] - ys[-2]) / max(xs[-1] - xs[-2], 1)


@lru_cache(maxsize=512)
def unit_physics(model: str, gpu_id: str, engine: RateEngine, precision: str, kv: str | None, tp: int, pp: int,
                 prompt: int, prompt_tail: int, output: int, server_gpus: int = SERVER_GPUS) -> Unit | None:
    """A replica of tp x pp GPUs: its batch limit (KV capacity at prompt + output tokens, and the engine's
    max_num_seqs), its chunk size and its step times; None when the model does not fit.

    An MLA mixture of experts (DeepSeek V3/R1, Kimi K2) in one stage runs as its makers deploy it: data-parallel
    attention with one rank per GPU and the experts spread over all of them (expert parallel), across servers when
    tp is wider than one (tools.scale.expert_units); within one server only where the ranks' own attention weights
    leave room (else tensor-parallel attention, as tools.scale.unit_attention)."""
    gpu = find_gpu(gpu_id)
    context = prompt + output
    arch_ = resolve_model(model)
    across = -(-tp // server_gpus)
    dps = [tp, 1] if latent_moe(arch_) and pp == 1 and tp > 1 else [1]
    if across > 1:
        dps = [tp]
    mem, dp = None, 1
    for dp in dps:
        try:
            mem = inference_memory(InferenceMemoryInput(model=model, precision=precision, kv_precision=kv,
                                                        context=context, batch=1, gpus=tp, pp=pp, gpu=gpu.id,
                                                        engine=engine, dp_attention=dp))
        except ToolError:
            mem = None
        if mem is not None and mem.fits and (mem.max_concurrent_sequences or 0) >= 1:
            break
    if mem is None or not mem.fits or not mem.max_concurrent_sequences or mem.max_concurrent_sequences < 1:
        return None
    chunk, max_seqs = vllm_batch_defaults(gpu, "v1")
    most = max(1, min(int(mem.max_concurrent_sequences), max_seqs * dp))  # max_num_seqs is each rank's
    grid = sorted({*(2 ** k for k in range(int(math.log2(most)) + 1)), most})
    held = prompt + output // 2  # a running sequence holds its prompt and, on average, half its output

    def sized(batch: int, ctx: int):
        return speed(SpeedInput(model=model, precision=precision, gpu=gpu.id, gpus=tp, pp=pp, batch=batch,
                                context=ctx, engine=engine, kv_precision=kv, dp_attention=dp,
                                expert_servers=across if dp > 1 else 1))

    steps = tuple(sized(b, held).time_per_output_token_s for b in grid)
    pre = sized(1, prompt).prefill_tokens_per_s
    pre_tail = sized(1, prompt_tail).prefill_tokens_per_s if prompt_tail != prompt else pre
    return Unit(tp=tp, pp=pp, max_sequences=most, chunk_tokens=chunk, prefill_s_per_token=1 / pre,
                prefill_s_per_token_tail=1 / pre_tail, batches=tuple(grid), steps=steps, dp=dp)


def _per_token(u: Unit, prompt: int, prompt_tail: int, length: float) -> float:
    """Prefill seconds per token of a prompt of this length: linear in the length between the mean prompt's and
    the p99 prompt's (attention's share grows with the length), never below the cheaper of the two."""
    t0, t1 = u.prefill_s_per_token, u.prefill_s_per_token_tail
    if prompt_tail <= prompt:
        return t0
    return max(min(t0, t1), t0 + (t1 - t0) * (length - prompt) / (prompt_tail - prompt))


def _prefills(u: Unit, prompt: int, prompt_tail: int, prompt_cv2: float, exponential: bool,
              batch: float) -> tuple[tuple[float, float], ...]:
    """A prompt's own prefill (seconds, probability) over the quantiles of its length."""
    out = []
    for mid, weight in _LENGTH_BINS:
        length = length_quantile(prompt, prompt_cv2, mid, exponential)
        out.append((length * _per_token(u, prompt, prompt_tail, length) + math.ceil(length / u.chunk_tokens)
                    * u.step(batch), weight))
    return tuple(out)


def load_point(u: Unit, rate: float, prompt: int, prompt_tail: int, output: int, output_tail: int,
               prompt_cv2: float, arrival_cv2: float = 1.0, servers: int = 1, ttft_percentile: float = P99,
               exponential: bool = False, tails: bool = True) -> LoadPoint:
    """One replica at `rate` requests per second (servers > 1: the wait of one shared queue over that many
    replicas, each at `rate`). Prompt lengths: exponential with this mean, else lognormal with CV^2 prompt_cv2
    (0: all one length). The TTFT quantiles (p50, p99 and `ttft_percentile`) come from the wait and the prompt
    lengths together (ttft_quantile); `tails=False` skips them (the stability check alone)."""
    # pipeline stages overlap prompts: while one prompt is in the second stage the next is in the first, so a
    # replica of pp stages prefills pp prompts at once, each taking the whole pipeline's time (its own prefill is
    # no sooner), and each stage spends rate x prompt x t_pre / pp of its time on prompts
    rho_p = rate * prompt * u.prefill_s_per_token / u.pp
    variability = (arrival_cv2 + prompt_cv2) / 2
    lanes = servers * u.pp

    chunks = math.ceil(prompt / u.chunk_tokens)  # of the mean prompt, each riding on one decode step

    def queue(batch: float, step: float | None = None) -> tuple[float, float, float]:
        """(utilisation, chance of waiting, mean wait) of the prefill queue at a batch (`step`: its decode step,
        when known)."""
        service = prompt * (u.prefill_s_per_token + (u.step(batch) if step is None else step) / u.chunk_tokens)
        offered = rate * service * servers
        if offered >= lanes:
            return 1.0, 1.0, math.inf
        p_wait = erlang_c(lanes, offered)
        return offered / lanes, p_wait, p_wait * service / (lanes - offered) * variability

    def tpot(batch: float) -> float:
        return u.step(batch) / (1 - rho_p)

    def in_flight(batch: float) -> float:
        step = u.step(batch)  # once: the wait, the own prefill and the tokens after it all ride on it
        _, _, wait = queue(batch, step)
        own = prompt * u.prefill_s_per_token + chunks * step  # the mean prompt's own prefill
        return rate * (wait + own + (output - 1) * (step / (1 - rho_p)))

    unstable = LoadPoint(requests_per_s=rate, stable=False, concurrency=math.inf, concurrency_p99=0,
                         prefill_share=rho_p, queue_utilisation=1.0, wait_p50_s=math.inf, wait_p99_s=math.inf,
                         ttft_p50_s=math.inf, ttft_p99_s=math.inf, ttft_q_s=math.inf, tpot_p50_s=math.inf,
                         tpot_p99_s=math.inf,
                         e2e_p50_s=math.inf, e2e_p99_s=math.inf)
    if rho_p >= 1:
        return unstable
    batch, converged = 0.0, False
    for _ in range(FIXED_POINT_STEPS):  # from 0 upwards: the smallest fixed point of L = rate x time in system
        nxt = in_flight(batch)
        if not math.isfinite(nxt) or nxt > u.max_sequences:
            return unstable
        if abs(nxt - batch) <= 1e-9 * max(1.0, nxt):
            batch, converged = nxt, True
            break
        batch = nxt
    if not converged:
        return unstable
    b99 = poisson_quantile(batch, P99)
    util, p_wait, mean_wait = queue(batch)
    w50, w99 = wait_quantile(p_wait, mean_wait, 0.5), wait_quantile(p_wait, mean_wait, P99)
    swing = tpot(max(b99, batch))  # the time per token with the p99 of requests in flight
    t50, t99 = tpot(batch), swing * TPOT_P99_OVER_MEAN  # then one request's own spread at that load
    if tails:
        body = _prefills(u, prompt, prompt_tail, prompt_cv2, exponential, batch)
        tail = _prefills(u, prompt, prompt_tail, prompt_cv2, exponential, max(b99, batch))
        ttft50 = ttft_quantile(0.5, p_wait, mean_wait, body)
        ttft99 = ttft_quantile(P99, p_wait, mean_wait, tail)
        ttftq = ttft99 if ttft_percentile == P99 else ttft_quantile(
            ttft_percentile, p_wait, mean_wait, body if ttft_percentile <= 0.5 else tail)
    else:
        ttft50 = ttft99 = ttftq = math.nan
    return LoadPoint(requests_per_s=rate, stable=b99 <= u.max_sequences, concurrency=batch, concurrency_p99=b99,
                     prefill_share=rho_p, queue_utilisation=util, wait_p50_s=w50, wait_p99_s=w99,
                     ttft_p50_s=ttft50, ttft_p99_s=ttft99, ttft_q_s=ttftq, tpot_p50_s=t50, tpot_p99_s=t99,
                     # the whole answer's p99 adds the first token's p99 to the in-flight swing's tokens: two tails
                     # summed already overstate it, so the one request's spread is not added a third time
                     e2e_p50_s=ttft50 + (output - 1) * t50, e2e_p99_s=ttft99 + (output_tail - 1) * swing)


@lru_cache(maxsize=4096)  # a pure function of its arguments (a Unit is frozen): a replica's capacity is asked again at
# every rate tried for it (tools.closed_loop's rounds, each card's count, the follow-ups)
def capacity(u: Unit, prompt: int, prompt_tail: int, output: int, output_tail: int, prompt_cv2: float,
             arrival_cv2: float) -> float:
    """The most requests per second one replica sustains: its batch's p99 within the batch limit and the
    prefill queue stable (bisection on the rate)."""
    hi = u.pp / (prompt * u.prefill_s_per_token)
    lo = 0.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if load_point(u, mid, prompt, prompt_tail, output, output_tail, prompt_cv2, arrival_cv2, tails=False).stable:
            lo = mid
        else:
            hi = mid
    return lo


def _misses(point: LoadPoint, targets: dict[str, float]) -> list[str]:
    """The targets a load point misses (keys of RateInput.targets), or 'memory' when it is overloaded."""
    if not point.stable:
        return ["memory"]
    return [k for k, limit in targets.items() if getattr(point, k) > limit]


# What a count set by the wait in the queue names as its binding (tools.queueing's targets)
WAIT_BOUND = ("ttft_p50_s", "ttft_p99_s", "ttft_q_s", "e2e_p99_s")
# The targets on each stream's decode speed (a fuller batch decodes every stream slower)
STREAM_BOUND = ("tpot_p50_s", "tpot_p99_s")
# Copies loaded below this share of the utilisation cap are bought for the queue's wait, not for the work: a shared
# queue is then weighed (size_by_rate)
IDLE_COPIES = 0.5


def size_by_rate(inp: RateInput) -> RateResult:
    """The sizing below with each replica keeping its own queue (round robin); when a first-token target then sets
    the count with copies below half the utilisation cap, the same with one shared queue (a least-loaded router: vLLM's production-stack router, SGLang's
    router) where that needs fewer GPUs. Per-replica queues keep a copy's wait at its own load, so a target near
    the no-load first token (the longest prompts' own prefill) otherwise buys copies that sit mostly idle (review
    AK C20: 54 x 8 H20 for 5 requests/s, each copy at 16% load)."""
    if inp.routing == "shared" or inp.replicas is not None or not inp.targets():
        return _size_by_rate(inp)
    own = _size_by_rate(inp)
    idle = own.replicas > 1 and own.binding in WAIT_BOUND and own.utilisation < IDLE_COPIES * inp.max_utilisation
    # a smaller copy whose count the wait set: its own queues lost it to bigger copies (review AK C20 on H20: copies of
    # 2 servers need 5 for the wait alone, and 2 copies of 4 servers win at 64 GPUs where a shared queue needs 48)
    waited = any(t.get("binding") in WAIT_BOUND and int(t["gpus_per_replica"]) < own.unit_gpus
                 for t in own.layouts_tried)
    if not (idle or waited):
        return own
    try:
        shared = _size_by_rate(inp.model_copy(update={"routing": "shared"}))
    except ToolError:
        return own
    # a router is asked for only where it pays: any saving for idle copies, at least a whole server where the copies
    # are busy anyway (28 H20 in copies of 4 behind a router against 32 in copies of 8 saves no server)
    saving = 1 if idle else inp.server_gpus
    if (shared.gpus + saving - 1, shared.edge_of_target) >= (own.gpus, own.edge_of_target):
        return own
    shared.assumptions.append(f"a least-loaded router: with each copy keeping its own queue (round robin) the "
                              f"same targets need {own.gpus:,} GPUs ({own.replicas} copies)")
    return shared


@kept_results(256)  # a pure function of the input and the catalogs, asked again for each card and follow-up (tools.kept)
def _size_by_rate(inp: RateInput) -> RateResult:  # noqa: C901 - the search over layouts, each step one guard
    """GPUs and replicas that serve `requests_per_s` within the targets: for every replica layout (tensor
    parallel within a server, pipeline stages across servers) the fewest replicas whose load point meets
    every target at no more than max_utilisation of a replica's capacity; the layout with the fewest GPUs wins
    (then the smaller replica)."""
    model = resolve_model(inp.model)
    gpu: Gpu = find_gpu(inp.gpu)
    find_precision(inp.precision)
    prompt, output = inp.prompt_tokens, inp.output_tokens
    prompt_tail = max(inp.prompt_tokens_p99 or prompt, prompt)
    output_tail = max(inp.output_tokens_p99 or output, output)
    exponential = False  # lognormal lengths: the default spread, or the one a p99 length gives
    if inp.prompt_tokens_p99 is None:
        cv2 = DEFAULT_PROMPT_CV2
        prompt_tail = max(prompt, math.ceil(length_quantile(prompt, cv2, P99, exponential=False)))
    else:
        cv2 = lognormal_cv2(prompt, prompt_tail)
    targets = {k: v * (1 - inp.target_margin) for k, v in inp.targets().items()}
    # an MLA mixture of experts also as data-parallel-attention, expert-parallel copies over whole servers, ahead
    # of the pipeline of as many GPUs (smallest copies first: the search stops at the first count beaten)
    shapes = [*units(model, inp.server_gpus, inp.max_gpus, gpu),
              *((n, 1) for n in expert_units(model, inp.server_gpus, inp.max_gpus, gpu))]
    shapes.sort(key=lambda s: (s[0] * s[1], s[1]))
    layouts = [(t, p) for t, p in shapes if (inp.tp is None or t == inp.tp) and (inp.pp is None or p == inp.pp)]
    if inp.tp is not None and not layouts:
        valid = arch.valid_tensor_parallel(model, inp.server_gpus)
        raise ToolError(f"tensor parallel {inp.tp} does not divide {model.name}'s attention heads within a server of "
                        f"{inp.server_gpus}: valid degrees {', '.join(map(str, valid))}")
    best: tuple[int, int, Unit, int, LoadPoint, float, str] | None = None
    tried: list[dict[str, float | int | str]] = []
    floors: list[tuple[str, float, int]] = []
    for tp, pp in layouts:
        if best is not None and tp * pp > best[0]:
            break  # layouts come smallest first: a bigger replica alone already uses more GPUs than the plan found
        u = unit_physics(inp.model, gpu.id, inp.engine, inp.precision, inp.kv_precision, tp, pp, prompt,
                         prompt_tail, output, inp.server_gpus)
        if u is None:
            continue
        cap = capacity(u, prompt, prompt_tail, output, output_tail, cv2, inp.arrival_cv2)
        idle = load_point(u, cap * 1e-6, prompt, prompt_tail, output, output_tail, cv2, inp.arrival_cv2,
                          ttft_percentile=inp.ttft_percentile, exponential=exponential)
        missed = _misses(idle, targets)
        if missed:  # more replicas cannot help: at no load at all this layout misses the target
            key = missed[0]
            floors.append((key, getattr(idle, key) if key != "memory" else math.inf, u.gpus))
            tried.append({"tp": tp, "pp": pp, "gpus_per_replica": u.gpus, "ok": "no",
                          "reason": f"{key} at no load {getattr(idle, key, math.inf) * 1000:.0f} ms"})
            continue

        def servers_for_shared(r: int) -> int:
            return r if inp.routing == "shared" else 1

        def point(r: int, unit: Unit = u) -> LoadPoint:
            return load_point(unit, inp.requests_per_s / r, prompt, prompt_tail, output, output_tail, cv2,
                              inp.arrival_cv2, servers_for_shared(r), inp.ttft_percentile, exponential)

        def ok(r: int, unit_cap: float = cap) -> bool:
            return inp.requests_per_s / r <= inp.max_utilisation * unit_cap and not _misses(point(r), targets)

        most = max(1, inp.max_gpus // u.gpus)
        if inp.replicas is not None:  # the copies are given: they meet the targets or this layout is out
            if inp.replicas > most or not ok(inp.replicas):
                tried.append({"tp": tp, "pp": pp, "gpus_per_replica": u.gpus, "ok": "no",
                              "reason": f"{inp.replicas} replicas do not sustain the rate within the targets"})
                continue
            hi = inp.replicas
        else:
            hi = 1
            while not ok(hi) and hi < most:
                hi = min(hi * 2, most)
            if not ok(hi):
                tried.append({"tp": tp, "pp": pp, "gpus_per_replica": u.gpus, "ok": "no",
                              "reason": f"more than {most} replicas ({inp.max_gpus} GPUs)"})
                continue
            lo = hi // 2  # ok(hi), and not ok(lo) unless lo is 0
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        replicas = hi
        p = point(replicas)
        # what set the count: with one replica fewer, which requirement fails first
        binding = "one replica is enough"
        if replicas == 1:
            # one copy, the smallest that meets the targets: a per-stream speed that only a wider copy reaches (an
            # expert-parallel copy decodes faster the more GPUs hold its experts) set its size, not the load
            binding = next((k for t in tried if int(t["gpus_per_replica"]) < u.gpus for k in STREAM_BOUND
                            if t.get("binding") == k or str(t.get("reason", "")).startswith(k)), binding)
        if replicas > 1:
            fewer = point(replicas - 1)
            if inp.requests_per_s / (replicas - 1) > inp.max_utilisation * cap:
                binding = "utilisation"
            else:
                binding = (_misses(fewer, targets) or ["utilisation"])[0]
        tried.append({"tp": tp, "pp": pp, "gpus_per_replica": u.gpus, "replicas": replicas,
                      "gpus": replicas * u.gpus, "ok": "yes", "ttft_p99_ms": round(p.ttft_p99_s * 1000, 1),
                      "tpot_p50_ms": round(p.tpot_p50_s * 1000, 2), "binding": binding})
        rank = (replicas * u.gpus, u.gpus)
        if best is None or rank < (best[0], best[1]):
            best = (replicas * u.gpus, u.gpus, u, replicas, p, cap, binding)
    if best is None and targets and inp.target_margin > 0:
        edge = _size_by_rate(inp.model_copy(update={"target_margin": 0.0}))  # no layout keeps the margin
        edge.edge_of_target = True
        edge.warnings.append(f"no layout keeps {inp.target_margin:.0%} to spare under the latency targets: this "
                             "plan meets them with less, at the edge of what the model's accuracy can promise")
        return edge
    if best is None:
        below = _below_physics(inp, floors)
        if below is not None:
            raise BelowPhysics(_no_layout(inp, gpu, floors), *below)
        raise ToolError(_no_layout(inp, gpu, floors))
    _, _, u, replicas, p, cap, binding = best
    return _result(inp, model.name, gpu, u, replicas, p, cap, binding, cv2, prompt_tail, output_tail, tried)


class BelowPhysics(ToolError):
    """No layout reaches a latency target even with no queue at all: `fastest_s` is the best there is,
    on `gpus` cards, for the target `key` (ttft_p99_s ...)."""

    def __init__(self, message: str, key: str, fastest_s: float, gpus: int) -> None:
        super().__init__(message)
        self.key, self.fastest_s, self.gpus = key, fastest_s, gpus


def _below_physics(inp: RateInput, floors: list[tuple[str, float, int]]) -> tuple[str, float, int] | None:
    """(target key, fastest seconds, cards) when a stated target is missed by every layout at no load."""
    said = inp.targets()
    below = [(k, v, n) for k, v, n in floors if k in said and math.isfinite(v)]
    if not below:
        return None
    return min((f for f in below if f[0] == below[0][0]), key=lambda f: f[1])


def _no_layout(inp: RateInput, gpu: Gpu, floors: list[tuple[str, float, int]]) -> str:
    """The one line said when no layout meets the targets: a target below the physics names the best the
    hardware does with no queue at all."""
    words = {"ttft_p50_s": "p50 time to first token", "ttft_p99_s": "p99 time to first token",
             "ttft_q_s": f"{percentile_name(inp.ttft_percentile)} time to first token",
             "tpot_p50_s": "time per output token", "tpot_p99_s": "p99 time per output token",
             "e2e_p99_s": "p99 end-to-end latency"}
    said = inp.targets()
    below = [(k, v, n) for k, v, n in floors if k in said and math.isfinite(v)]
    if below:
        key = below[0][0]
        k, fastest, n = min((f for f in below if f[0] == key), key=lambda f: f[1])
        return (f"a {words[k]} of {said[k] * 1000:,.0f} ms is below the physics: the fastest layout ({n} x {gpu.name}) "
                f"gives {fastest * 1000:,.0f} ms with no queue at all ({inp.prompt_tokens:,}-token prompts); "
                "relax the target, shorten the prompts, or try a faster card")
    if floors and not below:
        return f"{inp.model} does not fit a replica on {gpu.name} at {inp.prompt_tokens + inp.output_tokens:,} tokens"
    return (f"{inp.requests_per_s:g} requests/s needs more than {inp.max_gpus} x {gpu.name}; raise max_gpus or try a "
            "faster card")


def _result(inp: RateInput, model_name: str, gpu: Gpu, u: Unit, replicas: int, p: LoadPoint, cap: float,
            binding: str, cv2: float, prompt_tail: int, output_tail: int,
            tried: list[dict[str, float | int | str]]) -> RateResult:
    rate_r = inp.requests_per_s / replicas
    total_l = p.concurrency * replicas
    time_in_system = p.concurrency / rate_r
    gpus = replicas * u.gpus
    terms = [
        term("concurrency", "In-flight requests (Little's law)", total_l, "requests",
             "rate x time in system (TTFT + (output - 1) x TPOT), solved as a fixed point per replica",
             {"requests_per_s": inp.requests_per_s, "time_in_system_s": time_in_system, "replicas": replicas}),
        term("prefill_share", "Share of GPU time on prompts", p.prefill_share, "fraction",
             "rate per replica x prompt tokens x prefill seconds per token",
             {"rate_per_replica": rate_r, "prompt_tokens": inp.prompt_tokens,
              "prefill_s_per_token": u.prefill_s_per_token}),
        term("tpot_p50_s", "Time per output token (median)", p.tpot_p50_s, "s",
             "decode step at the mean batch / (1 - prefill share)",
             {"batch": p.concurrency, "decode_step_s": u.step(p.concurrency)}),
        term("tpot_p99_s", "Time per output token (p99)", p.tpot_p99_s, "s",
             "decode step at the batch's 99th percentile (Poisson) / (1 - prefill share)",
             {"batch_p99": p.concurrency_p99}),
        term("wait_p99_s", "Wait before prefill (p99)", p.wait_p99_s, "s",
             "M/G/c (Allen-Cunneen): Erlang C x service / (c - offered load) x (Ca^2 + Cs^2) / 2; "
             "P(wait > t) = P(wait) x exp(-t x P(wait) / mean wait)",
             {"servers": replicas if inp.routing == "shared" else 1, "queue_utilisation": p.queue_utilisation,
              "prompt_cv2": cv2, "arrival_cv2": inp.arrival_cv2}),
        term("ttft_p50_s", "Time to first token (median)", p.ttft_p50_s, "s",
             "median wait + prompt x prefill seconds per token + one decode step per chunk",
             {"chunk_tokens": u.chunk_tokens}),
        term("ttft_p99_s", "Time to first token (p99)", p.ttft_p99_s, "s",
             "99th percentile of wait + own prefill: P(TTFT > t) = mean over prompt lengths of P(wait > t - prefill)",
             {"prompt_tokens_p99": prompt_tail}),
        term("ttft_q_s", f"Time to first token ({percentile_name(inp.ttft_percentile)})", p.ttft_q_s, "s",
             "the same tail read at the percentile of the target",
             {"percentile": inp.ttft_percentile}),
        term("utilisation", "Utilisation of a replica", rate_r / cap if cap else 1.0, "fraction",
             "rate per replica / the most a replica sustains (its batch's p99 within the KV cache and max_num_seqs)",
             {"replica_capacity_rps": cap, "max_sequences": u.max_sequences}),
        term("gpus", "GPUs", gpus, "GPUs", "replicas x tensor parallel x pipeline stages",
             {"replicas": replicas, "tp": u.tp, "pp": u.pp}),
    ]
    assumptions = [
        f"continuous batching ({inp.engine}, chunked prefill of up to {u.chunk_tokens:,} tokens a step, at most "
        f"{u.max_sequences:,} sequences a replica from its KV cache at {inp.prompt_tokens + inp.output_tokens:,} "
        "tokens and max_num_seqs)",
        f"Little's law: {inp.requests_per_s:g} requests/s x {time_in_system:.2f} s in the system = "
        f"{total_l:,.1f} in flight ({p.concurrency:,.1f} per replica; p99 {p.concurrency_p99:,} per replica, Poisson)",
        "the wait before prefill: M/G/c with the Allen-Cunneen approximation (Erlang C) over "
        + (f"one shared queue of {replicas} replicas (least-loaded routing)" if inp.routing == "shared"
           else "each replica's own queue (requests spread evenly; a shared queue waits less)"),
        (f"prompt lengths: mean {inp.prompt_tokens:,}, p99 {prompt_tail:,} tokens (lognormal, CV^2 {cv2:.2f})"
         if inp.prompt_tokens_p99 is not None else
         f"prompt lengths vary around the {inp.prompt_tokens:,}-token mean with a CV of 0.5 (lognormal; p99 "
         f"{prompt_tail:,} tokens): give a p99 length if they vary less or more (free chat varies about twice "
         "as much)"),
        "arrivals: " + ("Poisson" if inp.arrival_cv2 == 1 else f"gaps with CV^2 {inp.arrival_cv2:g}")
        + f"; each replica loaded to at most {inp.max_utilisation:.0%} of what it sustains",
        "breaks down for bursty traffic (raise arrival_cv2), a replica near full load, very long prompts (a "
        "prefill chunk stalls every decode step) and KV-cache preemption; prefix caching is not counted",
    ]
    if output_tail == inp.output_tokens and inp.output_tokens_p99 is None:
        assumptions.append("end-to-end p99 at the mean output length (give a p99 output length for the tail)")
    if inp.targets() and inp.target_margin:
        assumptions.append(f"each latency target sized with {inp.target_margin:.0%} to spare, for the model's own error")
    warnings = []
    if inp.max_utilisation > 0.9:
        warnings.append("a replica above 90% of its capacity: waits grow steeply and the model is least reliable there")
    return RateResult(
        model=model_name, gpu=gpu.id, engine=inp.engine, precision=inp.precision, requests_per_s=inp.requests_per_s,
        prompt_tokens=inp.prompt_tokens, output_tokens=inp.output_tokens, tp=u.tp, pp=u.pp, dp_attention=u.dp,
        unit_gpus=u.gpus,
        replicas=replicas, gpus=gpus, servers=replicas * servers_for(u.gpus, inp.server_gpus)
        if u.gpus >= inp.server_gpus else servers_for(gpus, inp.server_gpus),
        concurrency=total_l, concurrency_per_replica=p.concurrency, concurrency_p99_per_replica=p.concurrency_p99,
        max_sequences_per_replica=u.max_sequences, replica_capacity_rps=cap, utilisation=rate_r / cap if cap else 1.0,
        ttft_p50_s=p.ttft_p50_s, ttft_p99_s=p.ttft_p99_s, ttft_percentile=inp.ttft_percentile, ttft_q_s=p.ttft_q_s,
        tpot_p50_s=p.tpot_p50_s, tpot_p99_s=p.tpot_p99_s,
        e2e_p50_s=p.e2e_p50_s, e2e_p99_s=p.e2e_p99_s, binding=binding, routing=inp.routing,
        target_margin=inp.target_margin if inp.targets() else 0.0,
        formula="concurrency = rate x (TTFT + (output - 1) x TPOT); TPOT = t_dec(batch) / (1 - rate x prompt x t_pre); "
                "TTFT = wait (M/G/c, Erlang C) + own prefill; replicas = fewest that meet every target",
        layouts_tried=tried, terms=terms, assumptions=assumptions, warnings=warnings)


class Traffic(BaseModel):
    """A request rate served by a plan (tools.recommend): the requests in flight it was sized for (Little's
    law) and the plan's latencies at that load (the queueing model above, on the plan's card and layout)."""

    requests_per_s: float
    prompt_tokens: int
    output_tokens: int
    time_in_system_s: float = Field(description="first token + (output - 1) x time per output token, at that load")
    in_flight: float = Field(description="rate x time in system (Little's law)")
    users_sized: int = Field(description="the in-flight count the plan holds: its 99th percentile (Poisson)")
    replicas: int = 1
    gpus: int | None = None
    users_cap: int | None = Field(None, description="people said to use it at once, fewer than the rate's 99th "
                                  "percentile in flight: no more requests than people are in flight, so the plan holds them")
    ttft_p50_s: float | None = None
    ttft_p99_s: float | None = None
    ttft_percentile: float = Field(P99, description="the percentile the first-token target is held at")
    ttft_q_s: float | None = Field(None, description="time to first token at ttft_percentile")
    tpot_p50_s: float | None = None
    tpot_p99_s: float | None = None
    utilisation: float | None = None
    ttft_target_ms: float | None = None
    ttft_p99_met: bool | None = Field(None, description="whether the first token at ttft_percentile meets the target")
    queue_unsized: bool = Field(False, description="the queueing model found no layout for this rate on the plan's "
                                "cards (within the GPU limit, or the targets): the plan holds the users only")
    ttft_unreachable: bool = Field(False, description="no layout of the plan's cards reaches the first-token target "
                                   "(the longest prompts alone take longer to prefill): the rate was sized without it")
    ttft_typical: bool = Field(False, description="a first-token target said with no percentile that no layout "
                               "meets at p99: held for the typical request, its median (tools.typical_first_token)")
    owned_short: bool = Field(False, description="the cards you own sustain the rate on no layout (each copy below "
                              "the utilisation cap): they hold the users in memory only")
    owned_gpus: int | None = None
    owned_rps: float | None = Field(None, description="requests/s the cards you own sustain, copies at the cap")
    needed_gpus: int | None = Field(None, description="cards of that kind the rate needs (tools.queueing)")
    needed_replicas: int | None = None
    needed_unit: int | None = Field(None, description="GPUs of one copy in that sizing")
    fp8_owned_rps: float | None = Field(None, description="16-bit cards you own short of the rate: requests/s they "
                                        "sustain in FP8 (tools.rate_fp8)")
    fp8_needed_gpus: int | None = Field(None, description="cards of that kind the rate needs in FP8")
    stream_tps_max: float | None = Field(None, description="an end-to-end target missed: tokens/s one stream gets "
                                         "alone on one copy of the plan's card (batch 1, tools.stream_bound)")
    stream_tps_needed: float | None = Field(None, description="tokens/s one stream needs after its first token to "
                                            "finish within the end-to-end target")
    target_margin: float = Field(0.0, description="share of each latency target the sizing kept to spare")
    edge_of_target: bool = Field(False, description="no layout keeps that margin: the plan meets the targets with less")
    fewer_precision: str | None = Field(None, description="a 4-bit format asked for: the card's own 8-bit format, "
                                        "when the rate needs fewer cards in it (prefill runs at 16 bits in 4-bit)")
    fewer_gpus: int | None = Field(None, description="the cards the rate needs in fewer_precision")
    binding: str | None = Field(None, description="what set the replica count (RateResult.binding)")
    slower_speed: float | None = Field(None, description="a per-user speed below the one said that the count is "
                                       "set by, sized again (tools.rate_levers.speed_costs)")
    slower_gpus: int | None = Field(None, description="the cards the rate needs at slower_speed")
    queue_model: Literal["mg1", "mgc"] | None = Field(None, description="the queueing approximation behind the "
                                                     "figures at load, when modelled: mg1 (M/G/1 per replica: each "
                                                     "keeps its own queue), mgc (M/G/c: one shared queue); both Erlang C "
                                                     "with Allen-Cunneen, Poisson arrivals")
    formula: str = ("in flight = rate x (first token + (output - 1) x time per output token); the plan holds its "
                    "99th percentile; waits: M/G/1 per replica (Erlang C, Allen-Cunneen)")


def traffic_from(r: RateResult, ttft_target_ms: float | None) -> Traffic:
    """The Traffic of a rate sizing (size_by_rate) on the plan's card."""
    return Traffic(requests_per_s=r.requests_per_s, prompt_tokens=r.prompt_tokens, output_tokens=r.output_tokens,
                   time_in_system_s=r.concurrency / r.requests_per_s, in_flight=r.concurrency,
                   users_sized=r.replicas * r.concurrency_p99_per_replica, replicas=r.replicas, gpus=r.gpus,
                   ttft_p50_s=r.ttft_p50_s, ttft_p99_s=r.ttft_p99_s, ttft_percentile=r.ttft_percentile,
                   ttft_q_s=r.ttft_q_s, tpot_p50_s=r.tpot_p50_s, tpot_p99_s=r.tpot_p99_s,
                   utilisation=r.utilisation, ttft_target_ms=ttft_target_ms, target_margin=r.target_margin,
                   edge_of_target=r.edge_of_target, binding=r.binding, queue_model="mgc" if r.routing == "shared" else "mg1",
                   ttft_p99_met=None if ttft_target_ms is None else r.ttft_q_s * 1000 <= ttft_target_ms)


def traffic_on(best, rate: float, prompt: int, output: int, users: int, ttft_target_ms: float | None) -> Traffic | None:
    """The Traffic of a plan sized by its users (cards you own, an engine without continuous batching): the
    time in system from the plan's first token with no queue and its per-user speed."""
    if best is None or not best.decode_tokens_per_s or best.ttft_s is None:
        return None
    in_system = best.ttft_s + (output - 1) / best.decode_tokens_per_s
    return Traffic(requests_per_s=rate, prompt_tokens=prompt, output_tokens=output, time_in_system_s=in_system,
                   in_flight=rate * in_system, users_sized=users, replicas=best.replicas or 1, gpus=best.gpus,
                   ttft_p50_s=best.ttft_s, tpot_p50_s=1 / best.decode_tokens_per_s, ttft_target_ms=ttft_target_ms)
