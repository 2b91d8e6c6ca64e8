"""The profile of a workload (typed), its defaults, and which question to ask next.

Ask only for what is missing and changes the answer, one question per turn, with quick replies and
a "Not sure" that takes a stated default; answer after at most MAX_QUESTIONS questions. The slots,
their defaults and when they matter come from the slot table (assistant/slots.py).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.slots import MAX_QUESTIONS, SLOTS, Question, next_slot, question, relevant
from gpu_advisor.tools.phases import Phase

__all__ = ["MAX_QUESTIONS", "SLOTS", "Profile", "Question", "fill_defaults", "next_question", "question", "relevant"]


class Profile(BaseModel):
    """What the user told us, slot by slot (None: not said). Field names are the slot table's."""

    model_config = ConfigDict(extra="ignore")

    phase: Phase | None = None
    model: str | None = None
    method: Literal["full", "lora", "qlora"] | None = None
    objective: Literal["sft", "dpo", "rl"] | None = None
    rl_algorithm: Literal["grpo", "ppo"] | None = None  # online RL: PPO trains a value model too
    rl_prompts: int | None = Field(None, gt=0)  # prompts in one pass ("10k prompts")
    rl_samples: int | None = Field(None, ge=2, le=1024)  # completions per prompt, the group ("8 rollouts each")
    rl_completion_tokens: int | None = Field(None, gt=0, le=1_000_000)  # tokens per completion
    rl_prompt_tokens: int | None = Field(None, gt=0, le=1_000_000)  # tokens per prompt ("prompt len 1k")
    peak_hours: float | None = Field(None, gt=0, le=24)  # busy hours a day ('9 to 6': 9)
    peak_days: float | None = Field(None, gt=0, le=7)  # days a week with busy hours ('weekdays': 5)
    offpeak_share: float | None = Field(None, ge=0, le=1)  # the quiet hours' load, a share of the busy hour's
    rl_layout: Literal["colocate", "split"] | None = None  # rollouts on their own cards, or on the trainer's
    rl_rollout_gpus: int | None = Field(None, gt=0, le=1024)  # split: cards for the rollout engine ("4 for rollouts")
    rl_steps: int | None = Field(None, ge=1, le=10_000_000)  # steps whose time is asked ("how long per 1000 steps")
    rl_run_steps: int | None = Field(None, ge=1, le=10_000_000)  # the run in steps ("~2000 steps"): its time and price
    rl_prompts_per_step: int | None = Field(None, ge=1, le=1_000_000)  # prompts a step ("batch size 256 prompts")
    rl_reward_model: str | None = None  # a reward model scoring the rollouts ("rm用7b的"): a catalog id or a size
    rl_critic_model: str | None = None  # PPO's critic when said; None: the policy's size
    rl_pipelined: bool | None = None  # split: rollouts of the next step during the update ("async", "异步")
    framework: str | None = None  # a tools.training preset id: unsloth, torchtune, llama-factory, ...
    mixed_precision: bool | None = None  # full fine-tuning: False "pure bf16" (8 B/param), True mixed (16 B/param)
    engine: Literal["vllm", "sglang", "llama.cpp"] | None = None  # the serving engine named
    engine_app: Literal["ollama", "lm-studio"] | None = None  # an app named that runs llama.cpp ("with ollama")
    qlora_base: Literal[8, 4, 2] | None = None  # bits of QLoRA's frozen base ("qlora with an 8-bit base")
    precision: str | None = None
    kv_cache: Literal[8, 4] | None = None  # bits of the KV cache the user asked for ("fp8 kv cache")
    batch_items: int | None = Field(None, gt=0)
    batch_input_tokens: int | None = Field(None, gt=0)
    batch_output_tokens: int | None = Field(None, ge=0)  # 0: nothing generated (embedding, scoring)
    context: int | None = Field(None, gt=0)
    population: int | None = Field(None, gt=0)  # people who use it, not at once ("our 800 employees")
    population_daily: bool | None = None  # the population counted a day ("2k daily users"): a smaller share at once
    population_monthly: bool | None = None  # counted a month ("5k monthly users"): a day's share of them, said so
    # people at once said as a range, [low, high] or [low, None] for "100+": users is then sized at a
    # stated point of it (assistant.slots), an assumption the user sees and can change
    users_range: tuple[int, int | None] | None = None
    users: int | None = Field(None, gt=0)
    # the groups by job that users or population adds up to ('3 ml engineers and 10 PMs': (('engineer', 3),
    # ('product_manager', 10))): a later '30 PMs, not 10' puts one right (assistant/user_groups.py)
    user_groups: tuple[tuple[str, int], ...] | None = None
    utilisation: float | None = Field(None, gt=0, le=1)
    uptime: float | None = Field(None, gt=0, le=100)  # an availability target in percent ("99.9% uptime")
    redundancy: Literal["n+1", "two-sites"] | None = None  # "N+1", "two data centers": billed in the budget check
    train_tokens: float | None = Field(None, gt=0)
    runs_per_month: float | None = Field(None, gt=0, le=744)  # a job that repeats: 30 nightly
    train_examples: int | None = Field(None, gt=0)  # "50k tickets": a later "each is 1500 tokens" recounts the tokens
    epochs: float | None = Field(None, gt=0, le=1000)
    seq_len: int | None = Field(None, ge=16, le=1_048_576)  # training sequence length ("examples of 1k tokens")
    deadline_hours: float | None = Field(None, gt=0)
    go_live_hours: float | None = Field(None, gt=0)  # "need it live by end of month": rent first when buying is slower
    ttft_ms: float | None = Field(None, gt=0)
    ttft_percentile: float | None = Field(None, ge=0.5, le=0.999)  # "p90 TTFT under 1 s": 0.9
    tpot_percentile: float | None = Field(None, ge=0.5, le=0.999)  # "p99 每token不超过50ms": 0.99 (min_tokens_per_s: its mean)
    e2e_ms: float | None = Field(None, gt=0)  # "p95 e2e < 8 s": the whole answer back, at ttft_percentile
    prompt_tokens: int | None = Field(None, gt=0)
    images_per_request: int | None = Field(None, gt=0, le=64)  # "one scanned page per request" (vision models)
    min_tokens_per_s: float | None = Field(None, gt=0)
    line_said: str | None = None  # the model named before a size only another line has ('换成72B' after Qwen3 32B)
    rate_day_hours: float | None = Field(None, gt=0, le=24)  # a day's volume spread over these hours (24, or 8 at work)
    items_per_day: int | None = Field(None, gt=0)  # a service's items a day (reading.item_volume, assistant.day_items)
    requests_per_s: float | None = Field(None, gt=0, le=1_000_000)  # "20 requests per second", "峰值QPS 50"
    output_tokens: int | None = Field(None, gt=0)  # tokens generated per request when serving ("200 output tokens")
    region: Literal["global", "us", "eu", "china"] | None = None
    currency: Literal["USD", "CNY"] | None = None
    budget_usd_per_month: float | None = Field(None, gt=0)
    budget_per: Literal["hour", "day"] | None = None  # the monthly budget said by the hour or the day ('$3/hr')
    budget_usd: float | None = Field(None, gt=0)
    electricity_usd_per_kwh: float | None = Field(None, ge=0, le=10)  # "$0.15/kWh", "电费每度0.8元"
    hosting_usd_per_month: float | None = Field(None, gt=0, le=10_000_000)  # "colo is 2k a month", "托管费每月2000"
    horizon_months: int | None = Field(None, gt=0, le=120)  # how long the cards are kept ("用两年", "over 2 years")
    owned: list[str] | None = None
    network: Literal["fast", "slow"] | None = None  # between the servers you own ("IB互联", "over InfiniBand")
    network_gbit: float | None = Field(None, gt=0, le=3200)  # its speed when said ("100G ethernet", "万兆")
    server_gpus: int | None = Field(None, gt=0, le=16)  # GPUs in each server ("two 8xH100 nodes": 8)
    exclude: list[str] | None = None
    only: list[str] | None = None  # the cards the user limits the choice to ("on 4090s only")
    only_sourced: bool | None = None  # "只能买到H20": those cards are all they can get, no other named as better
    only_bought: bool | None = None  # "买两张4090还是租": those cards, at the count said, weighed for buying (tools.count_bought)
    cheapest: bool | None = None  # "cheapest way to get it done", "最省钱的方案": the least paid plan that does the job
    has_host: bool | None = None  # a computer to put bought cards in ("for my home PC")
    preference: Literal["rent", "buy", "either"] | None = None
    product: bool | None = None  # a product people use (customer-facing chat, a public API): a speed floor
    use_case: str | None = None  # what it serves ("coding assistant", "知识库问答"): a row of knowledge use_cases
    personal: bool | None = None  # one person's own use ("just me", "自己用"): one user, no utilisation asked
    fewest_owned: bool | None = None  # 'how many of our GPUs does it eat', '有一半在训练': owned cards a ceiling
    owned_busy: float | None = Field(None, ge=0, lt=1)  # 'half of them train': that share of the owned cards is busy
    used_ok: bool | None = None  # "used is fine", "二手也行": a purchase priced used where a sourced used price exists
    budget_leeway: float | None = None  # percent over a budget said approximately that counts as within
    used_cards: list[str] | None = None  # the named cards said used ('二手3090还是4090'): only those priced used
    buy_count: int | None = Field(None, ge=1, le=16)  # "想买两张卡", "buy two cards": the plan is that many cards bought
    cpu_offload: bool | None = None  # "加 CPU offload": part of the model in system RAM asked (tools.offload)
    system_ram_gb: float | None = Field(None, gt=0, le=16384)  # "64gb ram": llama.cpp CPU offload sized for it
    loras: int | None = Field(None, ge=1, le=100_000)  # "50 customer-specific LoRAs": adapters on one base (tools.multi_lora)
    lora_rank: int | None = Field(None, ge=1, le=512)  # "rank 16", "秩64": the adapters' rank
    encoder_job: Literal["embed", "rerank"] | None = None  # "embed 10M documents", "reranker 200 QPS", "向量化"
    candidates_per_query: int | None = Field(None, ge=1, le=10_000)  # a reranking query's candidates ("50 candidates")
    shared_prefix_tokens: int | None = Field(None, gt=0, le=10_000_000)  # "all requests share a 3k token system prompt"
    prefix_hit_rate: float | None = Field(None, ge=0, le=1)  # "hit rate 70%": of that shared prefix
    speculative: Literal["draft", "eagle3", "mtp", "auto"] | None = None  # "with speculative decoding", "用MTP"
    draft_model: str | None = None  # "llama 3.1 8b as the draft", "用X做草稿模型": the draft, a catalog id


    @field_validator("users_range")
    @classmethod
    def _a_range(cls, value: tuple[int, int | None] | None) -> tuple[int, int | None] | None:
        if value is not None and (value[0] < 1 or (value[1] is not None and value[1] <= value[0])):
            raise ValueError("a range of people at once runs from 1 up")
        return value


def next_question(profile: Profile, defaulted: dict[str, str], asked: list[str], lang: str = "en",
                  request: tuple[str, ...] | list[str] = ()) -> Question | None:
    slot = next_slot(profile.model_dump(), defaulted, asked, request)
    return question(slot, lang) if slot else None


# Slots whose default the user's settings file may set (tui/settings.py: region, currency).
SETTABLE = ("region", "currency")


def fill_defaults(profile: Profile, defaulted: dict[str, str], lang: str = "en",
                  settings: dict[str, Any] | None = None) -> tuple[Profile, dict[str, str]]:
    """Every missing slot that matters and has a default takes it (the user's setting first, for the
    SETTABLE slots); the returned mapping says which, in words of the conversation's language."""
    values: dict[str, Any] = {}
    data = profile.model_dump()
    notes = {slot: words for slot, words in defaulted.items()}
    own = {k: v for k, v in (settings or {}).items() if k in SETTABLE and v and v != SLOTS[k].default}
    for name, value in own.items():
        if data.get(name) is None:
            values[name] = data[name] = value
            notes[name] = say(lang, f"slot.{name}.default_setting", value=say(lang, f"{name}.{value}"))
    for name, slot in SLOTS.items():
        if name in own:
            continue
        value = slot.default_for(data, lang)
        if data.get(name) is None and value is not None and slot.matters(data):
            values[name] = value
            notes[name] = slot.default_words(lang, data)
            data[name] = value
    for name in notes:  # restate earlier defaults in today's language (a value assumed otherwise keeps its words:
        # "does it fit?" sized for one person, not the table's default)
        if name in SLOTS and name not in values and name not in own \
                and data.get(name) == SLOTS[name].default_for({**data, **values}, lang):
            notes[name] = SLOTS[name].default_words(lang, {**data, **values})
    return profile.model_copy(update=values), notes
