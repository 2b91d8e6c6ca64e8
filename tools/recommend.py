"""Recommend: turn a workload's requirements into ranked card x count options, and a decision.

A workload is a set of requirements: the job (phase), the model, the hardware already owned, and the
constraints the user stated (a deadline, a latency target, a budget). Each candidate (card x count x
engine) is sized with the other tools; a candidate is acceptable when it fits and meets every stated
constraint. Acceptable options are ranked by what the user pays for the job: cost per run for jobs
that end (fine-tuning, batch runs, pretraining), cost per month for serving, the purchase price when
buying. Owned hardware that is acceptable always comes first. Options that fail stay in the list
with their reasons, so an answer can show why.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from gpu_advisor.knowledge import (
    BadValue,
    engine_for,
    engines_on,
    find_gpu,
    find_precision,
    gpus,
    host_usd,
    is_custom,
    purchase_usd,
    rules,
    used_prices,
)
from gpu_advisor.knowledge.china_channel import officially_sold
from gpu_advisor.knowledge.china_prices import china_price_usd
from gpu_advisor.knowledge.clouds import clouds, rentable_counts
from gpu_advisor.knowledge.host_memory import TYPICAL_SYSTEM_RAM_GB
from gpu_advisor.knowledge.purchase import whole_boards
from gpu_advisor.knowledge.resolve import weight_bits
from gpu_advisor.knowledge.schema import Gpu, ModelArch
from gpu_advisor.knowledge.use_cases import use_case
from gpu_advisor.tools import arch
from gpu_advisor.tools.bought_side import bought_side, weighed_again
from gpu_advisor.tools.chunked import ChunkPlan, chunk_assumptions, chunk_plan
from gpu_advisor.tools.closed_loop import settle
from gpu_advisor.tools.cluster_grow import grows_cluster
from gpu_advisor.tools.common import (
    EPOCHS_HELP,
    MAX_LIST_ITEMS,
    METHOD_HELP,
    MODEL_HELP,
    RANGE_FLOOR,
    REGION_HELP,
    SEQ_LEN_HELP,
    Explained,
    ToolError,
    ToolInput,
    last_step,
)
from gpu_advisor.tools.context_note import context_warnings
from gpu_advisor.tools.cost import (
    DEFAULT_HORIZON_MONTHS,
    HOURS_PER_MONTH,
    Region,
    RentBuyInput,
    RentBuyResult,
    few_offers,
    offer_spread,
    rent_vs_buy,
    try_price,
)
from gpu_advisor.tools.count_bought import count_bought_served, count_bought_why, count_bought_with_qlora
from gpu_advisor.tools.deadline_margin import copies_for_deadline, slow_end_hours
from gpu_advisor.tools.disagg import Disaggregation, disaggregation_for
from gpu_advisor.tools.durations import hours_figure, seconds_figure
from gpu_advisor.tools.home_card import home_short, in_home_file, more_cards
from gpu_advisor.tools.inference import (
    VLLM_DEFAULT_UTILISATION,
    Engine,
    InferenceMemoryInput,
    check_format_runs,
    inference_memory,
    usable_bytes,
)
from gpu_advisor.tools.kv_format import kv8_format
from gpu_advisor.tools.lead_time import arrives_late
from gpu_advisor.tools.levers import serving_lever_tries, smaller_model_change, takeable
from gpu_advisor.tools.models import resolve_model, smaller_in_family
from gpu_advisor.tools.multi_lora import MAX_ADAPTERS, MAX_RANK, MultiLoraInput, MultiLoraResult, multi_lora
from gpu_advisor.tools.named_limit import named_limit
from gpu_advisor.tools.offload import MAX_OFFLOAD_GPUS, OffloadInput, OffloadResult, offload
from gpu_advisor.tools.own_format import NATIVE, own_format
from gpu_advisor.tools.owned_limit import OwnedLimit, owned_limit
from gpu_advisor.tools.owned_offload import offload_on_owned
from gpu_advisor.tools.owned_qlora import qlora_on_owned, qlora_short_on_owned
from gpu_advisor.tools.phases import (
    DEFAULT_COMPLETION_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    DEFAULT_SAMPLES,
    IMAGE_PROMPT_TOKENS,
    PHASES,
    PROMPTS_PER_STEP,
    RL_PROMPTS,
    Phase,
)
from gpu_advisor.tools.pool import SMALLER_FILES as SMALLER_GGUF
from gpu_advisor.tools.pool import PoolResult, pool
from gpu_advisor.tools.prefill_load import PrefillLoad, prefill_load
from gpu_advisor.tools.prefix_plan import PrefixPlan, with_prefix_cache
from gpu_advisor.tools.queueing import (
    MAX_UTILISATION,
    P99,
    RateInput,
    RateResult,
    Traffic,
    per_token_tail,
    poisson_quantile,
    size_by_rate,
    swing_tpot,
    traffic_from,
    traffic_on,
)
from gpu_advisor.tools.rate_fp8 import fp8_on_owned
from gpu_advisor.tools.rate_levers import levers_at_the_rate, speed_costs
from gpu_advisor.tools.rent_unit import RentUnit, rent_unit
from gpu_advisor.tools.rl import RlInput, RlLayouts, RlResult, rl_layouts
from gpu_advisor.tools.rl import training_setup as rl_training_setup
from gpu_advisor.tools.rl_margin import passed_over, rl_edge
from gpu_advisor.tools.rl_sync import ACROSS_GAIN_MIN
from gpu_advisor.tools.scale import MAX_SERVING_GPUS, SERVER_GPUS, Layout, plan, servers_for, small_units_only
from gpu_advisor.tools.speculative_plan import SpeculativePlan, with_speculative
from gpu_advisor.tools.stream_bound import stream_bound
from gpu_advisor.tools.throughput import SpeedInput, pipeline_hop_seconds, speed
from gpu_advisor.tools.train_margin import at_edge, edge_values
from gpu_advisor.tools.train_servers import adapters_across, one_server_values
from gpu_advisor.tools.train_servers import spread as spread_over_servers
from gpu_advisor.tools.training import (
    Method,
    TrainingMemoryInput,
    find_framework,
    framework_on,
    runs_on,
    training_memory,
)
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time
from gpu_advisor.tools.typical_first_token import held_typical, typical_request

CANDIDATES = {
    "global": ["rtx-4090", "rtx-5090", "l40s", "rtx-6000-ada", "a100-80gb-sxm", "h100-sxm", "h200", "b200", "mi300x"],
    "china": ["rtx-4090", "rtx-3090", "rtx-5090", "l20", "a800-80gb-sxm", "h20", "h800-sxm", "a100-80gb-sxm"],
}
# Someone buying with a one-off budget for serving also looks at the smaller cards people buy for home.
BUYING_EXTRA = ["rtx-4060-ti-16gb", "rtx-4080", "rtx-3090", "rtx-pro-6000-blackwell"]
# Buying cards for a service: the server cards sold one at a time (PCIe), beside the boards sold in eights, are
# the other class of card (8 x RTX PRO 6000 for a 120B MoE instead of 16 Ada cards or an 8-GPU HGX board).
BUYING_SERVER = ["rtx-pro-6000-blackwell"]
# One person buying a card for their own computer ('at home', '自己玩') also looks at the consumer cards people buy
# for it, new or used (knowledge/data/used_prices.yaml prices the used ones when used cards are accepted).
HOME_BUYING = ["rtx-3060-12gb", "rtx-4060-ti-16gb", "rtx-4070-ti-super", "rtx-4080", "rtx-3090", "rtx-3090-ti",
               "rtx-4090", "rtx-5090"]
COUNTS = (1, 2, 4, 8)
# Training that does not fit one 8-GPU server spreads over whole servers (NVLink inside, InfiniBand
# between): fine-tuning tries up to four of them.
MULTI_NODE_COUNTS = (16, 32)
PRETRAIN_COUNTS = (8, 16, 32, 64, 128, 256, 512, 1024, 2048)
# Below this many tokens per second per user, a chat is slower than people read: about 250 words a
# minute, 5.5 tokens/s (Brysbaert 2019, "How many words do we read per minute?"), rounded up.
MIN_TOKENS_PER_S = 6.0
# "Not too slow", "速度别太慢" with no number: a reply that streams well ahead of reading (about 2.5x the
# 6 tokens/s above), so code and long answers can be skimmed as they come. An assumption, said in the reply
# (note.speed_wish), that the user can replace with a number.
COMFORTABLE_TOKENS_PER_S = 15.0
# Options with less free memory than this rank after roomier ones: the estimate has a range, and
# real workloads spike (the guide asks for 20-40% reserve beyond the weights).
TIGHT_HEADROOM = 0.10
GREY_SPEED_KEPT = 0.8  # a card sold in China named beside a grey-market one keeps this share of its speed per user
BetterWhy = Literal["train", "service", "unpriced", "tight", "spread", "budget", "grey", "method"]
BesideYours = Literal["one_job", "copies", "whole"]
# Ranking prefers fewer cards and NVLink at similar cost: each doubling of the card count must save
# this share to win, and tensor parallelism over PCIe this much more (the guide's interconnect rule:
# no NVLink is a serious slowdown; at 35%, four PCIe cards lose to two NVLink cards a third dearer).
MORE_CARDS_PENALTY = 0.10
PCIE_SPLIT_PENALTY = 0.35
# One person buying for their own computer: a model split over two cards wants a board with two slots, a larger
# power supply and the split's slower speed; one card that does the job is the usual buy unless two cost much less.
HOME_SPLIT_PENALTY = 1.5
# ... and a card that runs the model only in 4 bits (none said) counts this much dearer than one that holds 8 bits.
HOME_FEWER_BITS_PENALTY = 0.15
# A copy split into pipeline stages across servers sends every token over the network between them (InfiniBand
# or RoCE, a multi-node launch): like tensor parallelism without NVLink, it must be this much cheaper than a plan
# whose copy stays in one server (DeepSeek-V3 on 2 x 8 A100 against 8 x MI300X or 8 x H200 in one box).
PIPELINE_SPLIT_PENALTY = PCIE_SPLIT_PENALTY
# Off the CUDA stack, libraries (kernels, quantization formats, training recipes) need checking:
# such an option must be this much cheaper to win (the guide: confirm framework support first).
# Training leans on more CUDA-first libraries (bitsandbytes for QLoRA, fused kernels, recipes), so
# the bar is higher there. Both are judgment, not measurement: they only break near-ties.
# Intel Gaudi ("gaudi") is treated like Ascend: its own graph compiler (Intel Gaudi software, formerly
# SynapseAI), serving through vLLM's Gaudi/HPU plugin and training through Optimum Habana, and no CUDA
# kernels (bitsandbytes, FlashAttention builds, custom ops) run on it.
STACK_PENALTY = {"cuda": 0.0, "rocm": 0.15, "cann": 0.30, "metal": 0.0, "gaudi": 0.30}
STACK_PENALTY_TRAINING = {"cuda": 0.0, "rocm": 0.50, "cann": 0.60, "metal": 0.0, "gaudi": 0.60}
# An offline batch job keeps this many sequences in flight per model copy (vLLM-style continuous
# batching), fewer when the KV cache cannot hold them.
BATCH_JOB_CONCURRENCY = 128
# Copy sizes whose GPU-hours per run are within this share of each other tie: the smaller copy is taken.
BATCH_COPY_TIE = 0.05
# A job meets its deadline when the estimate leaves this share of the time to spare: speed estimates
# carry about this much error (the bench's residuals), and a run that needs every last hour is a bet.
DEADLINE_MARGIN = 0.15
# Batch jobs that miss a deadline add model copies (data parallel), up to this many cards.
MAX_BATCH_GPUS = 64
# A one-off budget for serving is met by buying within it, or by renting for at least this many months.
BUDGET_MONTHS = 12
# Pretraining without a stated deadline is planned to finish within this many days.
PRETRAIN_DAYS = 30
# Pretraining without a stated dataset size: compute-optimal tokens per parameter (Chinchilla, 2022).
TOKENS_PER_PARAM = 20
# Models to suggest, largest first, when your own cards cannot hold the one asked for (one person): the
# same family's smaller sizes (tools.models.smaller_in_family); another family only when the user asks.
# llama.cpp serves this many people at once on hardware you own or buy for home (parallel slots),
# two on a rented consumer card; more go to vLLM.
LLAMA_CPP_MAX_USERS = 4
# Quantized formats for llama.cpp that match a serving precision (single-user and Apple hardware).
GGUF_EQUIVALENT = {"bf16": "f16", "fp16": "f16", "fp8": "q8_0", "int8": "q8_0", "gptq-int8": "q8_0",
                   "int4": "q4_k_m", "awq": "q4_k_m", "gptq-int4": "q4_k_m", "nf4": "q4_k_m"}
# Warnings that mean "not this card for this job": options carrying one rank after clean ones.
AVOID = ("poor value for training", "no CUDA training", "poor base for multi-GPU training")


# People who use a service from which it is an organisation's (a hospital's doctors, a firm's staff): bought
# or rented consumer cards are a poor base for it, as for a service with an availability target.
ORG_SERVICE_PEOPLE = 100


class RentQuote(BaseModel):
    """A price the user was quoted for one card ('lambda quoted me 2.49/hr for an h100', 'buying two used 3090s
    for $1400 total'): the plan prices that card at it, to rent or to buy. Reserved (a commitment, a monthly
    rental) is billed every hour of the term, busy or not."""

    gpu: str = Field(description="catalog id of the card quoted")
    usd_per_gpu_hour: float | None = Field(None, gt=0, le=1000, description="the rent per card-hour, in USD")
    buy_usd_per_gpu: float | None = Field(None, gt=0, le=1_000_000, description="the price of one card bought, "
                                          "in USD (the machine around it is added as for any card)")
    reserved: bool = Field(False, description="billed every hour whatever the utilisation (reserved, committed, "
                                              "rented by the month)")
    machine_gpus: int | None = Field(None, gt=1, le=64, description="the price was quoted for a whole machine of "
                                     "this many cards (usd_per_gpu_hour or buy_usd_per_gpu is its share per card; a "
                                     "machine bought comes with the server around its cards)")


class Workload(ToolInput):
    # The request rate a plan is sized for when _recommend_rate sizes it as users at once (its own
    # requests_per_s is then None): traffic by the second still makes it an organisation's service.
    _rate_per_s: float = PrivateAttr(0.0)
    phase: Phase = Field("train-and-serve", description="the job: experiment, fine-tune, serve, train-and-serve, "
                                                          "production, batch (items by a deadline) or pretrain")
    model: str = Field(description=MODEL_HELP)
    serve_precision: str | None = Field(None, description="weight format; default: the checkpoint's own, else int8")
    engine: Engine | None = Field(None, description="serving engine the user named; default: vLLM, llama.cpp for "
                                                    "one or two people at home and on Macs")
    method: Method = Field("qlora", description=METHOD_HELP)
    optimizer: str | None = Field(None, description="fine-tuning optimizer when not the framework's (adamw-8bit)")
    qlora_base: Literal[8, 4, 2] | None = Field(None, description="bits of QLoRA's frozen base: 8 (int8), 4 (NF4, "
                                                                  "the default), 2 (HQQ)")
    kv_cache: Literal[8, 4] | None = Field(None, description="KV-cache bits asked for: FP8 in vLLM, q8_0/q4_0 in "
                                                             "llama.cpp; None: 16-bit (8-bit tried on your own cards)")
    framework: str | None = Field(None, description="fine-tuning framework whose defaults size the run "
                                                    "(tools.training presets); default hf-trainer")
    mixed_precision: bool | None = Field(None, description="full fine-tuning: False keeps weights, gradients and "
                                                           "Adam states in BF16 (8 bytes per parameter); None: the "
                                                           "named framework's, else mixed precision (16)")
    objective: Literal["sft", "dpo", "rl"] = Field("sft", description="fine-tuning objective: sft (supervised), dpo "
                                                                       "(preference pairs) or rl (online RL: GRPO, PPO; "
                                                                       "tools.rl)")
    rl_algorithm: Literal["grpo", "ppo"] = Field("grpo", description="online RL: grpo (no value model) or ppo")
    rl_prompts: int = Field(RL_PROMPTS, gt=0, description="online RL: prompts in one pass")
    rl_samples: int = Field(DEFAULT_SAMPLES, ge=2, le=1024, description="online RL: completions per prompt (the group)")
    rl_prompt_tokens: int = Field(DEFAULT_PROMPT_TOKENS, gt=0, description="online RL: tokens per prompt")
    peak_hours: float | None = Field(None, gt=0, le=24, description="serving: busy hours a day (tools.traffic_month)")
    peak_days: float | None = Field(None, gt=0, le=7, description="serving: days a week with busy hours")
    offpeak_share: float | None = Field(None, ge=0, le=1, description="serving: the quiet hours' load, a share of the "
                                                                      "busy hour's")
    rl_layout: Literal["colocate", "split"] | None = Field(None, description="online RL: colocate (engine and trainer "
                                                           "share the cards) or split; None: whichever pays")
    rl_rollout_gpus: int | None = Field(None, gt=0, le=1024, description="online RL, split: cards for the rollouts")
    rl_pipelined: bool | None = Field(None, description="online RL, split: the next step's rollouts overlap the update")
    rl_steps: int | None = Field(None, gt=0, description="online RL: policy steps whose time is asked (the answer gives "
                                                         "it from one step's time)")
    rl_completion_tokens: int = Field(DEFAULT_COMPLETION_TOKENS, gt=0, description="online RL: tokens generated per "
                                                                                    "completion")
    rl_run_steps: int | None = Field(None, gt=0, le=10_000_000, description="online RL: the run in policy steps when "
                                                                           "said ('~2000 steps'): its time and price "
                                                                           "are that many steps'")
    rl_prompts_per_step: int = Field(PROMPTS_PER_STEP, gt=0, description="online RL: prompts in one policy step")
    rl_reward_model: str | None = Field(None, description="online RL: a reward model scoring the rollouts (None: a rule "
                                                          "or a verifier)")
    rl_critic_model: str | None = Field(None, description="online RL, PPO: the critic (None: the policy's size)")
    context: int = Field(8192, gt=0, description="tokens per conversation held in memory")
    users: int = Field(1, gt=0, description="people generating at the same time")
    utilisation: float = Field(0.5, ge=0, le=1, description="share of the week's hours the cards are busy "
                                                            "(0.24: working hours, 1: around the clock)")
    region: Region = Field("global", description=REGION_HELP)
    currency: Literal["USD", "CNY"] | None = Field(None, description="money shown in; None: yuan in China")
    budget_usd_per_month: float | None = Field(None, gt=0, description="for renting")
    budget_per: Literal["hour", "day"] | None = Field(None, description="the monthly budget said by the hour or day")
    budget_usd: float | None = Field(None, gt=0, description="one-off: to buy cards, or for one job")
    owned: list[str] = Field(default_factory=list, max_length=MAX_LIST_ITEMS, description="cards already owned, e.g. '2x rtx-3090'")
    network: Literal["fast", "slow"] | None = Field(None, description="the network between the servers of cards you "
                                                                      "own: fast (InfiniBand, RoCE), slow (Ethernet); "
                                                                      "None: not said")
    redundancy: Literal["n+1", "two-sites"] | None = Field(None, description="redundancy asked for: n+1 (a spare "
                                                           "copy: 'N+1', 'failover'), two-sites (two sites that each "
                                                           "carry the whole load: 'two data centers', '两个机房')")
    uptime: float | None = Field(None, gt=0, le=100, description="an availability target in percent ('99.9% "
                                                                "uptime'): rented consumer cards are a poor base for it")
    population: int | None = Field(None, gt=0, description="people who use the service, not at once ('our 300 doctors'): "
                                                           f"from {ORG_SERVICE_PEOPLE} on, an organisation's service")
    network_gbit: float | None = Field(None, gt=0, le=3200, description="the speed of that network when said, Gb/s "
                                                                        "(an Ethernet's: '100G ethernet', '万兆')")
    electricity_usd_per_kwh: float | None = Field(None, ge=0, description="electricity price for cards you buy; "
                                                                           "default: the region's typical price")
    hosting_usd_per_month: float | None = Field(None, gt=0, description="hosting (colocation, rack space) of the "
                                                "cards bought, a month in USD, for all of them; default: "
                                                "tools.cost's figure per card-month")
    horizon_months: int | None = Field(None, gt=0, le=120, description="months the rent-or-buy comparison covers "
                                       "(how long the cards are kept); default: tools.cost's horizon")
    preference: Literal["rent", "buy", "either"] = Field("either", description="rent, buy, or either (the cheaper)")
    train_tokens: float | None = Field(None, gt=0, description="training tokens per epoch; default 20M "
                                                               "(pretraining: 20 per parameter)")
    epochs: float = Field(1.0, gt=0, description=EPOCHS_HELP)
    seq_len: int = Field(2048, gt=0, description=SEQ_LEN_HELP)
    batch_items: int | None = Field(None, gt=0, description="batch job: items to process")
    batch_input_tokens: int = Field(1000, gt=0, description="batch job: tokens read per item")
    batch_output_tokens: int = Field(200, ge=0, description="batch job: tokens written per item (0: read only, as "
                                                            "an embedding or reranking model does)")
    deadline_hours: float | None = Field(None, gt=0, description="hours a training run or batch job must finish in")
    go_live_hours: float | None = Field(None, gt=0, description="hours until a service must be running: a purchase "
                                                               "that takes longer to arrive is not the headline")
    runs_per_month: float | None = Field(None, gt=0, le=744, description="how often a batch job or training run "
                                         "repeats: 30 for nightly, about 4.3 for weekly; None: it runs once")
    ttft_ms: float | None = Field(None, gt=0, description="target time to first token")
    ttft_percentile: float | None = Field(None, ge=0.5, le=0.999, description="the percentile a request rate's first-token target is held at (0.9 for p90); default p99")
    tpot_percentile: float | None = Field(None, ge=0.5, le=0.999, description="the percentile a per-token target was said at (0.99 for p99); min_tokens_per_s is then its mean (tools.queueing.per_token_tail), and with a request rate a p99 is held on the queueing model's own p99")
    e2e_ms: float | None = Field(None, gt=0, description="target end-to-end time, the whole answer back: first token "
                                 "plus output_tokens x time per output token (at ttft_percentile with a request rate)")
    prompt_tokens: int | None = Field(None, gt=0, description="prompt length for the time-to-first-token target")
    images_per_request: int = Field(0, ge=0, le=64, description="images sent with each request (a vision model "
                                                                "reads each as its image_tokens)")
    min_tokens_per_s: float | None = Field(None, gt=0, description="per-user decode speed target; "
                                                                   "default: reading speed")
    requests_per_s: float | None = Field(None, gt=0, le=1_000_000, description="requests arriving per second at "
                                         "the busiest time: the users at once then come from it (Little's law, "
                                         "tools.queueing) and the time-to-first-token target is held at p99")
    output_tokens: int | None = Field(None, gt=0, le=1_000_000, description="with a request rate: mean tokens "
                                      f"generated per request (default {256})")
    quotes: list[RentQuote] = Field(default_factory=list, max_length=MAX_LIST_ITEMS, description="rental prices the user was quoted: those "
                                                                      "cards are options at these prices, listed first")
    candidates: list[str] | None = Field(None, max_length=MAX_LIST_ITEMS, description="GPU ids to consider (or cards with a count, "
                                                                     "'2x h100-sxm'); default: a shortlist per region")
    has_host: bool = Field(False, description="a computer for bought consumer cards is already there")
    line_said: str | None = Field(None, description="the model named before, whose line has no model of the size "
                                  "asked ('换成72B' after Qwen3 32B): its line's models are the smaller ones tried first")
    keep_model: bool = Field(False, description="the model asked heads the plan even where the user's own card "
                             "cannot hold it (a switch to it just asked: 'what about 72B instead', '换成72B呢'); a "
                             "smaller model of its family is a fallback beside it, never the plan")
    only_sourced: bool = Field(False, description="the candidates are all the cards the user can get ('只能买到H20', "
                               "'we can only get L20s'): no other card is named as a better choice beside them")
    only_bought: bool = Field(False, description="the candidate named with a count is weighed for buying against "
                              "renting ('rent or buy two 4090s?', '买4张L20还是租'): the plan is that many (tools.count_bought)")
    cheapest: bool = Field(False, description="the cheapest way asked for: a job is planned on the least paid option "
                                              "that meets every requirement, never a dearer one that finishes sooner")
    flexible: list[str] = Field(default_factory=list, max_length=MAX_LIST_ITEMS, description="slots the user did not state: cards they own "
                                                                  "may change them (4-bit, a shorter context) to do the job")
    exclude: list[str] = Field(default_factory=list, max_length=MAX_LIST_ITEMS, description="vendors or GPU ids not to recommend, "
                                                                 "e.g. 'amd', 'h20'")
    server_gpus: int | None = Field(None, gt=0, le=16, description="GPUs in each server you own ('two 8xH100 "
                                                                   "nodes': 8); default 8")
    max_gpus: int | None = Field(None, gt=0, le=1024, description="most GPUs a serving plan may use in all "
                                                                  f"(replicas x servers); default {MAX_SERVING_GPUS}")
    cpu_offload: bool = Field(False, description="part of the model in system RAM asked for ('加 CPU offload'): llama.cpp's "
                              "offload is sized on the one card named, owned or only considered")
    system_ram_gb: float | None = Field(None, gt=0, le=16384, description="system memory of the computer your card "
                                        "sits in, GiB: llama.cpp's CPU offload (-ngl, --n-cpu-moe) is sized for it")
    loras: int | None = Field(None, gt=0, le=MAX_ADAPTERS, description="LoRA adapters served on the one base model "
                              "(vLLM --enable-lora --max-loras): their memory and throughput cost, tools.multi_lora")
    lora_rank: int | None = Field(None, gt=0, le=MAX_RANK, description="the adapters' rank (default 16)")
    use_case: str | None = Field(None, description="what it serves, a row of knowledge/data/use_cases.yaml ('coding', "
                                    "'rag'): a request rate's prompt and output when not said")
    product: bool = Field(False, description="a product people use (customer-facing chat, a public API): each "
                          "user's speed at load is held at the rules' product_min_tokens_per_s unless one is said")
    personal: bool = Field(False, description="one person's own use ('just me', '自己用'): their own device first, "
                                              "nothing about utilisation")
    buy_count: int | None = Field(None, ge=1, le=16, description="cards the user will buy, no card named ('we want "
                                  "to buy two cards', '想买两张卡'): plans of that many cards of a card sold singly")
    fewest_owned: bool = Field(False, description="cards you own are a ceiling ('how many of our 16 GPUs does it "
                               "eat', 'half of them train'): a service takes the fewest of them that meet its targets")
    owned_busy: float = Field(0.0, ge=0, lt=1, description="share of the cards you own busy with other work ('half "
                              "of them train'): a service with fewest_owned takes only from the rest")
    budget_leeway: float = Field(0.0, ge=0, le=50, description="percent over a one-off or monthly budget said "
                                 "approximately ('about $5k', '一万五左右') that still counts as within it; 0: a hard cap")
    used_cards: list[str] | None = Field(None, max_length=MAX_LIST_ITEMS, description="GPU ids said used among "
                                         "the cards named ('a used 3090 or a 4090'): only these are priced used")
    used_ok: bool = Field(False, description="used cards accepted ('used is fine', '二手也行'): a purchase is priced at "
                                             "the sourced used price where one is on record (knowledge used_prices)")
    shared_prefix_tokens: int | None = Field(None, gt=0, le=10_000_000, description="tokens at the start of every "
                                             "prompt that are the same for all requests (a system prompt, shared "
                                             "instructions): prefix caching computes them once (tools.prefix_cache)")
    prefix_hit_rate: float | None = Field(None, ge=0, le=1, description="share of requests that find the shared "
                                          "prefix cached; default tools.prefix_cache.DEFAULT_HIT_RATE")
    speculative: Literal["draft", "eagle3", "mtp", "auto"] | None = Field(
        None, description="speculative decoding asked for: a draft model of the family, an EAGLE-3 head, the "
        "model's MTP layers, or auto (its MTP layers when it has them, else an EAGLE-3 head; tools.speculative)")
    draft_model: str | None = Field(None, description="speculative decoding with this draft model (said 'X as the "
                                    "draft'); default the family's draft on record")

    @property
    def domestic_only(self) -> bool:
        """A domestic-only rule (国产化, 信创) is in force: in China, every vendor of a card not made by a
        Chinese vendor is ruled out."""
        foreign = {g.vendor for g in gpus() if not g.domestic_china}
        return self.region == "china" and bool(foreign) and foreign <= set(self.exclude)

    @property
    def speed_floor(self) -> float:
        return self.min_tokens_per_s or self.product_floor or MIN_TOKENS_PER_S

    @property
    def product_floor(self) -> float | None:
        """The per-user speed a product people use is held at when no speed is said (rules.yaml), else None."""
        return rules().product_min_tokens_per_s if self.product and self.min_tokens_per_s is None else None

    @property
    def target_speed(self) -> float | None:
        """The per-user speed the queueing model sizes a rate's copies for: the one said, else a product's floor."""
        return self.min_tokens_per_s or self.product_floor

    def queue_speed_targets(self) -> dict[str, float | None]:
        """The per-token target the queueing model holds a rate's copies to: a p99 said ('p99 TPOT under 50 ms') on
        its own p99 (tools.queueing: the in-flight count's swing, then the steady spread), never as a mean below it;
        any other target (a median, a p90 or p95, a product's floor) on the median at the mean said."""
        if self.min_tokens_per_s and self.tpot_percentile == P99:
            return {"tpot_ms": None, "tpot_p99_ms": per_token_tail(P99) * 1000 / self.min_tokens_per_s}
        return {"tpot_ms": 1000 / self.target_speed if self.target_speed else None, "tpot_p99_ms": None}

    def prompt_length(self) -> int:
        """Tokens of the prompt the first token is timed at: the stated length, else the use case's typical one
        (within a context said), else the context up to 4,096; with images (a vision model), each image's tokens plus the words sent with them."""
        images = self.images_per_request * (resolve_model(self.model).image_tokens or 0)
        if images:
            return (self.prompt_tokens or IMAGE_PROMPT_TOKENS) + images
        use = use_case(self.use_case)
        if self.prompt_tokens or not use:
            return self.prompt_tokens or min(self.context, 4096)
        return use.prompt_tokens if "context" in self.flexible else min(use.prompt_tokens, self.context)

    @property
    def pays_in_yuan(self) -> bool:
        """Money in yuan first: the user is in China or asked for yuan."""
        return self.currency == "CNY" or (self.currency is None and self.region == "china")

    @property
    def latency_stated(self) -> bool:
        return self.ttft_ms is not None or self.min_tokens_per_s is not None

    @property
    def spec(self):
        return PHASES[self.phase]

    def written_per_item(self, model: ModelArch) -> int:
        """Tokens a batch job writes per item: none on an encoder (an embedding or reranking model returns a
        vector or a score: the job is prefill only), else what was said or the default."""
        return 0 if model.encoder else self.batch_output_tokens

    def chunking(self, model: ModelArch) -> ChunkPlan | None:
        """A batch item (and what it writes) longer than the model reads, even with the YaRN its card documents:
        map-reduce over chunks of its native context (tools.chunked), never single passes past it; else None."""
        if not self.spec.batch or model.encoder:
            return None
        written = self.written_per_item(model)
        if model.yarn_context and self.batch_input_tokens + written <= model.yarn_context:
            return None  # one pass with RoPE scaling, said in the warnings
        return chunk_plan(self.batch_input_tokens, written, model.max_context)

    def batch_per_item(self, model: ModelArch) -> tuple[int, int, int]:
        """(tokens read, tokens written, the longest pass) per batch item: every pass of a chunked item counted."""
        plan = self.chunking(model)
        if plan is not None:
            return plan.tokens_in, plan.tokens_out, plan.longest
        written = self.written_per_item(model)
        return self.batch_input_tokens, written, self.batch_input_tokens + written

    @property
    def reinforces(self) -> bool:
        """An online RL fine-tune: rollouts generated, then a policy update on them (tools.rl)."""
        return self.objective == "rl" and self.spec.trains and not self.spec.pretrains

    def rl_input(self, gpu: str | None, n: int, owned: bool = False) -> RlInput:
        """The RL run on n cards; your own over the ordinary Ethernet said between your servers: data parallel
        across them (tools.rl_sync)."""
        method: Method = self.method
        per = _server_gpus(self, find_gpu(gpu)) if gpu else self.server_gpus or NODE_GPUS
        across = {"server_gpus": per, "network_gbit_per_s": self.network_gbit or SLOW_NETWORK_GBIT} \
            if owned and self.network == "slow" and n > per else {}
        return RlInput(model=self.model, gpu=gpu, gpus=n, method=method, algorithm=self.rl_algorithm,
                       prompts=self.rl_prompts, samples=self.rl_samples, prompt_tokens=self.rl_prompt_tokens,
                       completion_tokens=self.rl_completion_tokens, epochs=self.epochs, framework=self.framework,
                       base_precision=QLORA_BASES.get(self.qlora_base) if method == "qlora" else None,
                       region=self.region, pipelined=bool(self.rl_pipelined), steps=self.rl_run_steps,
                       prompts_per_step=self.rl_prompts_per_step, reward_model=self.rl_reward_model,
                       critic_model=self.rl_critic_model,
                       rollout_gpus=self.rl_rollout_gpus if self.rl_rollout_gpus and self.rl_rollout_gpus < n else None,
                       **across)

    def tokens_per_run(self, model: ModelArch) -> float:
        if self.reinforces:  # trained on what it generates: prompts x samples x (prompt + completion)
            prompts = self.rl_run_steps * self.rl_prompts_per_step if self.rl_run_steps else self.rl_prompts
            return float(prompts * self.rl_samples * (self.rl_prompt_tokens + self.rl_completion_tokens))
        if self.train_tokens:
            return self.train_tokens
        return TOKENS_PER_PARAM * model.total_params_b * 1e9 if self.spec.pretrains else 20e6


class LayoutTry(BaseModel):
    """One layout tried on the cards you own (or a setup you named), with the figures that decided it."""

    replicas: int
    tp: int
    pp: int = 1
    gpus: int
    dp_attention: int = 0
    precision: str | None = None
    kv_precision: str | None = None
    ok: bool
    fits: bool = True
    decode_tokens_per_s: float | None = None
    ttft_s: float | None = None
    shortfall: float | None = Field(None, description="worst ratio of what it gives to a target (1.2: 20% short)")
    reasons: list[str] = []


FindingCode = Literal["full_ft_bf16_states_only", "full_ft_mixed_precision", "full_ft_mixed_precision_8bit",
                      "full_ft_pure_bf16",
                      "fp16_amp", "training_across_servers", "slow_network_training", "qlora_not_on_stack",
                      "framework_not_on_stack", "one_server_training", "rl_across_servers",
                      "rl_one_server", "training_edge", "rl_faster_at_edge", "across_servers_training"]


class Finding(BaseModel):
    """Something the answer must say, as a code with its figures; writers turn it into a sentence per
    language. full_ft_bf16_states_only: full fine-tuning fits only because weights, gradients and
    optimizer states stay in BF16 (no FP32 master copy); values: bf16_bytes and fp32_bytes per GPU
    (training_memory without and with mixed precision), capacity_bytes, framework. full_ft_mixed_precision: full
    fine-tuning sized as the usual mixed precision (no framework named), with pure BF16 as the alternative;
    values: mixed_per_param and bf16_per_param (bytes per parameter of weights, gradients and optimizer
    states), mixed_bytes and bf16_bytes per GPU (_8bit: the same with 8-bit AdamW). full_ft_pure_bf16: the user asked for pure BF16; the same
    values, and its risk. fp16_amp: the card has no BF16, so full fine-tuning is sized as FP16 AMP; values:
    gpu, per_param (bytes per parameter). training_across_servers: a full fine-tune sharded with ZeRO-3 over
    several servers needs InfiniBand or RoCE between them; values: gpus, servers. slow_network_training: a
    run over your servers is bound by the Ethernet between them; values: servers, gbit, network_hours,
    compute_hours, and lora_hours when LoRA on one server's cards does the job instead. one_server_training: your
    servers trained on one at a time; values: gpus, servers, per (cards in each), gbit (the slow network, or ""), and
    what ZeRO-3 over all of them would move each step (tools.train_servers: gb, sync_s, step_s, share).
    across_servers_training: a fine-tune on all your servers over Ethernet, what crosses between them a step small
    against its compute (tools.train_servers: ZeRO-3's weights and gradients, gb; LoRA's adapters' gradients, mb;
    layout says which); the same values, hours and one_hours, link ('nvlink' or 'pcie': inside each server).
    rl_across_servers / rl_one_server: an online-RL run on your servers over Ethernet, data parallel across all of
    them (each step's gradient exchange small against the step) or on one server's cards (it is not); values: gpus,
    servers, per, gbit, sync_s and step_s (the exchange and the step across the servers, seconds), share (the one over
    the other), hours (the run across them), one_hours (on one server's cards). training_edge: the plan fits but
    leaves less than the training margin free on each card (tools.train_margin); values: used_bytes, capacity_bytes,
    margin_bytes, levers (codes of the changes that leave it, comma-separated), <code>_bytes per lever, gpus (more
    cards: how many in all). rl_faster_at_edge: an RL layout on the same cards, faster than the one taken, that leaves
    less than the margin (tools.rl_margin.passed_over); the same values, and layout, r, t, hours, hours_taken."""
    code: FindingCode
    values: dict[str, float | str] = {}


class Option(BaseModel):
    gpu: str
    gpu_name: str
    gpus: int
    owned: bool = False
    engine: Engine | None = None
    runtime: str | None = Field(None, description="the engine named in the answer, one that runs on this card "
                                                 "(vLLM-Ascend on Ascend); sized as `engine`")
    precision: str | None = None
    kv_precision: str | None = Field(None, description="KV-cache format when not the engine's 16-bit default")
    kv_cache_16bit_bytes: float | None = Field(None, description="the KV cache at 16 bits, all GPUs together, when an "
                                                                 "8- or 4-bit one (kv_precision) is used or tried")
    kv_saved_bytes: float | None = Field(None, description="what the kv_precision cache saves against the 16-bit one, "
                                                           "all GPUs together (inference_memory's kv_cache_bytes term)")
    serves: bool | None = None
    trains: bool | None = None
    serve_per_gpu_bytes: float | None = None
    adapter_slot_bytes: float | None = Field(None, description="of serve_per_gpu_bytes, the LoRA adapters' slots "
                                             "(tools.multi_lora) counted beside the model and its KV cache")
    train_per_gpu_bytes: float | None = None
    capacity_bytes: float
    headroom_fraction: float
    decode_tokens_per_s: float | None = None
    aggregate_tokens_per_s: float | None = None
    ttft_s: float | None = None
    tpot_s: float | None = Field(None, description="time per output token for each user at the stated concurrency")
    at_load: bool = Field(False, description="decode_tokens_per_s and tpot_s are the queueing model's median at "
                          "the request rate (prefill beside decode included), aggregate_tokens_per_s the rate's")
    e2e_s: float | None = Field(None, description="with an end-to-end target: first token + output tokens x time per "
                                                  "output token (queue-modelled at the percentile with a request rate)")
    e2e_first_s: float | None = Field(None, description="the first token in e2e_s")
    e2e_output_tokens: int | None = Field(None, description="the output tokens in e2e_s (said, else RATE_OUTPUT_TOKENS)")
    e2e_tpot_s: float | None = Field(None, description="the time per output token in e2e_s")
    e2e_percentile: float | None = Field(None, description="the percentile e2e_s is queue-modelled at; None: no queue")
    training_hours: float | None = None
    training_usd: float | None = None
    job_hours: float | None = Field(None, description="time to finish the job: a training run or a batch job")
    job_hours_slow: float | None = Field(None, description="a batch job: job_hours at the slow end of the speed's "
                                         "measured range (tools.deadline_margin)")
    needed_tokens_per_s: float | None = Field(None, description="a batch job with a deadline: the tokens per second "
                                              "it must write (or read) over the whole run to end by the deadline")
    job_usd: float | None = Field(None, description="rented cost of the job")
    job_usd_per_month: float | None = Field(None, description="rented cost of a repeating job in a month (runs_per_month runs)")
    payback_months: float | None = Field(None, description="months of a repeating job's rent that add up to the purchase "
                                                           "price (the cards alone, before power and hosting)")
    replicas: int = Field(1, description="model copies working side by side (data parallel), the users shared out")
    tp: int | None = Field(None, description="serving beyond one copy or one server: tensor-parallel GPUs of a copy, "
                                             "within one server")
    pp: int = Field(1, description="pipeline stages of a copy, one per server (when one server cannot hold it)")
    servers: int | None = Field(None, description="whole servers the plan spans (serving beyond one copy or server)")
    server_gpus: int | None = Field(None, description="GPUs in each server")
    link_within: str | None = Field(None, description="the link between a server's GPUs: the card's interconnect code "
                                                      "(nvlink, hccs, infinity-fabric, roce, pcie, nvlink-bridge)")
    link_between: Literal["infiniband"] | None = Field(None, description="the network a copy needs between servers: "
                                                                         "InfiniBand or RoCE for pipeline stages")
    users_per_replica: int | None = None
    dp_attention: int = Field(0, description="data-parallel attention ranks of a copy (an MLA model's latent KV "
                              "held once per rank, the experts spread over all of them); 0: tensor-parallel attention")
    expert_parallel: bool = Field(False, description="a MoE model's experts spread over a copy's GPUs (vLLM "
                                                     "--enable-expert-parallel), not each one sliced by tensor parallel")
    pipeline_s_per_token: float | None = Field(None, description="network time a token spends between pipeline stages")
    pipeline_network_gbit: float | None = Field(None, description="the network speed between servers said by the user "
                                                "that the pipeline hand-overs were sized with, Gb/s; None: assumed")
    usd_per_hour: float | None = None
    usd_per_month: float | None = None
    price_offers: int | None = Field(None, description="offers on record behind the rental price (None: the user's "
                                                       "own price, or none on record); fewer than "
                                                       "rules.few_offers_below marks the price and ranks it dearer")
    running_gpus: int | None = Field(None, description="rented cards the plan says to run: the plan's (less yours), "
                                                       "at each site, plus a spare copy for an availability target")
    running_hours: float | None = Field(None, description="hours a month those cards run and are billed")
    running_usd_per_month: float | None = Field(None, description="running_gpus x the card's price x running_hours: "
                                                                  "the month a monthly budget is checked against")
    cny_per_hour: float | None = None

    @property
    def billed_usd_per_month(self) -> float | None:
        """What a month of this option costs rented: the cards the plan runs for the hours they are billed, else
        every card around the clock."""
        return self.running_usd_per_month if self.running_usd_per_month is not None else self.usd_per_month

    purchase_usd: float | None = None
    host_usd: float | None = Field(None, description="the machines around the cards, part of purchase_usd")
    used_price: bool = Field(False, description="purchase_usd prices the cards used (knowledge used_prices), not new")
    usd_per_cny: float | None = Field(None, description="where the user pays in yuan: the rate a purchase is shown at")
    at_home: bool = False
    sold_in: int = Field(1, description="cards per purchasable unit (8 for SXM/OAM boards)")
    meets: dict[str, bool] = Field(default_factory=dict, description="deadline / latency / budget, where stated")
    avoid: bool = Field(False, description="the card is a poor choice for this job (the warnings say why)")
    ok: bool
    warnings: list[str] = []
    reasons: list[str] = []
    layouts_tried: list[LayoutTry] = Field(default_factory=list, description="every layout tried on the cards "
                                                                             "you own, this one first")
    chosen_because: Literal["meets", "closest"] | None = Field(None, description="why this layout of your cards: "
                                                               "it meets every target and is the fastest per user "
                                                               "in the format asked, or none does and it comes closest")
    owned_gpus: int = Field(0, description="of `gpus`, the cards you already own: the rest are added (rented or "
                                           "bought) alongside them, and only those are priced")
    findings: list[Finding] = []
    rl: RlResult | None = Field(None, description="online RL: rollouts and policy update on these cards (tools.rl)")
    rl_layouts: RlLayouts | None = Field(None, description="online RL: both layouts on these cards, and which pays")


class Lever(BaseModel):
    """A change that would bring an option within a constraint the plan misses."""

    change: str = Field(description='what changes: "int4", "qlora", "buy", "as_asked", or "context=4,096" style')
    option: Option | None
    within_budget: bool = True


class Recommendation(Explained):
    workload: Workload
    model_id: str
    chunking: ChunkPlan | None = Field(None, description="a batch item longer than the model reads: the map-reduce "
                                       "over chunks it is sized as (tools.chunked)")
    model_name: str
    vision_params_b: float = 0.0
    image_tokens: int | None = None
    image_state_mb: float | None = Field(None, description="a model whose images are cross-attended, not tokens in "
                                         "the context (Llama 3.2 Vision): the image keys and values kept per request")
    precision: str | None = None
    best: Option | None
    action: Literal["use", "rent", "buy", "none"]
    options: list[Option]
    rent_or_buy: RentBuyResult | None = None
    bought: Option | None = Field(None, description="a rented service: the cheapest machine that does the same job, "
                                  "bought, which rent_or_buy weighs the rent against (tools.bought_side)")
    owned_options: list[Option] = []
    levers: list[Lever] = []
    scenario: str | None = None
    relaxed: str | None = Field(None, description='"int4" when nothing met the requirements in the default '
                                                  '8-bit and 4-bit weights did (the guide\'s quantization lever)')
    taken_because: Literal["cheaper", "count_named", "count_kept"] | None = Field(
        None, description="why relaxed or taken_lever was taken when the job as asked is met too: 'cheaper' (4-bit "
        "weights on one copy cost less than 8-bit copies over several cards), 'count_named' (the change fits the job "
        "on the count of cards the user asked about), 'count_kept' (the change serves the job on the count of "
        "cards the user fixed, 'on one L40S', where more cards would be needed without it)")
    taken_lever: str | None = Field(None, description="nothing met the requirements as asked and a lever does: its "
                                    "code (tools.levers: kv8, int4_kv8), the cheapest that meets everything, taken "
                                    "as the plan and said as an assumption the user can undo")
    owned_share: Option | None = Field(None, description="serving the gap: the cards you own, for the users "
                                                        "they can serve (owned_users); best serves the rest")
    owned_users: int | None = None
    owned_context: int | None = Field(None, description="serving the gap: the longest context per conversation at "
                                      "which the cards you own hold every user at once (vLLM pages the KV cache by "
                                      "the tokens each conversation holds, so this is the average they may hold)")
    better: Option | None = Field(None, description="when the cards the user limited the choice to are a poor "
                                                   "fit for the job: the best option among all cards")
    beside_yours: BesideYours | None = Field(None, description="how rented cards sit beside the cards you own that "
                                            "fall short: one_job (training: yours and rented ones in another place "
                                            "cannot be one job over the internet, so the run is rented whole), "
                                            "copies (serving: the rented cards hold whole copies of the model at "
                                            "the provider, your cards the others, one load balancer in front), "
                                            "whole (serving: your cards hold no copy, and a copy is never split "
                                            "between yours and rented ones, so the service is rented whole)")
    ruled_out: list[str] = Field(default_factory=list, description="cards owned or named ('2x rtx-4090') that a "
                                 "domestic-only rule the user stated rules out: left out of the plan and said back")
    better_why: BetterWhy | None = Field(None, description="why `better` is named: train (the card is a poor "
                                         "training card), service (consumer cards for an organisation's service), "
                                         "unpriced (no price on record), tight (little memory to spare), spread "
                                         "(consumer cards over several servers), grey (bought in China where "
                                         "official channels do not sell it: `better` is a card they do), method "
                                         "(the cards weighed for buying took a fallback method to fit: `better` "
                                         "does the job as asked)")
    usd_per_cny: float | None = Field(None, description="the exchange rate behind yuan figures (region china)")
    owned_as_planned: Option | None = Field(None, description="your cards as asked, before a plan that keeps the job "
                                                             "on them with a change (tools.owned_offload)")
    instead: Option | None = Field(None, description="one person at home, a smaller model on their own card "
                                                    "(relaxed 'model=...'): the rented plan for the model asked")
    instead_model: str | None = Field(None, description="the name of the model asked, run by `instead`")
    prefill_load: PrefillLoad | None = Field(None, description="users at once whose prompts bind: the request rate "
                                             "they imply, the plan sized for it (tools.prefill_load)")
    traffic: Traffic | None = Field(None, description="serving a request rate: the requests in flight it sized "
                                                     "for (Little's law) and the plan's latencies at that load")
    training_run: Option | None = Field(None, description="training and serving apart: the cards rented by "
                                                           "the hour for each fine-tuning run, when serving "
                                                           "needs fewer or other cards")
    offload: OffloadResult | None = Field(None, description="one person's own card too small for the model in 4 "
                                                            "bits: the same model with part of it in system RAM "
                                                            "(llama.cpp -ngl or --n-cpu-moe), tools.offload")
    multi_lora: MultiLoraResult | None = Field(None, description="many LoRA adapters on the plan's base model: slots "
                                               "on each GPU, adapters in system memory, throughput cost (tools.multi_lora)")
    offload_leads: bool = Field(False, description="the offload plan is the answer: the model asked, at reading "
                                                   "speed, in RAM said to be enough, instead of a smaller model or "
                                                   "(a MoE model) a 2- or 3-bit file; at home, on a card that holds "
                                                   "it in no file, at any speed (tools.home_card)")
    home_more: Option | None = Field(None, description="one person at home, a card too small for the model asked: "
                                                       "their cards and the fewest more of them that hold it all on "
                                                       "the cards in the home file (tools.home_card.more_cards)")
    qlora_short: Recommendation | None = Field(None, description="a LoRA too big for the cards owned: the same job "
                                                "as QLoRA, sized (tools.owned_qlora.qlora_short_on_owned)")
    pool: PoolResult | None = Field(None, description="cards you own of several kinds, none enough alone: all of "
                                                     "them as one llama.cpp layer split (tools.pool)")
    pool_leads: bool = Field(False, description="the pool is the answer: a few users, and it holds the file asked "
                                                "or a smaller GGUF file (the rented plan is the alternative)")
    prefix_cache: PrefixPlan | None = Field(None, description="a shared prefix said: the plan sized with prefix "
                                            "caching, and the job without it (tools.prefix_plan)")
    disaggregation: Disaggregation | None = Field(None, description="a request-rate plan: prefill and decode "
                                                  "pools beside it, offered when they pay (tools.disagg)")
    rent_unit: RentUnit | None = Field(None, description="a rented plan on part of a server of a card sold only in "
                                       "whole servers: the instances it is rented in (tools.rent_unit)")
    speculative: SpeculativePlan | None = Field(None, description="speculative decoding asked: its decode speed-up "
                                                "at the plan's batch and its memory (tools.speculative_plan)")
    owned_limit: OwnedLimit | None = Field(None, description="a few desktop cards you own short of a service: the "
                                           "context, users and more cards at which they hold it (tools.owned_limit)")
    named_limit: OwnedLimit | None = Field(None, description="the count named with a card short of a service: the "
                                           "context and users at which it holds it (tools.named_limit)")

    @property
    def budget_months(self) -> float | None:
        """Months of renting the best option a one-off budget pays for when renting is all it buys (cloud credits,
        a wish to rent), serving; None otherwise."""
        w, best = self.workload, self.best
        if w.budget_usd is None or w.preference != "rent" or not w.spec.serves or best is None or best.owned:
            return None
        month = best.billed_usd_per_month
        return w.budget_usd / month if month else None

    @property
    def trains_on(self) -> Option | None:
        """The option that runs the fine-tuning: its own rented cards when training and serving are apart."""
        return self.training_run or self.best


OwnedLimit.model_rebuild(_types_namespace={"Option": Option})  # (tools.owned_limit names the Option it holds)
Recommendation.model_rebuild()


def parse_owned(text: str) -> tuple[int, Gpu]:
    """'2x rtx-3090' -> (2, the card); a count of 0 or below ('0x h100-sxm', '-2x h100') is refused."""
    m = re.match(r"^\s*(-?\d+)\s*[x×*]?\s*(.+)$", text)
    count, name = (int(m[1]), m[2]) if m else (1, text)
    if count < 1:
        raise BadValue(f"a count of cards must be at least 1, got {text.strip()!r}", "card_count_not_positive",
                       said=text.strip())
    return count, find_gpu(name)


def serving_precision(w: Workload, model: ModelArch, gpu: Gpu | None = None) -> str:
    """The user's format, else the checkpoint's own (gpt-oss ships MXFP4, DeepSeek-V3 FP8), else 8-bit:
    FP8 on a card with FP8 tensor cores (Ada, Hopper, Blackwell, MI300, Gaudi; vLLM's usual 8-bit there,
    with prefill on the FP8 units), int8 on the others (Ampere, Ascend)."""
    chosen = w.serve_precision or model.native_precision
    if chosen and gpu is not None and gpu.stack in find_precision(chosen).unconverted_stacks:
        return "w8a8-int8"  # no FP8 or FP4 kernels on Ascend: vLLM-Ascend serves those as W8A8, asked for or not
    if chosen:
        return chosen
    if model.encoder:
        return "bf16"  # an embedding model of a few hundred million parameters runs as published (TEI, vLLM's pooling)
    if gpu is not None and gpu.stack == "cuda" and not gpu.fp8_tflops and not gpu.int8_tops:
        # no FP8 and no INT8 tensor cores (Volta: V100): vLLM's W8A8 kernels need Turing or newer and its
        # Marlin weight-only kernels Ampere (docs.vllm.ai quantization/supported_hardware), so 8 bits would buy
        # memory at best; the card's own 16-bit format, FP16 where it has no BF16
        return "bf16" if gpu.native_bf16 else "fp16"
    if gpu is not None and not gpu.fp8_tflops and gpu.int8_tops and gpu.stack == "cuda" and w.spec.batch:
        return "w8a8-int8"  # a batch job is prefill-bound: on the INT8 units (RTX 3090: 284 TOPS against 71 TFLOPS)
    return "fp8" if gpu is not None and gpu.fp8_tflops else "int8"


def _engines(w: Workload, gpu: Gpu, precision_id: str, owned: bool) -> list[tuple[Engine, str]]:
    """(engine, format) pairs worth trying: llama.cpp for Apple and for one or two people on home
    hardware (the usual way to run a model there), vLLM otherwise."""
    precision = find_precision(precision_id)
    if w.engine is not None:  # the engine the user named, in its own kind of file
        fmt = (GGUF_EQUIVALENT.get(precision_id, precision_id) if w.engine == "llama.cpp" and precision.family != "gguf"
               else precision_id)
        return [(w.engine, fmt)] if engine_for(w.engine, gpu) is not None and _format_runs(w.engine, fmt) else []
    if precision.family == "gguf":
        pairs: list[tuple[Engine, str]] = [("llama.cpp", precision_id)]
    else:
        gguf = GGUF_EQUIVALENT.get(precision_id, precision_id if "llama.cpp" in precision.engines else None)
        pairs = [("vllm", precision_id)]
        at_home = owned or w.preference == "buy"
        # llama.cpp first only on a home card (a desktop GPU, a Mac): on data-centre cards, owned too, a batching
        # server with tensor parallelism is what people run (review BE #16: four owned V100s for 3 users at
        # 6.4 tokens/s on llama.cpp's layer split against 28 on LMDeploy)
        small = w.users <= (LLAMA_CPP_MAX_USERS if at_home else 2) and not w.spec.batch
        # a latency target for several people at once wants a batching server: llama.cpp serves them in turn
        # and splits a model over cards by layers, so its first token and answer times grow with each user
        timed = w.users >= 2 and (w.e2e_ms is not None or w.ttft_ms is not None)
        if gguf and precision_id in VLLM_FORMATS and w.serve_precision == precision_id:
            pairs.append(("llama.cpp", gguf))  # 'awq int4' named: vLLM's file first, llama.cpp only if it cannot fit
        elif gguf and (engine_for("vllm", gpu) is None or (small and gpu.at_home and not timed)):
            pairs.insert(0, ("llama.cpp", gguf))
    # only engines that run on this card (engines.yaml): no vLLM on a Mac, no llama.cpp on Gaudi
    return [(e, f) for e, f in pairs if engine_for(e, gpu) is not None]


# Weight files made for vLLM-style servers (AWQ, GPTQ): named by the user, the plan keeps them on vLLM.
VLLM_FORMATS = frozenset({"awq", "gptq-int4", "gptq-int8"})


def _format_runs(engine: Engine, fmt: str) -> bool:
    try:
        check_format_runs(engine, find_precision(fmt))
    except (ToolError, LookupError, ValueError):
        return False
    return True


FOUR_BIT = ("int4", "q4_k_m", "q4_0", "awq", "gptq-int4", "nf4", "mxfp4", "q3_k_m", "q2_k", "iq2_xxs", "iq1_s")
# llama.cpp's smaller files, tried in order of quality (fewest bits lost first) for one person at home when
# 4-bit does not fit: 3-bit, 2-bit, and for the largest models only (BIG_MODEL_B and up: DeepSeek-R1 on a Mac)
# the importance-matrix 2- and 1-bit types people run them with; a smaller model in 4 bits is the better
# trade below that size. The first that fits with the stated context is the one said (tests/test_quant_ladder.py
# checks the order against each file's bits per weight in knowledge/data/precisions.yaml).
HOME_FORMATS = ("q3_k_m", "q2_k", "iq2_m", "iq2_s", "iq2_xs", "iq2_xxs", "iq1_m", "iq1_s")
BIG_MODEL_B = 200
# From this size the importance-matrix 2-bit files (IQ2_*) are tried too, with their quality cost said: a
# 27B-70B model in 2 bits is what people run on a card a 3- or 4-bit file overflows, before a smaller size of
# the same family; below it the smaller size in 4 bits is the better trade. 1-bit files stay for BIG_MODEL_B.
IQ2_MODEL_B = 25


def _fast_enough(w: Workload, gpu: Gpu, n: int, engine: Engine, fmt: str, kv: str | None = None,
                 owned: bool = False) -> bool:
    """Fast enough to stop at this format: the stated target, else reading speed; one person on their own
    card or Mac with no target goes on to the 4-bit file below a comfortable speed (a 32B model in Q8_0 at
    9 tokens/s on an M3 Max runs about 1.7x faster in Q4_K_M, which is what such a user runs)."""
    sp = speed(SpeedInput(model=w.model, precision=fmt, gpu=gpu.id, gpus=n, batch=w.users, context=w.context,
                          engine=engine, kv_precision=kv))
    bar = COMFORTABLE_TOKENS_PER_S if owned and w.users <= 1 and w.min_tokens_per_s is None else w.speed_floor
    return sp.decode_tokens_per_s >= bar


def serving_tries(w: Workload, gpu: Gpu, owned: bool, precision_id: str) -> list[tuple[Engine, str, str | None]]:
    """(engine, weight format, KV-cache format) to try in order. On cards you own the usual ways to
    make a model fit come next: an 8-bit KV cache (half the cache: FP8 in vLLM on cards with FP8 units,
    q8_0 in llama.cpp on any card), then 4-bit weights."""
    formats = [precision_id]
    if w.serve_precision is None and owned and precision_id not in FOUR_BIT and (not w.flexible or "precision" in w.flexible):
        formats.append("int4")  # on your own card, 4-bit is the usual way to make a big model fit and fly ('满血版': not)
    tries: list[tuple[Engine, str, str | None]] = []
    if w.kv_cache:  # the format asked for, in each engine's own kind
        kv8 = kv8_format(gpu)  # (the Ascend 910B: INT8, never FP8 on a card without it; tools.kv_format)
        asked = {"vllm": kv8, "sglang": kv8, "llama.cpp": "q8_0" if w.kv_cache == 8 else "q4_0"}
        return [(engine, f, asked.get(engine)) for fmt in formats for engine, f in _engines(w, gpu, fmt, owned)]
    for fmt in formats:
        for engine, f in _engines(w, gpu, fmt, owned):
            tries.append((engine, f, None))
            if owned and engine in ("vllm", "sglang") and gpu.fp8_tflops:
                tries.append((engine, f, "fp8"))
            if owned and engine == "llama.cpp":
                tries.append((engine, f, "q8_0"))
    return tries


def _kv_cache_bytes(mem: Any) -> float:
    """The KV-cache term of an inference_memory result: every sequence's cache, all GPUs together."""
    return next((t.value for t in mem.terms if t.key == "kv_cache_bytes"), 0.0)


def _pipeline_network(w: Workload) -> float | None:
    """The network speed between servers a pipeline-parallel plan is sized with: the one said ('200Gb RoCE',
    '万兆'), plain Ethernet's when only that was said, else None (one 400 Gb/s NIC per GPU assumed)."""
    if w.network_gbit:
        return w.network_gbit
    return SLOW_NETWORK_GBIT if w.network == "slow" else None


def _dp_attention(mla: bool, engine: Engine, n: int, users: int) -> int:
    """Data-parallel attention ranks: MLA models (DeepSeek V2/V3/R1, Kimi K2) serve with one per GPU, as
    SGLang's and vLLM's DeepSeek recipes do (each rank keeps its own users' latent KV, not a copy of all)."""
    return n if mla and n > 1 and engine in ("sglang", "vllm") and users >= n else 1


def _expert_servers(w: Workload, gpu: Gpu, n: int, layout: Layout | None) -> int:
    """Servers a data-parallel-attention, expert-parallel copy spans (tools.scale.expert_units): 1 within one."""
    if layout is None or not layout.dp_attention or layout.pp > 1:
        return 1
    return max(1, -(-n // _server_gpus(w, gpu)))


def _ranks(w: Workload, gpu: Gpu, n: int, layout: Layout | None, mla: bool, engine: Engine, across: int) -> int:
    """The data-parallel attention ranks a copy is sized with: all its GPUs across servers; within one, an MLA model's
    one per GPU, unless the layout search found tensor-parallel attention holds more (tools.scale.unit_attention)."""
    if layout is not None and layout.pp > 1:
        return 1
    if across > 1:
        return n
    if layout is not None and not layout.dp_attention and not small_units_only(gpu):
        return 1
    return _dp_attention(mla, engine, n, w.users)


def _why_short(every: list[Any]) -> Any:
    """No try holds the model: the last try in the engine tried first (the one run on this card) gives the figures
    and the reason, so a llama.cpp answer on 2 × 3090 at home never says 'vLLM uses 90%' (review CM #6)."""
    return [t for t in every if t[0] == every[0][0]][-1]


def _serve(opt: Option, w: Workload, gpu: Gpu, n: int, owned: bool, precision_id: str,
           warnings: list[str], headrooms: list[float], layout: Layout | None = None) -> None:
    """Interactive serving: fits, per-user speed, and the latency target. With a layout, one copy of
    it (tp GPUs x pp servers) in its engine and formats."""
    tried = None
    pp = layout.pp if layout is not None else 1
    tries = ([(layout.engine, layout.precision, layout.kv_precision)] if layout is not None
             else serving_tries(w, gpu, owned, precision_id))
    mla = resolve_model(w.model).attention == "mla"
    fitted: dict[tuple[str, str], Any] = {}  # the first try of each engine and weight format that fits
    dps: dict[tuple[str, str, str | None], int] = {}  # data-parallel attention ranks each try was sized with
    fast = False
    every: list[Any] = []  # each try, in order: when none holds, the first engine's last says why (_why_short)
    across = _expert_servers(w, gpu, n, layout)  # a data-parallel-attention copy over several servers
    slots = _adapter_slot_bytes(w, n * pp)  # many LoRA adapters: their GPU slots are memory the plan must hold
    holds = functools.partial(_holds, slots=slots)
    for engine, fmt, kv in tries:
        dp = _ranks(w, gpu, n, layout, mla, engine, across)
        mem = inference_memory(InferenceMemoryInput(model=w.model, precision=fmt, context=w.context, batch=w.users,
                                                    gpus=n, pp=pp, gpu=gpu.id, engine=engine, kv_precision=kv,
                                                    dp_attention=dp))
        if dp > 1 and across == 1 and not mem.fits and (owned or w.requests_per_s or w._rate_per_s):
            # each rank's own attention weights leave no room: the cards you own (R1 FP8 on 8 × H20 96GB) and a
            # request rate's copies (tools.queueing, review AK C20) are held with tensor-parallel attention
            dp = 1
            mem = inference_memory(InferenceMemoryInput(
                model=w.model, precision=fmt, context=w.context, batch=w.users, gpus=n, pp=pp, gpu=gpu.id,
                engine=engine, kv_precision=kv))
        dps[(engine, fmt, kv)] = dp
        tried = (engine, fmt, kv, mem)
        every.append(tried)
        fast = holds(mem) and _fast_enough(w, gpu, n, engine, fmt, kv, owned)
        if fast or (holds(mem) and (engine, fmt, kv) == tries[-1]):
            break
        if holds(mem):
            fitted.setdefault((engine, fmt), tried)
    if tried is not None and not fast and tried[2] is not None and (tried[0], tried[1]) in fitted:
        tried = fitted[(tried[0], tried[1])]  # the last format fits with its 16-bit KV cache: the 8-bit one was for room
    if tried is None:
        opt.serves = False
        opt.reasons.append(f"no engine runs {precision_id} weights on {gpu.name}")
        return
    engine, fmt, kv, mem = tried if fitted or holds(tried[3]) else _why_short(every)
    if kv is not None:  # the 8-bit (or 4-bit) KV cache used or tried: what it saves, from the same tool
        full = inference_memory(InferenceMemoryInput(model=w.model, precision=fmt, context=w.context, batch=w.users,
                                                     gpus=n, pp=pp, gpu=gpu.id, engine=engine,
                                                     dp_attention=1 if small_units_only(gpu) else dps[(engine, fmt, kv)]))
        opt.kv_cache_16bit_bytes = _kv_cache_bytes(full)
        opt.kv_saved_bytes = opt.kv_cache_16bit_bytes - _kv_cache_bytes(mem)
    if dps[(engine, fmt, kv)] > 1:
        opt.dp_attention = n
        flag = (f"--enable-dp-attention --dp-size {n}" if engine == "sglang"
                else f"--data-parallel-size {n} --enable-expert-parallel")
        warnings.append(f"sized with data-parallel attention over the {n} GPUs ({flag}): each GPU keeps its own "
                        "users' latent KV cache instead of a copy of all of it")
    opt.engine, opt.precision, opt.kv_precision = engine, fmt, kv
    opt.runtime = engine_for(engine, gpu)
    opt.serves, opt.serve_per_gpu_bytes = holds(mem), mem.per_gpu_total_bytes + slots
    opt.adapter_slot_bytes = slots or None
    opt.capacity_bytes = mem.gpu_capacity_bytes or 0
    # spare memory of the whole card: vLLM's own 10% reserve counts as room to spare
    headrooms.append((opt.capacity_bytes - mem.per_gpu_total_bytes - slots) / opt.capacity_bytes)
    if not opt.serves:
        _slots_reason(opt, mem, slots)
        return
    net = _pipeline_network(w) if pp > 1 or across > 1 else None
    sp = speed(SpeedInput(model=w.model, precision=fmt, gpu=gpu.id, gpus=n, pp=pp, batch=w.users, context=w.context,
                          engine=engine, kv_precision=kv, network_gbit_per_s=net, expert_servers=across,
                          dp_attention=dps[(engine, fmt, kv)]))
    opt.decode_tokens_per_s, opt.aggregate_tokens_per_s = sp.decode_tokens_per_s, sp.aggregate_decode_tokens_per_s
    opt.tpot_s = sp.time_per_output_token_s
    if pp > 1:
        opt.pipeline_s_per_token = pipeline_hop_seconds(resolve_model(w.model), -(-w.users // pp), pp, net)
        opt.pipeline_network_gbit = net
    warnings += sp.warnings
    prompt = w.prompt_length()
    first = speed(SpeedInput(model=w.model, precision=fmt, gpu=gpu.id, gpus=n, pp=pp, batch=1, context=prompt,
                             engine=engine, kv_precision=kv, network_gbit_per_s=net, expert_servers=across,
                          dp_attention=dps[(engine, fmt, kv)]))
    opt.ttft_s = first.time_to_first_token_s
    fast_enough = sp.decode_tokens_per_s >= w.speed_floor
    if w.latency_stated:
        opt.meets["latency"] = fast_enough and (w.ttft_ms is None or opt.ttft_s * 1000 <= w.ttft_ms)
        if w.ttft_ms is not None and opt.ttft_s * 1000 > w.ttft_ms:
            opt.reasons.append(f"first token after {opt.ttft_s * 1000:,.0f} ms at {prompt:,}-token prompts, "
                               f"over the {w.ttft_ms:,.0f} ms target")
    if w.e2e_ms is not None and opt.ttft_s is not None and opt.tpot_s is not None:
        _end_to_end(opt, w, opt.ttft_s, opt.tpot_s)
    if not fast_enough:
        opt.reasons.append(f"{sp.decode_tokens_per_s:.1f} tokens/s per user, under the {w.speed_floor:g} "
                           "tokens/s target" if w.target_speed is not None else
                           f"{sp.decode_tokens_per_s:.1f} tokens/s per user is slower than reading speed")


def _end_to_end(opt: Option, w: Workload, ttft_s: float, tpot_s: float, pct: str = "") -> None:
    """The whole answer's time against the end-to-end target: the first token, then each further output token
    (w.output_tokens, else RATE_OUTPUT_TOKENS) at tpot_s; `pct` names the percentile when queue-modelled."""
    output = w.output_tokens or RATE_OUTPUT_TOKENS
    opt.e2e_s = ttft_s + (output - 1) * tpot_s  # the first token is in ttft_s; then each of the rest
    opt.e2e_first_s, opt.e2e_tpot_s, opt.e2e_output_tokens = ttft_s, tpot_s, output
    opt.meets["e2e"] = w.e2e_ms is not None and opt.e2e_s * 1000 <= w.e2e_ms
    if not opt.meets["e2e"]:
        opt.reasons.append(f"{pct + ' ' if pct else ''}end to end {opt.e2e_s:,.2f} s for {output:,} output tokens "
                           f"(first token {ttft_s * 1000:,.0f} ms + {output - 1:,} x {tpot_s * 1000:,.1f} ms), "
                           f"over the {w.e2e_ms:,.0f} ms target")


def _batch_copy(w: Workload, gpu: Gpu, engine: Engine, precision_id: str, t: int, pp: int = 1) -> tuple:
    """(memory, speed, hours on one copy) of the job on a copy of the model over t tensor-parallel cards (and pp
    pipeline stages, one per server), as many sequences in flight as its KV cache holds (at most
    BATCH_JOB_CONCURRENCY); speed and hours None when the copy does not hold the model."""
    model = resolve_model(w.model)
    tokens_in, written, longest = w.batch_per_item(model)  # a chunked item: its chunks' and merges' passes
    plan = w.chunking(model)
    mem = inference_memory(InferenceMemoryInput(model=w.model, precision=precision_id,
                                                context=longest, batch=1, gpus=t, pp=pp,
                                                gpu=gpu.id, engine=engine))
    if not mem.fits:
        return mem, None, None
    concurrency = max(1, min(BATCH_JOB_CONCURRENCY, int(mem.max_concurrent_sequences or BATCH_JOB_CONCURRENCY)))
    mean = plan.chunk_tokens + plan.notes_tokens // 2 if plan else w.batch_input_tokens + written // 2
    sp = speed(SpeedInput(model=w.model, precision=precision_id, gpu=gpu.id, gpus=t, pp=pp, batch=concurrency,
                          context=mean, engine=engine,
                          network_gbit_per_s=_pipeline_network(w) if pp > 1 else None))
    items = w.batch_items or 1
    seconds = (items * tokens_in / sp.prefill_tokens_per_s
               + items * written / sp.aggregate_decode_tokens_per_s)
    return mem, sp, seconds / 3600


def batch_copy_size(w: Workload, gpu: Gpu, precision_id: str, owned: bool = False, cards: int | None = None) -> int | None:
    """The tensor-parallel size of one model copy for a batch job: of the sizes the model allows (within one
    server, dividing `cards` when all of them work), the one that does the job in the fewest GPU-hours (the
    most tokens per GPU-hour, so the lowest cost per run); the smaller on a tie within BATCH_COPY_TIE. The
    smallest copy that holds the model leaves little room for the KV cache (70B in fp8 on one 80 GB card:
    two sequences in flight), and a copy twice the size can do many times the work. None when none holds it."""
    pairs = _engines(w, gpu, precision_id, owned)
    if not pairs:
        return None
    engine, fmt = pairs[-1]
    best: tuple[float, int] | None = None
    for t in arch.valid_tensor_parallel(resolve_model(w.model), 8):
        if cards is not None and cards % t:
            continue
        _, _, hours = _batch_copy(w, gpu, engine, fmt, t)
        if hours is None:
            continue
        if best is None or t * hours < best[0] * (1 - BATCH_COPY_TIE):
            best = (t * hours, t)
    return best[1] if best else None


def _batch_job(opt: Option, w: Workload, gpu: Gpu, n: int, owned: bool, precision_id: str,
               headrooms: list[float], all_cards: bool = False) -> None:
    """An offline job: items x (tokens in, tokens out) through n cards, copies added for a deadline.
    Cards you own, and a count you named ('用8张H800'), all work: as many model copies as fit, each on
    the copy size that does the most work per card (batch_copy_size)."""
    all_cards = all_cards or owned
    items = w.batch_items or 1
    tokens_in, written, _longest = w.batch_per_item(resolve_model(w.model))  # every pass of a chunked item
    total = n
    pairs = _engines(w, gpu, precision_id, owned)
    if not pairs:
        opt.serves = False
        opt.reasons.append(f"no engine runs {precision_id} weights on {gpu.name}")
        return
    engine, precision_id = pairs[-1]  # vLLM where it runs (batching is what it is for), else llama.cpp
    if all_cards:
        groups = [t for t in arch.valid_tensor_parallel(resolve_model(w.model), 8) if n % t == 0]
        best = batch_copy_size(w, gpu, precision_id, owned, cards=n)
        groups = [best] if best else groups
    else:
        groups = [n]
    pp = 1
    for t in groups:
        mem, sp, hours = _batch_copy(w, gpu, engine, precision_id, t)
        if mem.fits:
            break
    per_server = _server_gpus(w, gpu)
    for stages in range(2, n // per_server + 1) if all_cards and not mem.fits and n % per_server == 0 else ():
        # no server of yours holds the model: your servers are one cluster, a copy over several of them as
        # pipeline stages (review BO #2: Kimi K2 in FP8 on two 8 x H20 96 GB servers, was '136 GB per GPU')
        if (n // per_server) % stages == 0:
            mem, sp, hours = _batch_copy(w, gpu, engine, precision_id, per_server, stages)
            if mem.fits:
                t, pp = per_server, stages
                break
    n = t * pp
    if pp > 1:
        opt.tp, opt.pp, opt.server_gpus = t, pp, per_server
        opt.link_within, opt.link_between = gpu.interconnect, "infiniband"
    opt.engine, opt.precision, opt.runtime = engine, precision_id, engine_for(engine, gpu)
    opt.serves, opt.serve_per_gpu_bytes = bool(mem.fits), mem.per_gpu_total_bytes
    opt.capacity_bytes = mem.gpu_capacity_bytes or 0
    headrooms.append((opt.capacity_bytes - mem.per_gpu_total_bytes) / opt.capacity_bytes)
    if not mem.fits or sp is None or hours is None:
        return
    replicas = total // n
    hours /= replicas
    slow = slow_end_hours(sp, items, tokens_in, written) / replicas  # the speed's slow end (tools.deadline_margin)
    planned = w.deadline_hours * (1 - DEADLINE_MARGIN) if w.deadline_hours else None
    if planned and w.deadline_hours and not all_cards and (hours > planned or slow > w.deadline_hours):
        replicas = min(copies_for_deadline(hours, slow, planned, w.deadline_hours), max(1, MAX_BATCH_GPUS // n))
    if not all_cards:
        replicas = _whole_instances(w, gpu, n, replicas)
    opt.replicas = replicas
    opt.gpus = n * replicas
    opt.decode_tokens_per_s = sp.decode_tokens_per_s
    opt.job_hours, opt.job_hours_slow = (hours, slow) if all_cards else (hours / replicas, slow / replicas)
    # over the whole run, prompts read in between: an encoder's tokens read, a generator's tokens written
    opt.aggregate_tokens_per_s = items * (written or tokens_in) / (opt.job_hours * 3600)
    if planned and w.deadline_hours:
        opt.needed_tokens_per_s = items * (written or tokens_in) / (w.deadline_hours * 3600)
        opt.meets["deadline"] = opt.job_hours <= planned
        if opt.job_hours > w.deadline_hours:
            opt.reasons.append(f"the job takes {hours_figure(opt.job_hours)} h, past the {w.deadline_hours:,.0f} h deadline")
        elif not opt.meets["deadline"]:
            opt.reasons.append(_too_close(opt.job_hours, w.deadline_hours))


def _whole_instances(w: Workload, gpu: Gpu, unit: int, replicas: int) -> int:
    """Copies of `unit` cards rounded up to whole instances of the cloud named, where it rents none smaller: five
    single-B200 copies on AWS are one 8-GPU p6-b200, eight copies (the job done sooner at the same cost per run)."""
    cloud = _cloud_of(w)
    sizes = rentable_counts(cloud, gpu.id) if cloud else ()
    while sizes and not _rentable(replicas * unit, sizes):
        replicas += 1
    return replicas


def _rentable(n: int, sizes: tuple[int, ...]) -> bool:
    """Whether n cards are instance shapes the cloud rents: one of its sizes, or whole instances of its largest."""
    return n in sizes or n % sizes[-1] == 0


def _too_close(hours: float, deadline: float) -> str:
    return (f"about {hours_figure(hours)} h of the {deadline:,.0f} h you have: under {DEADLINE_MARGIN:.0%} to spare "
            "for an estimate that can be that far off")


def training_setup(w: Workload, n: int, gpu: Gpu | str | None = None, owned: bool = False) -> TrainingMemoryInput:
    """How a run is laid out on n cards: pretraining trains everything, DPO scores pairs (and keeps a
    reference copy when not LoRA), several cards shard with FSDP/ZeRO-3. A card without BF16 (V100,
    T4) trains in FP16 AMP, which always keeps FP32 master weights (pure FP16 updates do not train)."""
    if w.reinforces:
        return rl_training_setup(w.rl_input(gpu if isinstance(gpu, str) else gpu.id if gpu else None, n, owned))
    method: Method = "full" if w.spec.pretrains else w.method
    dpo = w.objective == "dpo"
    card = find_gpu(gpu) if isinstance(gpu, str) else gpu
    fp16 = card is not None and not card.native_bf16
    if owned and card is not None and adapters_across(w.network, method, n, _server_gpus(w, card)):
        n = _server_gpus(w, card)  # LoRA over your servers' Ethernet: sharded over each server's cards (HSDP)
    return TrainingMemoryInput(model=w.model, method=method, seq_len=w.seq_len, gpus=n, batch=2 if dpo else 1,
                               zero=3 if n > 1 else 0, reference_model=dpo and method == "full",
                               framework=w.framework, optimizer=w.optimizer,
                               precision="fp16" if fp16 else "bf16",
                               mixed_precision=True if fp16 and method == "full" else w.mixed_precision,
                               base_precision=QLORA_BASES.get(w.qlora_base) if method == "qlora" else None)


def training_time_setup(w: Workload, gpu: str, n: int, owned: bool) -> TrainingTimeInput:
    """How long a run takes is asked of training_time with these inputs: the run's tokens (twice for DPO's
    pairs), and the network between your own servers when they are joined by ordinary Ethernet."""
    model = resolve_model(w.model)
    method: Method = "full" if w.spec.pretrains else w.method
    dpo = w.objective == "dpo"
    per = w.server_gpus or NODE_GPUS
    across = ({"servers": -(-n // per), "network_gbit_per_s": w.network_gbit or SLOW_NETWORK_GBIT}
              if owned and w.network == "slow" and n > per else {})  # your servers over ordinary Ethernet
    return TrainingTimeInput(model=w.model, gpu=gpu, gpus=n, method=method, tokens=w.tokens_per_run(model) * (2 if dpo else 1),
                             epochs=w.epochs, region=w.region, reference_forward=dpo, framework=w.framework,
                             pretraining=w.spec.pretrains, seq_len=w.seq_len,
                             precision="bf16" if find_gpu(gpu).native_bf16 else "fp16",
                             usd_per_gpu_hour=_quoted_rent(w, gpu), **across)


def _quoted_rent(w: Workload, gpu: str) -> float | None:
    """The on-demand rent the user was quoted for this card, which prices the run (None: the typical price)."""
    said = quoted(w, gpu)
    return said.usd_per_gpu_hour if said is not None and not said.reserved else None


def _stack_findings(gpu: Gpu, method: str, framework: str | None) -> list[Finding]:
    """A framework or QLoRA asked on a card whose software stack does not run it ('Unsloth on a 910B', 'QLoRA on an
    Ascend 910B': bitsandbytes' 4-bit base has no kernels there; knowledge: frameworks.yaml stacks, nf4
    training_stacks): sized as asked, and said (review O3 #11)."""
    if not runs_on(gpu.stack, None, framework):
        return [Finding(code="framework_not_on_stack", values={"gpu": gpu.name,
                                                               "framework": find_framework(framework).name})]
    if method == "qlora" and not runs_on(gpu.stack, "qlora", framework):
        return [Finding(code="qlora_not_on_stack", values={"gpu": gpu.name})]
    return []


def _train(opt: Option, w: Workload, model: ModelArch, gpu: Gpu, n: int, warnings: list[str],
           headrooms: list[float]) -> None:
    """Fine-tuning or pretraining on n cards, sharded with FSDP/ZeRO-3 when there are several."""
    if w.reinforces:
        _reinforce(opt, w, gpu, n, warnings, headrooms)
        return
    method: Method = "full" if w.spec.pretrains else w.method
    setup = training_setup(w, n, gpu, opt.owned)
    tm = training_memory(setup)
    cap = usable_bytes(gpu)
    opt.capacity_bytes = opt.capacity_bytes or cap
    opt.trains, opt.train_per_gpu_bytes = tm.per_gpu_total_bytes <= cap, tm.per_gpu_total_bytes
    headrooms.append((cap - tm.per_gpu_total_bytes) / cap)
    opt.findings += _edge_findings(setup, tm.per_gpu_total_bytes, cap, _server_gpus(w, gpu), gpu.stack)
    if method == "full" and opt.trains and setup.mixed_precision is None:
        # the framework keeps BF16 states by default: does the run still fit with the usual FP32 master
        # weights, gradients and AdamW moments (mixed precision)? If not, the answer says so up front.
        mixed = training_memory(setup.model_copy(update={"mixed_precision": True}))
        if mixed.per_gpu_total_bytes > cap:
            opt.findings.append(Finding(code="full_ft_bf16_states_only", values={
                "bf16_bytes": tm.per_gpu_total_bytes, "fp32_bytes": mixed.per_gpu_total_bytes, "capacity_bytes": cap,
                "framework": framework_on(setup.framework, n).name}))
    if method == "full" and setup.precision == "fp16":
        opt.findings.append(Finding(code="fp16_amp", values={"gpu": gpu.name,
                                                             "per_param": f"{tm.state_bytes_per_param:g}"}))
    servers = -(-n // _server_gpus(w, gpu))
    if method == "full" and not w.spec.pretrains and servers > 1 and w.network != "slow":
        opt.findings.append(Finding(code="training_across_servers", values={"gpus": str(n), "servers": str(servers)}))
    default_mixed = setup.framework is None and setup.mixed_precision is None
    if method == "full" and setup.precision == "bf16" and (default_mixed or setup.mixed_precision is False):
        # sized as the usual mixed precision: pure BF16 (the lever) named with its figure and its risk; or
        # pure BF16 as asked, with the mixed-precision figure beside it
        pure = training_memory(setup.model_copy(update={"mixed_precision": False}))
        mixed = training_memory(setup.model_copy(update={"mixed_precision": True}))
        code: FindingCode = "full_ft_pure_bf16" if not default_mixed else (
            "full_ft_mixed_precision_8bit" if setup.optimizer in ("adamw-8bit", "paged-adamw-8bit")
            else "full_ft_mixed_precision")
        opt.findings.append(Finding(code=code, values={
            "mixed_per_param": f"{mixed.state_bytes_per_param:g}", "bf16_per_param": f"{pure.state_bytes_per_param:g}",
            "mixed_bytes": mixed.per_gpu_total_bytes, "bf16_bytes": pure.per_gpu_total_bytes}))
    opt.findings += _stack_findings(gpu, method, setup.framework)
    if gpu.stack == "metal" and method == "full":
        opt.trains = False
        opt.reasons.append("full fine-tuning has no practical framework on Apple silicon (MLX-LM does LoRA and QLoRA)")
    elif gpu.stack == "metal":
        # MLX-LM fine-tunes LoRA and QLoRA (a 4-bit base) on Apple silicon; bitsandbytes and CUDA kernels do not run
        opt.runtime = opt.runtime or "MLX (mlx-lm)"
        warnings.append(f"{gpu.name}: fine-tuning there means MLX-LM's LoRA/QLoRA (no bitsandbytes, no CUDA "
                        "kernels); sized as the equivalent PyTorch run, and slow next to a rented NVIDIA card")
    timing = training_time_setup(w, gpu.id, n, opt.owned)
    tt = training_time(timing)
    opt.training_hours, opt.training_usd = tt.hours, tt.usd
    network = next((t for t in tt.terms if t.key == "network_seconds"), None)
    compute = next((t for t in tt.terms if t.key == "compute_hours"), None)
    if network is not None and compute is not None and network.value / 3600 >= tt.hours * 0.999:
        opt.findings.append(Finding(code="slow_network_training", values={
            "servers": str(timing.servers), "gbit": f"{timing.network_gbit_per_s:g}",
            "network_hours": hours_figure(network.value / 3600), "compute_hours": hours_figure(compute.value)}))
        tt.warnings = [x for x in tt.warnings if not x.startswith("the network between the")]
    if any(f.code == "fp16_amp" for f in opt.findings):  # the finding says it, with the bytes per parameter
        tt.warnings = [x for x in tt.warnings if "sized as fp16 mixed precision" not in x]
    opt.job_hours = tt.hours if opt.job_hours is None else max(opt.job_hours, tt.hours)
    warnings += tt.warnings
    # the usual 30-day plan holds only where no count of cards was named: '8张H100训7B要多久' asks about those 8
    implicit = PRETRAIN_DAYS * 24 if w.spec.pretrains and not pinned_cards(w) else None
    deadline = w.deadline_hours or implicit
    if deadline and not w.spec.serves:
        opt.meets["deadline"] = tt.hours <= deadline * (1 - DEADLINE_MARGIN if w.deadline_hours else 1)
        if not opt.meets["deadline"] and w.deadline_hours and tt.hours <= deadline:
            opt.reasons.append(_too_close(tt.hours, deadline))
        elif not opt.meets["deadline"] and w.deadline_hours:
            opt.reasons.append(f"a run takes {hours_figure(tt.hours)} h, past the {deadline:,.0f} h deadline")
        elif not opt.meets["deadline"]:
            opt.reasons.append(f"a run takes {tt.hours / 24:,.0f} days, longer than the {PRETRAIN_DAYS}-day plan")


def _edge_findings(setup: TrainingMemoryInput, used: float, cap: float, per_server: int,
                   stack: str | None = None) -> list[Finding]:
    """A plan that fits on paper and leaves less than the training margin (tools.train_margin), with its levers."""
    if not at_edge(used, cap, setup.gpus):
        return []
    return [Finding(code="training_edge", values=edge_values(setup, used, cap, min_batch=setup.batch,
                                                              server_gpus=per_server, stack=stack))]


def _reinforce(opt: Option, w: Workload, gpu: Gpu, n: int, warnings: list[str], headrooms: list[float]) -> None:
    """Online RL on n cards (tools.rl): colocated (the rollout engine and the trainer share the cards) or split
    (rollout cards and training cards), the layout the user named, else the one that pays; a pass takes the
    rollouts' generation time plus the policy update's training time (split and pipelined: the slower of them)."""
    lay = rl_layouts(w.rl_input(gpu.id, n, opt.owned))
    wanted = w.rl_layout or ("split" if w.rl_rollout_gpus or w.rl_pipelined else None)
    r = lay.split if (wanted or lay.pays) == "split" and lay.split is not None else lay.colocate
    opt.rl, opt.rl_layouts = r, lay
    opt.capacity_bytes = opt.capacity_bytes or r.capacity_bytes
    opt.trains, opt.train_per_gpu_bytes = r.fits, r.per_gpu_bytes
    headrooms.append((r.capacity_bytes - r.per_gpu_bytes) / r.capacity_bytes)
    if not r.fits:
        return
    if gpu.stack == "metal":
        opt.trains = False
        opt.reasons.append("online RL needs a rollout engine (vLLM) beside the trainer: none runs on Apple silicon")
        return
    opt.training_hours, opt.training_usd = r.hours, r.usd
    opt.job_hours = r.hours if opt.job_hours is None else max(opt.job_hours, r.hours)
    warnings += r.warnings
    inp, per_server = w.rl_input(gpu.id, n, opt.owned), _server_gpus(w, gpu)
    opt.findings += [Finding(code=code, values=values) for code, values in (
        ("training_edge", rl_edge(inp, r, per_server)), ("rl_faster_at_edge", passed_over(inp, lay, r, per_server)))
        if values is not None]
    if w.deadline_hours and not w.spec.serves:
        opt.meets["deadline"] = r.hours <= w.deadline_hours * (1 - DEADLINE_MARGIN)
        if not opt.meets["deadline"] and r.hours <= w.deadline_hours:
            opt.reasons.append(_too_close(r.hours, w.deadline_hours))
        elif not opt.meets["deadline"]:
            opt.reasons.append(f"a run takes {hours_figure(r.hours)} h, past the {w.deadline_hours:,.0f} h deadline")


# Engines that run copies of a model side by side behind one endpoint (data parallel) in the evaluation.
SPLIT_ENGINES = ("vllm", "sglang")


def evaluate(w: Workload, gpu: Gpu, n: int, owned: bool = False, all_cards: bool = False,
             layout: Layout | None = None) -> Option | None:
    """One card x count: does it fit, how fast, what it costs, which constraints it meets. all_cards: a
    batch job uses every one of the n cards (yours, or a count the user named), as model copies. A
    layout (tools.scale) serves beyond one server: replicas x (tp GPUs x pp servers), n ignored.

    Serving n rented or bought cards as one tensor-parallel copy is weighed against copies of a smaller
    unit on the same cards (n/d copies of TP d, the users shared out): the layout that meets every target,
    then the faster per user, is the option. So more cards never serve a user slower than fewer (tensor
    parallel on a small model, a 3B-active MoE, costs more in all-reduces than it saves in reads)."""
    if w.serve_precision == NATIVE:  # '满血版': the checkpoint's own format (tools.own_format)
        w = w.model_copy(update={"serve_precision": own_format(w.model, NATIVE, gpu)})
    o = _evaluate(w, gpu, n, owned, all_cards, layout)
    if layout is not None or owned or all_cards or n < 2 or o is None or not o.serves or o.engine not in SPLIT_ENGINES \
            or not w.spec.serves or w.spec.trains or w.spec.batch or o.precision is None \
            or w.requests_per_s or w._rate_per_s:  # (a request rate sizes its copies by the queue: tools.queueing)
        return o
    for d in sorted(arch.valid_tensor_parallel(resolve_model(w.model), n)):
        if d >= n or n % d:
            continue
        copies = n // d
        split = Layout(tp=d, replicas=copies, users_per_replica=-(-w.users // copies), engine=o.engine,
                       precision=o.precision, kv_precision=o.kv_precision)
        alt = _evaluate(w, gpu, n, owned, all_cards, split)
        if alt is not None and alt.serves and (alt.ok, alt.decode_tokens_per_s or 0) > (o.ok, o.decode_tokens_per_s or 0):
            o = alt
    return o


def _own_pace(w: Workload, gpu: Gpu, owned: bool, opt: Option, warnings: list[str]) -> bool:
    """One person on their own machine (a Mac, a desktop card) who said no speed: a file of 4 bits or more that fits
    is run at the pace it gives, said as a warning, never traded for a 3- or 2-bit file to gain a token a second
    (review BJ #4: Q3_K_M on an M3 Max 128GB for 6.5 tokens/s instead of Q4_K_M at 5.3 with half the memory free).
    The smaller files are for memory (_owned_levers' ladder), and for a 4-bit file that leaves no room."""
    if not (owned and gpu.at_home and w.users <= 1 and w.target_speed is None and not w.latency_stated
            and opt.precision is not None and opt.precision not in HOME_FORMATS and not w.spec.batch
            and opt.headroom_fraction >= TIGHT_HEADROOM):  # (a 4-bit file with no room left: the 3-bit one)
        return False
    slow = [r for r in opt.reasons if r.endswith("is slower than reading speed")]
    opt.reasons = [r for r in opt.reasons if r not in slow]
    warnings += slow
    return True


def _evaluate(w: Workload, gpu: Gpu, n: int, owned: bool = False, all_cards: bool = False,
              layout: Layout | None = None) -> Option | None:
    """evaluate's one layout: n cards as one copy, or the layout given."""
    model = resolve_model(w.model)
    spec = w.spec
    grouped = _groups(w, model, n, owned, all_cards, layout)
    if grouped is None:
        return None
    n, copies = grouped
    if spec.batch and not (spec.serves or spec.trains or owned or all_cards) and layout is None:
        best = batch_copy_size(w, gpu, serving_precision(w, model, gpu))
        if best is not None and best != n:
            return None  # a batch job's copy takes the size that does the most per card: the other counts are not options
    warnings: list[str] = []
    headrooms: list[float] = []
    pp = layout.pp if layout is not None else 1
    opt = Option(gpu=gpu.id, gpu_name=gpu.name, gpus=n * pp * copies, owned=owned, capacity_bytes=0,
                 headroom_fraction=0, ok=False, at_home=gpu.at_home, sold_in=gpu.sold_in, replicas=copies)
    precision_id = serving_precision(w, model, gpu)
    if spec.serves:
        shared = w.model_copy(update={"users": -(-w.users // copies)}) if copies > 1 else w
        _serve(opt, shared, gpu, n, owned, precision_id, warnings, headrooms, layout)
        if copies > 1 and opt.aggregate_tokens_per_s:
            opt.aggregate_tokens_per_s *= copies
        if copies > 1 or pp > 1 or n > _server_gpus(w, gpu):
            _lay_out(opt, w, gpu, n, pp, shared.users)
    if spec.batch:
        _batch_job(opt, w, gpu, n, owned, precision_id, headrooms, all_cards)
    if spec.trains:
        _train(opt, w, model, gpu, n, warnings, headrooms)
    opt.headroom_fraction = min(headrooms) if headrooms else 0.0
    _price(opt, w, gpu, owned)
    yours = any(parse_owned(text)[1].id == gpu.id for text in w.owned)  # a card in hand needs no channel
    if not yours:
        warnings += [x for x in [china_supply(w, gpu)] if x]
    warnings += [x for x in [stack_warning(gpu), package_words(gpu, opt.gpus or n)] if x]
    fits = all(x is not False for x in (opt.serves, opt.trains))
    opt.ok = fits and all(opt.meets.values()) and (
        not spec.serves or opt.decode_tokens_per_s is None or opt.decode_tokens_per_s >= w.speed_floor
        or _own_pace(w, gpu, owned, opt, warnings))
    cap_gb = opt.capacity_bytes / 1e9
    if opt.serves is False and opt.serve_per_gpu_bytes and opt.engine == "vllm":
        opt.reasons.insert(0, f"the model needs {opt.serve_per_gpu_bytes / 1e9:,.1f} GB per GPU; vLLM uses "
                              f"{VLLM_DEFAULT_UTILISATION:.0%} of the card's {cap_gb:,.1f} GB "
                              f"({cap_gb * VLLM_DEFAULT_UTILISATION:,.1f} GB)")
    elif opt.serves is False and opt.serve_per_gpu_bytes:
        opt.reasons.insert(0, f"the model needs {opt.serve_per_gpu_bytes / 1e9:,.1f} GB per GPU; "
                              f"the card has {cap_gb:,.1f} GB")
    if opt.trains is False and opt.train_per_gpu_bytes and gpu.stack != "metal":
        opt.reasons.insert(0, f"training needs {opt.train_per_gpu_bytes / 1e9:,.1f} GB per GPU; "
                              f"the card has {cap_gb:,.1f} GB")
    if opt.ok and opt.headroom_fraction < TIGHT_HEADROOM and (spec.serves or not spec.trains):  # (training: the margin)
        warnings.append(f"only {opt.headroom_fraction:.0%} of memory to spare: little room for longer chats or spikes")
    below_four = opt.precision is not None and find_precision(opt.precision).bits_per_weight < 4  # Q3_K_M to fit
    if owned and gpu.stack == "metal" and (opt.headroom_fraction < TIGHT_HEADROOM or opt.serves is False or below_four):
        # macOS caps what the GPU may wire (about 2/3 of memory up to 36 GB, 3/4 above); the cap can be raised,
        # which may let the usual 4-bit file fit where a 3-bit one was taken
        wired = int(gpu.memory_gb * 1024 * 0.85) // 1024 * 1024
        warnings.append(f"{gpu.name}: macOS lets the GPU use about {cap_gb:,.1f} GB by default; "
                        f"'sudo sysctl iogpu.wired_limit_mb={wired}' raises it until the next restart "
                        "(leave the system a few GB)")
    undependable = _consumer_for_a_service(w, gpu, owned, warnings)
    opt.warnings = list(dict.fromkeys(warnings))
    opt.avoid = bool(spec.trains and any(a in x for x in opt.warnings for a in AVOID)) or undependable
    return opt


def package_words(gpu: Gpu, npus: int) -> str | None:
    """A card whose package holds several dies, each its own NPU (the Ascend 910C): the count said as packages,
    so per-die memory and speed are not read as per card (review O1 #3/#14)."""
    per = gpu.npus_per_package
    if per < 2:
        return None
    return (f"{npus} x {gpu.name} are {npus / per:g} packages of {gpu.memory_gb * per:g} GB: each package holds {per} "
            f"dies of {gpu.memory_gb:g} GB and {gpu.memory_bandwidth_gbps:,.0f} GB/s, which the software sees as {per} "
            "NPUs; counts, memory and speeds here are per NPU (die)")


def _consumer_for_a_service(w: Workload, gpu: Gpu, owned: bool, warnings: list[str]) -> bool:
    """Rented or bought consumer cards for a service with an availability target (or in production): a poor
    base (no ECC, no datacenter warranty), said and ranked behind data-centre cards. Your own cards are kept."""
    rate = w.requests_per_s or w._rate_per_s
    organisation = (w.population or 0) >= ORG_SERVICE_PEOPLE or rate >= 1  # traffic by the second
    target = w.uptime or w.redundancy or w.phase == "production"  # an availability target, spares or two sites
    if not (w.spec.serves and not owned and gpu.segment == "consumer" and (target or organisation)):
        return False
    service = "with an availability target" if target else "an organisation relies on"
    warnings.append(f"{gpu.name} is a consumer card: no ECC memory and no datacenter warranty or support for "
                    f"round-the-clock use, a poor base for a service {service}")
    return True


def _groups(w: Workload, model: ModelArch, n: int, owned: bool, all_cards: bool,
            layout: Layout | None) -> tuple[int, int] | None:
    """(GPUs of one copy's tensor-parallel group, copies) for n cards; None when no degree uses them."""
    valid = arch.valid_tensor_parallel(model, 8)
    if layout is not None:
        return layout.tp, layout.replicas
    if (w.spec.serves or w.spec.batch) and n not in valid and not ((owned or all_cards) and w.spec.batch):
        if not owned:
            return None
        # cards you own that no tensor-parallel degree uses whole: serve from the largest group that divides
        # them, and with more cards than one group, a copy of the model on each group, the users shared out
        group = max(t for t in valid if n % t == 0)
        copies = n // group if w.spec.serves and not w.spec.trains and n > max(valid) else 1
        return group, copies
    return n, 1


def _server_gpus(w: Workload, gpu: Gpu) -> int:
    """GPUs in each server: as said, else a server of this card (an Ascend A3 server is 16 NPUs: 8 two-die
    910C packages), else the usual 8."""
    return w.server_gpus or max(SERVER_GPUS, gpu.sold_in if gpu.npus_per_package > 1 else SERVER_GPUS)


def _lay_out(opt: Option, w: Workload, gpu: Gpu, tp: int, pp: int, users: int) -> None:
    """The layout the writers say: copies, tensor and pipeline parallel, servers, the links inside and between."""
    per_server = _server_gpus(w, gpu)
    opt.tp, opt.pp, opt.users_per_replica = tp, pp, users
    opt.server_gpus, opt.servers = per_server, servers_for(opt.gpus, per_server)
    opt.link_within = gpu.interconnect
    opt.link_between = "infiniband" if pp > 1 or tp > per_server else None
    opt.expert_parallel = resolve_model(w.model).is_moe and tp > 1 and opt.engine in ("vllm", "sglang")


def _bought_as(opt: Option, w: Workload, gpu: Gpu, said: RentQuote | None) -> Gpu:
    """The card at the price it is bought for: the user's own quote, else the sourced used price where used cards
    are accepted ('used is fine', '二手也行'; opt.used_price), else the catalog's new price."""
    if w.pays_in_yuan:
        opt.usd_per_cny = rules().usd_per_cny  # a purchase in yuan too where there is no rent to take the rate from
    if said is not None and said.buy_usd_per_gpu is not None:  # the user's own purchase price for the card
        return gpu.model_copy(update={"buy_price_usd": said.buy_usd_per_gpu})
    street = china_price_usd(gpu.id) if w.region == "china" else None
    if street is not None:  # sold in China only through grey channels: its street price there (one price a card)
        return gpu.model_copy(update={"buy_price_usd": street})
    used = used_prices().get(gpu.id)
    if used is not None and (used.used_only or (w.used_ok and (w.used_cards is None or gpu.id in w.used_cards))):
        # a card no longer sold new (used_only) is bought used whatever was said: its new price buys nothing (review CG #7)
        opt.used_price = True
        return gpu.model_copy(update={"buy_price_usd": used.usd})
    return gpu


def _price(opt: Option, w: Workload, gpu: Gpu, owned: bool) -> None:
    if owned:
        return
    quote = try_price(gpu.id, w.region)
    said = quoted(w, gpu.id)
    theirs = said if said is not None and said.usd_per_gpu_hour is not None else None  # the user's rent
    billed = opt.gpus - opt.owned_gpus  # cards added beside yours: only those are rented or bought
    if quote or theirs:
        rent = theirs.usd_per_gpu_hour if theirs else quote.usd_per_gpu_hour_typical  # type: ignore[union-attr]
        opt.price_offers = None if theirs else quote.samples  # type: ignore[union-attr]
        opt.usd_per_hour = (rent or 0.0) * billed
        # a reservation is paid for every hour of its term; on demand only for the hours used
        hours = HOURS_PER_MONTH * (1.0 if theirs and theirs.reserved else max(w.utilisation, 0.01))
        opt.usd_per_month = opt.usd_per_hour * hours
        if w.spec.serves and billed:
            per_card = opt.usd_per_hour / billed
            opt.running_gpus = running_gpus(opt, w)
            opt.running_hours = HOURS_PER_MONTH if theirs and theirs.reserved else service_hours(w)
            opt.running_usd_per_month = per_card * opt.running_gpus * opt.running_hours
        if w.pays_in_yuan:
            opt.cny_per_hour = opt.usd_per_hour / rules().usd_per_cny
        if opt.job_hours is not None:
            opt.job_usd = opt.usd_per_hour * opt.job_hours
    gpu = _bought_as(opt, w, gpu, said)
    opt.purchase_usd = purchase_usd(gpu, billed)
    if opt.purchase_usd is not None:
        opt.host_usd = host_usd(gpu, billed) or None
        if w.has_host and opt.host_usd and gpu.host_kind == "consumer" and opt.gpus <= 2:
            opt.purchase_usd -= opt.host_usd  # the card goes into the PC you have
            opt.host_usd = None
        elif said is not None and said.buy_usd_per_gpu is not None and said.machine_gpus and opt.host_usd:
            opt.purchase_usd -= opt.host_usd  # a whole machine's quote ('an 8x H100 server at $250k'): host included
            opt.host_usd = None
    if w.runs_per_month and opt.job_usd is not None and not w.spec.serves:
        opt.job_usd_per_month = opt.job_usd * w.runs_per_month
        if opt.purchase_usd and opt.job_usd_per_month > 0:
            opt.payback_months = opt.purchase_usd / opt.job_usd_per_month
    budget = _budget_check(opt, w)
    if budget is not None:
        opt.meets["budget"] = budget
        if not budget:
            opt.reasons.append(_over_budget(opt, w))


def quoted(w: Workload, gpu_id: str) -> RentQuote | None:
    """The user's own rental price for this card, if they gave one."""
    return next((q for q in w.quotes if q.gpu == gpu_id), None)


def running_gpus(opt: Option, w: Workload) -> int:
    """Every rented card a service plan says to run: the plan's own (less the cards you own); with two sites
    that each carry the whole load, the whole plan again at the second site; with an availability target or
    redundancy asked for (N+1), one spare copy of the model more."""
    billed = opt.gpus - opt.owned_gpus
    if w.redundancy == "two-sites":
        return billed + opt.gpus
    if w.redundancy == "n+1" or w.uptime is not None:
        return billed + opt.gpus // max(opt.replicas, 1)
    return billed


def service_hours(w: Workload) -> float:
    """Hours a month rented serving cards run and are billed: a service for other people (more than one at
    once, a staff, an availability target or redundancy) is up around the clock (HOURS_PER_MONTH) unless
    the user said how busy it is; one person's model, or a utilisation stated, runs that share of the hours."""
    for_others = w.users > 1 or w.population is not None or w.uptime is not None or w.redundancy is not None
    if for_others and "utilisation" in w.flexible:
        return HOURS_PER_MONTH
    return HOURS_PER_MONTH * max(w.utilisation, 0.01)


BUDGET_LEEWAY_PCT = 10.0  # a budget said approximately ('about', '左右'): this much over it still counts as within


def within_budget(usd: float, budget: float, w: Workload) -> bool:
    """Whether a spend is within a budget: up to the leeway over it when the budget was said approximately (h-used),
    the real overrun weighed (review BX #4: $336,000 against '$250k' is 34% over, not within 10%)."""
    return usd <= budget * (1 + w.budget_leeway / 100)


def buys_over_budget(w: Workload, o: Option) -> bool:
    """A one-off budget that does not buy the option (its whole price, a whole server where the card comes only in
    servers): what let it meet the budget can only be renting it."""
    return w.budget_usd is not None and o.purchase_usd is not None and not within_budget(o.purchase_usd, w.budget_usd, w)


def _budget_check(opt: Option, w: Workload) -> bool | None:
    """Monthly budgets bound the rent (serving) or one run (jobs); one-off budgets bound buying, or one run."""
    job = not w.spec.serves
    checks: list[bool] = []
    month = opt.billed_usd_per_month
    slack = 1 + w.budget_leeway / 100  # a budget said approximately: a little over counts as within (within_budget)
    if w.budget_usd_per_month is not None:  # a job said to repeat: its runs in a month (the writer says the same)
        spend = (opt.job_usd_per_month if opt.job_usd_per_month is not None else opt.job_usd) if job else month
        if spend is not None or opt.purchase_usd is not None:  # no price at all: neither met nor missed
            checks.append(spend is not None and spend <= w.budget_usd_per_month * slack)
    if w.budget_usd is not None:
        rent = opt.job_usd if job else (month * BUDGET_MONTHS if month is not None else None)
        if opt.purchase_usd is not None or rent is not None:
            can_buy = opt.purchase_usd is not None and opt.purchase_usd <= w.budget_usd * slack and w.preference != "rent"
            can_rent = rent is not None and rent <= w.budget_usd * slack and w.preference != "buy"
            checks.append(can_buy or can_rent)
    return all(checks) if checks else None


def rent_budget_months(w: Workload) -> int:
    """The months of renting a one-off budget is weighed against in the answer: the horizon the user gave ('for the
    next 3 yrs': 36; review CF #3: $419k of renting over 36 months was called within a $250k budget 'for a year'),
    else a year (assistant.writers._budget_lines; the ranking's own check, _budget_check, still takes a year)."""
    return w.horizon_months or BUDGET_MONTHS


def _cash(usd: float, w: Workload) -> str:
    """Money in the user's currency: yuan in China (where budgets are given in yuan), else dollars."""
    return f"{usd / rules().usd_per_cny:,.0f} CNY" if w.pays_in_yuan else f"{usd:,.0f} USD"


def _over_budget(opt: Option, w: Workload) -> str:
    if w.budget_usd_per_month is not None and not w.spec.serves and opt.job_usd_per_month is not None:
        return (f"{w.runs_per_month:g} runs a month cost about {_cash(opt.job_usd_per_month, w)}, over the "
                f"{_cash(w.budget_usd_per_month, w)} budget")
    if w.budget_usd_per_month is not None and not w.spec.serves and opt.job_usd is not None:
        return f"a run costs about {_cash(opt.job_usd, w)}, over the {_cash(w.budget_usd_per_month, w)} budget"
    if w.budget_usd_per_month is not None and opt.running_usd_per_month is not None and opt.running_hours:
        return (f"renting {opt.running_gpus} cards for {opt.running_hours:,.0f} h a month costs about "
                f"{_cash(opt.running_usd_per_month, w)}, over the {_cash(w.budget_usd_per_month, w)} budget")
    if w.budget_usd_per_month is not None and opt.usd_per_month is not None:
        return (f"renting costs about {_cash(opt.usd_per_month, w)} a month at {w.utilisation:.0%} use, over the "
                f"{_cash(w.budget_usd_per_month, w)} budget")
    if w.budget_usd is not None and w.preference == "rent" and w.spec.serves and opt.usd_per_month is not None:
        return (f"renting costs about {_cash(opt.usd_per_month, w)} a month at {w.utilisation:.0%} use, "
                f"{_cash(opt.usd_per_month * BUDGET_MONTHS, w)} a year, over the {_cash(w.budget_usd, w)} budget")
    if w.budget_usd is not None and opt.purchase_usd is not None:
        return f"buying costs about {_cash(opt.purchase_usd, w)}, over the {_cash(w.budget_usd, w)} budget"
    return "no price on record to check against the budget"


# A full fine-tune that fits only with every state in BF16 (no FP32 master copy) is a numerics compromise:
# a plan that fits the usual mixed precision wins unless it costs this much more per run.
BF16_STATES_PENALTY = 0.15


def cost_score(o: Option, w: Workload, sourced: bool = True) -> float:
    """What the user pays for the job, with the fewer-cards and NVLink preference folded in; with sourced, a
    rental price from few offers counts dearer by the spread of well-sourced prices (rules.few_offers_below)."""
    if o.owned:
        return 0.0
    buys = buys_outright(w)
    if buys:
        pay = o.purchase_usd  # a one-off budget for a service buys cards, unless renting is what it pays for
    elif not w.spec.serves:
        pay = o.job_usd
    else:  # serving: what a month costs (a reservation is billed every hour, on demand only the hours used)
        pay = o.usd_per_month if o.usd_per_month is not None else o.usd_per_hour
        if pay is not None and w.spec.trains and o.job_usd is not None:
            # fine-tune, then serve on the same cards: the month's runs are paid on them too, so a card twice as fast
            # at training for a little more an hour comes first (review WB C7: 2 x 3090 ranked over 2 x 4090)
            pay += o.job_usd * (w.runs_per_month or 1.0)
    if pay is None:
        return math.inf
    marked = sourced and not buys and few_offers(o.price_offers) and not cloud_named(w)
    if marked:
        # one snapshot is no market: it must beat a well-sourced price by more than that card's own spread
        pay *= 1 + offer_spread().spread
    cards = o.gpus / o.replicas
    if w.spec.trains and not w.spec.serves:
        cards = cards / 8  # a training run on more cards of one server finishes sooner at the same cost per run
    penalty = MORE_CARDS_PENALTY * math.log2(max(cards, 1))
    gpu = find_gpu(o.gpu)
    if o.gpus > o.replicas and o.engine != "llama.cpp" and not gpu.has_nvlink and not (w.spec.trains and not w.spec.serves):
        # (a training run's hours, and so its cost, already pay for PCIe: tools.training_time's pcie_penalty slows a full
        # fine-tune over it, and LoRA's adapter gradients cost nothing there; counting it again put 1 x H800 at ¥216
        # over 2 x RTX 5090 at ¥178 inside the deadline, review BL #14)
        penalty += PCIE_SPLIT_PENALTY
    if o.pp > 1:
        penalty += PIPELINE_SPLIT_PENALTY
    if buys and w.personal and cards > 1:
        penalty += HOME_SPLIT_PENALTY  # one person's own computer: a second card wants a second slot and a bigger PSU
    if buys and w.personal and w.serve_precision is None and o.precision in FOUR_BIT:
        penalty += HOME_FEWER_BITS_PENALTY  # a card bought to keep: one that holds the 8-bit file beats 4 bits for a little more
    penalty += (STACK_PENALTY_TRAINING if w.spec.trains else STACK_PENALTY)[gpu.stack]
    if sourced and not marked and software_risk_unasked(w, gpu):
        penalty += offer_spread().spread  # never headline a card the answer warns against for a small saving
    if any(f.code == "full_ft_bf16_states_only" for f in o.findings):
        penalty += BF16_STATES_PENALTY
    return pay * (1 + penalty)


def stack_warning(gpu: Gpu) -> str | None:
    """The software-risk caveat of a card off CUDA (ROCm, Ascend's CANN), shown under any table it is in."""
    if gpu.stack == "rocm":
        return (f"{gpu.name} runs on ROCm: vLLM and PyTorch support it, but check every library you "
                "plan to use (kernels, quantization formats) before committing")
    if gpu.stack == "cann":
        here = ", ".join(name for e, name in engines_on(gpu) if e.id != "transformers")
        return (f"{gpu.name}: confirm that your engine supports Ascend ({here}; LLaMA-Factory to "
                "fine-tune) before planning around it")
    return None


def software_risk_unasked(w: Workload, gpu: Gpu) -> bool:
    """The card's answer carries a software-risk warning (off CUDA) and the user did not name it
    (rules.software_risk_over_spread): it must then be cheaper by more than the measured price spread to lead."""
    if not rules().software_risk_over_spread or not STACK_PENALTY[gpu.stack]:
        return False
    named = {parse_owned(n)[1].id if re.match(r"\s*\d", n) else n for n in w.candidates or []}
    return gpu.id not in named


def cloud_named(w: Workload) -> bool:
    """The user named a cloud as where to run (the choice kept to the cards it rents, renting only): its cards
    are what they rent, however few offers the price data holds for them."""
    return (w.preference == "rent" and bool(w.candidates)
            and any(list(c.gpus) == w.candidates for c in clouds().values()))


def training_edge(o: Option) -> bool:
    """The option's training plan fits but leaves less than the training margin (tools.train_margin)."""
    return any(f.code == "training_edge" for f in o.findings)


def _rank_key(o: Option, w: Workload) -> tuple:
    # a training plan is tight when it leaves less than the training margin (tools.train_margin), else by TIGHT_HEADROOM
    tight = training_edge(o) if w.spec.trains and not w.spec.serves else o.headroom_fraction < TIGHT_HEADROOM
    if o.owned:  # cards you own cost nothing more: the one that does the job best comes first
        better = o.job_hours if o.job_hours is not None else -(o.decode_tokens_per_s or 0)
        return (not o.ok, False, o.avoid, tight, better, o.gpus, -o.headroom_fraction)
    theirs = quoted(w, o.gpu) is None  # the cards the user was quoted lead, ranked among themselves
    return (not o.ok, True, o.avoid, second_hand_for_a_company(o, w), theirs, tight, *_service_bought(o, w),
            cost_score(o, w), o.gpus, -o.headroom_fraction)


def second_hand_for_a_company(o: Option, w: Workload) -> bool:
    """A purchase for an organisation (not one person's own machine, used cards not said to be fine) of a card sold
    used only (knowledge used_prices `used_only`): it goes after the new cards that do the job (review CG #7: 8 used
    RTX 3090 headlined for a company's machine room); it stays in the table, said as used."""
    return o.used_price and not w.personal and not w.used_ok and buys_outright(w) and used_only(o.gpu)


def used_only(gpu_id: str) -> bool:
    """The card is no longer sold new (knowledge used_prices): bought, it is bought used."""
    used = used_prices().get(gpu_id)
    return used is not None and used.used_only


def _service_bought(o: Option, w: Workload) -> tuple[bool, bool, int]:
    """The ranking rule for a service an organisation buys with a budget (a bank's 'capex around $400k'): among the
    plans within the budget, 8-bit weights before 4-bit (no quality given up when the budget pays for 8 bits), then
    each user at the speed a product people use is held at (rules.product_min_tokens_per_s, 20 tokens/s: the budget
    pays for a service that does not feel broken beside hosted chat; review BL #9: 4 workstation cards at 12 tokens/s
    per user led a $400k budget over one 8 x H100 server at 26), then the fewest servers (one box to run, no network
    between copies), then what it costs (cost_score) -- the expert's one 8-GPU server in fp8, never 28 workstation
    cards in int4 over 4 servers for less (review ZA E2). A 4-bit format the user asked for, a speed the user said
    (the plan meets it or not), one person's own machine and a plan with no budget said keep cost first."""
    if not (service_bought(w) and o.ok):
        return (False, False, 0)
    servers = -(-o.gpus // _server_gpus(w, find_gpu(o.gpu)))
    return (o.precision in FOUR_BIT, slow_for_service(o, w), servers)


def service_bought(w: Workload) -> bool:
    """A service an organisation buys with a budget, no format or speed of its own said (_service_bought)."""
    return (w.spec.serves and not w.spec.trains and w.budget_usd is not None and not w.personal
            and w.preference != "rent" and w.serve_precision is None)


def slow_for_service(o: Option, w: Workload) -> bool:
    """Below the speed a product people use is held at (rules.product_min_tokens_per_s), no speed said."""
    return w.min_tokens_per_s is None and (o.decode_tokens_per_s or 0) < rules().product_min_tokens_per_s


def doubly_unsure(o: Option, w: Workload) -> bool:
    """A card the user did not name whose answer warns about its software (off CUDA) and whose rent rests on one or
    two offers (no cloud named that rents it): a row of it cheaper than the pick says both doubts (writers)."""
    return (few_offers(o.price_offers) and not cloud_named(w) and quoted(w, o.gpu) is None
            and software_risk_unasked(w, find_gpu(o.gpu)))


# QLoRA's frozen base by its bits: bitsandbytes int8, NF4 (the default), HQQ 2-bit.
QLORA_BASES: dict[int | None, str] = {8: "int8", 4: "nf4", 2: "hqq-int2"}
def _can_scale(w: Workload, gpu: Gpu, pinned: int | None) -> bool:
    """Whether a plan beyond one server is tried on this card (never a laptop's GPU, nor a Mac)."""
    return _scales_out(w) and not gpu.laptop and not one_machine(gpu) and (pinned is None or pinned > (_server_gpus(w, gpu)))


def one_machine(gpu: Gpu) -> bool:
    """A Mac is one machine: its unified memory serves one model on that machine only. Macs do not pool their
    memory for one model in practice: llama.cpp's RPC backend and exo split a model over several Macs, but both
    are experimental and every token's activations cross Thunderbolt or Ethernet (llama.cpp tools/rpc README:
    "proof-of-concept", "fragile and insecure"; exo's README: experimental), so several Macs serve slower than
    the one machine with the most memory (M3 Ultra 512 GB, M4 Max 128 GB). A Mac option is one machine, never
    a count of them, and of several Macs you own the model runs on one."""
    return gpu.segment == "apple"


def _counts(w: Workload, gpu: Gpu) -> tuple[int, ...]:
    if w.buy_count and (not w.candidates or w.buy_count == 1) and not gpu.laptop and not one_machine(gpu):
        # one card said to buy ('想买张卡，3090还是4060ti'): one of each card weighed too (buy2)
        # 'we want to buy two cards': that many of each card sold singly, none of a card sold as whole servers
        return (w.buy_count,) if gpu.sold_in == 1 else ()
    counts = _all_counts(w, gpu)
    cloud = _cloud_of(w)
    sizes = rentable_counts(cloud, gpu.id) if cloud else ()
    if not sizes:
        return counts
    # a cloud named: only the instance shapes it rents (AWS rents B200 as 8-GPU p6-b200 only, H100 as 1 or 8); a batch
    # job's copies also pack into the largest shape (four copies of two H100s on one p5.48xlarge: review BS #4, AWS
    # only lost 12 × H100 in FP8 for 18 in int4)
    packs = w.spec.batch and not w.spec.serves
    return tuple(n for n in counts if _rentable(n, sizes) or (packs and sizes[-1] % n == 0))


def _cloud_of(w: Workload) -> str | None:
    """The cloud the user named as where to run (cloud_named): its id."""
    if not cloud_named(w):
        return None
    return next((c.id for c in clouds().values() if list(c.gpus) == w.candidates), None)


def _all_counts(w: Workload, gpu: Gpu) -> tuple[int, ...]:
    if gpu.laptop or one_machine(gpu):  # a laptop's GPU is one, in the laptop that holds it; a Mac one machine
        return (1,)
    limit = find_framework(w.framework).max_gpus if w.spec.trains and not w.spec.serves else None
    if limit is not None:  # a framework that trains on one GPU (Unsloth) gets no sharded plans
        return tuple(n for n in COUNTS if n <= limit)
    if w.spec.pretrains:
        return PRETRAIN_COUNTS if gpu.segment == "datacenter" else ()
    if w.spec.trains and not w.spec.serves and gpu.sold_in > 1:
        return COUNTS + MULTI_NODE_COUNTS
    return COUNTS


# Cards one server holds (an HGX board, the largest common PCIe boxes). A training run over more of
# your cards crosses servers, and the gradient exchange between them is only as fast as the network.
NODE_GPUS = 8
# "Ordinary Ethernet" between servers one owns, when its speed is not said: 10 Gb/s, the common office and
# lab link (25 Gb/s and up is a datacenter's); the answer says so.
SLOW_NETWORK_GBIT = 10.0


def _owned_training(w: Workload, gpu: Gpu, count: int) -> Option | None:
    """Training on more cards than one server holds (the servers as said: 'three boxes of 4 x 3090' are three
    servers of four, never one of eight): one server's cards when they do the job (fit, and meet the deadline with
    its margin), or when the network between them is slow (1 GbE, ordinary Ethernet: ZeRO-3 would wait on it every
    step); all of them otherwise, on the stated assumption of a fast network between the servers."""
    whole = evaluate(w, gpu, count, owned=True)
    per = min(count, _server_gpus(w, gpu))
    servers = -(-count // per)
    if w.network == "fast" and whole is not None and whole.ok:
        whole.warnings.append(f"{count} x {gpu.name} are {servers} servers: the run uses all of them over the fast "
                              "network you said is between them (InfiniBand or RoCE)")
        return whole  # the cards are yours: all of them finish sooner at no extra cost
    # pretraining on an owned fleet (continued or from scratch) runs on all of it, data parallel over the servers
    fleet = w.network is None and w.spec.pretrains and whole is not None and whole.ok
    one = None if fleet else _one_server(w, gpu, per)
    if w.reinforces and w.network == "slow" and (across := _rl_across_servers(w, count, per, one, whole)) is not None:
        return across
    if one is not None and (one.ok or (w.network == "slow" and one_box_trains(one))):
        if w.network != "slow" and whole is not None and _rl_squeezed(w, one, whole):
            whole.warnings.append(f"{count} x {gpu.name} are {servers} servers: the run uses all of them, since on one "
                                  f"server's {per} cards it leaves only {one.headroom_fraction:.0%} of memory for the "
                                  f"rollouts and takes {hours_figure(one.training_hours or 0)} h; the time assumes a fast "
                                  "network between them (InfiniBand or RoCE)")
            return whole
        if w.network != "slow":
            one.warnings.append(f"{count} x {gpu.name} are {servers} servers: the run uses one server's {per} "
                                f"cards, since spreading it over {servers} only pays with a fast network between "
                                "them (InfiniBand or RoCE, 100 Gb/s and up)")
            return one
        if (spread_out := spread_over_servers(w, gpu, count, per, one, whole)) is not None:
            return spread_out  # what crosses between the servers a step hides behind its compute
        fast = evaluate(w.model_copy(update={"network": "fast"}), gpu, count, owned=True)
        one.findings.append(Finding(code="one_server_training", values={
            "gpus": str(count), "servers": str(servers), "per": str(per),
            "gbit": f"{w.network_gbit or SLOW_NETWORK_GBIT:g}", **one_server_values(w, gpu, count, per),
            "fast_hours": hours_figure(fast.training_hours) if fast and fast.trains and fast.training_hours else "?"}))
        return one
    if whole is not None and w.network == "slow":
        lora = evaluate(w.model_copy(update={"method": "lora"}), gpu, per, owned=True) \
            if w.method == "full" and not w.spec.pretrains else None
        for f in whole.findings:
            if f.code == "slow_network_training" and lora is not None and lora.ok and lora.training_hours:
                f.values["lora_hours"] = hours_figure(lora.training_hours)
        return whole
    if whole is not None:
        whole.warnings.append(f"{count} x {gpu.name} are {servers} servers: the time assumes a fast network between "
                              "them (InfiniBand or RoCE); over ordinary Ethernet the exchange between servers is "
                              "slower than one server alone")
    return whole


def _rl_across_servers(w: Workload, count: int, per: int, one: Option | None, whole: Option | None) -> Option | None:
    """An online-RL run on your servers joined by Ethernet: all of them, data parallel across them (tools.rl_sync:
    each server generates its own rollouts, one gradient all-reduce between them a step), when that exchange leaves
    the run at least ACROSS_GAIN_MIN faster than on one server's cards (the exchange small against the step); else
    one server's cards, with the reason in one line (its exchange against the step); None when neither holds it."""
    r = whole.rl if whole is not None and whole.ok else None
    if r is None or r.servers < 2 or whole is None:
        return None
    if one is None or not one_box_trains(one) or one.rl is None:
        return whole  # one server does not hold it: all of them
    if not r.network_seconds_per_step:
        return None  # (ZeRO-3 over all the cards: only when one server cannot hold the run)
    share = r.network_seconds_per_step / r.step_seconds if r.step_seconds else 1.0
    sync = r.network_seconds_per_step
    values = {"gpus": str(count), "servers": str(r.servers), "per": str(per),
              "gbit": f"{w.network_gbit or SLOW_NETWORK_GBIT:g}", "sync_s": seconds_figure(sync),
              "step_s": seconds_figure(r.step_seconds), "share": f"{share:.0%}" if share >= 0.01 else "<1%",
              "hours": hours_figure(r.hours), "one_hours": hours_figure(one.rl.hours),
              "link": "nvlink" if find_gpu(whole.gpu).has_nvlink else "pcie"}
    if r.hours <= one.rl.hours * (1 - ACROSS_GAIN_MIN):
        whole.findings.append(Finding(code="rl_across_servers", values=values))
        return whole
    one.findings.append(Finding(code="rl_one_server", values=values))
    return one


def _rl_squeezed(w: Workload, one: Option, whole: Option | None) -> bool:
    """An online-RL run that one server holds only just (less than TIGHT_HEADROOM to spare: the colocated engine's KV
    cache, and so the rollouts in flight, get what is left), where all the servers said hold it with more room: one
    is not enough, all of them are the plan (review CF #10: PPO's four models on one of two H800 servers at 2% to
    spare, 171 h a pass, the other server idle; both: 59 h)."""
    return bool(w.reinforces and whole is not None and whole.ok and one.headroom_fraction < TIGHT_HEADROOM
                and whole.headroom_fraction > one.headroom_fraction)


def _one_server(w: Workload, gpu: Gpu, per: int) -> Option | None:
    """One server's cards for the run: as planned, or, for a full fine-tune that does not fit them with the usual
    AdamW states and no optimizer said, with 8-bit AdamW (FP32 master weights kept, 10 bytes per parameter) only
    over a slow network: with the network unsaid, all the cards at the usual 16 bytes per parameter are the plan."""
    one = evaluate(w, gpu, per, owned=True)
    if one is not None and not one.trains and w.network == "slow" and w.method == "full" and w.optimizer is None and w.framework is None \
            and not w.spec.pretrains and w.mixed_precision is None:
        small = evaluate(w.model_copy(update={"optimizer": "adamw-8bit"}), gpu, per, owned=True)
        if small is not None and small.trains:
            return small
    return one


def one_box_trains(o: Option) -> bool:
    """One server's cards hold the run (a deadline it misses is said, not a reason to train over a slow network)."""
    return bool(o.trains) and all(v for k, v in o.meets.items() if k != "deadline")


def _owned_options(w: Workload) -> list[Option]:
    """Each kind of card you own, evaluated as the job asks (every layout of several servers, or of a count no
    tensor-parallel degree uses whole)."""
    owned: list[Option] = []
    for text in w.owned:
        count, gpu = parse_owned(text)
        if one_machine(gpu):
            count = 1  # several Macs of yours: the model runs on one of them (one_machine), never split over them
        if w.spec.trains and not w.spec.serves and count > _server_gpus(w, gpu):
            o = _owned_training(w, gpu, count)
        else:
            o = evaluate(w, gpu, count, owned=True)
        if _scales_out(w) and (count > _server_gpus(w, gpu) or _uneven(w, count)):
            o = _owned_servers(w, gpu, count, o)  # (three cards: three copies, or a copy on two of them)
        if o:
            owned.append(o)
    return owned


def options_for(w: Workload) -> tuple[list[Option], list[Option]]:
    """(owned options, candidate options). Serving and batch stop at the first count that is
    acceptable (more of the same card only costs more); training tries every count, since more
    cards finish sooner at about the same cost per run."""
    owned = _owned_options(w)
    extended = [x for text in w.owned for x in [_extend(w, *_owned_card(text), owned)] if x is not None]
    names = w.candidates or CANDIDATES["china" if w.region == "china" else "global"]
    listed = {n.partition("x ")[2].strip() if re.match(r"\s*\d", n) else n for n in names}
    names = [q.gpu for q in w.quotes if q.gpu not in listed] + names  # the cards quoted are options, first
    if not w.candidates and w.personal and w.preference == "buy" and w.spec.serves:
        names = names + [g for g in HOME_BUYING + BUYING_EXTRA if g not in names]  # one person's own computer
    elif not w.candidates and w.budget_usd is not None and w.preference == "buy" and w.spec.serves:
        names = names + [g for g in BUYING_EXTRA if g not in names]
    elif not w.candidates and w.preference == "buy" and w.spec.serves:
        names = names + [g for g in BUYING_SERVER if g not in names]
    if not w.candidates and (not [n for n in names if not _excluded(find_gpu(n), w)] or few_left(w)):
        names = _catalog_left(w)  # "domestic accelerators only", "国产卡或者H20": the cards that are left
    options: list[Option] = []
    for name in names:
        pinned, gpu = parse_owned(name) if re.match(r"\s*\d", name) else (None, find_gpu(name))
        if _excluded(gpu, w):
            continue
        counts = _counts(w, gpu)
        if pinned is not None and one_machine(gpu):
            pinned = 1  # "4 Mac Studios" to buy: one Mac serves a model alone (one_machine)
        if pinned is not None:  # the count the user named comes first: "on 4x H100", "用4张A800"
            counts = (pinned, *(n for n in counts if n != pinned))
        found = _card_counts(w, gpu, counts, pinned, options)
        if not found and _can_scale(w, gpu, pinned) and not w.buy_count:  # (the cards to buy are counted)
            o = scaled_option(w, gpu, count=pinned)
            if o is not None:  # beyond one server: copies of the smallest unit, pipeline stages across servers
                options.append(o)
    return owned, extended + _not_yours_again(w, options)


def _card_counts(w: Workload, gpu: Gpu, counts: tuple[int, ...], pinned: int | None, options: list[Option]) -> bool:
    """Each count of one card in turn, added to options; whether one does the job. Serving and batch stop at the
    first count that does (more of the same card only costs more), training tries them all."""
    found, slow = False, None
    for n in counts:
        o = evaluate(w, gpu, n, all_cards=n == pinned and w.spec.batch)
        if o is None and n == pinned and _can_scale(w, gpu, pinned):
            o = scaled_option(w, gpu, count=pinned)  # '2台8卡A100够不够': the servers named, whole, even if fewer do
        if o is None:
            continue
        if slow is not None and o.ok:
            if slow_for_service(o, w):
                continue
            options.remove(slow)  # more of the card reaches the speed the budget pays for: it replaces the slow one
        options.append(o)
        if o.ok and (not w.spec.trains or w.spec.pretrains):
            found = True
            if w.preference == "buy" and service_bought(w) and slow is None and n != pinned \
                    and slow_for_service(o, w):
                # a service to buy: more of this card may reach a product's speed for less than another card
                # (review BU #2: 2 x RTX PRO 6000 at 17 tokens/s lost a hospital's $350k to an $200k 8 x A100
                # server, where 4 of them at 28 cost $40k). Buy-or-rent weighs rental prices this card may lack.
                slow = o
                continue
            break
    return found


def _uneven(w: Workload, count: int) -> bool:
    """Cards you own that no tensor-parallel degree uses whole (three, six): every layout of them is tried,
    copies side by side, so that none of them is left out of the plan."""
    return count not in arch.valid_tensor_parallel(resolve_model(w.model), 8)


def _not_yours_again(w: Workload, options: list[Option]) -> list[Option]:
    """The candidates less a rented or bought copy of cards you have: as many of your own card or fewer is
    your option, already listed (no 'rent 4 x 3090' beside your four 3090s)."""
    have: dict[str, int] = {}
    for text in w.owned:
        count, gpu = parse_owned(text)
        have[gpu.id] = have.get(gpu.id, 0) + count
    return [o for o in options if not (o.gpu in have and o.gpus <= have[o.gpu] and not o.owned_gpus)]


# Cards you own that miss a target by a modest margin get more of the same card first: up to as many
# again as you own (one more server beside two, two more cards beside two). Beyond that it is a new cluster,
# and the other card classes compete on what they cost.
EXTEND_AT_MOST = 1.0
# A service already running on data-centre cards grows on the same card: one stack, one fleet, the engine and
# layout it already runs (review O3 #18: 8 x H100 in production were told to buy 16 MI300X). Up to this many
# times as many again; the other card classes stay in the table as alternatives.
EXTEND_FLEET_AT_MOST = 8.0


def _extend(w: Workload, gpu: Gpu, count: int, owned: list[Option]) -> Option | None:
    """Your cards fit but miss a stated target (a deadline, a first-token or speed target): the fewest more
    of the same card, rented or bought to work alongside yours, that meet every target, priced for the added
    cards only. Whole servers beside whole servers; single cards beside a few. None when more than
    EXTEND_AT_MOST times as many again would be needed, or yours already do the job."""
    mine = [o for o in owned if o.gpu == gpu.id]
    if not mine or any(o.ok for o in owned) or gpu.laptop or gpu.segment == "apple" \
            or (w.spec.trains and not grows_cluster(w, gpu, count)):
        return None  # (training beside rented cards would sync gradients between machines and clouds)
    service = w.spec.serves and not w.spec.trains and w.users > LLAMA_CPP_MAX_USERS
    if any(o.trains is False for o in mine) or (any(o.serves is False for o in mine) and not service):
        return None  # training that does not fit, or one person's model: a memory lever is the answer
    if not (w.deadline_hours or w.latency_stated or w.e2e_ms is not None or service):
        return None  # no target was stated: nothing to meet with more cards
    per_server = _server_gpus(w, gpu)
    step = per_server if count >= per_server else gpu.sold_in  # SXM/OAM modules come on whole boards
    # a fleet grows far only under a request rate ('8x H100 in prod at 500 rps'); a count of people at a long
    # context on your servers is answered by what they hold (owned_users, owned_context), not by renting 4x more
    rated = w.requests_per_s or w._rate_per_s
    # cards that cannot be rented (the data stays in the building, '数据不能出机房') are bought to sit beside yours:
    # servers of your data-centre card grow that one cluster (review CI #12: two 910B servers short of a deadline
    # are five 910B servers, not another card's cluster)
    grows = (service and rated) or (w.preference == "buy" and w.spec.batch)
    most = EXTEND_FLEET_AT_MOST if grows and gpu.segment == "datacenter" else EXTEND_AT_MOST
    wanted = serving_precision(w, resolve_model(w.model), gpu)
    found: dict[int, Option | None] = {}
    for strict in (True, False):  # the format the rest would be served in (or the one asked), then any lever
        for added in range(step, int(count * most) + 1, step):
            if added not in found:
                found[added] = _added(w, gpu, count, added)
            o = found[added]
            if o is not None and (not strict or o.precision == wanted):
                return o
    return None


def _added(w: Workload, gpu: Gpu, count: int, added: int) -> Option | None:
    """Your `count` cards and `added` more of them, priced for the added ones; None when that misses a target."""
    total = count + added
    if _scales_out(w):
        o = scaled_option(w, gpu, count=total, owned=True, whole_copies_in=added)
    else:
        o = evaluate(w, gpu, total, owned=True)
    if o is None or not o.ok or (added % max(1, o.gpus // o.replicas) and not w.spec.trains):
        return None  # the added cards hold whole copies: no copy of the model straddles your machines and theirs
        # (a training job on a cluster of your own grows on its fabric: tools.cluster_grow)
    o.owned, o.owned_gpus, o.layouts_tried, o.chosen_because = False, count, [], None
    _price(o, w, gpu, owned=False)
    o.ok = o.ok and all(o.meets.values())
    return o if o.ok else None


def _owned_servers(w: Workload, gpu: Gpu, count: int, o: Option | None) -> Option | None:
    """Several servers of your own: every layout of them (copies of a unit within a server, pipeline stages
    across servers) in every format, the one that meets the targets in the format asked (or the checkpoint's
    own) and is fastest per user; the plain one-copy-per-server plan when no layout meets them."""
    scaled = scaled_option(w, gpu, count=count, owned=True)  # consumer cards: copies of at most PCIE_MAX_TP
    if scaled is not None and scaled.ok:
        return _fewest_owned(w, gpu, count, scaled)  # every layout tried: the fewest of yours that meet them
    if o is not None and o.ok:
        return o
    return scaled if scaled is not None else o


def _fewest_owned(w: Workload, gpu: Gpu, count: int, scaled: Option) -> Option:
    """Cards you own are a ceiling, not a count to fill: a service of people at once (no request rate: that is
    sized by the queue on all of them) takes the fewest of your cards that meet every target, with memory to
    spare, and the rest stay free for other work ('how many of our 16 GPUs does it eat'). The plan over all
    of them when no smaller one does."""
    if not w.fewest_owned or w.requests_per_s or w._rate_per_s or gpu.segment != "datacenter":
        return scaled
    free = count - math.ceil(count * w.owned_busy) if w.owned_busy else count - 1  # 'half of them train'
    fewer = scaled_option(w.model_copy(update={"max_gpus": max(1, free)}), gpu, owned=True)
    if fewer is None or not fewer.ok or fewer.gpus >= count or fewer.headroom_fraction < TIGHT_HEADROOM:
        return scaled
    return fewer


def _scales_out(w: Workload) -> bool:
    """Serving alone scales beyond one server (training and serving on one box stays on one server)."""
    return w.spec.serves and not w.spec.trains


def scaled_option(w: Workload, gpu: Gpu, count: int | None = None, owned: bool = False,
                  whole_copies_in: int | None = None) -> Option | None:
    """The best serving plan beyond one server on this card (tools.scale). Rented or bought: the first
    layout that meets every requirement once evaluated, else the first one (its reasons say what it
    misses). With a count (cards you own, or a setup you named: 'two 8xH100 nodes'), all of them are used
    and every layout that fits them is evaluated: the one that meets every target (in the format asked or
    the checkpoint's own first, then the fastest per user), else the one that comes closest; the others
    ride along in `layouts_tried` with their figures. whole_copies_in: only layouts whose copies fit whole in
    this many cards (cards added beside yours hold copies of their own)."""
    model = resolve_model(w.model)
    tries = serving_tries(w, gpu, owned, serving_precision(w, model, gpu))
    if small_units_only(gpu) and w.serve_precision is None and not owned and "int4" not in [t[1] for t in tries] \
            and (not w.flexible or "precision" in w.flexible):
        # consumer cards serve big models in small units: 4-bit weights when 8-bit needs more than PCIE_MAX_TP cards
        tries += [(e, "int4", kv) for e, f, kv in tries if e in ("vllm", "sglang") and f not in FOUR_BIT]
    limit = min(w.max_gpus or MAX_SERVING_GPUS, count or MAX_SERVING_GPUS)
    layouts = plan(w.model, gpu, tries, w.users, w.context, w.speed_floor, owned=limit if count else None,
                   server_gpus=_server_gpus(w, gpu), max_gpus=limit)
    if not count and small_units_only(gpu):  # small units in any format: the fewest cards in all
        order_of = {f: i for i, f in enumerate(dict.fromkeys(t[1] for t in tries))}
        layouts = sorted(plan(w.model, gpu, tries, w.users, w.context, w.speed_floor, owned=None,
                              server_gpus=_server_gpus(w, gpu), max_gpus=limit, all_formats=True),
                         key=lambda x: (x.gpus, order_of.get(x.precision, 0), x.unit))
    if not count:
        # the first layouts that meet every target, each with the memory to spare a warning asks for (_roomier);
        # the fewest cards of them, in the layouts' order: 4 x TP4 on 16 H100 short of memory grew to 5 x TP4 on 20
        # while 2 x TP8 on 16 met it all (review CT E8)
        first, met = None, []
        for layout in layouts[:SCALE_TRIES]:
            o = evaluate(w, gpu, layout.gpus, owned=owned, layout=layout)
            if o is not None and o.ok:
                met.append(_roomier(w, gpu, layout, o, limit, owned))
            first = first or o
        return min(met, key=lambda o: (o.headroom_fraction < TIGHT_HEADROOM, o.gpus)) if met else first
    order = {f: i for i, f in enumerate(dict.fromkeys(t[1] for t in tries))}
    seen: dict[tuple[int, int, int, str], Option | None] = {}
    evaluated: list[Option] = []
    for layout in layouts:  # the format asked first, 16-bit KV cache before 8-bit, each unit once per format
        key = (layout.tp, layout.pp, layout.replicas, layout.precision)
        prior = seen.get(key)
        again = prior is not None and prior.headroom_fraction < TIGHT_HEADROOM
        if (key in seen and not again) or len(evaluated) >= SCALE_TRIES_ALL or (whole_copies_in and whole_copies_in % layout.unit):
            continue  # (a unit left with too little memory is tried again with the 8-bit KV cache)
        o = evaluate(w, gpu, layout.gpus, owned=owned, layout=layout)
        seen[key] = o
        if o is not None:
            evaluated.append(o)
    if not evaluated:
        return None
    good = [o for o in evaluated if o.ok]
    if good:
        # one that leaves the memory a warning asks for before one that does not (the answer never plans on
        # what it warns against), then the format asked; then, on cards to rent or buy, the fewest cards (what the
        # user pays for the job: review BV #4, 3 x TP4 on 12 H100 over TP8 on 8 that met every target too), and
        # only then the fastest per user (on cards you own, all of them: the speed)
        best = min(good, key=lambda o: (o.headroom_fraction < TIGHT_HEADROOM, order.get(o.precision or "", 0),
                                        0 if owned else o.gpus, -(o.decode_tokens_per_s or 0), o.ttft_s or 0,
                                        o.gpus))
        best.chosen_because = "meets"
    else:
        best = min(evaluated, key=lambda o: (shortfall(o, w), order.get(o.precision or "", 0)))
        best.chosen_because = "closest"
    if len(evaluated) > 1:
        best.layouts_tried = [_tried(o, w) for o in sorted(evaluated, key=lambda o: o is not best)]
    return best


# A plan of copies that leaves too little memory to spare (the search fills each copy's KV cache) may add
# up to this many copies of the same unit, spreading the users thinner, to leave TIGHT_HEADROOM free.
ROOMIER_COPIES = 2


def _roomier(w: Workload, gpu: Gpu, layout: Layout, o: Option, limit: int, owned: bool) -> Option:
    """The plan, or the same unit with one or two more copies when that leaves the memory a warning asks for."""
    if o.headroom_fraction >= TIGHT_HEADROOM:
        return o
    for extra in range(1, ROOMIER_COPIES + 1):
        replicas = layout.replicas + extra
        if replicas * layout.unit > limit:
            break
        wider = layout.model_copy(update={"replicas": replicas, "users_per_replica": -(-w.users // replicas)})
        roomier = evaluate(w, gpu, wider.gpus, owned=owned, layout=wider)
        if roomier is not None and roomier.ok and roomier.headroom_fraction >= TIGHT_HEADROOM:
            return roomier
    return o


def _tried(o: Option, w: Workload) -> LayoutTry:
    return LayoutTry(replicas=o.replicas, tp=o.tp or o.gpus, pp=o.pp, gpus=o.gpus, dp_attention=o.dp_attention,
                     precision=o.precision,
                     kv_precision=o.kv_precision, ok=o.ok, fits=o.serves is not False,
                     decode_tokens_per_s=o.decode_tokens_per_s, ttft_s=o.ttft_s,
                     shortfall=None if o.ok else shortfall(o, w), reasons=list(o.reasons))


def shortfall(o: Option, w: Workload) -> float:
    """How far an option is from the stated targets, as the worst ratio of what it gives to what was asked:
    1.0 or less meets them all; 1.25 misses one by 25% (the first token, per-user speed against the
    floor, the job's time against the deadline with its margin). Infinite when it does not fit."""
    if o.serves is False or o.trains is False:
        return math.inf
    ratios = [1.0]
    if w.spec.serves and w.ttft_ms is not None and o.ttft_s is not None:
        ratios.append(o.ttft_s * 1000 / w.ttft_ms)
    if w.spec.serves and w.e2e_ms is not None and o.e2e_s is not None:
        ratios.append(o.e2e_s * 1000 / w.e2e_ms)
    if w.spec.serves and o.decode_tokens_per_s:
        ratios.append(w.speed_floor / o.decode_tokens_per_s)
    if w.deadline_hours and o.job_hours is not None:
        ratios.append(o.job_hours / (w.deadline_hours * (1 - DEADLINE_MARGIN)))
    return max(ratios)


# Layouts evaluated in full per card (each is a memory and a speed run): the search already ranks them.
SCALE_TRIES = 3
# On cards you own (or a setup you named) every layout that fits them is evaluated, up to this many.
SCALE_TRIES_ALL = 10


def _excluded(gpu: Gpu, w: Workload) -> bool:
    """Whether the user ruled this card out, by its vendor, its id or its segment ('no consumer cards')."""
    if gpu.id in w.exclude:
        return True
    if gpu.domestic_china and is_custom(gpu.id) and w.domestic_only:
        return False  # a described Chinese card (寒武纪 MLU370-X8) under a domestic-only rule: its vendor is no vendor here
    return gpu.vendor in w.exclude or gpu.segment in w.exclude


# The user's rules leave at most this many cards of the catalog ('国产卡或者H20': three Ascends and the H20):
# every one of them is weighed, not only those on the usual shortlist.
FEW_LEFT = 6


def few_left(w: Workload) -> bool:
    """Whether the cards the user's exclusions leave in are few enough to weigh them all."""
    return bool(w.exclude) and 0 < len(_catalog_left(w)) <= FEW_LEFT


def _catalog_left(w: Workload) -> list[str]:
    """When the usual shortlist is all ruled out: every catalog card the user left in, Macs only when
    nothing else is (a Mac is one person's computer, not a card to rent or rack)."""
    left = [g for g in gpus() if not _excluded(g, w)]
    return [g.id for g in left if g.segment != "apple"] or [g.id for g in left]


def decide(w: Workload, options: list[Option]) -> tuple[Option | None, Literal["use", "rent", "buy", "none"],
                                                       RentBuyResult | None]:
    ranked = sorted(options, key=lambda o: _rank_key(o, w))
    best = ranked[0] if ranked and ranked[0].ok else None
    if best is None:
        return None, "none", None
    chosen = [o for o in ranked if o.ok and not o.owned and f"{o.gpus}x {o.gpu}" in pinned_cards(w)]
    extension = [o for o in ranked if o.ok and o.owned_gpus]
    if extension and not any(o.ok and o.owned for o in ranked):
        # your cards miss by a modest margin: more of the same card beside them comes first (one stack, one
        # layout, your cards used); other card classes follow, ranked by what you pay
        best = extension[0]
    elif chosen and not any(o.ok and o.owned for o in ranked):
        # the setup the user named does the job: it is the plan, the others are alternatives (your own cards
        # that do it come first: 'we have 8 4090s, rented 2 A100s' is planned on the 4090s)
        best = chosen[0]
    elif not w.spec.serves and not best.owned and best.job_hours is not None and not w.cheapest and _priced(best, w) \
            and best.job_hours > (ADAPTER_LONG_JOB_HOURS if w.method in ADAPTER_METHODS and not w.spec.pretrains
                                  else LONG_JOB_HOURS):
        # a long job: at about the same cost per run (prices as on record: finishing sooner is not a price
        # margin, so one from few offers is not marked down here), the one that finishes first
        cheapest = cost_score(best, w, sourced=False)
        risky = software_risk_unasked(w, find_gpu(best.gpu))  # a clean plan is not traded for a warned card
        same = [o for o in ranked if o.ok and not o.owned and o.avoid == best.avoid and o.job_hours is not None
                and (risky or not software_risk_unasked(w, find_gpu(o.gpu)))
                and (o.headroom_fraction < TIGHT_HEADROOM) == (best.headroom_fraction < TIGHT_HEADROOM)
                and cost_score(o, w, sourced=False) <= (1 + SAME_COST) * cheapest and o.gpus <= max(8, best.gpus)]
        best = min(same, key=lambda o: (o.job_hours, cost_score(o, w)))
    elif w.spec.trains and w.spec.serves and not best.owned and best.job_hours is not None:
        best = _faster_trainer(w, ranked, best)
    elif buys_outright(w) and w.budget_usd is not None and w.spec.serves and not best.owned:
        best = _faster_bought(w, ranked, best)
    if best.owned:
        return best, "use", None
    rb = rent_or_buy_of(w, best)
    action = _action(w, best, rb)
    if action == "buy" and not buys_outright(w) and best is ranked[0]:
        best, rb = _bought_best(w, ranked, best, rb)
    best, action, rb = china_official_first(w, ranked, best, action, rb)
    said = china_supply(w, find_gpu(best.gpu))
    if said and action in ("buy", "rent"):  # the plan's card: what its export restriction means for the way it is had
        best = best.model_copy(update={"warnings": [china_supply(w, find_gpu(best.gpu), action) if x == said else x
                                                    for x in best.warnings]})
    if action == "buy" and best.gpus % best.sold_in and not best.owned_gpus:
        # board parts come in whole servers: the price already pays for all of its cards, so plan on them
        whole = (_whole_servers(w, best) if best.tp is not None
                 else evaluate(w, find_gpu(best.gpu), whole_boards(best.gpus, best.sold_in)))
        if whole is not None and whole.ok:
            best, rb = whole, rent_or_buy_of(w, whole)
    return best, action, rb


def buys_outright(w: Workload) -> bool:
    """Whether the options are already ranked by their purchase price (cost_score): buying preferred, or a one-off
    budget for a service."""
    return w.preference == "buy" or (w.budget_usd is not None and w.spec.serves and w.preference != "rent")


def as_bought(w: Workload) -> Workload:
    """The workload ranked as a purchase: what the verdict to buy pays for the job is each option's purchase price."""
    return w.model_copy(update={"preference": "buy"})


def _bought_best(w: Workload, ranked: list[Option], best: Option,
                 rb: RentBuyResult | None) -> tuple[Option, RentBuyResult | None]:
    """The verdict is to buy though the options were ranked by their rent: the plan is the one cheapest to buy among
    those that meet every target (review BL #6: 96 x A100 headlined at $2.4M beside 48 x H200 at $2.0M), where
    buying it pays too; else the rent-ranked plan stands."""
    bought = as_bought(w)
    pool = [o for o in ranked if o.ok and not o.owned and o.purchase_usd is not None and o.avoid == best.avoid]
    if not pool:
        return best, rb
    cheapest = min(pool, key=lambda o: _rank_key(o, bought))
    if cheapest is best:
        return best, rb
    its = rent_or_buy_of(w, cheapest)
    if its is None or _action(w, cheapest, its) != "buy":
        return best, rb
    return cheapest, its


def _priced(o: Option, w: Workload) -> bool:
    """Whether a run's cost is on record: with none (Ascend 910B, no rent or buy price), 'about the same cost per
    run' is unknown, so the fewest cards that meet the deadline lead and more are not taken to finish sooner (review
    ZA C5: 4 × 910B in 14.7 h against a 72 h deadline, not 8)."""
    return math.isfinite(cost_score(o, w, sourced=False))


def _faster_trainer(w: Workload, ranked: list[Option], best: Option) -> Option:
    """Fine-tune, then serve on the same cards: at about the same price (SAME_COST, prices as on record), the cards
    that train faster come first (review WB C7: 2 x 3090 bought over 2 x 4090 for 4% less, 2.3x slower)."""
    cheapest = cost_score(best, w, sourced=False)
    if not math.isfinite(cheapest):
        return best  # no price on record for the plan (a card only bought): 'the same price' weighs nothing (AL 5)
    same = [o for o in ranked if o.ok and not o.owned and o.avoid == best.avoid and o.job_hours is not None
            and (o.headroom_fraction < TIGHT_HEADROOM) == (best.headroom_fraction < TIGHT_HEADROOM)
            and software_risk_unasked(w, find_gpu(o.gpu)) <= software_risk_unasked(w, find_gpu(best.gpu))
            and cost_score(o, w, sourced=False) <= (1 + SAME_COST) * cheapest]
    return min(same, key=lambda o: (o.job_hours, cost_score(o, w)), default=best)


# A service bought with a one-off budget: a plan costing up to this share more than the cheapest, within the budget,
# that serves each user at least FASTER_BOUGHT times as fast on no more cards is the plan (review BW #15: 4 x 4060 Ti
# at $4,996 and 27 tokens/s a user headlined over 2 x 5090 at $5,498 and 53, on a budget of $28,000).
SAME_PURCHASE = 0.15
FASTER_BOUGHT = 1.5


def _faster_bought(w: Workload, ranked: list[Option], best: Option) -> Option:
    """Of the plans bought within the budget at about the cheapest's price (SAME_PURCHASE), the one clearly faster
    per user (FASTER_BOUGHT) on no more cards, with no warning or software risk the cheapest lacks; else the cheapest."""
    if not best.purchase_usd or not best.decode_tokens_per_s or w.budget_usd is None:
        return best
    cap = min(best.purchase_usd * (1 + SAME_PURCHASE), w.budget_usd)
    risky = software_risk_unasked(w, find_gpu(best.gpu))
    same = [o for o in ranked if o.ok and not o.owned and o.avoid == best.avoid and o.purchase_usd is not None
            and o.purchase_usd <= cap and o.gpus <= best.gpus and o.decode_tokens_per_s is not None
            and o.decode_tokens_per_s >= FASTER_BOUGHT * best.decode_tokens_per_s
            and (risky or not software_risk_unasked(w, find_gpu(o.gpu)))
            and (o.headroom_fraction < TIGHT_HEADROOM) <= (best.headroom_fraction < TIGHT_HEADROOM)]
    return max(same, key=lambda o: (o.decode_tokens_per_s or 0, -(o.purchase_usd or 0)), default=best)


def china_official_first(w: Workload, ranked: list[Option], best: Option, action: Literal["rent", "buy"],
                         rb: RentBuyResult | None) -> tuple[Option, Literal["rent", "buy"], RentBuyResult | None]:
    """A purchase in China (knowledge/china_channel.py): a card that cannot be bought through official channels there
    (export-barred, a rebuilt board) is not headlined while one that can does the job; the next such plan is taken
    (review AR 2: 'buy 8 x RTX 5090' beside its own warning that it is grey-market only). A card the user named
    stays the plan, its caveat said. One person's own use ('个人用', 'just me') buys where people buy: not applied."""
    if w.region != "china" or action != "buy" or w.personal or best.owned_gpus or officially_sold(find_gpu(best.gpu)) \
            or f"{best.gpus}x {best.gpu}" in pinned_cards(w) or best.gpu in (w.candidates or []):
        return best, action, rb
    sold = [o for o in ranked if o.ok and not o.owned and officially_sold(find_gpu(o.gpu))]
    legal = sold[0] if sold else None
    if legal is None:
        return best, action, rb
    if buys_outright(w) and w.budget_usd is not None and w.spec.serves:
        legal = _faster_bought(w, sold, legal)  # the same tie-break among the cards sold there
    rb = rent_or_buy_of(w, legal)
    return legal, _action(w, legal, rb), rb


def china_supply(w: Workload, gpu: Gpu, action: str | None = None) -> str | None:
    """The one place the China market's export rule is applied (knowledge: Gpu.export_limited): a card restricted
    from export to China (not one made for it) is said to be sold there only through other channels; bought, that
    it cannot be bought new there; rented, that whether a provider there has it depends on the provider."""
    if w.region != "china" or not gpu.export_limited or gpu.china_specific:
        return None
    if action == "buy":
        said = f"{gpu.name} is export-restricted: it cannot be bought new in China, only through grey-market channels without warranty"
        if china_price_usd(gpu.id) is None:  # h-used: no China street price on record, and that is said
            return said + "; its street price in China is not on record: the price shown is its list price, expect to pay more"
        return said + "; priced at its street price in China"
    if action == "rent":
        return f"{gpu.name} is export-restricted: whether a provider in China rents it depends on the provider"
    return f"{gpu.name} is export-restricted: supply in China depends on channels"


def _whole_servers(w: Workload, best: Option) -> Option | None:
    """A plan of copies bought as whole servers: as many copies as the servers' cards hold, the users shared
    over them."""
    unit = (best.tp or 1) * best.pp
    cards = whole_boards(best.gpus, best.sold_in)
    if cards % unit or best.engine is None or best.precision is None:
        return None
    replicas = cards // unit
    layout = Layout(tp=best.tp or 1, pp=best.pp, replicas=replicas, users_per_replica=math.ceil(w.users / replicas),
                    engine=best.engine, precision=best.precision, kv_precision=best.kv_precision)
    return evaluate(w, find_gpu(best.gpu), cards, layout=layout)


def pinned_cards(w: Workload) -> set[str]:
    """The card x count setups the user named for the job ('4x h100-sxm'), as 'Nx id'."""
    out = set()
    for name in w.candidates or []:
        if re.match(r"\s*\d", name):
            n, gpu = parse_owned(name)
            out.add(f"{n}x {gpu.id}")
    return out


def rent_or_buy_of(w: Workload, best: Option, bought_as: Option | None = None) -> RentBuyResult | None:
    """Renting the plan against buying it, or against buying `bought_as` (tools.bought_side: the cheapest machine
    that does the same job)."""
    own = bought_as or best
    if own.purchase_usd is None:
        return None
    home = {"hosting_usd_per_gpu_month": 0.0} if own.at_home else {}
    try:
        billed = best.gpus - best.owned_gpus
        # cards sold only as whole servers: the price pays for all of the server's cards, and they all draw power and
        # take hosting (review CD #3: one card's power beside an 8-card server's price)
        bought = whole_boards(own.gpus - own.owned_gpus, own.sold_in)
        if w.hosting_usd_per_month is not None:  # the user's hosting bill, for all the cards bought
            home = {"hosting_usd_per_gpu_month": w.hosting_usd_per_month / bought}
        theirs = quoted(w, best.gpu)
        if theirs is not None and theirs.usd_per_gpu_hour is not None:  # renting at the user's price: by the hour, or every hour of a reservation
            home = {**home, ("rent_usd_per_gpu_month" if theirs.reserved else "rent_usd_per_gpu_hour"):
                    theirs.usd_per_gpu_hour * (HOURS_PER_MONTH if theirs.reserved else 1.0)}
        # a service rented is billed for the hours it is up (service_hours: around the clock for other people), the
        # same hours its monthly cost and budget line use; a job or one person's model for the share it is busy
        use = service_hours(w) / HOURS_PER_MONTH if w.spec.serves and not w.spec.trains else w.utilisation
        return rent_vs_buy(RentBuyInput(gpu=best.gpu, gpus=billed, utilisation=min(use, 1.0), region=w.region,
                                        purchase_usd_per_gpu=own.purchase_usd / bought,
                                        **({"buy_gpus": bought} if bought != billed else {}),
                                        **({"buy_gpu": own.gpu} if own.gpu != best.gpu else {}),
                                        electricity_usd_per_kwh=w.electricity_usd_per_kwh, **home,
                                        **({"horizon_months": w.horizon_months} if w.horizon_months else {})))
    except ToolError:
        return None


# Jobs whose cost per run is within this share of the cheapest count as the same price: the one that
# finishes first wins (the issue's 8 x H800 against 8 x H20 at the same hourly cost).
SAME_COST = 0.10
# ... when the cheapest takes longer than a working day: below that, finishing sooner buys little.
LONG_JOB_HOURS = 8.0
# LoRA and QLoRA: the plan is the fewest cards that hold the run ('how many H100s to qlora a 70b' is one, about 8 h);
# more of them only finish sooner at the same cost per run, which the answer says beside it (review X E5), unless
# the fewest would take more than a day and a night.
ADAPTER_METHODS = ("lora", "qlora")
ADAPTER_LONG_JOB_HOURS = 24.0
# The guide says rent first: buying is advised only when owning saves at least this share.
BUY_MARGIN = 0.15


def rents_only(w: Workload) -> bool:
    """The user rents and does not buy (a cloud named as where to run, 'cloud-only', 'we'd rather rent'):
    no headline, verdict or decision at their prices advises buying."""
    return w.preference == "rent"


def owning_pays(rent_total_usd: float, buy_total_usd: float) -> bool:
    """Whether owning saves at least BUY_MARGIN of what renting costs over the horizon."""
    return buy_total_usd <= (1 - BUY_MARGIN) * rent_total_usd


def _action(w: Workload, best: Option, rb: RentBuyResult | None) -> Literal["rent", "buy"]:
    if w.preference == "buy" or (w.spec.trains and best.owned_gpus):
        return "buy"  # (cards added to a training cluster of your own join its fabric: bought, tools.cluster_grow)
    if best.usd_per_hour is None and best.purchase_usd is not None and not best.owned:
        return "buy"  # no rental offer on record (a Mac, a 4060 Ti): never headed 'rent', whatever the job or wish
    if w.preference == "rent" or not w.spec.serves or arrives_late(w, best):
        return "rent"  # (a service due live before a bought machine would arrive is rented first: tools.lead_time)
    if w.budget_usd_per_month is not None and w.budget_usd is None and best.usd_per_hour is not None:
        return "rent"  # a budget by the month is spent by the month: renting (review N3 #12, N2 #13)
    if w.budget_usd is not None and best.purchase_usd is not None and best.purchase_usd <= w.budget_usd and not (
            (w.horizon_months is not None or not w.personal) and rb is not None
            and rb.rent_total_usd < rb.buy_total_usd):
        # (buying against renting weighed over the months said, or over the usual horizon for a company: a purchase
        # within the budget is not headlined where the same reply shows renting cheaper, review W '购买 2 × RTX 3090'
        # beside '买永远不划算', review BR C6 '购买 8 × 3090' beside '36 个月租用共 ¥80,858，购买共 ¥144,913')
        return "buy"
    if w.spec.serves and buys_over_budget(w, best):
        return "rent"  # the budget buys no such card (review BX #4: 'Buy 2 x H200', a $336,000 server, on $250k): the
        # plan meets the budget rented, and the rent-or-buy line still says where buying would pay off
    if "preference" in w.flexible and w.horizon_months is None and best.sold_in > 1 and not best.owned_gpus:
        return "rent"  # a whole server nobody asked to buy, on an assumed horizon: rented; the rent-or-buy line says
        # where buying would pay off (review BS #7 'Buy 8 × H100, $320,000' for a parallelism question, BM #12)
    if rb is not None and owning_pays(rb.rent_total_usd, rb.buy_total_usd) and not (
            w.owned and "utilisation" in w.flexible) and not (
            few_offers(best.price_offers) and quoted(w, best.gpu) is None):
        # (nor is a purchase headlined against a rent from one or two offers: one snapshot is no market to
        # weigh buying against; the rent-or-buy line still says where buying would pay off)
        # (someone with cards of their own who never said how busy new ones would be is not told to buy
        # more on a guessed utilisation: rent first, the guide says)
        return "buy"
    return "rent"


def _owned_levers(w: Workload) -> list[Lever]:
    """Cards you own that cannot do the job as asked: the changes that would let them (LoRA or QLoRA
    instead of a full fine-tune, 4-bit weights, a shorter context, fewer users at once), before
    anything is rented."""
    fitting: Lever | None = None
    tight: Lever | None = None
    for label, change in _owned_lever_tries(w):
        if label.startswith("model=") and tight is not None:
            break  # the model asked for, with little to spare, before a roomier smaller model
        variant = w.model_copy(update=change)
        options = [o for text in w.owned for o in [evaluate(variant, *_owned_card(text), owned=True)] if o]
        good = [o for o in options if o.ok]
        if label in HOME_FORMATS:
            # the highest-quality file that fits is the one to say, tight or not (with at least the memory
            # estimate's narrowest range to spare): a roomier file with fewer bits costs quality that memory
            # to spare does not buy back
            sure = [o for o in good if o.headroom_fraction >= RANGE_FLOOR]
            if sure:
                return [tight or Lever(change=label, option=sure[0])]
            good = []
        roomy = [o for o in good if o.headroom_fraction >= TIGHT_HEADROOM]
        if roomy:
            return [Lever(change=label, option=roomy[0])]  # the first change that works with room is the one to say
        if good and tight is None:
            tight = Lever(change=label, option=good[0])  # works, with little memory to spare: if nothing roomier
        fits = [o for o in options if o.serves is not False and o.trains is not False]
        if fits and fitting is None:
            fitting = Lever(change=label, option=fits[0])  # it fits, but misses a target: worth saying
    chosen = tight or fitting
    return [chosen] if chosen else []


def _owned_lever_tries(w: Workload) -> list[tuple[str, dict]]:
    """The changes _owned_levers tries, in order: (what changes, the changed fields)."""
    tries: list[tuple[str, dict]] = []
    if w.spec.trains and w.method == "full" and w.optimizer is None:
        # still every weight trained: AdamW's two moments in 8 bits (bitsandbytes) instead of 16
        tries.append(("adamw-8bit", {"optimizer": "adamw-8bit"}))
    if (w.spec.trains and w.method == "full" and w.mixed_precision is None
            and (w.framework is None or find_framework(w.framework).master_weights_fp32)
            and all(_owned_card(text)[0].native_bf16 for text in w.owned)):
        # every weight still trained, no FP32 master copy (8 bytes a parameter, then 6 with 8-bit AdamW)
        tries.append(("pure-bf16", {"mixed_precision": False}))
        if w.optimizer is None:
            tries.append(("pure-bf16-adamw-8bit", {"mixed_precision": False, "optimizer": "adamw-8bit"}))
    if w.spec.trains and w.method == "qlora" and w.qlora_base == 8:
        tries.append(("qlora_base=4", {"qlora_base": 4}))  # the usual NF4 base: half the base's memory
    if w.spec.trains and not w.spec.pretrains:
        stacks = {_owned_card(text)[0].stack for text in w.owned}
        tries += [(m, {"method": m}) for m in ("lora", "qlora") if (w.method, m) in
                  (("full", "lora"), ("full", "qlora"), ("lora", "qlora"))
                  and all(runs_on(st, m, w.framework) for st in stacks)]
        if w.framework is None and all(runs_on(st, "qlora", "unsloth") for st in stacks):
            # Unsloth's kernels, chunked loss and offloaded activations fit QLoRA where HF Trainer's does not
            tries.append(("qlora-unsloth", {"method": "qlora", "framework": "unsloth"}))
    if (w.spec.serves or w.spec.batch) and (w.serve_precision or "int8") not in FOUR_BIT:
        tries.append(("int4", {"serve_precision": "int4"}))
    ladder: list[tuple[str, dict]] = []
    if w.spec.serves and w.users <= 2:  # one person at home: llama.cpp's 3-, 2- and 1-bit files, at a quality cost
        size = resolve_model(w.model).total_params_b
        ladder = [(fmt, {"serve_precision": fmt}) for fmt in HOME_FORMATS
                  if fmt != w.serve_precision and (size >= BIG_MODEL_B or not fmt.startswith("iq")
                                                   or (size >= IQ2_MODEL_B and fmt.startswith("iq2")))]
    if "context" not in w.flexible:
        tries += ladder  # a context the user stated is kept: a smaller file before a shorter context
    if w.spec.serves and w.context > 4096:
        tries.append((f"context={w.context // 2:,}", {"context": w.context // 2}))
    if w.spec.serves and w.users > 1 and not (w.requests_per_s or w._rate_per_s):
        # (at a request rate the users at once follow from it by Little's law: never a knob to turn down)
        tries.append((f"users={max(1, w.users // 2)}", {"users": max(1, w.users // 2)}))
    if "context" in w.flexible:
        tries += ladder
    if w.spec.serves and w.users <= LLAMA_CPP_MAX_USERS:  # ... or a smaller model that runs well on it
        tries += [(f"model={m}", smaller_model_change(w, m)) for m in smaller_in_family(w.model, w.line_said)]
    return tries


def _most_users_within(w: Workload) -> tuple[int, Option] | None:
    """The most people served at once that fit the budget and every target, by bisection."""
    lo, hi, found = 1, w.users - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        variant = w.model_copy(update={"users": mid})
        owned, options = options_for(variant)
        best, _action, _rb = decide(variant, owned + options)
        if best is not None:
            found, lo = (mid, best), mid + 1
        else:
            hi = mid - 1
    return found


def _owned_share(w: Workload) -> tuple[Option, int] | None:
    """The most users the cards you own serve within every target (memory, speed), by bisection, in
    the format the rest are served in: the user's, the checkpoint's, or 8 bits (FP8 or int8 by card)."""
    lo, hi, found = 1, w.users - 1, None
    model = resolve_model(w.model)
    cards = [_owned_card(text) for text in w.owned]
    while lo <= hi:
        mid = (lo + hi) // 2
        good = [o for gpu, n in cards
                for o in [evaluate(w.model_copy(update={"users": mid, "serve_precision": serving_precision(w, model, gpu)}),
                                   gpu, n, owned=True)] if o and o.ok]
        if good:
            found, lo = (good[0], mid), mid + 1
        else:
            hi = mid - 1
    return found


def _owned_card(text: str) -> tuple[Gpu, int]:
    count, gpu = parse_owned(text)
    return gpu, count


# A full fine-tune that misses the cards named by at most this share of their memory is not rejected alone:
# AdamW's moments in 8 bits (bitsandbytes, every weight still trained) is tried on the same cards, and the
# answer names ZeRO-3 with the optimizer states in CPU memory (DeepSpeed ZeRO-Offload) as the other way.
MARGIN_SHARE = 0.15


def _at_the_margin(w: Workload, options: list[Option]) -> list[Lever]:
    """The cards the user named for a full fine-tune, short of memory by a few percent in pure BF16: the same
    cards with 8-bit AdamW, then (when the user said nothing of the precision) pure BF16 with or without it,
    the first that fits them (review K: 8 x H100 rejected by 2% for a 70B full fine-tune)."""
    if not (w.spec.trains and not w.spec.pretrains and w.method == "full" and w.optimizer is None and w.candidates):
        return []
    pinned = [parse_owned(n) for n in w.candidates if re.match(r"\s*\d", n)]
    free = w.mixed_precision is None and (w.framework is None or find_framework(w.framework).master_weights_fp32)
    tries: list[tuple[str, dict[str, Any]]] = [("adamw-8bit", {"optimizer": "adamw-8bit"})] + ([
        ("pure-bf16", {"mixed_precision": False}),
        ("pure-bf16-adamw-8bit", {"mixed_precision": False, "optimizer": "adamw-8bit"})] if free else [])
    for o in options:
        if o.trains is not False or not o.train_per_gpu_bytes or not o.capacity_bytes \
                or not any(g.id == o.gpu and n == o.gpus for n, g in pinned):
            continue
        gpu = find_gpu(o.gpu)
        pure = evaluate(w.model_copy(update={"mixed_precision": False}), gpu, o.gpus) if free and gpu.native_bf16 else o
        if ((pure.train_per_gpu_bytes if pure else None) or o.train_per_gpu_bytes) > o.capacity_bytes * (1 + MARGIN_SHARE):
            continue  # not short by a few percent even in pure BF16
        for change, fields in tries:
            if "mixed_precision" in fields and not gpu.native_bf16:
                continue
            tried = evaluate(w.model_copy(update=fields), gpu, o.gpus)
            if tried is not None and tried.trains:
                return [Lever(change=change, option=tried)]
    return []


# Storage levers at the same price: the one that changes the least first.
GENTLER = {"kv8": 0, "int4": 1, "int4_kv8": 2}


def _lever_cost(lever: Lever, w: Workload) -> float:
    """What the user pays for a lever's plan, as the ranking counts it (unpriced last)."""
    o = lever.option
    return math.inf if o is None else cost_score(o, w)


def _levers(w: Workload) -> list[Lever]:
    """When nothing meets a constraint: the usual changes, each tried on the whole search."""
    tries: list[tuple[str, dict]] = []  # (what changes, as "key" or "key=value", the changed fields)
    precision = w.serve_precision or "int8"
    if (w.spec.serves or w.spec.batch) and precision not in FOUR_BIT:
        tries.append(("int4", {"serve_precision": "int4"}))
    tries += serving_lever_tries(w)  # FP8 KV cache, int4 with it, the users at once of a staff, a smaller model
    if w.spec.serves and w.context > 4096:
        tries.append((f"context={w.context // 2:,}", {"context": w.context // 2}))
    if w.spec.serves and w.users > 1 and not (w.requests_per_s or w._rate_per_s) \
            and not any(label.startswith("users_peak=") for label, _ in tries):
        # (at a request rate the users at once follow from it by Little's law: never a knob to turn down)
        tries.append((f"users={max(1, w.users // 2)}", {"users": max(1, w.users // 2)}))
    if w.spec.trains and not w.spec.pretrains and w.method != "qlora":
        tries.append(("qlora", {"method": "qlora"}))
    if w.deadline_hours:
        tries.append((f"deadline={w.deadline_hours * 2:,.0f}", {"deadline_hours": w.deadline_hours * 2}))
    if w.budget_usd is not None and w.preference == "buy" and not w.has_host:
        tries.append(("has_host", {"has_host": True}))  # the card alone, into a computer already there
    if w.budget_usd_per_month and w.preference == "either" and w.spec.serves:  # not for one who only rents
        # the monthly budget, spent on owning over the rent-or-buy horizon instead
        tries.append(("buy", {"preference": "buy", "budget_usd_per_month": None,
                              "budget_usd": w.budget_usd_per_month * DEFAULT_HORIZON_MONTHS}))
    levers = []
    for label, change in tries:
        variant = w.model_copy(update=change)
        owned, options = options_for(variant)
        best, _action, _rb = decide(variant, owned + options)
        if best is not None:
            levers.append(Lever(change=label, option=best))
    # ranked by what the user pays; on a tie the gentler storage lever first (an FP8 KV cache keeps the
    # weights), then the order tried; 4-bit weights with an FP8 KV cache only where neither alone gives its cards
    levers = [x for _i, x in sorted(enumerate(levers), key=lambda p: (_lever_cost(p[1], w),
                                                                      GENTLER.get(p[1].change, len(GENTLER)), p[0]))]
    alone = {(x.option.gpu, x.option.gpus) for x in levers if x.change in ("kv8", "int4") and x.option is not None}
    levers = [x for x in levers if not (x.change == "int4_kv8" and x.option is not None
                                        and (x.option.gpu, x.option.gpus) in alone)]
    if levers or not (w.budget_usd or w.budget_usd_per_month):
        return levers
    # Nothing brings it within the budget: how many people it does serve (in 4-bit, the cheapest
    # format), then what the cheapest plans cost, with and without the levers.
    if w.spec.serves and w.users > 1 and not (w.requests_per_s or w._rate_per_s):
        served = _most_users_within(w.model_copy(update={"serve_precision": w.serve_precision or "int4"}))
        if served is not None:
            key = "users" if w.serve_precision else "users_int4"
            levers.append(Lever(change=f"{key}={served[0]:,}", option=served[1]))
    for label, change in [("as_asked", {}), *tries[:1]]:
        variant = w.model_copy(update={**change, "budget_usd": None, "budget_usd_per_month": None})
        owned, options = options_for(variant)
        best, _action, _rb = decide(variant, owned + options)
        if best is not None:
            levers.append(Lever(change=label, option=best, within_budget=False))
    return levers


# Training on a rented cluster and serving on other cards must save this share of a month's serving
# cost (one run a month counted) to beat one box that does both, the guide's small-team default.
SPLIT_SAVING = 0.15


def _apart(w: Workload, best: Option | None):
    """Train on cards rented by the hour, serve on the cheapest option that serves: better than one
    box for both when the fine-tuning run needs more (or other) cards than serving does, or when
    cards you own can serve but not train. None when one box is as good."""
    if not (w.spec.trains and w.spec.serves) or w.phase == "experiment" or (best is not None and best.owned):
        return None
    serve = w.model_copy(update={"phase": "serve"})
    s_owned, s_options = options_for(serve)
    s_best, s_action, s_rb = decide(serve, s_owned + s_options)
    train = w.model_copy(update={"phase": "fine-tune", "owned": []})
    t_owned, t_options = options_for(train)
    t_best, _t_action, _t_rb = decide(train, t_owned + t_options)
    if s_best is None or t_best is None or t_best.job_usd is None:
        return None
    if best is not None and not s_best.owned:
        together = best.usd_per_month
        apart = None if s_best.usd_per_month is None else s_best.usd_per_month + t_best.job_usd
        if together is None or apart is None or apart > (1 - SPLIT_SAVING) * together:
            return None
    return serve, s_owned, s_options, s_best, s_action, s_rb, t_best


# An owned-card lever that changes only a slot of this kind, one the user did not state, is taken:
# the answer uses the cards they have, with the change said, instead of renting or buying.
LEVER_SLOTS = {"int4": "precision", **dict.fromkeys(HOME_FORMATS, "precision"), "context": "context"}
# Levers on something the conversation never sets (so never stated): taken on your own cards as the
# others are on an unstated slot. An 8-bit optimizer keeps the full fine-tune the user asked for, and so does
# pure BF16 (no FP32 master copy) when the user said nothing of the precision: the answer says its risk.
FREE_LEVERS: dict[str, dict[str, Any]] = {
    "adamw-8bit": {"optimizer": "adamw-8bit"},
    "pure-bf16": {"mixed_precision": False},
    "pure-bf16-adamw-8bit": {"mixed_precision": False, "optimizer": "adamw-8bit"},
}
# Levers that keep a LoRA the user asked for and only store its frozen base in 4 bits (QLoRA): taken on the cards
# they own before anything is rented ('lab has 8x 3090, lora llama 70b': QLoRA on the 3090s leads).
BASE_LEVERS = ("qlora", "qlora-unsloth")


def recommend(w: Workload, with_levers: bool = True) -> Recommendation:
    """The plan as asked; then, when it falls short, the change an expert would make (in this order:
    your own cards with a change you did not rule out, your cards for part of the users and the
    rest rented, 4-bit weights); and a better card named when you insist on a poor one."""
    if w.speculative and w.spec.serves:  # speculative decoding: the plan as sized, its speed-up and memory on it
        return with_speculative(w, w.speculative, lambda v: recommend(v, with_levers))
    if w.shared_prefix_tokens and w.spec.serves:  # prefix caching: sized on the tokens still computed and held
        return with_prefix_cache(w, lambda v: recommend(v, with_levers))
    w, ruled_out = _under_the_domestic_rule(w)
    if w.requests_per_s and w.spec.serves and not w.spec.trains:
        rec = _recommend_rate(w, with_levers)
        rec.disaggregation = disaggregation_for(rec) if with_levers else None  # two pools, offered when it pays
        return rec.model_copy(update={"ruled_out": ruled_out}) if ruled_out else rec
    both = _train_then_serve_rate(w, with_levers) if w.requests_per_s and w.spec.serves and w.spec.trains else None
    if both is not None:
        return both.model_copy(update={"ruled_out": ruled_out}) if ruled_out else both
    rec = _recommend(w, with_levers)
    home = in_home_file(w, rec) if with_levers else None
    if home is not None:  # short at home, no format said: everything in the file the split runs (tools.home_card)
        w, rec = home, _recommend(home, with_levers)
    implied = _implied_by_users(w, rec)
    if implied is not None:  # the streams' prompts bind: sized for the request rate they imply (review AP E16)
        # at the context the users' plan held (a prompt length said sizes the window: 3k prompts -> 8k), not
        # prompt + output alone
        held = [f for f in w.flexible if f != "context"]
        def at(rate: float) -> Recommendation:
            return _recommend_rate(w.model_copy(update={"requests_per_s": rate, "flexible": held}), with_levers)

        rated = at(implied.requests_per_s)
        if rated.best is not None and rated.best.ok:  # the users ask no faster than the plan answers them
            rated, implied = settle(implied, rated, at, resolve_model(w.model).active_params_b)
            rated.prefill_load = implied
            return rated.model_copy(update={"ruled_out": ruled_out}) if ruled_out else rated
        # no card tried sustains the back-to-back rate: the users plan stands, on users who pause between requests
        rec.prefill_load = implied.model_copy(update={"unsustained": True})
    pooled = _pool_plan(w, rec) if with_levers else None
    if pooled is not None and pooled.fits and w.users <= LLAMA_CPP_MAX_USERS:
        with_levers = False  # your cards together hold the model asked: no smaller file or model on one of them
        rec.pool, rec.pool_leads = pooled, True
    if with_levers:
        for change in (_on_your_cards, offload_on_owned, qlora_on_owned, _smaller_on_your_mac, _serve_the_gap, _in_four_bit, _one_server_in_four_bit,
                       _the_count_named_with_kv8, _the_count_named_in_four_bit, _the_count_named_on_a_4bit_base,
                       count_bought_with_qlora, count_bought_served,  # 'rent or buy two 4090s': that count
                       one_card_bought_with_qlora, _with_a_lever):  # 'buy a card … lora': QLoRA on one (buy2)
            changed = change(w, rec)
            if changed is not None:
                rec = weighed_again(changed, lambda v: recommend(v, with_levers=False))
                break
        rec.offload = _offload_plan(w, rec)
        rec.offload_leads = _offload_leads(w, rec)
        rec.home_more = more_cards(w, rec)  # the model asked on your card at home: the fewest more of it that hold it
        rec.qlora_short = qlora_short_on_owned(w, rec)  # a LoRA too big for your cards: QLoRA sized beside it
        rec.pool = pooled
        rec.owned_limit = owned_limit(w, rec)  # a few desktop cards short of a service: what they hold
        rec.named_limit = named_limit(w, rec)  # the count named short of a service: what it holds
        rec.pool_leads = rec.pool is not None and w.users <= LLAMA_CPP_MAX_USERS \
            and rec.pool.smaller is not None and not (rec.best is not None and rec.best.owned)
    rec = _name_a_better_card(w, rec)
    beside = _beside_yours(rec)
    update: dict[str, Any] = ({"ruled_out": ruled_out} if ruled_out else {}) | ({"beside_yours": beside} if beside else {})
    adapters = _adapters(w, rec)
    if adapters is not None:
        update["multi_lora"] = adapters
    unit = _rent_unit(w, rec)
    if unit is not None:
        update["rent_unit"] = unit
    return rec.model_copy(update=update) if update else rec


def _rent_unit(w: Workload, rec: Recommendation) -> RentUnit | None:
    """How the plan's card is rented where it is sold only in whole servers and the plan rents part of one."""
    best = rec.best
    if best is None or best.owned or best.owned_gpus or rec.action != "rent":
        return None
    together = best.gpus if w.spec.trains else (best.tp or 1) * best.pp
    return rent_unit(best.gpu, best.gpus, w.region, best.usd_per_hour, together)


def _holds(mem: Any, slots: float) -> bool:
    """The model, its KV cache and the adapters' slots fit each GPU."""
    return bool(mem.fits) and (not slots or mem.per_gpu_total_bytes + slots <= (mem.gpu_capacity_bytes or 0))


def _slots_reason(opt: Option, mem: Any, slots: float) -> None:
    if mem.fits and slots:  # the model fits, the slots do not
        opt.reasons.append(f"the LoRA adapters' slots take {slots / 1e9:,.1f} GB per GPU on top of the model and "
                           "its KV cache: fewer slots (--max-loras) or a larger card")


def _adapter_slot_bytes(w: Workload, gpus: int) -> float:
    """Per GPU, the slots vLLM allocates for many LoRA adapters (tools.multi_lora) on a copy of `gpus` GPUs serving
    the workload's users at once; 0 when no adapters were said."""
    if not w.loras or not w.spec.serves:
        return 0.0
    try:
        return multi_lora(MultiLoraInput(model=w.model, loras=w.loras, lora_rank=w.lora_rank or 16,
                                         concurrency=max(1, min(w.users, 4096)), tp=min(gpus, 64))).gpu_slot_bytes
    except (ToolError, ValueError, KeyError):
        return 0.0


def _adapters(w: Workload, rec: Recommendation) -> MultiLoraResult | None:
    """Many LoRA adapters on the plan's model (tools.multi_lora), sized for its copy: its GPUs per copy and the users
    one copy serves at once; None when no adapters were said or the job serves nothing."""
    if not w.loras or not w.spec.serves:
        return None
    best = rec.best
    tp = (best.tp or max(1, best.gpus // max(1, best.replicas))) if best is not None else 1
    in_flight = (best.users_per_replica if best is not None and best.users_per_replica else w.users)
    try:
        return multi_lora(MultiLoraInput(model=w.model, loras=w.loras, lora_rank=w.lora_rank or 16,
                                         concurrency=max(1, min(in_flight, 4096)),
                                         gpu=best.gpu if best is not None else None, tp=min(tp, 64)))
    except (ToolError, ValueError, KeyError):
        return None


def _beside_yours(rec: Recommendation) -> BesideYours | None:
    """Your own cards fall short and the plan rents: a training run cannot span your machines and a cloud's
    (gradients are exchanged every step; over the internet that is far too slow), so it is rented whole and
    your cards stay free for other work; a service can, when the rented cards hold whole copies of the model
    and a load balancer shares the users out (the plan never splits one copy between your cards and theirs)."""
    best, w = rec.best, rec.workload
    if best is None or best.owned or not rec.owned_options or any(o.ok for o in rec.owned_options) \
            or rec.action != "rent" or rec.owned_share is not None or rec.pool_leads:
        return None  # (serving the gap: your cards serve their share, said with the rented rest, never 'rented whole')
    if w.spec.trains:
        return "one_job"
    return "copies" if best.owned_gpus else "whole"


def _under_the_domestic_rule(w: Workload) -> tuple[Workload, list[str]]:
    """Under a domestic-only rule, cards the user owns or named for the job that are not made by a Chinese
    vendor (two 4090s owned, 'on H100s') cannot be used for it: the rule holds, they leave the plan and are
    said back ('Nx id' each), never used or suggested."""
    if not w.domestic_only:
        return w, []

    def allowed(name: str) -> bool:
        if is_custom(re.sub(r"^\s*\d+\s*x\s+", "", name)):  # ('2x custom:…,name=Cambricon MLU370-X8': spaces in it)
            return True  # a card described by its numbers: its maker is not known here
        try:
            return parse_owned(name)[1].domestic_china
        except (ToolError, ValueError):
            return True  # a card the tools cannot read is reported where it is read

    dropped = [n for n in w.owned if not allowed(n)] + [n for n in w.candidates or [] if not allowed(n)]
    if not dropped:
        return w, []
    kept = [n for n in w.candidates or [] if allowed(n)]
    return w.model_copy(update={"owned": [n for n in w.owned if allowed(n)],
                                "candidates": kept or None}), dropped


def _pool_plan(w: Workload, rec: Recommendation) -> PoolResult | None:
    """Serving on cards you own of several kinds, none of which holds the model alone: all of them as one
    pool, llama.cpp's layer split by each card's memory (tools.pool). None for training (a trainer's data or
    tensor parallelism wants cards alike) or when one kind does the job alone."""
    if not (w.spec.serves and not w.spec.trains and not w.spec.batch) or len(w.owned) < 2 \
            or any(o.ok for o in rec.owned_options):
        return None
    try:
        cards = [(n, g.id, g.name) for n, g in (parse_owned(t) for t in w.owned)]
    except (ToolError, ValueError):
        return None
    if any(find_gpu(g).unified_memory for _, g, _ in cards):
        return None  # a Mac is one machine (one_machine): it pools with no card
    fmt = w.serve_precision if w.serve_precision in SMALLER_GGUF else "q4_k_m"
    kv = "q8_0" if any(o.kv_precision for o in rec.owned_options) else None  # llama.cpp's smaller cache, as tried
    try:
        return pool(cards, w.model, fmt, w.context, kv, users=w.users, offload=w.users <= LLAMA_CPP_MAX_USERS)
    except (ToolError, ValueError, KeyError):
        return None


def _offload_leads(w: Workload, rec: Recommendation) -> bool:
    """Whether the model asked with part of it in system RAM is the answer: the RAM said holds it, it runs at
    reading speed, and the alternative is another model, or for a mixture-of-experts model (whose routed experts
    cost RAM bandwidth only for the few a token picks) a file below 4 bits. A dense model's lower-bit file that
    fits the card comes first (all of it at the card's bandwidth)."""
    o = rec.offload
    # one person at home whose card holds the model asked in no file: the split is what the card does with it, at
    # whatever speed and with the RAM it needs said (review CG #9: never a smaller model or rented cards at the head)
    home = o is not None and o.ram_ok is not False and home_short(w, rec)
    # RAM not said: most computers hold a small offload (review N1 #13: 5 GB for gpt-oss-20b on a 3060)
    ram = o is not None and (o.ram_ok or (o.ram_ok is None and o.ram_needed_gb <= TYPICAL_SYSTEM_RAM_GB))
    if o is None or not (ram or home) or (o.decode_tokens_per_s < w.speed_floor and not home):
        return False
    if w.engine not in (None, "llama.cpp"):
        return False  # 'with vllm': the plan is on the engine named (RAM offload here is llama.cpp's)
    if rec.best is None or not rec.best.owned:
        return True  # else a card rented: the user's own computer does it
    key = (rec.relaxed or "").partition("=")[0]
    return key == "model" or (o.mode == "experts" and key in HOME_FORMATS)


def _offload_plan(w: Workload, rec: Recommendation) -> OffloadResult | None:
    """One person's own cards of one kind (not a Mac: its memory is the system's), up to MAX_OFFLOAD_GPUS of them, that
    cannot hold the model asked in its 4-bit file: the same model with part of it in system RAM, llama.cpp's usual
    way (layers, or a MoE model's routed experts; several cards split the card-side layers, -ts), sized for the RAM
    said, with the KV cache type the plan on those cards tried in that file (Q8_0 where it halved it). None when
    the 4-bit file fits the cards (the plan on them holds the model asked in that file: one verdict, never 'fits'
    beside a split of the same file; review CG #9, CE #6) or the job is no chat."""
    # the cards: the ones you own, else the one card named when offload was asked ('换成一张 4090 加 CPU offload')
    one = w.candidates if w.cpu_offload and len(w.candidates or []) == 1 else w.owned or None
    if not (w.spec.serves and not w.spec.trains and not w.spec.batch and one and w.users <= 2):
        return None
    try:
        owned = [parse_owned(text) for text in one]
    except (ToolError, ValueError, KeyError):
        return None
    gpu, count = owned[0][1], sum(n for n, _ in owned)
    if any(g.id != gpu.id for _, g in owned) or count > MAX_OFFLOAD_GPUS or gpu.unified_memory \
            or gpu.segment not in ("consumer", "workstation"):
        return None
    model = resolve_model(w.model)
    asked = w.serve_precision if w.serve_precision in HOME_FORMATS or w.serve_precision in ("q4_k_m", "q5_k_m", "q6_k",
                                                                                               "q8_0") else None
    fmt = asked or ("mxfp4" if model.native_precision == "mxfp4" else "q4_k_m")
    mine = [o for o in rec.owned_options if o.gpu == gpu.id and o.gpus == count and o.precision == fmt
            and (rec.workload is None or rec.workload.model == w.model)]  # the plan on these cards, in that file
    if any(o.ok and o.serves for o in mine):
        return None  # it holds the model whole
    kv = "q8_0" if any(o.kv_precision for o in mine) else None  # the cache type it tried (Q8_0 where that halved it)
    try:
        plan_ = offload(OffloadInput(model=model.id, gpu=gpu.id, gpus=count, precision=fmt, context=w.context,
                                     kv_precision=kv, system_ram_gb=w.system_ram_gb))
    except (ToolError, ValueError, KeyError):
        return None
    if plan_.gpu_layers >= plan_.layers and not plan_.cpu_moe_layers:
        return None  # the whole file fits the card: nothing to offload
    return plan_ if plan_.fits else None


# With a request rate and no output length said: tokens generated per request (a chat answer of a few paragraphs).
RATE_OUTPUT_TOKENS = 256
# Rounds of plan -> time in system -> requests in flight -> plan; the sizing stops when a plan holds what it implies.
RATE_ROUNDS = 4


def reasoning_output(model: str) -> int | None:
    """A reasoning model's typical answer, thinking included (knowledge: R1 and its distills, QwQ); else None."""
    try:
        return resolve_model(model).reasoning_output_tokens
    except (LookupError, ValueError):
        return None


def rate_lengths(w: Workload) -> tuple[int, int, int]:
    """(prompt, output, context) of a request: the stated lengths, else the use case's (knowledge use_cases), else
    the prompt's default and RATE_OUTPUT_TOKENS (a reasoning model: its answer with the thinking, before the use's); the
    context held is prompt + output unless a context was stated."""
    prompt = w.prompt_length()
    use = use_case(w.use_case)
    output = w.output_tokens or reasoning_output(w.model) or (use.output_tokens if use else RATE_OUTPUT_TOKENS)
    context = w.context if "context" not in w.flexible else prompt + output
    return prompt, output, context


def _recommend_rate(w: Workload, with_levers: bool) -> Recommendation:
    """Serving a request rate. First the users at once, as the requests in flight by Little's law (rate x time
    in system, at its 99th percentile): the time in system depends on the plan's speed, so plan and count are
    found together (plan, its first token and per-user speed, the count they imply, plan again; at most
    RATE_ROUNDS rounds). Then, on the cards that plan ranks first, the queueing model (tools.queueing: prefill
    load, the wait before prefill, the p99 first token) sizes the replicas the rate needs; the cheapest of them
    per hour is the plan, sized again on that card and count."""
    rate = w.requests_per_s or 0.0
    prompt, output, context = rate_lengths(w)
    guess = rate * (1.0 + (output - 1) / 30.0)  # a first guess: 1 s to the first token, then 30 tokens/s
    # people said to use it at once ('300 staff at once, 20 QPS at peak'): no more requests than people are in flight
    cap = _people_at_once(w)
    users = min(max(1, poisson_quantile(guess, P99)), cap)
    base = w.model_copy(update={"requests_per_s": None, "context": context, "prompt_tokens": prompt,
                                "output_tokens": output})
    base._rate_per_s = rate
    rec, users = _in_flight(w, base, users, cap, with_levers)
    traffic = traffic_on(rec.best, rate, prompt, output, users, w.ttft_ms)
    limit = _counted_only(w, rec.best)
    if traffic is not None and rec.best is not None and ((w.owned and rec.best.owned) or limit):
        kept = _owned_at_the_rate(w, rec.best, traffic, prompt, output, limit or rec.best.gpus)
        if kept is not None:  # they keep up: the queue-modelled figures on them, never "no layout found"
            rec.best = _fewer_owned_at_the_rate(w, rec, kept.gpus)  # 'how many of ours does it take': the fewest
            traffic = traffic_from(kept, w.ttft_ms)
            # what they sustain, copies at the utilisation cap: the headroom a "yes" on your cards states
            traffic.owned_gpus, traffic.owned_rps = kept.gpus, kept.replicas * kept.replica_capacity_rps * MAX_UTILISATION
            if traffic.ttft_p99_met is False:  # they keep up, but the queue puts the first token past the target
                _misses_at_the_rate(rec.best, traffic)
        _rows_at_the_rate(base, rec, w.ttft_ms)  # the rented rows beside your cards: sized for the rate too
    users_options = list(rec.options)  # the users plan's cards, in its order (a well-sourced one may be shown beside)
    sized = None if w.owned or limit else _rate_sizing(w, rec, prompt, output)
    if sized is None and traffic is not None and not w.owned and not traffic.owned_short \
            and traffic.utilisation is None:
        # the queueing model found no layout on the plan's cards (a tight 8-bit plan on small cards needs more
        # copies than the GPU limit: each copy's KV cache holds few requests): said, never dropped silently
        _unsized_at_the_rate(rec.best, traffic, w.max_gpus or MAX_SERVING_GPUS)
    if sized is not None:
        gpu_id, r, unreachable, passed = sized
        users = max(1, r.replicas * r.concurrency_p99_per_replica)
        pinned = base.model_copy(update={"users": users, "candidates": [f"{r.gpus}x {gpu_id}"]})
        if rec.best is None or rec.best.precision != r.precision:
            # the rate was sized in another format than the users' plan (8-bit copies beside a 4-bit plan): that one
            pinned = pinned.model_copy(update={"serve_precision": r.precision})
        again = _laid_out_as_sized(w, pinned, gpu_id, r, with_levers)
        if again.best is not None:
            rec = again
            rec.levers = levers_at_the_rate(w, rec.levers, lambda v: _recommend_rate(v, with_levers=False))
        traffic = traffic_from(r, w.ttft_ms)
        traffic.ttft_unreachable = unreachable
        traffic.ttft_typical = held_typical(w, r.ttft_percentile)
        speed_costs(w if with_levers else None, rec.best, traffic, MAX_UTILISATION,
                    lambda v: _recommend_rate(v, with_levers=False))
        _eight_bit_beside(w, traffic, gpu_id, r, prompt, output, None if unreachable else w.ttft_ms)
        if unreachable and rec.best is not None:
            _misses_at_the_rate(rec.best, traffic)
        _rows_at_the_rate(base, rec, None if unreachable else w.ttft_ms)
        _well_sourced_beside(w, base, rec, users_options, prompt, output, None if unreachable else w.ttft_ms)
        _passed_over_beside(base, rec, users_options, passed, None if unreachable else w.ttft_ms)
    _budget_kept(w, rec)
    grown = _grown_for_the_rate(w, base, rec, prompt, output) if traffic is not None and not limit else None
    if grown is not None:  # cards added beside yours: as many as the queueing model says the rate needs
        users, traffic = _take_grown(w, base, rec, *grown)
    if rec.owned_share is not None and rec.owned_users:
        users -= rec.owned_users  # your cards serve part of the requests in flight: the plan's cards the rest, so
        # the headline's two counts add up to the requests in flight (review O3 #18: 2619 + 8357 said for 8357)
    users = _capped_at_the_people(rec, traffic, cap, users)
    rec.workload = w.model_copy(update={"users": users, "context": context, "prompt_tokens": prompt,
                                        "output_tokens": output})
    rec.traffic = traffic
    if rec.best is not None and traffic is not None:
        _at_the_rate(rec.best, rec.workload, traffic)
    return rec


def _in_flight(w: Workload, base: Workload, users: int, cap: int, with_levers: bool) -> tuple[Recommendation, int]:
    """(the plan, the requests in flight it holds) found together: plan, its first token and per-user speed, the
    count they imply at the rate, plan again (at most RATE_ROUNDS rounds); your cards keep their format
    (_format_given_up)."""
    rate, output = base._rate_per_s, base.output_tokens or RATE_OUTPUT_TOKENS
    earlier: tuple[Recommendation, int] | None = None
    for _ in range(RATE_ROUNDS):
        rec = recommend(base.model_copy(update={"users": users}), with_levers)
        if earlier is not None and _format_given_up(w, earlier[0].best, rec.best):
            return earlier  # your cards in their format: the queueing model then says what they sustain
        earlier = (rec, users)
        best = rec.best
        if best is None or best.decode_tokens_per_s is None or best.ttft_s is None:
            break
        needed = max(1, poisson_quantile(rate * (best.ttft_s + (output - 1) / best.decode_tokens_per_s), P99))
        needed = min(needed, cap)
        if needed <= users:
            break
        users = needed
    assert earlier is not None
    return earlier


def _format_given_up(w: Workload, before: Option | None, after: Option | None) -> bool:
    """Your cards' plan that held the model in its format (the one asked, else the checkpoint's own) and drops to
    fewer bits only because the next round of the rate's sizing puts more requests in flight (review BO #1: R1 in
    FP8 on 2 x 8 H100 at 15 requests/s became 'int4, 72 H100'): the requests in flight at a rate are the queueing
    model's to size on your cards (_owned_at_the_rate: memory and compute), so the format stays and the answer
    says what your cards sustain in it, then how many more the rate takes."""
    return bool(w.owned and w.serve_precision is None and before is not None and after is not None
                and before.owned and after.owned and before.ok and before.gpu == after.gpu
                and before.precision and after.precision and before.precision != after.precision
                and weight_bits(after.precision) < weight_bits(before.precision))


def _at_the_rate(best: Option, w: Workload, traffic: Traffic) -> None:
    """The plan's figures at the rate: its end-to-end time against a target, then its one per-user speed."""
    if w.e2e_ms is not None:
        _e2e_at_the_rate(best, w, traffic)
    if traffic.utilisation is not None:
        at_load(best, traffic.tpot_p50_s, traffic.requests_per_s, traffic.output_tokens)


def at_load(o: Option, tpot_s: float | None, rate: float, output: int) -> None:
    """A plan sized for a request rate states one per-user speed: the queueing model's median time per output
    token at that load (decode slowed by the prompts prefilled beside it, tools.queueing), never the bare decode
    speed of a full batch beside it (review P1 E2: 45 tokens/s per user next to a token every 40 ms). Its
    tokens/s in all are what the rate generates: requests/s x output tokens."""
    if not tpot_s or not math.isfinite(tpot_s):
        return
    o.tpot_s = tpot_s
    o.decode_tokens_per_s = 1 / tpot_s
    o.aggregate_tokens_per_s = rate * output
    o.at_load = True


def _train_then_serve_rate(w: Workload, with_levers: bool) -> Recommendation | None:
    """Fine-tune, then serve a request rate ('lora qwen3 8b and serve it, 5 rps at peak'): the serving half is
    the rate's plan (Little's law and the queueing model, as for serving alone), never one user; the fine-tuning
    run is sized on its own and rented by the hour (or run on your cards) beside it (review O1 #17). None when
    either half has no plan (then the one-box plan answers, with its reasons)."""
    serving = _recommend_rate(w.model_copy(update={"phase": "serve"}), with_levers)
    train = _recommend(w.model_copy(update={"phase": "fine-tune", "requests_per_s": None}), with_levers=False)
    run = train.best
    if serving.best is None or run is None or run.training_hours is None:
        return None
    rate_w = serving.workload.model_copy(update={"phase": w.phase})
    rate_w._rate_per_s = w.requests_per_s or 0.0
    return serving.model_copy(update={
        "workload": rate_w, "training_run": run, "scenario": "small-team",
        "assumptions": [*serving.assumptions, *[a for a in train.assumptions if a not in serving.assumptions]],
        "warnings": [*serving.warnings, *[x for x in train.warnings if x not in serving.warnings]]})


def _laid_out_as_sized(w: Workload, pinned: Workload, gpu_id: str, r: RateResult, with_levers: bool) -> Recommendation:
    """The plan on the card and count the queueing model sized for the rate (`pinned`: that count as the only
    candidate, with the users in flight it implies)."""
    again = recommend(pinned, with_levers)
    # the same count split otherwise (10 x TP2 over PCIe where the queueing model sized 20 single-card copies: tensor
    # parallelism for a model one card holds) is laid out as sized too
    if again.best is None or again.best.gpus != r.gpus or again.best.replicas != r.replicas:
        # a count no single copy uses whole (5 cards), or one the users-based ranking set aside (over a budget:
        # a smaller count then holds the requests in memory only): the replicas the queueing model sized, laid
        # out as such. The plan is that layout when it meets every requirement, or when the other plan has
        # fewer cards than the rate needs (then the layout's row says what it misses: never a plan that holds
        # the requests in memory but not their prefill and decode)
        engine: Engine = r.engine
        layout = Layout(tp=r.tp, pp=r.pp, replicas=r.replicas, users_per_replica=r.concurrency_p99_per_replica,
                        dp_attention=r.dp_attention > 1,  # the rate's DP+EP copies stay so
                        engine=engine, precision=r.precision,
                        kv_precision=again.best.kv_precision if again.best is not None else None)
        laid = evaluate(pinned, find_gpu(gpu_id), r.gpus, layout=layout)
        fewer = again.best is None or again.best.gpus < r.gpus
        if laid is None and fewer and again.best is not None:
            _short_of_the_rate(again.best, w.requests_per_s or 0.0, r.gpus)
        if laid is not None and (laid.ok or fewer):
            rb = rent_or_buy_of(pinned, laid)
            again.best, again.rent_or_buy, again.action = laid, rb, _action(pinned, laid, rb)
            again.options = [laid, *again.options]
            if again.better is not None and _better_why(pinned, laid, again.action) in (None, "grey"):
                # the better card was named against the plan before it was laid out as copies (its memory
                # then too tight): the copies are no longer a reason, and that card was never sized for the rate
                # (nor a card sold in China beside a grey-market one: 128 × L20 against 26 × L40S, review CF #9)
                again.better, again.better_why = None, None
    return again


def _eight_bit_beside(w: Workload, traffic: Traffic, gpu_id: str, r: RateResult, prompt: int, output: int,
                      ttft_ms: float | None) -> None:
    """A 4-bit format asked for at a rate: the same card in its own 8-bit format, said when the rate needs fewer
    cards in it (4-bit weights unpack to 16 bits for prefill, which a rate of long prompts is bound by)."""
    if w.serve_precision not in FOUR_BIT:
        return
    gpu = find_gpu(gpu_id)
    own = serving_precision(w.model_copy(update={"serve_precision": None}), resolve_model(w.model), gpu)
    if own in FOUR_BIT or own == r.precision:
        return
    probe = Option(gpu=gpu.id, gpu_name=gpu.name, gpus=1, owned=False, capacity_bytes=0, headroom_fraction=0,
                   ok=True, precision=own, engine=r.engine)
    found = _rate_sized(w, [probe], prompt, output, ttft_ms, _queue_e2e_ms(w))
    if found and found[0][3].gpus < r.gpus:
        traffic.fewer_precision, traffic.fewer_gpus = own, found[0][3].gpus


def _short_of_the_rate(o: Option, rate: float, needed: int) -> None:
    """A plan of fewer cards than the queueing model needs for the rate: its row says it misses the rate."""
    _misses_rate(o, f"{o.gpus} x {o.gpu_name} hold the requests in memory, but {rate:g} requests/s need {needed} of "
                    "them to keep up with prefill and decode")


def _misses_rate(o: Option, reason: str) -> None:
    """The row misses the request rate, for the reason given (never 'meets' beside it)."""
    o.meets["rate"] = False
    o.ok = False
    o.reasons.append(reason)
    if o.chosen_because == "meets":
        o.chosen_because = None


def _e2e_at_the_rate(best: Option, w: Workload, traffic: Traffic) -> None:
    """The plan's whole answer against the end-to-end target at the rate: the queue-modelled first token at the
    percentile said, then each output token at its tail time (the median one for a median target); with no
    queue figures the plan's no-queue time stands."""
    pct = w.ttft_percentile or P99
    tpot = traffic.tpot_p50_s if pct <= 0.5 else swing_tpot(traffic.tpot_p99_s) if traffic.tpot_p99_s else None
    if traffic.ttft_q_s is None or tpot is None or not math.isfinite(traffic.ttft_q_s):
        return
    _end_to_end(best, w, traffic.ttft_q_s, tpot, f"p{pct * 100:.10g}")
    best.e2e_percentile = pct
    if not best.meets["e2e"]:
        best.ok = False
        stream_bound(best, w, traffic)
        if best.chosen_because == "meets":
            best.chosen_because = None


# Cards the plan ranks first that the rate is sized on with the queueing model.
RATE_CARDS = 3


def rate_option(w: Workload, gpu_id: str, precision: str | None = None, kv_precision: str | None = None,
                engine: str | None = None, ttft_ms: float | None = None, fallback: bool = False) -> Option | None:
    """One card sized for a request rate (w.requests_per_s, or the rate a rate plan's workload carries): the
    copies the queueing model needs on it in that format (each copy's prefill and decode load below its
    capacity, the first-token target `ttft_ms` held), laid out as such and evaluated against the other
    requirements (a budget, a speed); None when no layout
    sustains the rate within the GPU limit (`fallback`: then sized again without the first-token target)."""
    rate = w.requests_per_s or w._rate_per_s
    if not rate or not w.spec.serves:
        return None
    prompt, output, context = rate_lengths(w)
    base = w.model_copy(update={"requests_per_s": None, "context": context, "prompt_tokens": prompt,
                                "output_tokens": output})
    base._rate_per_s = rate
    gpu = find_gpu(gpu_id)
    precision = precision or serving_precision(base, resolve_model(w.model), gpu)
    probe = Option(gpu=gpu.id, gpu_name=gpu.name, gpus=1, owned=False, capacity_bytes=0, headroom_fraction=0,
                   ok=True, precision=precision, kv_precision=kv_precision, engine=engine)
    rated = w.model_copy(update={"requests_per_s": rate})
    found = _rate_sized(rated, [probe], prompt, output, ttft_ms, _queue_e2e_ms(w))
    if not found and _queue_e2e_ms(w) is not None:  # the end-to-end target out of reach on this card: its row says so
        found = _rate_sized(rated, [probe], prompt, output, ttft_ms)
    if not found and fallback and ttft_ms is not None:
        found = _rate_sized(rated, [probe], prompt, output, None)
    if not found:
        return None
    r = found[0][3]
    layout = Layout(tp=r.tp, pp=r.pp, replicas=r.replicas, users_per_replica=r.concurrency_p99_per_replica,
                    dp_attention=r.dp_attention > 1,  # the rate's DP+EP copies stay so
                    engine="sglang" if engine == "sglang" else "vllm", precision=r.precision,
                    kv_precision=kv_precision)
    pinned = base.model_copy(update={"users": max(1, r.replicas * r.concurrency_p99_per_replica),
                                     "candidates": [f"{r.gpus}x {gpu.id}"]})
    o = evaluate(pinned, gpu, r.gpus, layout=layout)  # may miss another requirement (a budget): said in its row
    if o is not None:
        at_load(o, r.tpot_p50_s, rate, output)  # its row's speed is the one at the rate, as the plan's is
    return o


def _unsized_at_the_rate(best: Option | None, traffic: Traffic, max_gpus: int) -> None:
    """The queueing model places the rate on no layout of the plan's cards: said (traffic.queue_unsized), and the
    row a rented or bought plan is misses the rate, so one reply never says "meets" beside "the queue is not
    checked" (review T2 #1)."""
    traffic.queue_unsized = True
    if best is None or best.owned:
        return
    _misses_rate(best, f"{traffic.requests_per_s:g} requests/s: the queueing model finds no layout of {best.gpu_name} "
                       f"within {max_gpus} GPUs and the targets")


# No cap on the requests in flight when no count of people at once was said.
NO_CAP = 10**9


def _implied_by_users(w: Workload, rec: Recommendation) -> PrefillLoad | None:
    """Users said to be at once with their prompt length said: the request rate their streams imply and the share of
    the plan's copies' time its prompts take (tools.prefill_load); returned when that share binds, else None."""
    best = rec.best
    if not (w.spec.serves and not w.spec.trains and w.prompt_tokens and w.users > LLAMA_CPP_MAX_USERS
            and not (w.requests_per_s or w._rate_per_s)
            and _people_at_once(w) == w.users and best is not None and best.ttft_s and best.decode_tokens_per_s):
        return None
    _prompt, output, _context = rate_lengths(w)
    # the streams write at the per-user speed said (what they were sized for), else the plan's: a faster plan
    # would end each stream sooner, not make the users ask more often
    load = prefill_load(w.users, w.prompt_length(), output, best.ttft_s, w.min_tokens_per_s or best.decode_tokens_per_s,
                        best.replicas, resolve_model(w.model).active_params_b, best.gpus, best.gpu_name)
    return load if load.binds else None


def _people_at_once(w: Workload) -> int:
    """The people said to use it at once ('300 staff at once, 20 QPS at peak'): no more requests than that are in
    flight; NO_CAP when none were said (a population or the default)."""
    return w.users if w.users > 1 and "users" not in w.flexible and w.population is None else NO_CAP


def _capped_at_the_people(rec: Recommendation, traffic: Traffic | None, cap: int, users: int) -> int:
    """The requests in flight the plan holds: fewer people said at once than the rate puts in flight ('300 staff
    at once, 20 QPS') hold no more requests than people, said (Traffic.users_cap); else `users`."""
    if cap >= NO_CAP or traffic is None or rec.owned_users \
            or max(traffic.users_sized, poisson_quantile(traffic.in_flight, P99)) <= cap:
        return users
    traffic.users_cap, traffic.users_sized = cap, cap
    return min(users, cap)


def _misses_at_the_rate(best: Option, traffic: Traffic) -> None:
    """The plan of a rate no layout of its cards holds within the first-token target: its row and the layouts
    tried say they miss it (the queue-modelled first token, never the no-queue one, decides), so one reply never
    says both "target met" and "no layout meets it"."""
    best.meets["latency"] = False
    best.ok = False
    if traffic.ttft_q_s is not None and traffic.ttft_target_ms:
        pct = f"p{traffic.ttft_percentile * 100:.10g}"
        best.reasons.append(f"{pct} first token {traffic.ttft_q_s * 1000:,.0f} ms at {traffic.requests_per_s:g} "
                            f"requests/s with the queue, over the {traffic.ttft_target_ms:,.0f} ms target")
    for t in best.layouts_tried:
        t.ok = False
    if best.chosen_because == "meets":
        best.chosen_because = None


def _counted_only(w: Workload, best: Option | None) -> int | None:
    """The count of the plan's card the user limited the choice to ('2 nodes 8x A100, enough?': only 16 x A100),
    else None."""
    for entry in (w.candidates or []) if best is not None else []:
        if re.match(r"^\s*\d", entry):
            count, gpu = parse_owned(entry)
            if best is not None and gpu.id == best.gpu:
                return count
    return None


def _fewer_owned_at_the_rate(w: Workload, rec: Recommendation, gpus: int) -> Option:
    """Cards you own as a ceiling (Workload.fewest_owned) at a request rate: the plan on the fewest of them the
    queueing model says sustain it (review AP E3 with its prompts' rate, tools.prefill_load); the plan on all of
    them when that count holds no layout that meets the targets."""
    best = rec.best
    assert best is not None
    if not w.fewest_owned or gpus >= best.gpus:
        return best
    fewer = scaled_option(w, find_gpu(best.gpu), count=gpus, owned=True)
    if fewer is None or not fewer.ok:
        return best
    rec.options = [fewer, *(o for o in rec.options if o is not best)]
    return fewer


def _owned_at_the_rate(w: Workload, mine: Option, traffic: Traffic, prompt: int, output: int,
                       have: int) -> RateResult | None:
    """Cards you own (or the count you limited the choice to) serving a request rate: the queueing model on them
    (tools.queueing, their format, at most `have` cards). When no layout of them sustains the rate with each copy below MAX_UTILISATION of
    its capacity (prefill and decode of every request), the traffic says so: what they sustain, and the cards of
    that kind the rate needs (never "it fits" on memory alone). When they sustain it: the queueing model's figures
    on them, laid out as the plan's copies where those sustain it (else the fewest copies that do)."""
    if not mine.precision:
        return None
    args = {"model": w.model, "gpu": mine.gpu, "precision": rate_precision(w, mine.gpu, mine.precision, mine.engine),
            "kv_precision": mine.kv_precision,
            "requests_per_s": traffic.requests_per_s, "prompt_tokens": prompt, "output_tokens": output,
            "ttft_percentile": w.ttft_percentile or P99, "server_gpus": w.server_gpus or SERVER_GPUS,
            "engine": "sglang" if mine.engine == "sglang" else "vllm",
            **w.queue_speed_targets()}  # a product's speed floor too
    copies = max(1, mine.replicas)
    unit = mine.gpus // copies
    tp = mine.tp or max(1, unit // max(1, mine.pp))
    laid_out = {"tp": tp, "pp": mine.pp, "replicas": copies} if copies * unit <= have and tp * mine.pp == unit else {}
    for target in (w.ttft_ms, None):
        # (cards you own as a ceiling: the fewest copies that sustain it first, Workload.fewest_owned)
        for layout in (([{}, laid_out] if w.fewest_owned else [laid_out, {}]) if laid_out else [{}]):
            try:
                # the cards you own sustain it (the first-token target said against it as before)
                return size_by_rate(RateInput(**args, **layout, ttft_target_ms=target, max_gpus=have))
            except (ToolError, ValueError):
                continue
    need = None
    for target in (w.ttft_ms, None):
        try:
            # how many of your card the rate takes, as far as a fleet grows (never "no count I size" at 129)
            need = size_by_rate(RateInput(**args, ttft_target_ms=target, max_gpus=w.max_gpus or GROW_FOR_RATE_MAX_GPUS))
            break
        except (ToolError, ValueError):
            continue
    traffic.owned_short = True
    traffic.owned_gpus = have
    mine.meets["rate"] = False  # its row says it misses the rate (it holds the requests in memory only)
    mine.ok = False
    for t in mine.layouts_tried:
        t.ok = False
    if mine.chosen_because == "meets":
        mine.chosen_because = None
    if need is not None:
        # copies of the unit the rate takes; cards fewer than one such copy sustain their share of it (compute scales)
        share = have // need.unit_gpus or have / need.unit_gpus
        traffic.owned_rps = share * need.replica_capacity_rps * MAX_UTILISATION
        traffic.needed_gpus, traffic.needed_replicas, traffic.needed_unit = need.gpus, need.replicas, need.unit_gpus
    fp8_on_owned(traffic, args, have, w.ttft_ms, w.max_gpus or GROW_FOR_RATE_MAX_GPUS)
    return None


# A fleet in production grown for its request rate is sized up to this many cards of its kind (a new plan stops at
# MAX_SERVING_GPUS and lets other cards compete; a fleet you run says how many more of its own card the rate takes).
GROW_FOR_RATE_MAX_GPUS = 1024


def _take_grown(w: Workload, base: Workload, rec: Recommendation, o: Option, r: RateResult) -> tuple[int, Traffic]:
    """The plan becomes your cards grown for the rate: its row replaces the one it grew from, the rent-or-buy
    figures follow it, the other rows are sized for the rate too; (users in flight, traffic) of the sizing."""
    old, rec.best = rec.best, o
    rec.options = [o if x is old else x for x in rec.options]
    rec.rent_or_buy = rent_or_buy_of(base, o)
    _rows_at_the_rate(base, rec, w.ttft_ms)  # the other cards in the table: sized for the rate as well
    return max(1, r.replicas * r.concurrency_p99_per_replica), traffic_from(r, w.ttft_ms)


def _grown_for_the_rate(w: Workload, base: Workload, rec: Recommendation, prompt: int,
                        output: int) -> tuple[Option, RateResult] | None:
    """Cards you own that fall short of a request rate, with more of the same card added beside them (review O3
    #18, O1 #16: '8x H100 in prod, 500 rps, enough?'): the added count is what the queueing model says the rate
    needs on that card in the plan's format (prefill of every prompt and decode of every token, each copy below
    its utilisation cap, the latency targets and a product's speed floor held), never what holds the requests in
    memory alone. Your cards hold whole copies, the added ones the rest. None when the plan does not add to your
    cards, or when the added count it has already meets the rate."""
    b = rec.best
    if b is None or b.owned or not b.owned_gpus or not b.precision:
        return None
    gpu = find_gpu(b.gpu)
    args = {"model": w.model, "gpu": gpu.id, "precision": rate_precision(w, gpu.id, b.precision, b.engine),
            "kv_precision": b.kv_precision,
            "engine": "sglang" if b.engine == "sglang" else "vllm", "requests_per_s": w.requests_per_s or 0.0,
            "prompt_tokens": prompt, "output_tokens": output, "ttft_percentile": w.ttft_percentile or P99,
            **w.queue_speed_targets(), "e2e_p99_ms": _queue_e2e_ms(w),
            "max_gpus": w.max_gpus or GROW_FOR_RATE_MAX_GPUS, "server_gpus": w.server_gpus or SERVER_GPUS}
    r = None
    for target in (w.ttft_ms, None):
        try:
            r = size_by_rate(RateInput(**args, ttft_target_ms=target))
            break
        except (ToolError, ValueError):
            continue
    if r is None or r.gpus <= b.gpus:
        return None
    mine = b.owned_gpus
    if mine % r.unit_gpus:
        return None  # your cards would not hold whole copies of that size: the plan as found stands
    layout = Layout(tp=r.tp, pp=r.pp, replicas=r.replicas, users_per_replica=r.concurrency_p99_per_replica,
                    dp_attention=r.dp_attention > 1,  # the rate's DP+EP copies stay so
                    engine="sglang" if b.engine == "sglang" else "vllm", precision=r.precision,
                    kv_precision=b.kv_precision)
    total = max(r.gpus, mine)
    pinned = base.model_copy(update={"users": max(1, r.replicas * r.concurrency_p99_per_replica)})
    o = evaluate(pinned, gpu, total, layout=layout)
    if o is None:
        return None
    o.owned, o.owned_gpus, o.layouts_tried, o.chosen_because = False, mine, [], None
    _price(o, base, gpu, owned=False)
    o.ok = o.ok and all(o.meets.values())
    return o, r


def short_of_rate(w: Workload, gpu: Gpu) -> Option | None:
    """A card no layout of which sustains the request rate within the GPU limit: its one-group row, marked as
    falling short of the rate (said, never dropped)."""
    o = evaluate(w.model_copy(update={"requests_per_s": None}), gpu, 1)
    if o is None:
        return None
    rate = w.requests_per_s or w._rate_per_s
    o.ok = False
    o.reasons = [f"no layout of up to {w.max_gpus or MAX_SERVING_GPUS} x {gpu.name} sustains {rate:g} requests/s"]
    return o


def _rows_at_the_rate(base: Workload, rec: Recommendation, ttft_ms: float | None) -> None:
    """Every row beside the plan of a rate (the other options, the better card named against cards the user
    limited the choice to) sized for the rate as the plan was (rate_option); a row no layout sustains is
    dropped, and one card's rows collapse into its one sized row. A row sized for the users in flight alone
    (one card at 50 requests a second) is never shown beside the plan."""
    best = rec.best
    rows: list[Option] = [best] if best is not None else []
    for o in rec.options:
        if o is best:
            continue
        if o.owned:
            rows.append(o)
            continue
        if any(x.gpu == o.gpu and not x.owned for x in rows) or not o.precision:
            continue
        sized = rate_option(base, o.gpu, o.precision, o.kv_precision, o.engine, ttft_ms)
        if sized is not None:
            rows.append(sized)
    rec.options = rows if best is not None and best in rec.options else [o for o in rows if o is not best]
    if rec.better is not None and not rec.better.owned:
        b = rec.better
        rec.better = rate_option(base, b.gpu, b.precision, b.kv_precision, b.engine, ttft_ms)
        if rec.better is None:
            rec.better_why = None


# Well-sourced cards (in the users plan's order) sized at the rate beside a plan on a card priced from few offers.
WELL_SOURCED_TRIES = 3


def _well_sourced_beside(w: Workload, base: Workload, rec: Recommendation, options: list[Option], prompt: int,
                         output: int, ttft_ms: float | None) -> None:
    """A rate plan on a card whose price rests on few offers (rules.few_offers_below; not a price the user was
    quoted, nor a cloud they named): the cheapest card priced from many offers (rules.well_sourced_offers), of the
    first WELL_SOURCED_TRIES the users plan ranks, sized for the rate as the plan was and shown beside it (issue 23:
    a single-offer price never stands alone). Nothing when such a row is already there."""
    best = rec.best
    if best is None or best.owned or not few_offers(best.price_offers) or cloud_named(w):
        return
    well_from = rules().well_sourced_offers
    if any(o.gpu != best.gpu and (o.price_offers or 0) >= well_from and o.ok for o in rec.options):
        return
    tries: list[Option] = []
    for o in options:
        if o.ok and not o.owned and o.gpu != best.gpu and (o.price_offers or 0) >= well_from \
                and all(t.gpu != o.gpu for t in tries):
            tries.append(o)
    found = _rate_sized(w, tries[:WELL_SOURCED_TRIES], prompt, output, ttft_ms, _queue_e2e_ms(w), cards=WELL_SOURCED_TRIES)
    if not found:
        return
    gpu_id = min(found, key=lambda x: x[:3])[2]
    o = next(t for t in tries if t.gpu == gpu_id)
    row = rate_option(base, gpu_id, o.precision, o.kv_precision, o.engine, ttft_ms)
    if row is not None:
        rec.options = [x for x in rec.options if x.gpu != gpu_id or x.owned] + [row]


def _passed_over_beside(base: Workload, rec: Recommendation, options: list[Option], passed: str | None,
                        ttft_ms: float | None) -> None:
    """The cheaper card a rate plan passed over (doubly_unsure: priced from few offers and warned about), sized
    for the rate and shown beside the plan with its caveats: never dropped silently."""
    o = next((x for x in options if x.gpu == passed and not x.owned), None)
    if o is None or any(x.gpu == passed for x in rec.options):
        return
    row = rate_option(base, o.gpu, o.precision, o.kv_precision, o.engine, ttft_ms)
    if row is not None:
        rec.options = [*rec.options, row]


def _well_sourced_tried(w: Workload, options: list[Option], found: list[tuple[float, int, str, RateResult]],
                        prompt: int, output: int, ttft_ms: float | None) -> list[tuple[float, int, str, RateResult]]:
    """The cheapest of the cards tried for a rate is priced from few offers (not quoted to the user, no cloud named):
    the first WELL_SOURCED_TRIES cards of the users plan priced from many offers are sized for the rate too and
    compete for the plan at their prices (review T3 #7: 7 x MI300X at one offer's price led, while 5 x B200, cheaper
    than the single offer once its spread and software risk count, was only shown beside it)."""
    if not found or cloud_named(w):
        return []
    cheapest = min(found, key=lambda x: x[:3])[2]
    quote = try_price(cheapest, w.region)
    if quote is None or not few_offers(quote.samples) or quoted(w, cheapest) is not None:
        return []
    well_from, tried = rules().well_sourced_offers, {x[2] for x in found}
    tries: list[Option] = []
    for o in options:
        if o.ok and not o.owned and o.gpu not in tried and (o.price_offers or 0) >= well_from \
                and all(t.gpu != o.gpu for t in tries):
            tries.append(o)
    return _rate_sized(w, tries[:WELL_SOURCED_TRIES], prompt, output, ttft_ms, _queue_e2e_ms(w), cards=WELL_SOURCED_TRIES)


def _rate_sizing(w: Workload, rec: Recommendation, prompt: int,
                 output: int) -> tuple[str, RateResult, bool, str | None] | None:
    """On the first RATE_CARDS cards of a users-based plan, the replicas a rate needs (tools.queueing, in the
    option's format; vLLM unless SGLang was named): (card, sizing, unreachable, the cheaper card passed over) of the
    cheapest per hour, else None. A first-token
    target no layout of these cards reaches (the longest prompts alone take longer to prefill) is then left out:
    the rate is sized without it, and the plan's first token is said against it (Traffic.ttft_p99_met False)."""
    # a first-token target: every card of the plan sized for it, the cheapest that meets it wins (review O1 #1: a card
    # outside the first few can meet it for less)
    found = _rate_sized(w, rec.options, prompt, output, w.ttft_ms, _queue_e2e_ms(w),
                        cards=len(rec.options) if w.ttft_ms is not None else RATE_CARDS)
    if not found and (w.ttft_ms is not None or _queue_e2e_ms(w) is not None):
        # none of the first cards reaches the target: the other cards of the plan may (a 2k prompt ranks the users
        # plan's cards differently from a 4k one, and the card that meets the target can fall below the first few)
        found = _rate_sized(w, rec.options, prompt, output, w.ttft_ms, _queue_e2e_ms(w), cards=len(rec.options))
    if not found and w.ttft_ms is not None and w.max_gpus is None:
        # the target is out of reach only within a new plan's usual GPU limit (50 requests/s of Mixtral on L40S at a
        # p95 of 1 s): more copies, each less loaded, meet it; those, never a plan that misses the target (review X E4)
        found = _rate_sized(w, rec.options, prompt, output, w.ttft_ms, _queue_e2e_ms(w), cards=len(rec.options),
                            max_gpus=GROW_FOR_RATE_MAX_GPUS)
    if not found and _queue_e2e_ms(w) is not None:  # the end-to-end target out of reach: the plan says it misses it
        found = _rate_sized(w, rec.options, prompt, output, w.ttft_ms)
    if not found and (typical := typical_request(w)) is not None:  # '首字延迟 2 秒以内': the typical request's
        found = _rate_sized(typical, rec.options, prompt, output, w.ttft_ms, cards=len(rec.options))
    unreachable = not found and w.ttft_ms is not None
    if unreachable:
        found = _rate_sized(w, rec.options, prompt, output, None)
    if not found:
        return None
    found += _well_sourced_tried(w, rec.options, found, prompt, output, None if unreachable else w.ttft_ms)
    if _rent_over_budget(w, min(found, key=lambda x: x[:3])[0]):
        # the cheapest of the first cards misses the monthly budget: every card of the plan is sized for the rate, so
        # a cheaper one that meets it is found (review T1 #14: 9 x A800 over a ¥20k budget that 10 x 4090 meet)
        every = _rate_sized(w, rec.options, prompt, output, None if unreachable else w.ttft_ms,
                            None if unreachable else _queue_e2e_ms(w), cards=len(rec.options)) or found
        within = [f for f in every if not _rent_over_budget(w, f[0])]
        # within the budget, a card the answer does not warn against first (consumer cards for a service come after)
        sound = [f for f in within if not any(o.avoid for o in rec.options if o.gpu == f[2])]
        found = sound or within or every
    # a card the answer does not warn against leads whenever one meets the rate (review AD C4: 20 x RTX 4090 headlined
    # for a service while the reply warned against consumer cards and its own table had 3 x H800 for less)
    found = [f for f in found if not any(o.avoid for o in rec.options if o.gpu == f[2])] or found
    if w.preference == "buy":
        found = _bought_first(w, found)
    _, _, gpu_id, r = min(found, key=lambda x: x[:3])
    # a card cheaper at its listed price that the doubts put behind (doubly_unsure): shown beside the plan
    listed = {g: (q.usd_per_gpu_hour_typical * x.gpus, n) for _p, n, g, x in found
              for q in [try_price(g, w.region)] if q is not None}
    cheapest = min(listed, key=lambda g: listed[g], default=gpu_id)
    return gpu_id, r, unreachable, (cheapest if cheapest != gpu_id else None)


def _budget_kept(w: Workload, rec: Recommendation) -> None:
    """Cards the user did not name, taken because they keep the monthly budget: the better card named beside them
    is the one over budget, said as such (better_why 'budget'), never 'the cards you chose'."""
    b = rec.better
    if not w.candidates and b is not None and b.usd_per_hour and _rent_over_budget(w, b.usd_per_hour):
        rec.better_why = "budget"


def _rent_over_budget(w: Workload, usd_per_hour: float) -> bool:
    """Whether renting at this price for the hours a service runs misses the monthly budget said."""
    return w.budget_usd_per_month is not None and usd_per_hour * service_hours(w) > w.budget_usd_per_month


def _queue_e2e_ms(w: Workload) -> float | None:
    """The end-to-end target the queueing model sizes the copies for: its p99 figure (first token and per-token
    time at their tails) holds any tail percentile said (p90, p95: a margin); a median target is checked after."""
    return w.e2e_ms if w.e2e_ms is not None and (w.ttft_percentile or P99) > 0.5 else None


def _rate_formats(w: Workload, o: Option) -> list[str]:
    """The weight formats a card is sized for the rate in: the plan's, and, when no format was said, the card's
    own default (8-bit, or the checkpoint's) beside a 4-bit plan. A 4-bit plan holds more users per card, but
    4-bit weights unpack to 16 bits for prefill: at a rate the 8-bit copies often need fewer cards (tools.queueing
    decides, on cost)."""
    formats = [o.precision] if o.precision else []
    if w.serve_precision is None and o.precision in FOUR_BIT:
        own = serving_precision(w, resolve_model(w.model), find_gpu(o.gpu))
        if own not in formats:
            formats.append(own)
    at_rate = rate_precision(w, o.gpu, o.precision, o.engine)
    if at_rate not in formats:
        formats.append(at_rate)
    return formats


def rate_precision(w: Workload, gpu_id: str, precision: str | None, engine: str | None) -> str:
    """The 8-bit format a card serves a request rate in: 8 bits on a card without FP8 units but with INT8 tensor
    cores (A800, A100, 910B), no format said, as W8A8 INT8: at a rate the prompts' prefill sets the count, and W8A8
    runs it on the INT8 units (twice BF16's rate) where weight-only int8 unpacks to 16 bits (review W C6: 16 x A800
    for 8 requests/s of a 32B model that 6-8 serve). Any other format as it is."""
    if precision == "int8" and w.serve_precision is None and engine != "llama.cpp" and find_gpu(gpu_id).int8_tops:
        return "w8a8-int8"
    return precision or ""


def _bought_first(w: Workload, found: list[tuple[float, int, str, RateResult]]) -> list[tuple[float, int, str, RateResult]]:
    """Cards to buy for a rate ('how many gpus to buy and what'll it cost', review AJ 11): only those whose purchase is
    on record, so the answer gives the cost; ranked (the first field, as the rank) on the fewest servers, then a card
    the answer does not warn about its software before one it does (a purchase is years of it), then what buying
    costs. None priced: as found (the rent ranks them, the answer asks for a quote)."""
    keyed = []
    for _price, count, gpu_id, r in found:
        gpu = find_gpu(gpu_id)
        buy = purchase_usd(gpu, r.gpus)
        if buy is not None:
            servers = -(-r.gpus // (w.server_gpus or SERVER_GPUS))
            keyed.append(((servers, bool(software_risk_unasked(w, gpu)), buy), count, gpu_id, r))
    keyed.sort(key=lambda x: x[0])
    return [(float(i), count, gpu_id, r) for i, (_key, count, gpu_id, r) in enumerate(keyed)] or found


def _rate_sized(w: Workload, options: list[Option], prompt: int, output: int, ttft_ms: float | None,
                e2e_ms: float | None = None, cards: int = RATE_CARDS,
                max_gpus: int | None = None) -> list[tuple[float, int, str, RateResult]]:
    """(price per hour, GPUs, card, sizing) of the first `cards` cards sized for the rate, each in the cheapest
    of its formats (_rate_formats; at the same price the one with more bits)."""
    found: list[tuple[float, int, str, RateResult]] = []
    seen: list[str] = []
    for o in sorted(options, key=lambda o: not o.ok):
        if o.gpu in seen or len(seen) >= cards or not o.precision or o.owned:
            continue
        seen.append(o.gpu)
        engine = "sglang" if o.engine == "sglang" else "vllm"
        sized: list[tuple[float, int, float, RateResult]] = []
        for fmt in _rate_formats(w, o):
            try:
                r = size_by_rate(RateInput(
                    model=w.model, gpu=o.gpu, precision=fmt, kv_precision=o.kv_precision, engine=engine,
                    requests_per_s=w.requests_per_s or 0.0, prompt_tokens=prompt, output_tokens=output,
                    ttft_target_ms=ttft_ms, ttft_percentile=w.ttft_percentile or P99,
                    **w.queue_speed_targets(), e2e_p99_ms=e2e_ms,
                    max_gpus=max_gpus or w.max_gpus or MAX_SERVING_GPUS, server_gpus=w.server_gpus or SERVER_GPUS))
            except (ToolError, ValueError):
                continue
            quote = try_price(o.gpu, w.region)
            price = quote.usd_per_gpu_hour_typical * r.gpus if quote else math.inf
            if quote and few_offers(quote.samples) and quoted(w, o.gpu) is None and not cloud_named(w):
                price *= 1 + offer_spread().spread  # as cost_score ranks it: one snapshot must beat the spread
            if software_risk_unasked(w, find_gpu(o.gpu)):
                # off CUDA and not named, for a service taking a request rate: its software risk and the margin a
                # warned card must beat, on top of any mark for few offers (review T1 #5, T3 #7: 6 x MI300X on one
                # offer's price led a production service nobody asked AMD for)
                price *= 1 + STACK_PENALTY[find_gpu(o.gpu).stack] + offer_spread().spread
            sized.append((price, r.gpus, -find_precision(fmt).bits_per_weight, r))
        if sized:
            price, gpus, _, r = min(sized, key=lambda x: x[:3])
            found.append((price, gpus, o.gpu, r))
    return found


def _on_your_cards(w: Workload, rec: Recommendation) -> Recommendation | None:
    """Cards you own that fall just short, with a lever on a slot you did not state (3-bit, a shorter
    context): for a few people, use them that way instead of renting or buying. A service for more
    people keeps its quality and rents the gap instead (_serve_the_gap)."""
    if w.spec.serves and w.users > LLAMA_CPP_MAX_USERS:
        return None
    lever = next((lv for lv in rec.levers if lv.option is not None and lv.option.owned and lv.option.ok), None)
    if lever is None or (rec.best is not None and rec.best.owned):
        return None
    key, _, value = lever.change.partition("=")
    # the same adapters trained, on a 4-bit frozen base; or the QLoRA asked with Unsloth's kernels (no framework
    # named): the job as asked, done the way that fits the card you own (review O3 #8)
    base_only = key in BASE_LEVERS and (w.method == "lora" or (w.method == "qlora" and key == "qlora-unsloth"))
    if key not in FREE_LEVERS and not base_only and LEVER_SLOTS.get(key) not in w.flexible:
        return None
    if base_only:
        change: dict[str, Any] = dict(_owned_lever_tries(w))[key]
    else:
        change = FREE_LEVERS.get(key) or (
            {"context": int(value.replace(",", ""))} if key == "context" else {"serve_precision": key})
    mine = _recommend(w.model_copy(update=change), with_levers=False)
    return mine.model_copy(update={"relaxed": lever.change}) if mine.best is not None and mine.best.owned else None


def one_at_home(w: Workload) -> bool:
    """One person serving a model on the one consumer card or Mac they own (a hobbyist), who said neither
    renting nor buying is what they want, nor a speed the model asked for must reach."""
    if not (w.spec.serves and not w.spec.trains and not w.spec.batch and len(w.owned) == 1 and w.users <= 2) \
            or w.preference != "either" or w.min_tokens_per_s is not None:
        return False  # renting or buying said, or a speed asked for: the model asked, on what meets it
    count, gpu = parse_owned(w.owned[0])
    return count == 1 and gpu.segment in ("consumer", "apple")


# The files a smaller model of the family is tried in at home: its usual one, then 4 bits.
FILE_TRIES: tuple[dict[str, Any], ...] = ({"serve_precision": None}, {"serve_precision": "q4_k_m"})


def _smaller_on_your_mac(w: Workload, rec: Recommendation) -> Recommendation | None:
    """One person at home whose Mac cannot hold the model asked for, even in llama.cpp's 3- and 2-bit files: a
    smaller strong model that runs on it at reading speed leads the answer (the owned-card lever found it), and the
    rented plan for the model asked is kept as the alternative, with its price. (A card leads with the model asked,
    part of it in system RAM, and the smaller model as its fallback: tools.home_card; a Mac's memory is the system's,
    so nothing of the model asked runs on it.)"""
    if w.keep_model or not one_at_home(w) or (rec.best is not None and rec.best.owned) \
            or not parse_owned(w.owned[0])[1].unified_memory:
        return None
    if not any(lv.option is not None and lv.option.owned and lv.option.ok and lv.change.startswith("model=")
               for lv in rec.levers):
        return None
    # the largest that runs with room to spare (a file that fills the card leaves no room for the context), in its
    # usual file, else in 4 bits, else (the context assumed, not said) in 4 bits at half the context: the 32B in
    # Q4_K_M at 8k a 4090 runs before a 14B (review BS #14: '换成72B呢' after the 32B led with the 14B)
    shorter: list[dict[str, Any]] = [{"serve_precision": "q4_k_m", "context": w.context // 2}] \
        if "context" in w.flexible and w.context // 2 >= 4096 else []
    tries: list[tuple[str, dict[str, Any]]] = [(m, change) for m in smaller_in_family(w.model, w.line_said)
             for change in [*FILE_TRIES, *shorter]]
    for model, change in tries:
        mine = _recommend(w.model_copy(update={"model": model, **change}), with_levers=False)
        if mine.best is not None and mine.best.owned and mine.best.headroom_fraction >= TIGHT_HEADROOM:
            return mine.model_copy(update={"relaxed": f"model={model}", "instead": rec.best,
                                           "instead_model": rec.model_name})
    return None


def _serve_the_gap(w: Workload, rec: Recommendation) -> Recommendation | None:
    """Rent or buy only the gap: your cards serve the users they can, the rest goes elsewhere, when
    that is clearly cheaper than renting for everyone."""
    if not (w.spec.serves and not w.spec.trains and w.owned and w.users > 1) or any(o.ok for o in rec.owned_options) \
            or (rec.best is not None and rec.best.owned_gpus):
        return None  # (more of your own card beside yours comes before splitting the users over two kinds)
    share = _owned_share(w)
    if share is None or share[1] < max(1, w.users // 10):
        return None
    rest = _recommend(w.model_copy(update={"users": w.users - share[1], "owned": []}), with_levers=False)
    whole = rec.best.usd_per_hour if rec.best is not None else None
    if rest.best is None or rest.best.usd_per_hour is None:
        return None
    if whole is not None and rest.best.usd_per_hour > (1 - SPLIT_SAVING) * whole:
        return None
    return rest.model_copy(update={"owned_share": share[0], "owned_users": share[1], "owned_options": rec.owned_options,
                                   "owned_context": _owned_context(w)})


# The context per conversation is searched in steps of this many tokens.
CONTEXT_STEP = 1024


def _owned_context(w: Workload) -> int | None:
    """The longest context per conversation (in CONTEXT_STEP tokens, at least CONTEXT_STEP) at which the cards you
    own serve every user at once within every target, by bisection; None when not even the shortest does."""
    step = last_step(lambda n: any(o.ok for o in _owned_options(w.model_copy(update={"context": n * CONTEXT_STEP}))),
                     1, w.context // CONTEXT_STEP - 1)
    return None if step is None else step * CONTEXT_STEP


def _in_four_bit(w: Workload, rec: Recommendation) -> Recommendation | None:
    """The user named no format: when nothing meets the requirements in 8-bit, 4-bit weights are the
    usual way to meet them (the guide's quantization lever), so plan on them and say so. Not when the
    user asked for the checkpoint's own weights ('precision' not flexible)."""
    if rec.best is not None or w.serve_precision is not None or not rec.precision or rec.precision in FOUR_BIT \
            or rec.owned_options or (w.flexible and "precision" not in w.flexible):
        return None
    if _cheapest_taken(w, rec) not in (None, "int4"):
        return None  # a cheaper storage lever meets everything (an FP8 KV cache): _with_a_lever takes it
    four = _recommend(w.model_copy(update={"serve_precision": "int4"}), with_levers=False)
    others = [x for x in rec.levers if x.change != "int4"]
    return four.model_copy(update={"relaxed": "int4", "levers": others}) if four.best is not None else None


def _cheapest_taken(w: Workload, rec: Recommendation) -> str | None:
    """The code of the cheapest lever that meets everything within the budget and that the plan may take
    without asking (4-bit weights, an FP8 KV cache: tools.levers.takeable); rec.levers is ranked by cost."""
    for lever in rec.levers:
        if lever.within_budget and lever.option is not None and (lever.change == "int4" or takeable(lever.change, w)):
            return lever.change
    return None


def _one_server_in_four_bit(w: Workload, rec: Recommendation) -> Recommendation | None:
    """The plan rents or buys copies beyond one server only to stay in 8 bits, with no format stated:
    4-bit weights on one copy, when they do the job for less, are the guide's cheaper lever (the
    several-server plan is for a format you asked for, or users one server cannot hold in any format)."""
    best = rec.best
    if best is None or best.owned or best.owned_gpus or best.tp is None or (best.servers or 1) <= 1 \
            or w.serve_precision is not None or not rec.precision \
            or rec.precision in FOUR_BIT or (w.flexible and "precision" not in w.flexible) \
            or f"{best.gpus}x {best.gpu}" in pinned_cards(w):  # 'would two 8x H100 servers do?': those servers, as asked
        return None
    four = _recommend(w.model_copy(update={"serve_precision": "int4"}), with_levers=False)
    if four.best is None or four.best.tp is not None or cost_score(four.best, w) >= cost_score(best, w):
        return None
    return four.model_copy(update={"relaxed": "int4", "taken_because": "cheaper"})


def one_card_bought_with_qlora(w: Workload, rec: Recommendation) -> Recommendation | None:
    from gpu_advisor.tools.one_card_buy import one_card_bought_with_qlora as taken  # (tools/one_card_buy.py)

    return taken(w, rec)


def _the_count_named_on_a_4bit_base(w: Workload, rec: Recommendation) -> Recommendation | None:
    """'can i finetune gpt-oss-20b on a single 24gb card? … lora': a model that ships in 4 bits (gpt-oss in MXFP4),
    whose LoRA as asked takes more of the card than named on a 16-bit base, and the same adapters on a 4-bit frozen base (QLoRA, then QLoRA with Unsloth's kernels, no
    framework named) fit the count named: that is the plan, said as the change taken (review T3 #15: 'No', then
    'Rent 4 x 4090', while Unsloth's 4-bit path fits the one card in 15 GB)."""
    best = rec.best
    pinned = [parse_owned(name)[0] for name in w.candidates or [] if re.match(r"\s*\d", name)]
    if best is None or best.owned or len(pinned) != 1 or best.gpus <= pinned[0] or not w.spec.trains \
            or w.method != "lora" or w.framework is not None or w.spec.serves \
            or resolve_model(w.model).native_precision not in FOUR_BIT:
        return None  # (a model shipped in 16 bits: QLoRA is another method, the answer on that card stays no)
    for key, change in (("qlora", {"method": "qlora"}), ("qlora-unsloth", {"method": "qlora", "framework": "unsloth"})):
        variant = _recommend(w.model_copy(update=change), with_levers=False)
        if variant.best is not None and variant.best.ok and variant.best.gpus <= pinned[0]:
            return variant.model_copy(update={"taken_lever": key, "taken_because": "count_named"})
    return None


def _the_count_named_with_kv8(w: Workload, rec: Recommendation) -> Recommendation | None:
    """'serving llama 3.1 8b on one L40S, ~40 concurrent chats': the plan takes more cards than the count named only
    for its 16-bit KV cache; an FP8 KV cache (vLLM --kv-cache-dtype fp8, near-lossless, no format stated) that serves
    the job on the count named is the plan, said as the change taken (review AC E4: 'Rent 2 x L40S', TP over PCIe
    for an 8B, while one card holds it with the cache in FP8)."""
    best = rec.best
    pinned = [parse_owned(name)[0] for name in w.candidates or [] if re.match(r"\s*\d", name)]
    if best is None or best.owned or len(pinned) != 1 or best.gpus <= pinned[0] or not w.spec.serves \
            or w.spec.trains or w.kv_cache is not None or not takeable("kv8", w):
        return None
    kv8 = _recommend(w.model_copy(update={"kv_cache": 8}), with_levers=False)
    if kv8.best is None or not kv8.best.ok or kv8.best.gpus > pinned[0]:
        return None
    return kv8.model_copy(update={"taken_lever": "kv8", "taken_because": "count_kept"})


def _the_count_named_in_four_bit(w: Workload, rec: Recommendation) -> Recommendation | None:
    """'Does Qwen2.5 32B fit on a 4090?': the plan takes more of the card than named only to stay in 8
    bits, with no format stated; 4-bit weights on the count named, when they do the job, answer what was
    asked (the bigger plan stays in the table)."""
    best = rec.best
    pinned = [parse_owned(name)[0] for name in w.candidates or [] if re.match(r"\s*\d", name)]
    if best is None or best.owned or len(pinned) != 1 or best.gpus <= pinned[0] or w.serve_precision is not None \
            or not rec.precision or rec.precision in FOUR_BIT or (w.flexible and "precision" not in w.flexible):
        return None
    four = _recommend(w.model_copy(update={"serve_precision": "int4"}), with_levers=False)
    if four.best is None or four.best.gpus > pinned[0]:
        return None
    return four.model_copy(update={"relaxed": "int4"})


def _with_a_lever(w: Workload, rec: Recommendation) -> Recommendation | None:
    """Nothing meets the requirements as asked, on no card you own: the cheapest lever that meets everything
    and only changes how the model is stored (an FP8 KV cache, with 4-bit weights when no format was said)
    becomes the plan, said as an assumption; the other levers stay listed."""
    if rec.best is not None or rec.owned_options:
        return None
    for lever in rec.levers:
        if not lever.within_budget or lever.option is None or not takeable(lever.change, w):
            continue
        change = dict(serving_lever_tries(w)).get(lever.change)
        if change is None:
            continue
        taken = _recommend(w.model_copy(update=change), with_levers=False)
        if taken.best is None:
            continue
        # the other ways that meet it too, never on cards the answer warns against when the plan is not on such
        others = [x for x in rec.levers if x.change != lever.change
                  and not (x.option is not None and x.option.avoid and not taken.best.avoid)]
        return taken.model_copy(update={"taken_lever": lever.change, "levers": others,
                                        "relaxed": "int4" if change.get("serve_precision") == "int4" else None})
    return None


# A row with this many times the plan's GPUs that misses a target or costs more is no option an expert weighs.
OVERSIZED_FACTOR = 2


def _without_the_oversized(w: Workload, best: Option | None, options: list[Option]) -> list[Option]:
    """A serving plan's rows without those of OVERSIZED_FACTOR or more times the plan's GPUs that miss a target
    or cost more than the plan (8 x H100 short of the target beside 4 x B200 that meets it); cards the user
    named or owns always stay."""
    if best is None or not best.ok or best.owned or not w.spec.serves or w.spec.trains or w.spec.batch:
        return options
    named = {parse_owned(n)[1].id for n in w.candidates or []}
    base = cost_score(best, w, sourced=False)  # a thin offer's mark-up is no reason to hide a cheaper row

    def oversized(o: Option) -> bool:
        return o is not best and not o.owned and o.gpu not in named and o.gpus >= OVERSIZED_FACTOR * best.gpus \
            and (not o.ok or cost_score(o, w, sourced=False) > base)
    return [o for o in options if not oversized(o)]


def _better_why(w: Workload, best: Option, action: str) -> BetterWhy | None:
    """Why the plan on the cards the user named is one to name a better choice beside, as a code: the card
    is a poor training card (only when the job trains), consumer cards for an organisation's service, no
    price on record, too little memory to spare, consumer cards spread over several servers, or a card bought
    in China that official channels there do not sell (the named card stays the plan: china_official_first)."""
    if best.owned:
        return None
    if w.region == "china" and action == "buy" and not w.personal and not officially_sold(find_gpu(best.gpu)):
        return "grey"  # 'L40S要几张' in China: the count asked, and a card sold there with warranty beside it
    if best.avoid:
        return "train" if w.spec.trains and any(a in x for x in best.warnings for a in AVOID) else "service"
    if not (best.usd_per_hour or best.job_usd or best.purchase_usd):
        return "unpriced"
    if best.headroom_fraction < TIGHT_HEADROOM:
        return "tight"
    if small_units_only(find_gpu(best.gpu)) and (best.servers or 1) > 1:
        return "spread"
    return None


def _name_a_better_card(w: Workload, rec: Recommendation) -> Recommendation:
    """The user insists on a card the answer warns against, or one with no price on record: answer with
    it, and name the better (or priced) choice for the same job, among the cards the user left in (a
    domestic-only rule or a vendor ruled out still holds)."""
    best = rec.best
    why = (_better_why(w, best, rec.action) or count_bought_why(w, rec)) \
        if w.candidates and best is not None and not w.only_sourced else None  # (method: the count bought's fallback)
    if best is not None and why is not None:
        # grey: the plans bought on the cards that official channels in China sell, the cheapest of them
        others = {"candidates": None} if why != "grey" else {"preference": "buy", "candidates": [
            g.id for g in gpus() if officially_sold(g) and not _excluded(g, w)]}
        try:
            alt = _recommend(w.model_copy(update=others), with_levers=False)
        except ToolError:  # every other card is ruled out: there is no better one to name
            return rec
        other = alt.best
        if why == "grey":  # of the plans found on cards sold through official channels in China, the cheapest bought
            segment = find_gpu(best.gpu).segment  # like for like: a data-centre card named, a data-centre one back
            sold = [o for o in alt.options if o.ok and not o.owned and not o.avoid and o.purchase_usd  # (alt's own
                    and find_gpu(o.gpu).segment == segment  # candidates are the officially sold cards)
                    and o.gpus <= best.gpus and o.headroom_fraction >= TIGHT_HEADROOM  # no more cards, as roomy
                    # and about as fast for each user as the plan named, or comfortably fast for the job
                    and (o.decode_tokens_per_s or 0) >= min(GREY_SPEED_KEPT * (best.decode_tokens_per_s or 0),
                                                            max(w.speed_floor, COMFORTABLE_TOKENS_PER_S))]
            other = min(sold, key=lambda o: (o.purchase_usd, o.gpus), default=None)
        if other is not None and not other.avoid and not other.owned and (other.gpu, other.gpus) != (best.gpu, best.gpus) \
                and not _excluded(find_gpu(other.gpu), w):
            return rec.model_copy(update={"better": other, "better_why": why})
    return rec


def _training_assumptions(w: Workload, model: Any, training_run: Option | None, best: Option | None) -> list[str]:
    """The assumption line of a training run: what is trained, on how many tokens, and (RL) how rollouts run."""
    out: list[str] = []
    tokens = w.tokens_per_run(model)
    kind = ("continued pretraining from the checkpoint (full, ZeRO-3)" if w.phase == "continued-pretrain"
            else "pretraining (full, ZeRO-3)") if w.spec.pretrains else {
        "full": "full fine-tuning", "lora": "LoRA fine-tuning", "qlora": "QLoRA fine-tuning"}[w.method]
    dpo = " with DPO (chosen and rejected sequences)" if w.objective == "dpo" else ""
    if w.reinforces:
        run = training_run or best
        where = ("on cards of its own" if run is not None and run.rl is not None and run.rl.layout == "split"
                 else "colocated with the trainer")
        out.append(
            f"online RL ({w.rl_algorithm.upper()}): each pass generates {w.rl_prompts:,} prompts x {w.rl_samples} "
            f"completions x {w.rl_completion_tokens:,} tokens with vLLM {where} (prompts of "
            f"{w.rl_prompt_tokens:,} tokens), then trains on the {tokens / 1e6:,.0f}M tokens generated with the "
            "reference model's forward pass for the KL penalty"
            + ("; PPO trains a value model of the same size too" if w.rl_algorithm == "ppo" else "")
            + f"; {kind} on sequences of {w.rl_prompt_tokens + w.rl_completion_tokens:,} tokens; not modelled: a "
            "reward model (a rule or verifier is assumed), the colocated engine's sleep and wake, uneven rollout lengths")
    else:
        out.append(f"{kind}{dpo} on {tokens / 1e6:,.0f}M tokens x {w.epochs:g} epoch(s), "
                           f"sequences of {w.seq_len:,}; sharded with FSDP/ZeRO-3 on several cards")
    return out


def _recommend(w: Workload, with_levers: bool) -> Recommendation:
    model = resolve_model(w.model)  # fail early on an unknown model
    owned, options = options_for(w)
    if not owned and not options:
        raise ToolError("no candidate card could be evaluated for this model")
    best, action, rb = decide(w, owned + options)
    training_run, ranked_for = None, w
    apart = _apart(w, best)
    if apart:
        ranked_for, owned, options, best, action, rb, training_run = apart
    bought, rb = bought_side(w, best, action, rb, lambda v: recommend(v, with_levers=False)) if with_levers \
        else (None, rb)  # rented: buying weighed as the cheapest machine that does the job (tools.bought_side)
    if action == "buy" and not buys_outright(ranked_for):
        ranked_for = as_bought(ranked_for)  # a verdict to buy lists the options by what buying each costs
    options.sort(key=lambda o: _rank_key(o, ranked_for))
    options = _without_the_oversized(ranked_for, best, options)
    spec = w.spec
    assumptions = []
    precision = best.precision if best is not None and best.precision else serving_precision(w, model)
    if spec.serves:
        assumptions.append(f"serving in {precision}, {w.users} concurrent user(s), {w.context:,}-token context")
    if spec.batch:
        assumptions.append(f"batch job: {w.batch_items or 1:,} items x ({w.batch_input_tokens:,} tokens in, "
                           f"{w.written_per_item(model):,} out) with vLLM, up to {BATCH_JOB_CONCURRENCY} sequences in "
                           "flight per copy")
        assumptions += chunk_assumptions(w.chunking(model), model.name)
        if model.encoder:
            assumptions.append(f"{model.name} is an encoder (embedding or reranking): it reads each item once and "
                               f"generates nothing, about 2 x {model.total_params_b * 1e3:,.0f}M parameters FLOPs per "
                               "token read (prefill only)")
    if spec.trains:
        assumptions += _training_assumptions(w, model, training_run, best)
    assumptions.append(f"utilisation {w.utilisation:.0%}; region {w.region}")
    warnings = []
    if training_run is not None and best is not None:
        assumptions.append(f"fine-tuning on {training_run.gpus} x {training_run.gpu_name} rented by the hour, "
                           f"serving on {best.gpus} x {best.gpu_name}")
    if best is None:
        warnings.append("no option meets every requirement: see the reasons and what would change it")
    longest = max(w.context if spec.serves else 0, w.prompt_length() if spec.serves else 0,
                  w.batch_per_item(model)[2] if spec.batch else 0)  # a chunked item: its longest pass
    warnings += context_warnings(model, longest)
    if w.region == "china" and spec.trains and any(o.gpu == "h20" for o in options[:5]):
        warnings += rules().china_caveats[:1]
    levers = _levers(w) if with_levers and best is None else []
    if with_levers and owned and not any(o.ok for o in owned) and (best is None or not best.owned):
        levers = _owned_levers(w) + levers
    if with_levers and not levers:
        levers = _at_the_margin(w, options)
    scenario = {"experiment": "experiment", "production": "production", "train-and-serve": "small-team"}.get(w.phase)
    return Recommendation(workload=w, model_id=model.id, model_name=model.name, chunking=w.chunking(model),
                          vision_params_b=model.vision_params_b, image_tokens=model.image_tokens,
                          image_state_mb=model.recurrent_state_bytes / 1e6 if model.state_kind == "image_cross_attention" else None,
                          precision=precision if spec.serves or spec.batch else None,
                          best=best, action=action, options=options, owned_options=owned, rent_or_buy=rb, bought=bought,
                          levers=levers, scenario=scenario, assumptions=assumptions, warnings=warnings,
                          training_run=training_run, usd_per_cny=rules().usd_per_cny if w.pays_in_yuan else None)
