"""The LangGraph advisor: understand the message -> route (a pure function of state) -> one reply.

Every turn ends with exactly one AIMessage. Clarifying questions are ordinary AI messages that end
the turn (no interrupt), so any chat front-end that only sends user messages works. Structured data
for rich front-ends rides in `additional_kwargs["gpu_advisor"]`. Replies are written in the user's
language (the catalogs in assistant/catalog/), with the same figures in every language.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage, ToolMessage
from pydantic import BaseModel, ValidationError
from typing_extensions import TypedDict

from gpu_advisor.assistant import advice, writers
from gpu_advisor.assistant.api_model import api_served
from gpu_advisor.assistant.api_paid import API_KEYS
from gpu_advisor.assistant.asked_more import with_asked_more
from gpu_advisor.assistant.budget_largest import budget_followed, budget_intents
from gpu_advisor.assistant.card_pick import with_pick
from gpu_advisor.assistant.catalog import catalog, detect, say
from gpu_advisor.assistant.compare_kept import keep_compared
from gpu_advisor.assistant.completion_latency import with_completion
from gpu_advisor.assistant.concept_example import card_example
from gpu_advisor.assistant.considered import with_considered
from gpu_advisor.assistant.context_beyond import context_beyond
from gpu_advisor.assistant.count_role import keep_count_role
from gpu_advisor.assistant.count_why import tried_updates, why_first
from gpu_advisor.assistant.day_items import apply_day_items
from gpu_advisor.assistant.day_volume import pack_day_volume
from gpu_advisor.assistant.direct import plan_kept
from gpu_advisor.assistant.encoder_reply import encoder_answer, encoder_decision, encoder_service
from gpu_advisor.assistant.fewer_time import with_fewer
from gpu_advisor.assistant.inferred_busy import inferred_busy
from gpu_advisor.assistant.invalid_values import invalid_lines, refused
from gpu_advisor.assistant.kv_part import with_kv_part
from gpu_advisor.assistant.later_load import now_and_later
from gpu_advisor.assistant.load_scale import load_slot
from gpu_advisor.assistant.long_run_block import long_run_block
from gpu_advisor.assistant.memory_variant import apply_memory_variant
from gpu_advisor.assistant.message_merge import REMOVE_ALL_MESSAGES, add_messages
from gpu_advisor.assistant.method_choice import with_method_choice
from gpu_advisor.assistant.method_fallback import on_fallback, other_weighed
from gpu_advisor.assistant.method_fallback import verdict as fallback_verdict
from gpu_advisor.assistant.mixed_owned import pooled_line, pooled_owned
from gpu_advisor.assistant.model_switch import with_switch
from gpu_advisor.assistant.moe_budget import moe_budget_block
from gpu_advisor.assistant.moe_pair import moe_pair_text
from gpu_advisor.assistant.new_topic import CLEARED, fresh_note, fresh_profile, fresh_reason, loose_model
from gpu_advisor.assistant.own_card_head import own_card_code
from gpu_advisor.assistant.own_or_rent import with_own_or_rent
from gpu_advisor.assistant.owned_consequence import with_consequence
from gpu_advisor.assistant.owned_enough import owned_verdict
from gpu_advisor.assistant.owned_fewer import owned_fewer
from gpu_advisor.assistant.owned_fix import owned_fix_restricts_nothing
from gpu_advisor.assistant.owned_near import leads as near_leads
from gpu_advisor.assistant.owned_slow import counted_owned, with_slow
from gpu_advisor.assistant.owned_split import split_ack, split_owned, split_words
from gpu_advisor.assistant.pairing import (
    also_words,
    pair_headline,
    pair_verdict,
    pair_words,
    place_pair,
    swapped_job,
)
from gpu_advisor.assistant.parallel_follow import par_choice_followed
from gpu_advisor.assistant.period_rate import apply_period_rate
from gpu_advisor.assistant.pinned import pinned_line
from gpu_advisor.assistant.plan_before import plan_before
from gpu_advisor.assistant.plan_follow import distill_to_size, distills_of, kept_example_length, one_of_each
from gpu_advisor.assistant.policy import SLOTS, Profile, Question, fill_defaults, next_question, question
from gpu_advisor.assistant.precision_total import with_total_first
from gpu_advisor.assistant.premise import (
    apply_dropped_phase,
    apply_recount,
    counted,
    drop_stale_limit,
    dropped_line,
    keep_variant,
    switched_line,
)
from gpu_advisor.assistant.rb_plan import plan_follows
from gpu_advisor.assistant.reading import EXAMPLE_TOKENS, Understanding, readable, understand
from gpu_advisor.assistant.reading.card_group import said_as_group
from gpu_advisor.assistant.reading.deadline import span_noted
from gpu_advisor.assistant.reading.families import family_asked, family_size
from gpu_advisor.assistant.reading.generation import missing_size, same_generation
from gpu_advisor.assistant.reading.hybrid import hybrid_name, hybrid_named
from gpu_advisor.assistant.reading.literal import literal_kind, literal_kinds
from gpu_advisor.assistant.reading.money_period import once_said
from gpu_advisor.assistant.reading.multi import added_model, turns_said
from gpu_advisor.assistant.reading.planned_card import apply_planned_card
from gpu_advisor.assistant.reading.referent import referred_model
from gpu_advisor.assistant.reading.relative import said_as_change
from gpu_advisor.assistant.reading.rent_buy_reopened import rent_buy_reopened
from gpu_advisor.assistant.reading.server_price_ask import kept_server_price
from gpu_advisor.assistant.reading.text import INSTRUCTION_TOKENS, word_pattern
from gpu_advisor.assistant.reading.tried import tried_out
from gpu_advisor.assistant.replaced import apply_owned_uncounted, apply_replaced
from gpu_advisor.assistant.reserved_asked import with_reserved
from gpu_advisor.assistant.rl_reward import reward_assumed
from gpu_advisor.assistant.rl_turn import as_rl_figures, method_stale
from gpu_advisor.assistant.said_phase import said_matters
from gpu_advisor.assistant.same_box import with_same_box
from gpu_advisor.assistant.seq_recount import answer_length, recount_by_length
from gpu_advisor.assistant.server_recount import servers_recounted
from gpu_advisor.assistant.side_job import side_training
from gpu_advisor.assistant.slots import personal_machine, use_context
from gpu_advisor.assistant.subsidy_note import with_subsidy
from gpu_advisor.assistant.switched_offload import with_switched
from gpu_advisor.assistant.train_plans import one_verdict
from gpu_advisor.assistant.unknown_first import last_words, with_unknown_first
from gpu_advisor.assistant.user_base import user_base_at_hours
from gpu_advisor.assistant.user_groups import regroup
from gpu_advisor.assistant.users_at_rate import fewer_in_flight, users_said
from gpu_advisor.assistant.variant_switch import apply_variant
from gpu_advisor.assistant.vlm_examples import example_images
from gpu_advisor.assistant.which_kept import which_followed
from gpu_advisor.assistant.worth import plan_example, worth_answer
from gpu_advisor.knowledge import find_gpu, find_model, find_precision, model_index
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.knowledge.resolve import BadValue, moe_base_of_size, normalise
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.phases import PHASES
from gpu_advisor.tools.recommend import FOUR_BIT
from gpu_advisor.tools.scale import SERVER_GPUS

if TYPE_CHECKING:  # a type only: langchain_core.runnables loads its tracers and langsmith
    from langchain_core.runnables import RunnableConfig

# Tokens kept for the reply when a context is sized from a stated prompt length.
REPLY_ROOM = 1024
Route = Literal["ask", "answer", "explain", "reply", "inform", "parts"]
# Understood values are acknowledged in this order: what the model is first, then the slot table's.
# Slots the engine keeps to size with, never said back: what a later turn packs or falls back to (h-read3)
KEPT_UNSAID = ("rate_day_hours", "line_said", "items_per_day", "only_bought", "user_groups", "budget_per")  # (only_bought: the rent-or-buy line says it; budget_per: the budget line)
ACK_ORDER = ("model", *[s for s in SLOTS if s not in ("model", "population_daily", "population_monthly", "use_case", *KEPT_UNSAID)])  # a day's count: said with its population;
# the use ('a coding assistant') is said with the context it sizes (slot.context.default_use_case)
WEEKDAY = re.compile(r"\b(?:(?:by|before|until|till|due|over|on) (?:the |this |next )?)?"
                     r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|next week|tomorrow|tmrw)\b"
                     r"|下?(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]|星期|明天|月底", re.IGNORECASE)


TODAY_BEFORE = re.compile(r"(?:\b(?:today is|today's|it'?s|it is)\s*(?:a\s+)?|今天是?|现在是?)$", re.IGNORECASE)


# A thread keeps the messages of its last WINDOW_TURNS turns, and only the newest answer keeps its tool
# results in its payload (the state's `results` holds them for follow-ups): a turn costs the same at
# message 600 as at message 6, and a checkpoint does not grow with the conversation. The whole
# transcript, every payload included, is the history store's (assistant.session saves each turn).
WINDOW_TURNS = 20


UNREADABLE = "gpu_advisor_unreadable"  # a HumanMessage standing in for one a client sent malformed


UNREADABLE_WORDS = {  # what a malformed message held, in words
    "en": {"dict": "an object", "list": "a list", "nothing": "no content", "NoneType": "no content"},
    "zh": {"dict": "对象", "list": "列表", "nothing": "空内容", "NoneType": "空内容"},
}


# Words that name a GGUF file's bits ("q4", "4-bit", "int4", "f16", "4位"); without them "llama.cpp" or
# "gguf" only implies its usual Q4_K_M.
GGUF_BITS_SAID = re.compile(r"(?<![a-z])q\d|\d\s*-?\s*bits?\b|(?<![a-z])int\d|(?<![a-z])fp\d|(?<![a-z])bf16|(?<![a-z])f16|(?<![a-z])iq\d|位|比特")
# Phases whose counts of things are examples to train on.
TRAINING_PHASES = ("fine-tune", "train-and-serve", "pretrain", "continued-pretrain")
# Slots that choose the cards themselves: a change to them asks for other cards, not whether the same ones fit.
HARDWARE_SLOTS = {"owned", "only", "exclude", "region", "budget_usd", "budget_usd_per_month", "budget_per", "preference", "phase",
                  "server_gpus", "has_host"}
# How the serving engines are written in a reply.
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "llama.cpp": "llama.cpp", "ollama": "ollama", "lm-studio": "LM Studio"}

def _readable_message(item: Any) -> Any:
    """What a client sent, as a message add_messages accepts: a message without text content (none, an
    object) becomes an empty human message that says what was wrong, a bare number its digits, and
    nothing (None) is dropped; the turn then gets a polite reply, never a validation error."""
    from langchain_core.messages import BaseMessage, convert_to_messages

    if item is None or isinstance(item, BaseMessage):
        return item
    if isinstance(item, dict) and isinstance(item.get("content"), int | float) and not isinstance(
            item.get("content"), bool):
        item = {**item, "content": str(item["content"])}
    try:
        convert_to_messages([item])
    except Exception as e:  # noqa: BLE001 - any malformed shape is answered, not raised
        content = item.get("content") if isinstance(item, dict) else None
        kind = type(content).__name__ if content is not None else "nothing"
        if not isinstance(item, dict | str | list | tuple):
            kind = type(item).__name__
        return HumanMessage("", additional_kwargs={UNREADABLE: kind, "error": type(e).__name__})
    return item


def windowed_messages(left: list[AnyMessage], right: list[AnyMessage] | AnyMessage) -> list[AnyMessage]:
    """add_messages, then the window: the last WINDOW_TURNS human turns, tool results on the newest answer only."""
    if isinstance(right, list):
        right = [m for m in (_readable_message(x) for x in right) if m is not None]
    elif not isinstance(right, str):
        right = _readable_message(right) or []
    merged: list[AnyMessage] = add_messages(left, right)
    humans = [i for i, m in enumerate(merged) if isinstance(m, HumanMessage)]
    if len(humans) > WINDOW_TURNS:
        merged = merged[humans[-WINDOW_TURNS]:]
    carrying = [i for i, m in enumerate(merged) if "results" in (m.additional_kwargs.get("gpu_advisor") or {})]
    for i in carrying[:-1]:
        m = merged[i]
        slim = {k: v for k, v in m.additional_kwargs["gpu_advisor"].items() if k != "results"}
        merged[i] = m.model_copy(update={"additional_kwargs": {**m.additional_kwargs, "gpu_advisor": slim}})
    return merged


def window_of(messages: list[AnyMessage]) -> list[AnyMessage]:
    """The messages a driver that keeps the whole transcript passes in: its last WINDOW_TURNS - 1 turns,
    so that with the new message the thread holds WINDOW_TURNS."""
    humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    return messages[humans[-(WINDOW_TURNS - 1)]:] if len(humans) >= WINDOW_TURNS else list(messages)


class AdvisorState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], windowed_messages]
    profile: dict[str, Any]
    defaulted: dict[str, str]
    asked: list[str]
    pending: str | None
    results: dict[str, Any]
    turn: dict[str, Any]
    lang: str
    cards: dict[str, Any]  # cards asked about before the first answer, shown when it comes
    oneshot: bool
    settings: dict[str, Any]  # the user's defaults (region, currency) from their settings file
    unknown_card: dict[str, Any] | None  # an accelerator named without figures: {"name", "mine"}, until they are said
    deferred: list[dict[str, Any]] | dict[str, Any] | None  # turns whose question beside the sizing waits for the plan (Turn.also)
    tool_turns: int  # turns of this thread that showed their tool calls: numbers the calls' ids (front_end)
    quotes: dict[str, Any] | None  # the prices the user gave last ({"prices", "cards", "counts"}), for later rent-or-buy
    rent_quotes: list[dict[str, Any]] | None  # rental prices the user was quoted per card, for every later plan
    parts: list[str] | None  # a compound follow-up's questions, answered one by one (assistant.parts)
    # a second job or model on the plan's cards (assistant.reading.multi, assistant.pairing): not a slot of the
    # workload the cards are sized for, but a second workload checked on them
    also: dict[str, Any] | None
    owned_untyped: int | None  # "we have an 8-gpu box": cards owned, type not said yet; the card named next is theirs
    family: str | None  # a model family asked about ('which Llama?'): a bare size said next is that family's model


class AdvisorInput(TypedDict):
    """What a front-end sends (LangGraph Server's input schema): the new messages."""

    messages: Annotated[list[AnyMessage], windowed_messages]
    oneshot: NotRequired[bool]  # answer at once, every missing value a stated assumption
    settings: NotRequired[dict[str, Any]]  # defaults the user set: {"region": "china", "currency": "CNY"}


class AdvisorOutput(TypedDict, total=False):
    """What a front-end gets back: the messages, and the advisor's payload (the profile it works
    from, the assumptions it made, the open question's slot, the language, the tool results)."""

    messages: Annotated[list[AnyMessage], windowed_messages]
    profile: dict[str, Any]
    defaulted: dict[str, str]
    pending: str | None
    results: dict[str, Any]
    lang: str


class Turn(BaseModel):
    """What this turn's message meant, once checked against the profile."""

    intents: list[str] = []
    topic: str | None = None
    said: list[str] = []  # what was understood, in the user's language
    notes: list[str] = []  # what was assumed, not known, or not modelled, in the user's language
    problems: list[str] = []
    changed: list[str] = []
    compare: list[str] = []
    whatif: tuple[int, str] | None = None
    text_chars: int = 0
    unknown_model: bool = False  # a model named that is not known and has no size: ask, never default it
    read_chars: int = 0  # the characters the readers took (reading.readable)
    # what a question with its own reply is about (assistant.inform): cards, counts said with them,
    # engines, the model a quality question names, the kind of job the tools do not size, the region
    # a price question names, prices given with a rent-or-buy question
    cards: list[str] = []
    counts: dict[str, int] = {}
    engines: list[str] = []
    subject: str | None = None
    scope: str | None = None
    where: str | None = None
    prices: dict[str, float] = {}
    quotes: list[dict[str, Any]] = []  # rental prices quoted per card this turn (reading.quotes)
    also: str | None = None  # a question asked beside the sizing (assistant.inform code): answered after it
    same_hardware: bool = False  # a change asked as a question after a plan: said on that plan's cards too
    servers: int | None = None  # "what if we only had one server?" about a plan on cards not your own
    span_months: int | None = None  # "the total for three months"
    with_spare: bool = False  # "the total including the spare"
    two_sites: bool = False  # "across two AZs", "两个机房": each site carries the whole load
    ask: dict[str, Any] = {}  # what a question about the plan is about (reading.asks): formats, a TP degree, no bridge
    owned_untyped: int | None = None  # "we have an 8-gpu box" this turn: which card is asked, nothing else
    owned_restated: bool = False  # "we have 16 gpus tho": the cards owned said again (their layout answered)
    before: dict[str, Any] = {}  # the profile's values this turn moved, as they were (assistant.plan_before)

    def has(self, intent: str) -> bool:
        return intent in self.intents


def _text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def _payload(kind: str, **extra: Any) -> dict[str, Any]:
    return {"gpu_advisor": {"kind": kind, **extra}}


def _question_payload(q: Question) -> dict[str, Any]:
    return {"slot": q.slot, "choices": [{"label": label, "value": value} for label, value in q.choices]}


def _turn(state: AdvisorState) -> Turn:
    return Turn.model_validate(state.get("turn") or {})


def _lang(state: AdvisorState) -> str:
    return state.get("lang") or "en"


# ---------------------------------------------------------------- describing values


def _yours(cards: list[str], owned: list[str]) -> bool:
    """Whether every card named ('4x rtx-3090', 'rtx-3090') is one you own, as many as you have or fewer."""
    have = {card: n for n, card in map(counted, owned)}
    return all(card in have and n <= have[card] for n, card in map(counted, cards))


def _fewer_than_yours(setup: tuple[int, str], owned: list[str]) -> bool:
    """'2 张 A800 够吗' with four A800s of your own: fewer of your cards than you have, asked about (answered for that
    many, not dropped as the cards you already have)."""
    have = {card: n for n, card in map(counted, owned)}
    return setup[1] in have and 0 < int(setup[0]) < have[setup[1]]


def _added_tried(added: dict[str, int], owned: list[str], results: dict[str, Any]) -> tuple[int, str] | None:
    """'would adding a third 3090 help?': the cards you own (or the plan's) and those added, tried beside the plan
    as one option; nothing is recorded as owned."""
    card, more = next(iter(added.items()))
    have = {c.partition("x ")[2].strip(): int(c.partition("x ")[0]) for c in owned if re.match(r"\d+x ", c)}
    plan = _plan_cards(results)
    base = have.get(card) or (plan[0] if plan and plan[1] == card else 0)
    return (base + more, card)


def _with_added(owned: list[str], added: dict[str, int]) -> list[str]:
    """The owned cards with more of some added: ['1x rtx-4090'] + {rtx-4090: 1} -> ['2x rtx-4090']."""
    out, left = [], dict(added)
    for entry in owned:
        count, _, card = entry.partition("x ")
        out.append(f"{int(count) + left.pop(card.strip(), 0)}x {card.strip()}")
    return out + [f"{n}x {card}" for card, n in left.items()]


def _beyond_a_server(model_id: str | None, precision: str | None, card: str) -> bool:
    """Whether the model's weights alone, in the format stated, need more memory than one server of the card
    (SERVER_GPUS of them): False when no format is stated (a one-card check may then pick a smaller format)."""
    if not model_id or not precision or precision == advice.NATIVE:
        return False
    try:
        model, fmt, gpu = find_model(model_id), find_precision(precision), find_gpu(card)
    except (LookupError, ValueError):
        return False
    return model.total_params_b * fmt.bits_per_weight / 8 > gpu.memory_gb * SERVER_GPUS


def _stated(value: Any) -> bool:
    """Whether a slot's value says something back: an empty list of cards ('only' emptied by a later
    exclusion) is never acknowledged as '只用 。'."""
    return value is not None and value != []


def describe(slot: str, value: Any, lang: str, daily: bool = False, monthly: bool = False) -> str:  # noqa: C901 - one short branch per slot
    """A slot's value in words, for acknowledgements and the 'updated for' line; `daily`: the population was
    counted a day ("2k daily users"), `monthly` a month ("5k monthly users")."""
    if slot == "population_daily":
        return say(lang, "ack.population_daily_kind" if value else "ack.population_staff_kind")
    if slot == "population" and (daily or monthly):
        return say(lang, "ack.population_monthly" if monthly else "ack.population_daily", value=f"{value:,}")
    if slot == "phase":
        return say(lang, f"phase.{value}")
    if slot == "encoder_job":
        return say(lang, f"ack.encoder_job.{value}")
    if slot == "electricity_usd_per_kwh" and value == 0:
        return say(lang, "ack.electricity_included")  # power paid in the hosting fee
    if slot == "model":
        try:
            model = find_model(value)
            if model.family != "generic":
                return model.name
            an = re.match(r"(8|11|18)(\D|$)|8\d(\D|$)", str(value))  # "an 8B", "an 80B", but "a 7B"
            return say(lang, "ack.model_an" if an else "ack.model", value=value)
        except (LookupError, ValueError):
            return str(value)
    if slot == "draft_model":  # 'llama 3.1 8b as the draft': its name
        return say(lang, "ack.draft_model", value=find_model(value).name)
    if slot in ("method", "region", "preference", "network", "redundancy", "speculative"):
        return say(lang, f"ack.{slot}", value=say(lang, f"{slot}.{value}"))
    if slot == "objective":
        return say(lang, "ack.objective") if value == "dpo" else say(lang, "ack.objective_rl") if value == "rl" \
            else say(lang, "slot.objective.default")
    if slot in ("peak_hours", "peak_days"):
        return say(lang, f"ack.{slot}", value=f"{value:g}")
    if slot == "offpeak_share":
        return say(lang, "ack.offpeak_share", value=f"{value:.0%}")
    if slot == "rl_steps" and value == 1:  # 'how long per step': one step's time, never 'the time of 1 steps'
        return say(lang, "ack.rl_step")
    if slot in ("rl_layout", "rl_pipelined", "budget_per"):
        return say(lang, f"ack.{slot}.{str(value).lower()}")
    if slot == "rl_algorithm":
        return say(lang, "ack.rl_algorithm", value=str(value).upper())
    if slot in ("rl_reward_model", "rl_critic_model"):  # a catalog model by its name, a size as said ('7B')
        try:
            return say(lang, f"ack.{slot}", value=find_model(value).name if not str(value)[0].isdigit() else value)
        except (LookupError, ValueError):
            return say(lang, f"ack.{slot}", value=value)
    if slot in ("engine", "engine_app"):
        return say(lang, f"ack.{slot}", value=ENGINE_NAMES.get(str(value), str(value)))
    if slot == "mixed_precision":
        return say(lang, f"ack.mixed_precision.{str(bool(value)).lower()}")
    if slot == "framework":
        from gpu_advisor.knowledge import frameworks

        name = next((f.name for f in frameworks() if f.id == value), str(value))
        return say(lang, "ack.framework", value=name)
    if slot == "precision" and value == "native":
        return say(lang, "ack.precision_native")
    if slot == "precision":
        try:
            name = find_precision(value).name  # "INT4 (flat 4 bits)": the English gloss only in English
            return say(lang, "ack.precision", value=name if lang == "en" else name.split(" (")[0])
        except (LookupError, ValueError):
            return str(value)
    if slot == "personal":
        return say(lang, "ack.personal")
    if slot == "used_ok":
        return say(lang, "ack.used_ok")
    if slot in ("only_sourced", "only_bought"):
        return say(lang, f"ack.{slot}")
    if slot == "used_cards":  # h-used: which of the named cards are bought used
        return say(lang, "ack.used_cards", cards=writers.cards_words([f"1x {g}" for g in value], lang))
    if slot == "budget_leeway":  # h-used: a budget said approximately, or a hard cap
        return say(lang, "ack.budget_leeway" if value else "ack.budget_cap", value=f"{value:g}")
    if slot == "has_host" and value is False:
        return say(lang, "ack.whole_build")
    if slot == "cpu_offload":
        return say(lang, "ack.cpu_offload")
    if slot == "product":
        return say(lang, "ack.product")
    if slot == "use_case":
        return say(lang, f"use_case.{value}")
    if slot == "requests_per_s" and 0 < value < 1:  # '5 per minute not per second': said back per minute
        return say(lang, "ack.requests_per_min", value=f"{value * 60:.3g}")
    if slot == "requests_per_s" and value < 10:  # '每天五万次' sized at 1.74 a second, never '1.73611'
        return say(lang, "ack.requests_per_s", value=f"{value:.3g}")
    if slot in ("utilisation", "prefix_hit_rate"):
        shown = f"{value * 100:.0f}%"
    elif slot in ("budget_usd_per_month", "budget_usd", "hosting_usd_per_month"):
        shown = writers.money(value)
        if lang == "zh":
            from gpu_advisor.knowledge import rules

            shown = f"¥{value / rules().usd_per_cny:,.0f} ({shown})"
    elif slot == "exclude" and len(value) > writers.LISTED_CARDS_MAX:  # '只能用国内能买到的卡': the note below names them
        return say(lang, "ack.exclude_many", n=f"{len(value)}")
    elif slot in ("owned", "exclude", "only"):
        shown = writers.cards_words(value, lang)
    elif slot in ("uptime", "system_ram_gb"):
        shown = f"{value:g}"
    elif slot in ("ttft_percentile", "tpot_percentile"):
        shown = f"p{value * 100:.10g}"
    elif slot == "e2e_ms":
        shown = writers.seconds(value / 1000)
    elif slot == "electricity_usd_per_kwh":
        shown = f"{value:.3g}"
        if lang == "zh":  # '电费0.6元一度' said back in yuan, the dollars beside it
            from gpu_advisor.knowledge import rules

            shown = f"¥{value / rules().usd_per_cny:.3g} (${shown})"
    elif slot == "train_tokens":
        shown = f"{value / 1e6:,.2g}M" if value < 1e7 else f"{value / 1e6:,.0f}M"  # 1.5M, not 2M
    elif slot == "users_range":
        low, high = value
        return say(lang, "ack.users_range" if high else "ack.users_range_open", low=f"{low:,}", high=f"{high or low:,}")
    elif slot == "users" and value == 1:
        return say(lang, "ack.users_one")
    elif slot == "user_groups":  # ('engineer', 3), ('product_manager', 10): the counts, added
        shown = " + ".join(f"{n:,}" for _job, n in value)
    elif isinstance(value, float):
        shown = f"{value:,.0f}" if value >= 10 else f"{value:g}"
    elif isinstance(value, int):
        shown = f"{value:,}"
    else:
        shown = str(value)
    return say(lang, f"ack.{slot}", value=shown)


# ---------------------------------------------------------------- nodes


def _sane(state: AdvisorState) -> dict[str, Any]:
    """The keys of a state sent by any client (LangGraph Server, an import) that do not have the
    shape the engine expects, reset: the turn goes on instead of failing on someone else's data."""
    from gpu_advisor.assistant.catalog import LANGS
    from gpu_advisor.assistant.slots import ASKED
    from gpu_advisor.tools.recommend import Recommendation

    fixes: dict[str, Any] = {}
    try:
        Profile.model_validate(state.get("profile") or {})
    except (ValidationError, TypeError):
        fixes["profile"] = {}
    defaulted = state.get("defaulted") or {}
    if not isinstance(defaulted, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in defaulted.items()):
        fixes["defaulted"] = {}
    asked = state.get("asked") or []
    if not isinstance(asked, list) or not all(isinstance(a, str) and a in ASKED for a in asked):
        fixes["asked"] = []
    if state.get("pending") is not None and state.get("pending") not in ASKED:
        fixes["pending"] = None
    if state.get("lang") is not None and state.get("lang") not in LANGS:
        fixes["lang"] = None
    results = state.get("results") or {}
    try:
        if not isinstance(results, dict) or (results and Recommendation.model_validate(results.get("recommend")) is None):
            fixes["results"] = {}
    except (ValidationError, TypeError):
        fixes["results"] = {}
    if not isinstance(state.get("cards") or {}, dict):
        fixes["cards"] = {}
    if not isinstance(state.get("unknown_card") or {}, dict):
        fixes["unknown_card"] = None
    if not settings_ok(state.get("settings")):
        fixes["settings"] = {}
    try:
        [Turn.model_validate(t) for t in _deferred(state)]
    except (ValidationError, TypeError):
        fixes["deferred"] = None
    quotes = state.get("quotes")
    if quotes is not None and not (isinstance(quotes, dict) and isinstance(quotes.get("prices"), dict)
                                   and all(isinstance(v, (int, float)) for v in quotes["prices"].values())):
        fixes["quotes"] = None
    if not _rent_quotes_ok(state.get("rent_quotes")):
        fixes["rent_quotes"] = None
    return fixes


def _rent_quotes_ok(quotes: Any) -> bool:
    from gpu_advisor.tools.recommend import RentQuote

    if quotes is None:
        return True
    try:
        return isinstance(quotes, list) and all(RentQuote.model_validate(q) is not None for q in quotes)
    except (ValidationError, TypeError):
        return False


def settings_ok(settings: Any) -> bool:
    """Settings a client sent: the SETTABLE slots only, each with a value the profile accepts."""
    from gpu_advisor.assistant.policy import SETTABLE

    if not settings:
        return True
    if not isinstance(settings, dict) or not set(settings) <= set(SETTABLE):
        return False
    try:
        Profile.model_validate(settings)
    except (ValidationError, TypeError):
        return False
    return True


def understand_node(state: AdvisorState) -> dict[str, Any]:
    from gpu_advisor.assistant import parts, two_jobs

    fixes = _sane(state)
    if fixes:
        state = {**state, **fixes}  # type: ignore[typeddict-item]
    try:
        found = two_jobs.pieces(state)  # a compound follow-up, or two questions each with its own model and job
        if found:  # "how many gpu hours is that and why not deepspeed": each question answered in turn (parts_node)
            return {**fixes, **parts.understood(state, found)}
        return {**fixes, **_understand(state), "parts": None}
    except BadValue as e:  # a value no reader caught that the tools reject: said back, the conversation goes on
        return {**fixes, **_refused(state, e), "parts": None}


def _refused(state: AdvisorState, e: BadValue) -> dict[str, Any]:
    """The turn of a message holding a value the tools reject (a negative size): a problem said in the
    user's language, nothing else changed."""
    messages = state.get("messages", [])
    last = messages[-1] if messages else None
    text = _text(last) if isinstance(last, HumanMessage) else ""
    lang = detect(readable(text), state.get("lang"))
    problem = say(lang, f"problem.{e.code}", **e.params) if e.code else writers.localise(lang, str(e))
    return {"lang": lang, "pending": None, "turn": Turn(problems=[problem]).model_dump()}


def parts_node(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    """A compound follow-up: each of its questions read, routed and answered as its own turn, in order."""
    from gpu_advisor.assistant import parts, turn_flow, two_jobs

    nodes = {name: functools.partial(turn_flow.run_node, name) for name in turn_flow.REPLIES if name != "parts"}
    return parts.answer_parts(state, config, nodes, two_jobs.piece_reader(state, understand_node), route)


def _understand(state: AdvisorState) -> dict[str, Any]:  # noqa: C901 - the message's kinds, in the order they win
    messages = state.get("messages", [])
    last = messages[-1] if messages else None
    text = _text(last) if isinstance(last, HumanMessage) else ""
    unreadable = last.additional_kwargs.get(UNREADABLE) if isinstance(last, HumanMessage) else None
    cut = readable(text)
    lang = detect(cut, state.get("lang"))
    pending = state.get("pending")
    u = understand(text, pending)
    par_choice_followed(u, state)  # '8x h100 in each node, 50 ppl' after 'TP or PP across 2 nodes?': on their cards
    if u.ask.get("card_forms") and not u.compare_gpus:
        _forms_before(u, state)
    family = _family_answered(u, state)
    turn = Turn(text_chars=len(text), read_chars=len(cut))
    if unreadable:
        u.intents.discard("empty")
        words = UNREADABLE_WORDS.get(lang, UNREADABLE_WORDS["en"])
        u.problems.append(("unreadable", {"kind": words.get(unreadable, unreadable)}))
    if u.choice is not None and pending:
        _pick_choice(u, pending, lang, turn)
    if "reset" in u.intents:
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *([last] if last else [])],
                "profile": {}, "defaulted": {}, "asked": [], "pending": None, "results": {}, "lang": lang, "deferred": None,
                "also": None, "owned_untyped": None, "family": None,
                "unknown_card": None, "rent_quotes": None,
                "turn": Turn(intents=["reset"]).model_dump()}
    profile = Profile.model_validate(state.get("profile") or {})
    apply_period_rate(u, profile)  # 'no wait, 50k a day' after '500k requests a day': the rate corrected
    kept_server_price(u, text, profile.model_dump())  # '就是问个价格' after a server's price: it again; on a plan, not
    defaulted = dict(state.get("defaulted") or {})
    said = {k: v for k, v in u.updates.items() if k not in u.weak}  # 'let's use X instead': no new job said
    fresh = fresh_reason(text, said, profile, u.intents, state.get("also")) if not u.topic else None
    if fresh:  # "家里想跑个Qwen2.5 14B自己玩" after two 8-GPU servers for 300 people: another job, sized on its own
        turn.notes.append(fresh_note(fresh, profile, u.updates, lang, defaulted))
        u.ask = {**u.ask, "lead": [turn.notes[-1]]}
        if word_pattern("at_home").search(text.lower()):  # one's own use: sized for one, on one's own card
            u.updates.setdefault("personal", True)
        profile, defaulted, pending = fresh_profile(profile, defaulted), {}, None
        state = {**state, **CLEARED, "profile": profile.model_dump(), "defaulted": {}}  # type: ignore[typeddict-item]
    if u.ask.get("planned_card") and profile.owned and "owned" not in u.updates:
        apply_planned_card(u)  # "i'll get a used 3090 instead": the card planned replaces the machine they have
    else:
        u.ask.pop("planned_card", None)
    if u.ask.get("worth") and profile.model:  # 'is fp8 kv cache worth it?' with a plan on screen: its model's figures
        u.ask = {**u.ask, "worth_plan": plan_example(profile)}
    if "method_compare" in u.intents and state.get("results"):  # "what if full fine tune instead of qlora, how much more"
        _compare_as_switch(u, profile)
    updates = {} if u.topic or "best_gpu" in u.intents else _checked_updates(u, lang, turn, text, profile.phase)
    context_beyond(profile, updates, lang, turn.notes)  # 'llama 3 70b at 32k': it reads 8k; 3.1/3.3 read 128k
    pack_day_volume(u, profile, updates, lang, turn.notes)  # '每天一百万token', then '工作时间在用': within those hours
    apply_day_items(profile, updates, lang, turn.notes)  # '每天两万张图片', then '不是聊天，是批量跑的': that many a batch
    if not u.topic:
        apply_recount(u, profile, updates)  # 'scratch that, only 2 of the a100s': the plan's cards, that many now
        apply_memory_variant(u, profile, updates)  # "they're the 80GB ones not 40": that card's 80GB variant
        apply_replaced(u, profile, updates)  # 'sorry, I meant H200s not H100s': the right card in the wrong one's place
        owned_fix_restricts_nothing(u, profile, updates)  # '其实是两张 A100 40G，不是 H100': no rental limit from it
        apply_owned_uncounted(u, profile, updates, lang, turn.notes)  # 'we only have A100s': the count said before
        keep_variant(u, profile, updates)  # 'what about 4 a100s?' after '8x a100 40gb': the 40GB card
        drop_stale_limit(u, profile, updates, text)  # 'and gpt-oss-20b on my 4080?': the old question's cards go
    if _kv_example_followed(u, state, updates):  # "就拿 qwen2.5 7b 来说吧，128k": that model's KV cache, not a plan
        u.intents = (u.intents - {"whatif", "concept", "explain"}) | {"kv_cache"}
        u.ask = {**u.ask, **{k: updates[k] for k in ("model", "context", "users") if k in updates}}
        updates = {}
    if "kv_cache" in u.intents and u.ask.get("model") and not profile.model and "model" not in updates:
        updates["model"] = u.ask["model"]  # "KV cache 占多少？Llama 3.1 70B": the model the next "用 fp8 呢" asks of
    budget_intents(u, profile)  # 'the biggest model for that money' beside a plan's model: the plan's question
    if "this_machine" in u.intents and (profile.owned or profile.only):
        u.intents = u.intents - {"this_machine"}  # '这台机器最多能撑多少人': the machine described (8 × 910B), not this one
    second = None if u.topic else added_model(u, profile.model_dump(), updates) or swapped_job(
        state.get("also"), profile.model_dump(), updates) or turns_said(text, state.get("also"))  # 'one or the other'
    if second and second.get("model") and not _known_model(second["model"]):
        second = None
    unknown_card = _described_card(u, state, updates, lang, turn)
    if u.owned_untyped and u.ask.get("fewer") and len(profile.owned or []) == 1:
        u.owned_untyped = None  # '只给我们两张卡呢': fewer of the cards they own, no new cards of an unsaid type
    if u.owned_untyped and u.owned_untyped == _owned_total(profile.owned):
        u.owned_untyped = None  # 'we have 16 gpus tho': the cards already said (16 × A100 80GB), restated, their type kept
        turn.owned_restated = True
    if u.owned_untyped and u.owned_untyped == _owned_total(updates.get("owned")):
        u.owned_untyped = None  # '其实我有两张' after one RTX 6000 Ada named: this turn's owned cards, their type known
    untyped = _owned_untyped(u, state, updates, turn)
    if set(updates) == {"redundancy"} and state.get("results") and u.intents & {"servers_count", "total_cost"}:
        updates.pop("redundancy")  # "容灾的话需要几台 两个机房": a question about the plan on screen, answered from it
    if _keeps_broader_phase(profile.phase, updates.get("phase"), text):
        updates.pop("phase")
    if updates.get("phase") == "fine-tune" and profile.phase in ("serve", "production") \
            and word_pattern("job_added").search(text.lower()):  # "fine tune it too?": serving stays, training joins
        updates["phase"] = "train-and-serve"
    if updates.get("phase") == "experiment" and profile.phase and pending != "phase" and "model" not in updates:
        updates.pop("phase")  # "偶尔玩玩" answering how busy the cards are: how often, not a new job
    for slot in u.weak:  # "what if we use the A6000s?" after a fine-tuning plan: still fine-tuning
        if getattr(profile, slot, None) is not None:
            updates.pop(slot, None)
    apply_dropped_phase(u, profile, updates)  # '不微调了', 'no fine-tuning': the job that stays, alone
    if updates.get("phase") and profile.phase and updates["phase"] != profile.phase:
        _carry_over(profile, updates, defaulted)
    if updates.get("use_case") not in (None, profile.use_case) and "context" in defaulted and "context" not in updates:
        updates["context"] = None  # "it's a coding assistant": the context assumed before is taken again for that use
        defaulted.pop("context")
    native = _native_four_bit(updates.get("model") or profile.model)
    if native and updates.get("precision") in FOUR_BIT and not profile.precision:
        updates.pop("precision")  # "what about int4?" for gpt-oss: its own MXFP4 already is 4-bit
        turn.notes.append(say(lang, "reply.already_four_bit", precision=native))
    prompt = updates.get("prompt_tokens")
    typical = use_context({**profile.model_dump(), **updates}) or SLOTS["context"].default
    if prompt and "context" not in updates and not profile.context and prompt + REPLY_ROOM > typical:
        # prompts longer than the default context: each conversation holds the prompt and the reply
        updates["context"] = math.ceil((prompt + REPLY_ROOM) / 1024) * 1024
    _context_holds_output(profile, updates, defaulted, turn, lang)
    if ("phase" not in updates and profile.phase is None and (updates.get("model") or profile.model)
            and "method_compare" not in u.intents  # "lora or full finetune gemma 2 9b on 4x v100?": training, not serving
            and (updates.get("only") or updates.get("owned") or u.compare_gpus)
            and (text.rstrip().endswith(("?", "？")) or "fit_check" in u.intents
                 or personal_machine({"owned": updates.get("owned") or profile.owned}))):
        # "gpt-oss-20b on a single rtx 4060 ti?": can it run there; "Gemma 3 27B on my 16GB 4080": run it on
        # the one card or Mac of their own (no training word said)
        updates["phase"] = "serve"
    if updates.get("objective") == "rl" and profile.objective != "rl" and profile.train_tokens \
            and "train_tokens" not in updates:
        # "是GRPO强化学习不是普通sft": online RL trains on what it generates (tools.rl), so the examples counted
        # for supervised fine-tuning become its prompts, and their assumed tokens go
        if "rl_prompts" not in updates and profile.rl_prompts is None:
            updates["rl_prompts"] = max(1, round(profile.train_tokens / (profile.seq_len or EXAMPLE_TOKENS)))
        updates["train_tokens"] = None
    stale = as_rl_figures(profile.objective, updates, u.notes)  # '每条采样8个 回答长度两千token', '数据7500条' in a GRPO run
    turn.notes = [n for n in turn.notes if n not in {say(lang, k, **v) for k, v in stale}]
    if "phase" not in updates and profile.phase in TRAINING_PHASES and "batch_items" in updates:
        # "数据10万条，每条1k token" after a fine-tuning plan: examples to train on, not a batch job's items
        each = updates.pop("batch_input_tokens", None) or updates.get("seq_len")
        items = updates.pop("batch_items")
        updates.pop("batch_output_tokens", None)
        if not each and profile.train_examples and profile.train_tokens:  # "数据改成5万条": at the length said before
            updates["train_examples"] = int(items)
            updates["train_tokens"] = float(items * round(profile.train_tokens / profile.train_examples))
        else:
            updates["train_tokens"] = float(items * (each or EXAMPLE_TOKENS))
            updates["train_examples"] = int(items)  # "大概3000条，每条两三百字": the count said is the examples'
        if each:
            updates["seq_len"] = int(each)
    if pair := answer_length(u, profile, updates, text):  # '1,500' after 'I took the pairs as 1,000 tokens each'
        turn.notes.append(say(lang, "note.dpo_pair_length", each=f"{pair[0]:,}", pair=f"{pair[1]:,}"))
    if profile.phase in TRAINING_PHASES and updates.get("phase", profile.phase) in TRAINING_PHASES \
            and (u.example_tokens or "batch_input_tokens" in updates) and "train_tokens" not in updates \
            and profile.train_examples:
        # "each ticket is more like 1500 tokens" after "50k support tickets": the examples' length, recounted
        each = u.example_tokens or updates.pop("batch_input_tokens")
        updates.pop("batch_input_tokens", None)
        updates.pop("batch_output_tokens", None)
        updates["train_tokens"] = float(profile.train_examples * each)
        updates["seq_len"] = int(each)
    if kept_example_length(u, updates, profile):
        _drop_note(u, turn, "note.example_tokens", lang)  # '50k samples now': at the length said before
    if (images := example_images(u, updates, profile)) is not None:  # a vision model's examples: with their images
        _drop_note(u, turn, "note.example_tokens", lang)
        turn.notes.append(say(lang, images[0], **images[1]))
    _in_this_phase(updates, updates.get("phase", profile.phase))
    recount_by_length(u, profile, updates)  # 'sequences are 4k not 2k': the examples counted before, that long now
    if updates.get("phase", profile.phase) in ("fine-tune", "pretrain", "continued-pretrain") and "context" in updates \
            and "seq_len" not in updates and 16 <= updates["context"] <= 1_048_576:
        # "上下文要8k" in a fine-tuning plan: the length of the sequences trained on (no conversation is served)
        updates["seq_len"] = int(updates.pop("context"))
    mine = {c.partition("x ")[2].strip() for c in profile.owned or []}
    only = updates.get("only") or []
    if len(only) == 1 and not u.whatif_gpus and _fewer_than_yours(counted(only[0]), profile.owned or []):
        # "两张A800够不够" with four of your own: two of yours asked about (a direct answer), your four kept
        u.whatif_gpus = counted(only[0])
        u.intents.add("whatif")
        updates.pop("only")
    if "fit_check" in u.intents and updates.get("only") and all(c in mine for c in updates["only"]):
        updates.pop("only")  # "h20支持吗" about the H20s you own: your cards, all of them, not one
    if updates.get("only") and "owned" not in updates and _yours(updates["only"], profile.owned or []):
        updates.pop("only")  # "四张3090够不够" with four 3090s of your own: your cards, not four more to rent
    if "fit_check" in u.intents and "min_count" not in u.intents and re.search(r"[?？吗]", text) and updates.get("only") \
            and not said_as_group(text):  # '用4090集群可以吗': the class to plan with, never one card (reading.card_group)
        # "does Qwen2.5 32B fit on a 4090?": on one of it first (4-bit when 8-bit would take more cards); not a
        # model whose weights in the format stated outgrow a whole server of that card ("DeepSeek-V3 in bf16 on
        # A800?"): that question is answered across servers (tensor x pipeline parallel), not by forcing 4-bit
        stated = updates.get("precision") or profile.precision
        model = updates.get("model") or profile.model
        updates["only"] = [card if re.match(r"\d", card) or _beyond_a_server(model, stated, card) else f"1x {card}"
                           for card in updates["only"]]
    if updates.get("engine") and updates["engine"] != "llama.cpp":
        if profile.engine_app:
            updates["engine_app"] = None  # "with vllm" after "with ollama": ollama is no longer the engine
        if "precision" not in updates and profile.precision == "q4_k_m" \
                and defaulted.get("precision") == say(lang, "assume.gguf_default"):
            updates["precision"] = None  # the GGUF file assumed for llama.cpp is no file of vLLM's: its own default
    if "users_range" in updates and "users" not in updates:
        updates["users"] = None  # a range said now replaces a number said before: sized at its stated point
    elif "users" in updates and "users_range" not in updates and profile.users_range:
        updates["users_range"] = None  # a number said now replaces the range
    if regrouped := regroup(updates, profile, u.ask):  # '不对，是30个产品经理，不是10个': one group put right, added up again
        turn.notes.append(say(lang, regrouped[0], **regrouped[1]))
    keep_count_role(updates, profile, defaulted, u.ask)  # '50 users not 500': the role of the 500 (assistant.count_role)
    user_base_at_hours(state.get("messages") or [], profile.users, profile.population, updates,
                       lambda said: understand(said, None), _text)  # '用户大概一千人' then '工作时间': who uses it
    if updates.get("population") and "users" not in updates and profile.users is not None \
            and ("whatif" in u.intents or said_as_change(text)):
        updates["users"] = None  # "what if we grow to 2000 DAU": the number at once is estimated from the new population
    elif ("population" in updates or "population_daily" in updates) and "users" not in updates and "users" in defaulted:
        updates["users"] = None  # "actually it's 2000 daily users": the number at once assumed is estimated again
        defaulted.pop("users")
    if updates.get("users") and profile.users and updates["users"] < profile.users and not profile.population \
            and "population" not in updates and word_pattern("people_partitive").search(text.lower()):
        updates["population"] = profile.users  # "only 40 of them at the same time" after "300 doctors": the 300 use it
    population = updates.get("population") or profile.population or (profile.users if profile.users and profile.users > 1 else None)
    if u.online_share and "users" not in updates and population:  # "5% online at peak" after "3000 staff": 150 at once
        updates["users"] = max(1, math.ceil(population * u.online_share / 100 - 1e-9))
        updates.setdefault("population", population)
        turn.notes.append(say(lang, "note.online_share", share=f"{u.online_share:g}", population=f"{population:,.0f}",
                              n=f"{updates['users']:,}"))
    if ("users" in updates or "users_range" in updates) and "phase" not in updates and profile.phase == "fine-tune":
        updates["phase"] = "train-and-serve"  # people using it means it will be served too
        turn.notes.append(say(lang, "reply.users_mean_serving"))
    if u.aside:
        turn.notes.append(writers.glossary_reply(u.aside, lang))
    if u.region_hint and not u.topic and profile.region is None and "region" not in updates:
        updates["region"] = u.region_hint  # yuan or an Ascend card: priced and chosen for China
        turn.notes.append(say(lang, "reply.region_hint"))
    if not u.topic:
        for slot, factor in u.scale.items():  # "double the users": relative to what the profile holds
            held = PHASES.get(profile.phase or "")
            if slot == "load" or (slot == "train_tokens" and held is not None and not held.trains):
                slot = load_slot(profile)  # "traffic triples", "数据量翻三倍" for a batch job: the plan's load
            if slot == "users" and profile.population and not profile.users:
                slot = "population"  # "用户翻倍" for a service sized from its staff: twice the people, the peak estimated
            if slot == "budget_usd_per_month" and not profile.budget_usd_per_month and profile.budget_usd:
                slot = "budget_usd"  # "预算砍半" of a budget to spend once
            current = getattr(profile, slot, None) or SLOTS[slot].default_for(profile.model_dump(), lang)
            if current:
                updates[slot] = max(1, round(current * factor))
    months = u.ask.get("budget_months")
    if months and "budget_usd" not in updates and profile.budget_usd:
        # "the 2k is just to get us through launch + first month": the budget said before, spent over those months
        updates.setdefault("budget_usd_per_month", round(profile.budget_usd / months, 2))
        updates["budget_usd"] = None
    if "budget_usd" in updates and profile.budget_usd_per_month and any(k == "note.budget_once" for k, _v in u.notes):
        # "budget got cut to 1500" after a monthly budget: the same kind of budget, changed
        updates["budget_usd_per_month"] = updates.pop("budget_usd")
        _drop_note(u, turn, "note.budget_once", lang)
    if profile.budget_per and "budget_usd_per_month" in updates and "budget_per" not in updates \
            and "budget_usd_per_month" not in u.scale:
        updates["budget_per"] = None  # '$2000 a month' after '$3/hr': said back by the month again (assistant.budget_cap)
    if any(k == "note.instruction_prompt_if_batch" for k, _v in u.notes):
        if "batch_input_tokens" in updates and (updates.get("phase") or profile.phase) == "batch":
            updates["batch_input_tokens"] += INSTRUCTION_TOKENS  # "标题 30 个字" in a batch job: with its instructions
            updates.pop("seq_len", None)  # '每本五十万字' restated in a batch job: each item's length, no training sequence
        else:
            _drop_note(u, turn, "note.instruction_prompt_if_batch", lang)  # a training example is its own length
    if (tried := tried_updates(u.ask, state.get("results"))) and not {"owned", "only"} & set(updates):
        updates.update(tried)  # '为什么要3台服务器？两台不够吗': the plan's card on two servers, yes or no
        u.intents = (u.intents - {"why", "math"}) | {"fit_check"}
        u.ask = {**u.ask, "recount": True}
    if left := owned_fewer(u.ask, profile.owned, profile.server_gpus, updates):
        # 'what if we only get one of the servers', '一半的卡': the plan on that many of their own cards
        updates["owned"] = left
        u.ask = {k: v for k, v in u.ask.items() if k != "fewer"}
        u.intents.add("whatif")  # answered against the plan on all of them
        _drop_note(u, turn, "note.servers_without_cards", lang)
    servers = next((int(v["servers"]) for k, v in u.notes if k == "note.servers_without_cards"), None)
    if servers and (recount := servers_recounted(servers, profile, updates)) is not None:
        updates.update(recount)  # "actually 3 boxes not 4", "只有一台，8 张卡": the servers you own, of the cards said
        _drop_note(u, turn, "note.servers_without_cards", lang)
    elif servers and state.get("results") and not profile.owned and not {"owned", "only"} & set(updates):
        turn.servers = servers  # the plan on screen asked about in servers: answered from it (explain_node)
        u.intents.add("servers_limit")
        _drop_note(u, turn, "note.servers_without_cards", lang)
    if len(u.compare_gpus) == 1 and "why_not" in u.intents and not state.get("results") and profile.only \
            and not profile.owned and not {"owned", "only"} & set(updates):
        updates["only"] = list(u.compare_gpus)  # 'what about 4-bit on h100s' before any plan: the card to size on
        u.intents.discard("why_not")
    keep_compared(u, state, updates, bool(fresh))  # 'sorry i meant gpt-oss-20b, on a single card': both cards again
    if u.card_count and not (u.compare_gpus or u.whatif_gpus) and not {"owned", "only"} & set(updates):
        card, where = _card_just_named(state, profile)  # "eight of them", "八张": of the card just named
        if where == "owned" and u.ask.get("one_card") and _owned_count(profile) > 1:
            # "单卡能跑不", "一张卡够吗" with 8 of their own: one of them answered first (assistant.one_owned), the 8 kept
            u.intents.add("fit_check")
        elif where in ("owned", "only"):
            updates[where] = [f"{u.card_count}x {card}"]
            if where == "only":
                u.intents.add("fit_check")  # "那换成 4 张呢", "what about 4 of them": that many of the plan's card, yes or no
                u.ask = {**u.ask, "recount": True}
        elif card:
            u.whatif_gpus = (u.card_count, card)
        elif u.card_count == 1 and _plan_card(state):  # "换 Qwen3-30B-A3B 呢，一张卡行吗": one of the plan's card
            updates["only"] = [f"1x {_plan_card(state)}"]
            u.intents.add("fit_check")
        elif _plan_card(state) and not _plan_owned(state):
            u.whatif_gpus = (u.card_count, str(_plan_card(state)))  # "is 8 enough?", "8张够吗": that many of the plan's card
        elif u.card_count == 1 and (profile.model or updates.get("model")):
            # "ok what about on a single card?" before any plan, or with several kinds allowed ('aws vs runpod'):
            # one card of each kind allowed (else of any), the cheapest that fits first, yes or no
            updates["only"] = one_of_each(profile.only)
            u.intents.add("fit_check")
            u.ask = {**u.ask, "recount": True}
    if u.owns_named and "owned" not in updates:  # '卡是现成的', 'we already have them': the cards named before
        named = counted_owned(u, updates) or _named_owned(state, profile, plan=u.owns_named in ("said", "one"))
        if named and u.owns_named == "one":  # "就这一张": one of the card named, and nothing to rent or buy
            named = [f"1x {card}" for card in _kinds(named)][:1]
        if named:
            updates["owned"] = named
            if profile.only:
                updates["only"] = None
            if updates.get("preference") in ("buy", "rent"):
                updates.pop("preference")  # "我自己的卡啊 不用租": nothing to rent because the card is there, no wish to buy
    if "owned" in updates and not updates["owned"]:  # "我们一台都还没买": none owned; nothing to change if none was
        if profile.owned:
            updates["owned"] = None
        else:
            del updates["owned"]
        if not u.ask.get("planned_card"):  # a card planned in place of their machine: said by assistant.planned
            turn.notes.append(say(lang, "reply.owns_nothing"))
    if u.added_cards and u.adds_owned:  # "add my old 3060 as a second card": beside the cards said, not instead
        updates["owned"] = _with_added(updates.get("owned") or profile.owned or [], u.added_cards)
    elif u.added_cards and u.ask.get("hypothetical") and state.get("results") and not u.whatif_gpus:
        u.whatif_gpus = _added_tried(u.added_cards, profile.owned or [], state.get("results") or {})
        u.ask = {**u.ask, "added": True}
    elif u.added_cards and profile.owned:  # "what if I add a second 4090": the cards you have, and more
        updates["owned"] = _with_added(profile.owned, u.added_cards)
    if u.whatif_gpus and not u.quotes and not state.get("results") and not profile.owned and not profile.only \
            and not {"owned", "only"} & set(updates):
        # "can two 8xH100 nodes serve deepseek v3?", "we need 8 H100s 24/7, buy or rent?" with no plan yet: the
        # setup named is the one asked about (with no model yet it waits for one, kept)
        updates["only"] = [f"{u.whatif_gpus[0]}x {u.whatif_gpus[1]}"]
        u.whatif_gpus = None
        if "whatif" in u.intents:  # asked whether it runs there: a fit check
            u.intents.discard("whatif")
            u.intents.add("fit_check")
    distill = distill_to_size(profile.model, state.get("results")) if u.ask.get("distill") else None
    if "model" not in updates and distill and profile.model:
        updates["model"] = distill  # "the distill ones": the largest that runs on the user's card
        u.intents.add("whatif")
        ran = distill != distills_of(profile.model)[0]
        turn.notes.append(say(lang, "note.distills_ran" if ran else "note.distills_largest",
                              model=find_model(profile.model).name, chosen=find_model(distill).name,
                              names=say(lang, "list_sep").join(find_model(d).name for d in distills_of(profile.model))))
    apply_variant(u, updates, profile.model, lang, turn.notes)  # 'the air version', '用小一点的那个': of the model planned
    if "model" not in updates and not profile.model and not u.unknown_model:
        served = api_served(u, updates, lang)  # 'deepseek api … 自建划算吗': the model that API serves, said
        if served:
            _drop_note(u, turn, "note.family_which", lang)
            turn.notes.append(served)
    if "model" not in updates and not profile.model and not u.unknown_model:
        humans = [_text(m) for m in (state.get("messages") or [])[:-1] if isinstance(m, HumanMessage)]
        referred = referred_model(humans, text)  # "那我一张 4090 能跑这个吗" after a concept question's example
        if referred:
            updates["model"] = referred
    if "model" not in updates:
        earlier = _model_named_before(state, text, profile.model)
        if earlier:
            updates["model"] = earlier  # "the gemma one": the Gemma said earlier in the conversation
            _drop_note(u, turn, "note.family_which", lang)  # which one is answered: not asked
    sized = _sized_named_before(state, profile.model, updates.get("model"))
    if sized:  # "那 2 张 A800 够跑 70B 那个吗" after gpt-oss-120b vs R1-Distill-Llama-70B: the 70B one named
        updates["model"] = u.updates["model"] = sized
    before = profile.model_dump()
    kept = None if u.unknown_model else same_generation(profile.model, updates.get("model"), text)
    if kept and kept[1]:  # "what about 14b qwen" after Qwen2.5 7B: Qwen2.5 14B, the newer one said as an option
        turn.notes.append(say(lang, "reply.same_generation", name=find_model(kept[0]).name,
                              newest=find_model(updates["model"]).name))
        updates["model"] = kept[0]
    same = None if kept and kept[1] else kept[0] if kept else _same_family(profile.model, updates.get("model"), u, text)
    missing = None if u.unknown_model else missing_size(profile.model, u.updates.get("model"))
    if missing:  # "what about the 32b" after Llama 3.1 8B: no such size in that line, said before what is sized
        turn.notes.append(say(lang, "reply.no_such_size", line=missing["line"], size=missing["size"],
                              sizes=say(lang, "list_sep").join(missing["sizes"])))
    if same:
        updates["model"] = same
        turn.notes.append(say(lang, "reply.same_family", size=u.updates["model"], name=find_model(same).name))
    if "model" in updates and updates["model"] != profile.model:  # a smaller model falls back to the line said (Qwen3)
        updates["line_said"] = profile.model if missing and same and profile.line_said is None else \
            profile.line_said if missing and same else None
    loose, why = loose_model(profile.model, updates.get("model"), text, lang) if not u.topic else (None, None)
    if loose and why:  # "what about R1 in fp8?" after the R1 32B distill: the distill in fp8, or the full R1, said
        updates["model"] = loose
        if loose == profile.model:
            del updates["model"]
        turn.notes.insert(0, why)
        u.ask = {**u.ask, "lead": [why]}  # said right under the headline, before what moved
    if before.get("phase") and updates.get("phase") == "experiment" and not tried_out(text):
        updates.pop("phase")  # 'what if i try qwen2.5 72b' after a plan: that model for the same job (review BS #14)
    if updates.get("exclude"):  # ruling out adds to what was ruled out before
        updates["exclude"] = sorted(set(before.get("exclude") or []) | set(updates["exclude"]))
    if u.ask.get("home_buy") and (({**before, **updates}.get("phase") not in (None, "serve", "experiment"))
                                  or before.get("method") or before.get("owned") or before.get("preference")):
        updates.pop("preference", None)  # 'just me' said into a fine-tuning plan, or beside cards owned: nothing bought
    if u.ask.get("cost_rent") and (before.get("preference") or before.get("owned") or before.get("personal")):
        updates.pop("preference", None)  # a purchase said before ('buy' then 'and per month?'): it stands
    if updates.get("preference") == "buy" and "only" not in updates and _cloud_cards(before.get("only")):
        updates["only"] = None  # 'AutoDL 上租' then '还是直接买吧': bought cards are not kept to what a cloud rents
    once_said(u.ask, before, updates)  # '50万是一次性的总预算，不是每个月': the monthly budget kept is one-off
    rent_buy_reopened(u.intents, before, updates)  # 'rent on runpod or buy a box?' after 'what do i buy': weighed again
    if updates:
        try:
            profile = Profile.model_validate({**before, **updates})
        except ValidationError as e:
            turn.problems += invalid_lines(lang, e)
            updates = {}
    for slot in updates:
        defaulted.pop(slot, None)
    if method_stale(updates, defaulted, profile.objective):  # the RL method assumed: taken again on what changed
        profile = profile.model_copy(update={"method": None})
        defaulted.pop("method")
    if u.ask.get("home_buy") and updates.get("preference") == "buy":
        defaulted["preference"] = say(lang, "slot.preference.default_home")  # inferred from 'at home': an assumption
    if u.ask.get("cost_rent") and updates.get("preference") == "rent":  # 'what would it cost per month?'
        defaulted["preference"] = say(lang, "slot.preference.default_cost")  # inferred: an assumption (reading.cost_asked)
    inferred_busy(u.notes, updates, defaulted, lang)  # 'a request rate': up around the clock, assumed (not said)
    profile = reward_assumed(profile, updates, defaulted, lang)  # 'actor critic reward ref': the policy's size, said
    if updates.get("precision") == "q4_k_m" and not GGUF_BITS_SAID.search(text.lower()):
        # "on llama.cpp" / "ollama" / "a gguf" name no file: Q4_K_M is the usual one, and cards you own may
        # take a smaller one when it does not fit (DeepSeek-R1 in Q3_K_M on a 512 GB Mac)
        defaulted["precision"] = say(lang, "assume.gguf_default")
    turn.problems += [say(lang, f"problem.{code}", **values) for code, values in u.problems]
    if "not_sure" in u.intents and pending and getattr(profile, pending) is None:
        data = profile.model_dump()
        spec = SLOTS[pending]
        profile = profile.model_copy(update={pending: spec.default_for(data, lang)})
        defaulted[pending] = spec.default_words(lang, data)
        turn.notes.append(say(lang, "reply.assume", words=defaulted[pending]).strip())
    if "fit_check" in u.intents and profile.users is None and SLOTS["users"].matters(profile.model_dump()) \
            and not profile.population and not profile.requests_per_s:  # "显存要多少" for 50 teachers: their load
        # "does X fit on Y?" asks whether it runs at all: one person first, said (the most at once is in the table)
        profile = profile.model_copy(update={"users": 1})
        defaulted["users"] = say(lang, "slot.users.default_fit")
    if u.ask.get("card_good") and profile.phase in TRAINING_PHASES and profile.phase != "train-and-serve":
        from gpu_advisor.assistant.reading.card_good import NOTE_KEYS

        for note in NOTE_KEYS:  # the card's verdict speaks of serving (first token, users), not of a training run
            _drop_note(u, turn, note, lang)
    if u.ask.get("buy_or_rent") and profile.phase == "fine-tune" and profile.method is None:
        # 'worth buying a 5090 or keep renting?': the rent said decides, and the reply says which methods the card
        # holds, so the method is not asked: the usual one, said
        data = profile.model_dump()
        profile = profile.model_copy(update={"method": SLOTS["method"].default_for(data, lang)})
        defaulted["method"] = SLOTS["method"].default_words(lang, data)
    versus = len(u.compare_gpus) >= 2 or (u.also == "compare_cards" and len(u.cards) >= 2) or bool(u.ask.get("models"))
    if (u.ask.get("one_user") or versus) and profile.model and profile.phase in ("serve", "experiment"):
        # "4090 和 3090 哪个更适合跑 glm-4 9b": a comparison for no one else answers at once, for one person and the
        # usual hours (said); "H100 or H200 for serving, which is better value per token": cards named as a choice
        # are answered at once too, on the usual load, said as the assumption the cost per token turns on
        alone = u.ask.get("one_user") and not u.ask.get("per_token")
        for slot, key in (("users", "slot.users.default_compare" if alone else None), ("utilisation", None)):
            data = profile.model_dump()
            if getattr(profile, slot) is None and SLOTS[slot].matters(data) and not data.get("population") \
                    and not data.get("users_range") and not data.get("requests_per_s"):
                value = (1 if alone else SLOTS[slot].default_for(data, lang)) if slot == "users" \
                    else SLOTS[slot].default_for(data, lang)
                profile = profile.model_copy(update={slot: value})
                defaulted[slot] = say(lang, key) if key else SLOTS[slot].default_words(lang, data)
    after = profile.model_dump()
    turn.changed = list(dict.fromkeys(SLOTS[k].label(lang) for k in after if after[k] != before[k]
                                      and k not in KEPT_UNSAID))  # (users, a range of them: one word)
    daily = updates.get("population_daily", profile.population_daily)
    monthly = updates.get("population_monthly", profile.population_monthly)
    turn.said = [describe(k, updates[k], lang, daily=bool(daily), monthly=bool(monthly)) for k in ACK_ORDER if _stated(updates.get(k))
                 and not (k == "engine" and updates.get("engine_app"))  # "with ollama": said once, by its name
                 and not (k == "preference" and (u.ask.get("home_buy") or u.ask.get("cost_rent")))
                 and not (k == "utilisation" and k in defaulted)]  # inferred from 'at home': an assumption
    if untyped:
        turn.said.append(say(lang, "ack.owned_untyped", n=untyped))
    if second:  # "plus a weekly batch job", "同时还要跑一个qwen2.5-72b": a second job, kept and said back
        turn.said.append(also_words(second, lang))
        turn.changed.append(say(lang, "pair.label"))
    turn.intents = sorted(u.intents)
    turn.topic = u.topic
    turn.compare = list(u.compare_gpus)
    turn.whatif = u.whatif_gpus
    if turn.whatif and _yours([f"{turn.whatif[0]}x {turn.whatif[1]}"], profile.owned or []) \
            and not _fewer_than_yours(turn.whatif, profile.owned or []):
        turn.whatif = None  # "四张3090呢" with four 3090s of your own: the plan on yours, no rented copy of them
    turn.cards, turn.counts, turn.engines = list(u.cards), dict(u.counts), list(u.engines)
    turn.subject, turn.scope, turn.where, turn.prices = u.subject, u.scope, u.where, dict(u.prices)
    turn.span_months, turn.with_spare = u.span_months, u.with_spare
    turn.two_sites = any(key == "note.two_sites" for key, _v in u.notes)
    turn.also = u.also
    turn.ask = dict(u.ask)
    if turn.ask.get("support"):  # "… on 2x a100. is mxfp4 even supported on a100": answered beside the sizing
        from gpu_advisor.assistant.support import beside

        turn.notes.append(beside(lang, turn.ask["support"]))
    _asked_again(turn, state, updates)
    code = turn.ask.pop("plan_code", None)
    if code and state.get("results") and turn.topic:  # "when should I turn on tensor parallelism?" below a plan
        turn.intents, turn.topic = sorted({*turn.intents, str(code)} - {"concept", "explain", "whatif"}), None
    moved_now = {k for k in after if after[k] != before[k]}
    if moved_now and moved_now <= RENT_BUY_SLOTS and state.get("quotes") and not state.get("results") \
            and set(turn.intents) <= {"whatif"} and state.get("pending") not in moved_now:  # 'what if utilization drops to 30%' after a rent-or-buy answer with no plan yet (never the answer to a question asked)
        turn.intents = ["rent_buy"]
    quotes = _quotes(turn, state)
    rent_quotes = _rent_quotes(u, turn, state, lang)
    _same_question_of(turn, state, updates)
    budget_followed(turn, state, updates, after, text)  # 'used is fine' after the biggest model a budget buys
    which_followed(turn, state, updates, after)  # '并发也就十来个人' after the models that run on their 4090
    moved = {k for k in after if after[k] != before[k]}
    turn.before = {k: before[k] for k in moved}
    turn.same_hardware = bool("whatif" in u.intents and state.get("results") and moved and not moved & HARDWARE_SLOTS
                              and not (turn.compare or turn.whatif))
    update: dict[str, Any] = {**(CLEARED if fresh else {}),
                              "profile": after, "defaulted": defaulted, "lang": lang, "turn": turn.model_dump(),
                              **({"also": second} if second else {}), "owned_untyped": untyped, "family": family}
    request = _request_flags(u, turn, state)
    if (turn.compare or turn.whatif or turn.ask.get("per_token") or turn.ask.get("break_even")
            or turn.ask.get("models")) and not state.get("results"):
        update["cards"] = {"compare": turn.compare, "whatif": turn.whatif,
                           "per_token": bool(turn.ask.get("per_token") or (state.get("cards") or {}).get("per_token")),
                           "api": {**((state.get("cards") or {}).get("api") or {}),
                                   **{k: turn.ask[k] for k in API_KEYS if k in turn.ask}},
                           **({"models": turn.ask["models"]} if turn.ask.get("models") else {}),
                           **({"dims": turn.ask["dims"]} if turn.ask.get("dims") else {}),
                           "request": request}
    elif request and not state.get("results"):  # the cards asked about earlier stay; the request is kept with them
        update["cards"] = {**(state.get("cards") or {}), "request": request}
    if unknown_card is not None:
        update["unknown_card"] = unknown_card or None
    if pending and pending not in updates and updates and set(updates) <= BUDGET_ANSWER_SLOTS:
        # '五十万够不够' at the users question: the budget, read; the question still open, asked again
        update["asked"] = [a for a in (state.get("asked") or []) if a != pending]
    if turn.also:  # a question beside the sizing waits for the plan, whatever this turn's reply is
        update["deferred"] = [*_deferred(state), turn.model_dump()]
    if quotes is not None:
        update["quotes"] = quotes
        update["turn"] = turn.model_dump()
    if rent_quotes is not None:
        update["rent_quotes"] = rent_quotes
        update["turn"] = turn.model_dump()
    return update


def _request_flags(u: Understanding, turn: Turn, state: AdvisorState) -> list[str]:
    """What the user asked beside the workload, kept until the first answer (assistant.slots.REQUEST_FLAGS): it
    decides which questions can change the headline (Slot.ask_when)."""
    kept = set(_request(state))
    if (turn.compare or turn.whatif or u.updates.get("only")) and u.also in (None, "compare_cards", "quality"):
        kept.add("cards")  # "H100 or H200 and how many", "on 4x L40S", "两台A800够不够" (not "is the B200 in stock?")
    if "rent_buy" in u.intents or u.also == "rent_buy":
        kept.add("rent_buy")  # "租 L20 还是买两张 4090，哪个划算": how busy the cards are decides it
    if u.aside:
        kept.add("aside")  # "tensor vs pipeline parallel for serving ... on 4x L40S, which one and why"
    if u.ask.get("serving_cards"):
        kept.add("serve_cards")  # "微调完…用什么卡部署比较合适": the serving cards asked, the method not
    return sorted(kept)


def _request(state: AdvisorState) -> list[str]:
    return list((state.get("cards") or {}).get("request") or [])


# A turn that only says money (and where it is spent) answers no pending question about the workload.
BUDGET_ANSWER_SLOTS = {"budget_usd", "budget_usd_per_month", "budget_per", "region", "preference", "only"}


def _known_model(model: str) -> bool:
    try:
        find_model(model)
    except (LookupError, ValueError):
        return False
    return True


def _plan_card(state: AdvisorState) -> str | None:
    """The card of the plan on screen (its best option), or None."""
    best = ((state.get("results") or {}).get("recommend") or {}).get("best") or {}
    return best.get("gpu") or None


def _plan_owned(state: AdvisorState) -> bool:
    """Whether the plan on screen is on the user's own cards."""
    return bool((((state.get("results") or {}).get("recommend") or {}).get("best") or {}).get("owned"))


def _card_just_named(state: AdvisorState, profile: Profile) -> tuple[str | None, str]:
    """The card a bare count ('eight of them', '八张') is of, and where it goes: the one card the last message that
    named cards named ('what about the H100?': a card to try; 'we have A6000s': the cards you own), else the one kind
    of card the plan is held to ('only') or owns."""
    for message in reversed((state.get("messages") or [])[:-1]):
        if not isinstance(message, HumanMessage):
            continue
        read = understand(_text(message), None)
        for slot in ("owned", "only"):  # "serve 70b for 10 users on 2 4090s": the plan's card, held to, first
            kinds = _kinds(read.updates.get(slot))
            if len(kinds) == 1:
                return kinds.pop(), slot
        if read.whatif_gpus:
            return read.whatif_gpus[1], "whatif"
        if len(set(read.compare_gpus)) == 1:
            return read.compare_gpus[0], "whatif"
        if read.compare_gpus or read.updates.get("owned") or read.updates.get("only"):
            break  # several cards named last: which one is not said
    for slot in ("only", "owned"):
        kinds = _kinds(getattr(profile, slot))
        if len(kinds) == 1:
            return kinds.pop(), slot
    return None, ""


def _named_owned(state: AdvisorState, profile: Profile, plan: bool) -> list[str] | None:
    """The cards '卡是现成的' / 'we already have them' makes the user's own: those the plan is held to ('单卡 4090 够不够'),
    else the one card just tried, else (`plan`: said outright, not only 'my gpus') the cards of the plan answered,
    counted as planned. None when none are known or they are owned already."""
    if profile.owned:
        return None
    best = (state.get("results") or {}).get("recommend", {}).get("best") or {}
    planned = {str(best["gpu"]): int(best["gpus"])} if best.get("gpu") and best.get("gpus") else {}
    if profile.only:
        return [c if re.match(r"\d+x ", c) else f"{planned.get(c, 1)}x {c}" for c in profile.only]
    card, where = _card_just_named(state, profile)
    if card and where == "whatif":
        return [f"{planned.get(card, 1)}x {card}"]
    cards = _plan_cards(state.get("results") or {}) if plan else None
    return [f"{cards[0]}x {cards[1]}"] if cards else None


def _kinds(cards: list[str] | None) -> set[str]:
    """The kinds of card in a list of 'Nx card' entries."""
    return {c.partition("x ")[2].strip() if re.match(r"\d+x ", c) else c for c in cards or []}


def _rent_quotes(u: Understanding, turn: Turn, state: AdvisorState, lang: str) -> list[dict[str, Any]] | None:
    """Rental prices quoted per card ('lambda quoted me 2.49/hr for an h100'): kept for every later plan (a
    later utilisation or user count keeps pricing those cards at them), a card quoted again at its new price.
    The cards quoted are the plan's options, so they are no cards to compare beside it. Returns the quotes to
    keep, or None for no change."""
    said = _quote_cards(u.quotes, state, lang, turn)
    if not said:
        return None
    quoted = {q["gpu"] for q in said}
    before = {q.get("gpu"): q for q in state.get("rent_quotes") or []}
    kept = [q for q in state.get("rent_quotes") or [] if q.get("gpu") not in quoted]
    said = [{**before.get(q["gpu"], {}), **q} for q in said]  # a rent said now keeps the purchase said before
    turn.quotes = list(said)
    turn.compare = [c for c in turn.compare if c not in quoted]
    if turn.whatif and turn.whatif[1] in quoted:
        turn.whatif = None
    if not turn.compare and not turn.whatif and "whatif" in turn.intents:
        turn.intents = [i for i in turn.intents if i != "whatif"]
    merged = [*kept, *said]
    if merged != (state.get("rent_quotes") or []):
        turn.changed = [*turn.changed, say(lang, "answer.quotes_changed")]
    return merged


def _quote_cards(quotes: list[dict[str, Any]], state: AdvisorState, lang: str, turn: Turn) -> list[dict[str, Any]]:
    """The quotes with their cards: a rent said with no card ('租的话每卡每小时大概8块钱') is the plan's card's (or
    the one card the plan is held to), said so; with no such card it is said back, unused."""

    out = []
    for q in quotes:
        if not q.get("gpu"):
            continue
        if q.get("aside_usd_per_gpu_hour") is not None:  # two rents for one card: the lower is used, the other said
            turn.notes.append(say(lang, "note.quote_aside", gpu=find_gpu(q["gpu"]).name,
                                  used=_rate(q["usd_per_gpu_hour"], lang), aside=_rate(q["aside_usd_per_gpu_hour"], lang)))
        if q.get("shared_cards") and not q.get("reserved"):  # '8.40/hr for 4x h100': the price of them all, per card
            turn.notes.append(say(lang, "note.quote_shared", n=q["shared_cards"], gpu=find_gpu(q["gpu"]).name,
                                  said=_rate(q["usd_per_gpu_hour"] * q["shared_cards"], lang),
                                  rate=_rate(q["usd_per_gpu_hour"], lang)))
        out.append({k: v for k, v in q.items() if k not in ("aside_usd_per_gpu_hour", "shared_cards")})
    for q in quotes:
        if q.get("gpu") or q.get("usd_per_gpu_hour") is None:
            continue
        plan = _plan_cards(state.get("results") or {})
        held = _kinds((state.get("profile") or {}).get("only"))
        card = plan[1] if plan else held.pop() if len(held) == 1 else None
        rate = _rate(q["usd_per_gpu_hour"], lang)
        if card is None:
            turn.notes.append(say(lang, "note.quote_no_card", rate=rate))
            continue
        turn.notes.append(say(lang, "note.quote_plan_card", rate=rate, gpu=find_gpu(card).name))
        out.append({**q, "gpu": card})
    return out


def _rate(usd_per_gpu_hour: float, lang: str) -> str:
    """A rent per card-hour as the user said it: yuan in Chinese, else dollars."""
    from gpu_advisor.knowledge import rules

    return f"¥{usd_per_gpu_hour / rules().usd_per_cny:,.2f}" if lang == "zh" else f"${usd_per_gpu_hour:,.2f}"


# Questions about cards that a bare card name after them asks again ("H100还能买到吗" ... "那B200呢").
CARD_QUESTIONS = ("availability", "forecast", "compare_cards", "card_support")


def _same_question_of(turn: Turn, state: AdvisorState, updates: dict[str, Any]) -> None:
    """'那B200呢', 'and the B200?' right after a stock, price-forecast or comparison reply, before any plan:
    the same question about the card named now (not a sizing to start)."""
    if state.get("results") or updates or not turn.compare or turn.has("fit_check"):
        return
    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    topic = (last.additional_kwargs.get("gpu_advisor") or {}).get("topic") if last is not None else None
    if topic in CARD_QUESTIONS:
        turn.intents = sorted({*turn.intents, str(topic)} - {"whatif"})
        turn.cards, turn.compare = list(turn.compare), []
        said = ((last.additional_kwargs.get("gpu_advisor") or {}).get("results") or {}).get("formats") \
            if last is not None else None
        if topic == "card_support" and said and not turn.ask.get("formats"):
            turn.ask["formats"] = list(said)  # "and B200?" after "does the H200 support FP4?": FP4 on the B200


def _kv_example_followed(u: Understanding, state: AdvisorState, updates: dict[str, Any]) -> bool:
    """A message that names a model (and a context) right after the KV cache was explained on an example, before
    any plan: the KV cache of that model ("就拿 qwen2.5 7b 来说吧，128k 上下文", "ok, qwen2.5 7b at 128k then")."""
    from gpu_advisor.assistant.reading.followups import KV_SLOTS

    if state.get("results") or "model" not in updates or set(updates) - KV_SLOTS or "phase" in updates \
            or u.intents & {"reset", "help"} or u.topic:
        return False
    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    payload = (last.additional_kwargs.get("gpu_advisor") or {}) if last is not None else {}
    return payload.get("topic") == "kv_cache" and bool(((payload.get("results") or {}).get("kv_cache") or {}).get("example"))


def _asked_again(turn: Turn, state: AdvisorState, updates: dict[str, Any]) -> None:
    """'昇腾上一般用哪个', 'and which one on ascend?' right after a question about the plan (reading.asks): the same
    question again, about what this message names (Ascend)."""
    from gpu_advisor.assistant.reading.asks import ASKS

    if not turn.ask.pop("again", False) or set(updates) - {"only", "region", "preference"} or turn.has("fit_check"):
        return
    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    topic = (last.additional_kwargs.get("gpu_advisor") or {}).get("topic") if last is not None else None
    if topic in ASKS:
        turn.intents = sorted({*turn.intents, str(topic)} - {"whatif"})
        text = _text(state["messages"][-1]).lower() if state.get("messages") else ""
        if word_pattern("asks.ascend").search(text):
            turn.ask["ascend"] = True
        for slot in ("only", "region", "preference"):
            updates.pop(slot, None)


# What a rent-or-buy answer rests on: a change of only these after one (and no plan yet) asks it again.
RENT_BUY_SLOTS = {"utilisation", "horizon_months", "electricity_usd_per_kwh", "hosting_usd_per_month"}


def _quotes(turn: Turn, state: AdvisorState) -> dict[str, Any] | None:
    """Prices said for rent or buy are kept for later turns: a rent-or-buy question that names no price ('and
    if we go with a 3 year horizon?', 'rent or buy?') takes the last ones, with what it changes. Returns the
    quotes to keep, or None for no change."""
    said = {k: v for k, v in turn.prices.items() if k != "horizon_months"}
    if said and (turn.has("rent_buy") or turn.has("reserve") or turn.has("forecast")):
        return {"prices": dict(turn.prices), "cards": list(turn.cards), "counts": dict(turn.counts)}
    kept = state.get("quotes")
    if kept and not said and turn.has("forecast") and turn.ask.get("reserve"):
        turn.prices = {**kept["prices"], **turn.prices}  # 'im asking about the price trend and whether reserving makes
        turn.cards = turn.cards or list(kept.get("cards") or [])  # sense': the reservation offered before, weighed again
        turn.counts = turn.counts or dict(kept.get("counts") or {})
        return None
    if not kept or not (turn.has("rent_buy") or "horizon_months" in turn.prices):
        return None
    turn.prices = {**kept["prices"], **turn.prices}
    turn.cards = turn.cards or list(kept.get("cards") or [])
    turn.counts = turn.counts or dict(kept.get("counts") or {})
    if "rent_buy" not in turn.intents:
        turn.intents = sorted({*turn.intents, "rent_buy"})
    return {**kept, "prices": dict(turn.prices)}


def _described_card(u: Understanding, state: AdvisorState, updates: dict[str, Any], lang: str,
                    turn: Turn) -> dict[str, Any] | None:
    """An accelerator I have no figures for ('my Moore Threads MTT S4000'), then its memory and bandwidth ('it
    has 48GB and about 768 GB/s', '48G显存，带宽768GB/s'), in the same message or a later one: that card, named,
    sized from those figures (the user's own when they said so, else the only card to size). Returns the
    state's new unknown_card: the card waiting for its figures, {} once they are used, None for no change."""
    waiting = {"name": u.unknown_card[0], "mine": u.unknown_card[1], "count": u.unknown_count} if u.unknown_card \
        else state.get("unknown_card")
    if not u.card_spec or not waiting or updates.get("owned") or updates.get("only"):
        return waiting if u.unknown_card else None
    name = str(waiting.get("name") or "")
    spec = f"{u.card_spec},name={name}" if name else u.card_spec
    count = int(str(waiting.get("count") or 1))  # '4张海光K100', then its figures: the four of them
    updates["owned" if waiting.get("mine") else "only"] = [f"{count}x {spec}" if count > 1 else spec]
    figures = spec.removeprefix("custom:").split(",")
    turn.notes.append(say(lang, "reply.card_described", name=name, memory=figures[0].split("=")[1],
                          bandwidth=figures[1].split("=")[1]))
    return {}


def _pick_choice(u: Understanding, pending: str, lang: str, turn: Turn) -> None:
    """A number typed at a question picks that quick reply: read the choice's words instead."""
    choices = question(pending, lang).choices
    n = u.choice or 0
    if not 1 <= n <= len(choices):
        turn.problems.append(say(lang, "reply.choice_out_of_range", n=n, count=len(choices)).rstrip("."))
        return
    picked = understand(choices[n - 1][1], pending)
    u.updates.update(picked.updates)
    u.intents |= picked.intents & {"not_sure"}


def _native_four_bit(model: str | None) -> str | None:
    """The checkpoint's own format when it is already 4-bit (gpt-oss ships MXFP4), else None."""
    try:
        native = find_model(model).native_precision if model else None
    except (LookupError, ValueError):
        return None
    return native if native in FOUR_BIT else None


def _same_family(current: str | None, new: str | None, u: Understanding, text: str) -> str | None:
    """'actually 70b' while sizing Llama 3.1 8B means the newest Llama of that size, when there is one
    ('a generic 70B model' means what it says)."""
    if not current or not new or u.unknown_model or re.search(r"\bgeneric\b|通用", text.lower()):
        return None
    if "-A" in new or not re.fullmatch(r"\d+(\.\d+)?B", new):
        return None
    try:
        record = find_model(current)
    except (LookupError, ValueError):
        return None
    if record.family == "generic":
        return None
    size = float(new[:-1])
    if abs(record.total_params_b - size) <= 0.06 * size:
        return str(record.id)  # 'int4 on the 70b' while on Llama 3.1 70B: the model planned, not the newest 70B
    return model_index().get(normalise(f"{record.family} {new}"))


def _keeps_broader_phase(old: str | None, new: str | None, text: str) -> bool:
    """'qlora' or '20 users' said while planning to train and serve narrows nothing, unless the
    user says so ("only serving", "just fine-tune")."""
    return (old in ("train-and-serve", "production") and new in ("fine-tune", "serve")
            and not re.search(r"\b(only|just|no longer|instead|not (train|fine|serv))|只|仅", text.lower()))


# Slots that say the same thing in two phases: a batch item's tokens in are a served prompt's length.
SAME_MEANING = (("batch_input_tokens", "prompt_tokens"), ("batch_output_tokens", "output_tokens"))


def _in_this_phase(updates: dict[str, Any], phase: str | None) -> None:
    """Lengths said in the words of the other kind of job take this job's slot: "answers ~400" in a service
    is each request's output; "prompts ~300 tokens" in a batch job is each item's input."""
    spec = PHASES.get(phase or "")
    if spec is None or spec.trains:
        return
    for batch_slot, serve_slot in SAME_MEANING:
        old, new = (serve_slot, batch_slot) if spec.batch else (batch_slot, serve_slot)
        if old in updates and new not in updates:
            updates[new] = updates.pop(old)


def _context_holds_output(profile: Profile, updates: dict[str, Any], defaulted: dict[str, str], turn: Turn,
                          lang: str) -> None:
    """Serving with an output length said ('reasoning outputs are like 4-8k tokens, prompts ~1k'): each request
    holds its prompt and its output, so a context not said is raised to hold both, and said."""
    phase = updates.get("phase") or profile.phase
    output = updates.get("output_tokens") or updates.get("batch_output_tokens")
    if phase not in ("serve", "production", "train-and-serve") or not output or "context" in updates \
            or (profile.context is not None and "context" not in defaulted):
        return
    prompt = updates.get("prompt_tokens") or profile.prompt_tokens or 0
    if prompt + output <= (profile.context or SLOTS["context"].default):
        return
    updates["context"] = math.ceil((prompt + output) / 1024) * 1024
    turn.notes.append(say(lang, "note.context_holds_output", prompt=f"{prompt:,}", output=f"{output:,}",
                          context=f"{updates['context']:,}"))


def _cloud_cards(only: list[str] | None) -> bool:
    """Whether the cards the choice keeps to are a cloud's list (set by naming the cloud as where to rent)."""
    return bool(only) and any(list(c.gpus) == list(only or []) or set(only or []) == set(c.gpus)
                              for c in clouds().values())


def _carry_over(profile: Profile, updates: dict[str, Any], defaulted: dict[str, str]) -> None:
    """A phase changed ("it's interactive, not offline"): what was said keeps its value, and a value said
    for the old phase that means the same in the new one moves over (a batch item's tokens in become the
    prompt's length); values that were only defaults of the old phase are taken again for the new one."""
    said = {k: v for k, v in profile.model_dump().items() if v is not None and k not in defaulted}
    after = {**profile.model_dump(), **updates}
    for a, b in SAME_MEANING:
        for old, new in ((a, b), (b, a)):
            if old in said and new not in said and new not in updates and SLOTS[new].matters(after):
                updates[new] = said[old]
                defaulted.pop(new, None)
    if profile.phase == "batch" and updates["phase"] in TRAINING_PHASES and "train_tokens" not in said | updates.keys() \
            and "batch_items" in said:
        # "actually we'll fine-tune on those documents": the items become the examples, each as long as it was
        each = said.get("batch_input_tokens")
        updates["train_tokens"] = float(said["batch_items"] * (each or EXAMPLE_TOKENS))
        if each and "seq_len" not in said and "seq_len" not in updates:
            updates["seq_len"] = int(each)
    new_phase = {**profile.model_dump(), **updates}
    for slot in list(defaulted):
        if slot in SLOTS and slot not in updates and getattr(profile, slot, None) is not None \
                and SLOTS[slot].default_for(new_phase) != getattr(profile, slot):
            updates[slot] = None  # a default of the old phase: the new phase's default is taken at the answer
            defaulted.pop(slot)


def _forms_before(u: Any, state: AdvisorState) -> None:
    """'mostly i want to know the pcie vs sxm thing': the card of the conversation that comes in both forms said
    (the cards of earlier messages, newest first, then the plan's), compared in those forms."""
    from gpu_advisor.assistant.reading.card_forms import forms_of

    cards: list[str] = []
    for message in reversed((state.get("messages") or [])[:-1]):
        if isinstance(message, HumanMessage):
            read = understand(_text(message), None)
            cards += [*read.compare_gpus, *read.cards]
    best = ((state.get("results") or {}).get("recommend") or {}).get("best") or {}
    cards += [best["gpu"]] if best.get("gpu") else []
    pair = forms_of(list(dict.fromkeys(cards)), list(u.ask["card_forms"]))
    if pair:
        u.compare_gpus, u.cards = pair, pair
        if u.updates and u.also is None:  # "5-20. but mostly … pcie vs sxm": the plan at the new value, both beside it
            u.also = "compare_cards"
        else:
            u.intents.add("compare_cards")


def _models_said_before(state: AdvisorState) -> Iterator[ModelArch]:
    """The catalog models earlier user messages named, newest message first: the model read, the models weighed,
    and a quality question's subject."""
    for message in reversed((state.get("messages") or [])[:-1]):
        if isinstance(message, HumanMessage):
            read = understand(_text(message), None)
            named = [*(read.ask.get("models") or []), read.updates.get("model"), *(read.subject or "").split("|")]
            for said in (x for x in named if x):
                try:
                    yield find_model(said)
                except (LookupError, ValueError):
                    continue


def _sized_named_before(state: AdvisorState, current: str | None, asked: str | None) -> str | None:
    """A bare size said ('70B 那个', 'the 70b one') that the current model's line does not come in, when an earlier
    message named a model of that size (two models weighed, or one asked about): that model; None otherwise."""
    if not asked or not re.fullmatch(r"\d+(?:\.\d+)?b", asked.lower()) or not current \
            or not missing_size(current, asked):
        return None
    size = float(asked.lower().rstrip("b"))
    return next((str(m.id) for m in _models_said_before(state) if abs(m.total_params_b - size) <= 0.06 * size), None)


def _model_named_before(state: AdvisorState, text: str, current: str | None) -> str | None:
    """'the gemma one', 'the qwen one': the model of that family named earlier in the conversation, when the
    model now planned is another family's; None otherwise."""
    from gpu_advisor.assistant.reading.names import family_words

    x = re.search(r"\bthe\s+([a-z][\w.\-]*)\s+one\b", text.lower())
    if not x or x.group(1) not in family_words():
        return None
    family = x.group(1)
    try:
        if current and find_model(current).family == family:
            return None
    except (LookupError, ValueError):
        pass
    return next((str(m.id) for m in _models_said_before(state) if m.family == family), None)


def _drop_note(u: Understanding, turn: Turn, key: str, lang: str) -> None:
    """A reader's note the conversation made moot (a budget's period, servers whose cards are known)."""
    said = {say(lang, k, **v) for k, v in u.notes if k == key}
    u.notes = [(k, v) for k, v in u.notes if k != key]
    turn.notes = [n for n in turn.notes if n not in said]


def _checked_updates(u: Understanding, lang: str, turn: Turn, text: str, phase: str | None = None) -> dict[str, Any]:
    updates = dict(u.updates)
    if "model" in updates:
        try:
            find_model(updates["model"])
        except (LookupError, ValueError) as e:
            code = getattr(e, "code", "") or "model_not_found"
            turn.problems.append(say(lang, f"problem.{code}", **{"name": updates["model"], **getattr(e, "params", {})}))
            updates.pop("model")
    turn.notes += [say(lang, key + ("_covered" if values.get("covered") else "") + str(values.get("pairs") or ""), **values)
                   for key, values in u.notes]  # (preference pairs: reading/pair_tokens.py)
    # ('_covered': the other model named is smaller and runs on the card sized, reading.model._covers)
    if u.unknown_model:
        size = str(updates.get("model", ""))
        moe = re.fullmatch(r"([\d.]+B)-A([\d.]+B)", size)
        key = ("reply.unknown_model_sized_moe" if moe else "reply.unknown_model_sized") if "model" in updates \
            else "reply.unknown_model_ask"
        base = moe_base_of_size(float(size[:-1])) if re.fullmatch(r"[\d.]+B", size) else None
        if base is not None:  # 'zephyr-orpo-141b': 141B is Mixtral 8x22B's size, and such models build on it
            updates["model"], key = base.id, "reply.unknown_model_moe_base"
        turn.notes.append(say(lang, key, name=u.unknown_model, size=size, total=moe.group(1) if moe else "",
                              active=moe.group(2) if moe else f"{base.active_params_b:g}B" if base else "",
                              base=base.name if base else ""))
        turn.unknown_model = "model" not in updates
        if hybrid_name(u.unknown_model):  # 'Phi-4-mini-flash' (SambaY): KV only in its few attention layers
            turn.notes.append(say(lang, "physics.hybrid_unknown", name=u.unknown_model))
    elif "model" not in updates and (hybrid := hybrid_named(text)):  # a hybrid's name the reader did not take
        turn.notes.append(say(lang, "physics.hybrid_unknown", name=hybrid))
    if "deadline_hours" in updates and (updates.get("phase") or phase) == "serve":
        # "live by end of next month": a go-live date; a service has no run to finish, so it sizes nothing
        updates["go_live_hours"] = updates.pop("deadline_hours")
        days = updates["go_live_hours"] / 24
        turn.notes.append(say(lang, "reply.go_live", days=f"{days:,.0f}" if days >= 2 else f"{days:,.1f}"))
    share = updates.get("utilisation")
    if "deadline_hours" in updates and share and share < 1 and updates["deadline_hours"] > share * 24 + 0.01 \
            and (updates.get("phase") or phase) in ("fine-tune", "pretrain", "continued-pretrain", "batch"):
        # "还剩十天，只能晚上8点到早上8点用": the run gets the cards only in that window before the deadline (a deadline
        # within one window, 'from 11pm to 6am', is that window already: h-fig3)
        full = updates["deadline_hours"]
        updates["deadline_hours"] = round(full * share, 1)
        key = "reply.deadline_window_batch" if (updates.get("phase") or phase) == "batch" else "reply.deadline_window"
        turn.notes.append(say(lang, key, hours=f"{full:,.0f}", share=f"{share:.0%}",
                              usable=f"{updates['deadline_hours']:,.0f}"))
    if "deadline_hours" in updates and WEEKDAY.search(text) and not span_noted(u.notes):
        # the day it is now ("its friday 5pm", "今天周三") is not the deadline the note names
        hits = [x for x in WEEKDAY.finditer(text) if not TODAY_BEFORE.search(text[max(0, x.start() - 10):x.start()])] \
            or list(WEEKDAY.finditer(text))
        due = next((x for x in reversed(hits) if " " in x.group(0)), hits[-1]).group(0)
        due = re.sub(r"^(?:by|before|until|till|due|over|on) (?:the |this )?", "", due, flags=re.IGNORECASE)
        turn.notes.append(say(lang, "reply.deadline_assumed", words=due,
                              hours=f"{updates['deadline_hours']:,.0f}"))
    return updates


# Questions about the plan on screen, answered from it (explain_node): they change nothing.
PLAN_QUESTIONS = ("own_enough", "total_cost", "how_long", "servers_limit", "servers_count", "cheapest", "running_costs")


def next_node(state: AdvisorState) -> Route:
    """The node after understand: a compound follow-up's parts (parts_node), else route's reply."""
    return "parts" if state.get("parts") else route(state)


def route(state: AdvisorState) -> Route:
    """Which reply this turn gets: a pure function of the state."""
    turn = _turn(state)
    if turn.owned_untyped and not (turn.has("reset") or turn.problems):
        return "ask"  # "we have an 8-gpu box": which card, the one question
    return _route(state, turn)


def _last_answer_given(state: AdvisorState, turn: Turn) -> bool:
    """Whether this turn gave the last value a first plan needed, and cards to set beside it."""
    known = state.get("profile") or {}
    return bool(turn.compare and turn.changed and not state.get("results") and known.get("model") and known.get("phase")
                and next_question(Profile.model_validate(known), state.get("defaulted") or {},
                                  state.get("asked") or [], request=_request(state)) is None)


def _route(state: AdvisorState, turn: Turn) -> Route:
    has_answer = bool(state.get("results"))
    known = state.get("profile") or {}
    if turn.has("best_gpu") and known.get("phase") and known.get("model") and not turn.problems:
        # "which gpu is best for that?" once the job is known: the recommendation is the answer
        if has_answer or next_question(Profile.model_validate(known), state.get("defaulted") or {},
                                       state.get("asked") or [], request=_request(state)) is None:
            return "answer"
        return "ask"
    if turn.has("reset") or turn.has("empty") or turn.problems:
        return "reply"
    code = _question_code(turn, has_answer)
    if code:  # "around the clock. but my question was h100 vs h200": the last answer given, both sized beside the plan
        return "answer" if code == "compare_cards" and _last_answer_given(state, turn) else "inform"
    if turn.topic or turn.has("best_gpu"):
        return "reply"
    if (turn.has("fit_check") or (turn.has("servers_count") and not has_answer) or _asks_two(state, has_answer)
            or _budget_rate_asked(turn, known)) and known.get("model") and known.get("phase"):
        # "does it fit on an H100?", "需要几台910B服务器？", "how many GPUs, and what per month?": answered now, every
        # missing value a stated assumption
        return "answer"
    # "cost per million tokens?" after a plan: each option's cost per million tokens, then the plan
    asked_other = turn.compare or turn.whatif or (has_answer and turn.ask.get("per_token"))
    if turn.has("math") and has_answer and not turn.changed and not asked_other:
        return "explain"
    if turn.has("rent_buy") and has_answer and not turn.changed and turn.also != "rent_buy":
        return "explain"
    if any(turn.has(x) for x in PLAN_QUESTIONS) and has_answer and not turn.changed and not asked_other:
        return "explain"
    not_sure_counts = turn.has("not_sure") and (bool(state.get("pending")) or not has_answer)
    # '够不够', 'do we need to buy more?' after a plan on your cards: the verdict first, the plan again
    enough = has_answer and bool(known.get("owned")) and _enough_asked(state)
    acted = turn.changed or asked_other or not_sure_counts or (has_answer and bool(turn.ask.get("longest"))) or enough \
        or (has_answer and bool(turn.ask.get("budget_rate") or turn.ask.get("scale_out")))  # '40k gets how many rps?'
    if not acted:
        return "reply"
    if asked_other and not turn.changed and state.get("pending") and not has_answer:
        return "reply"  # "why not an H100?" at a question: noted for the answer, the question asked again
    if state.get("oneshot") and turn.unknown_model and not (state.get("profile") or {}).get("model"):
        return "ask"  # a model we do not know and cannot size is asked about, not swapped for the default
    if has_answer or state.get("oneshot"):
        return "answer"
    profile = Profile.model_validate(state.get("profile") or {})
    if next_question(profile, state.get("defaulted") or {}, state.get("asked") or [], request=_request(state)) is None:
        return "answer"
    return "ask"


def _budget_rate_asked(turn: Turn, known: dict[str, Any]) -> bool:
    """'每月5万能撑多少QPS', 'how many req/s can 40k a month get me': what the budget sustains is the question, so it is
    answered now (the rate it sustains does not depend on how many people there are), never asked back."""
    return bool(turn.ask.get("budget_rate") and known.get("budget_usd_per_month"))


def _asks_two(state: AdvisorState, has_answer: bool) -> bool:
    """The last message asks two questions of its own ('how many GPUs do I need, and how much per month?',
    '要几张卡，一个月多少钱'): both are owed an answer now, not a clarifying question first."""
    humans = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage)]
    return not has_answer and bool(humans) and len(literal_kinds(_text(humans[-1]))) >= 2


def _owned_enough_line(state: AdvisorState, answer: advice.Answer, lang: str) -> str | None:
    """The verdict on the cards owned when the last message asks whether they are enough or more must be bought."""
    humans = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage)]
    kinds = [k for k in literal_kinds(_text(humans[-1])) if k in ("more", "fits")] if humans else []
    if not kinds or owned_verdict(answer.recommend) is None:
        return None
    return writers.literal_answer(answer, kinds[0], lang)


def _enough_asked(state: AdvisorState) -> bool:
    """Whether the last message asks only whether the cards are enough or more must be bought ('够不够', '要买新卡吗')."""
    humans = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage)]
    return bool(humans) and bool({"fits", "more"} & set(literal_kinds(_text(humans[-1]))))


def _family_answered(u: Understanding, state: AdvisorState) -> str | None:
    """'which Llama?' answered '70b': the family's model of that size (a size it lacks stays a bare size).
    Returns the family asked about this turn, kept for the next."""
    asked, spec = state.get("family"), u.updates.get("model")
    if isinstance(asked, str) and isinstance(spec, str):
        u.updates["model"] = family_size(asked, spec) or spec
    return family_asked(u.notes)


def _owned_total(owned: list[str] | None) -> int | None:
    """The cards owned in all when they are one card ('16x a100-80gb-sxm', or two servers' '8x' of it); else None."""
    from gpu_advisor.tools.recommend import parse_owned

    try:
        parsed = [parse_owned(x) for x in owned or []]
    except (ValueError, KeyError):
        return None
    if not parsed or len({gpu.id for _, gpu in parsed}) > 1:
        return None
    return sum(n for n, _ in parsed)


def _owned_untyped(u: Understanding, state: AdvisorState, updates: dict[str, Any], turn: Turn) -> int | None:
    """'we have an 8-gpu box', '手上有一台8卡的': the count kept until the card is said, and the card named next
    ('A100s', '都是H20') is the owned one. Returns the count still waiting for its card (None: none)."""
    waiting = state.get("owned_untyped")
    if u.owned_untyped:
        turn.owned_untyped = u.owned_untyped
        return u.owned_untyped
    if waiting and "owned" not in updates and len(u.compare_gpus) == 1 and not u.whatif_gpus:
        updates["owned"] = [f"{waiting}x {u.compare_gpus[0]}"]
        u.compare_gpus = []
        return None
    return None if updates.get("owned") else waiting


def _question_code(turn: Turn, has_answer: bool) -> str | None:
    """The question with its own reply this turn asks (assistant.inform), or None: an intent code of the
    reader's, or rent-or-buy at prices the user gave, or for a card named before there is a plan."""
    from gpu_advisor.assistant.inform import QUESTION_REPLIES

    if turn.has("payback") and turn.cards and turn.also != "rent_buy":
        return "rent_buy"  # "自己买两张4090，多久回本": those cards' payback, at the plan's use
    if turn.has("rent_buy") and turn.prices and turn.also != "rent_buy" and turn.has("compare_cards"):
        return "rent_buy"  # "A100 at ¥35/h or an 8-card A800 server for ¥1.2M: rent or buy?": the prices decide
    code = next((c for c in QUESTION_REPLIES if c not in ("rent_buy", "reserve") and turn.has(c)), None)
    if code:
        return code
    if turn.has("reserve") and turn.also != "reserve":
        return "reserve"
    if turn.has("rent_buy") and turn.also != "rent_buy" and (
            turn.prices or (turn.cards and not has_answer and not turn.changed)):
        return "rent_buy"
    return None


def _preface(turn: Turn, lang: str) -> str:
    parts = []
    if turn.said:
        parts.append(say(lang, "reply.got_it", said=say(lang, "sep").join(turn.said)))
    parts += [n if n.endswith(" ") else n + " " for n in turn.notes]
    if turn.read_chars < turn.text_chars:
        parts.append(say(lang, "reply.truncated", chars=f"{turn.read_chars:,}") + " ")
    return "".join(parts)


def ask_node(state: AdvisorState) -> dict[str, Any]:
    lang = _lang(state)
    turn = _turn(state)
    preface = _preface(turn, lang)
    if turn.owned_untyped:  # "we have an 8-gpu box": which card, and nothing else asked this turn
        text = preface + say(lang, "reply.which_owned_card", n=turn.owned_untyped)
        return {"messages": [AIMessage(content=text, additional_kwargs=_payload("question", slot="owned"))]}
    profile = Profile.model_validate(state.get("profile") or {})
    asked = list(state.get("asked") or [])
    q = next_question(profile, state.get("defaulted") or {}, asked, lang, _request(state))
    assert q is not None  # route() only comes here when there is a question
    update: dict[str, Any] = {}
    if turn.also:  # "... vllm or tgi?" before the plan is known: answered with the plan (state "deferred")
        preface += say(lang, "reply.also_later") + " "
    return {"messages": [question_message(q.slot, lang, preface)], "asked": [*asked, q.slot], "pending": q.slot,
            **update}


def question_message(slot: str, lang: str = "en", preface: str = "") -> AIMessage:
    """The question for one slot as a reply message (also used to ask an assumption again)."""
    q = question(slot, lang)
    return AIMessage(content=f"{preface}{q.text}\n\n{writers.choices_line(q.choices)}",
                     additional_kwargs=_payload("question", **_question_payload(q)))


def _recorder(config: RunnableConfig | None):
    return ((config or {}).get("configurable") or {}).get("tool_recorder")


def answer_node(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    lang = _lang(state)
    profile = Profile.model_validate(state.get("profile") or {})
    filled, defaulted = fill_defaults(profile, state.get("defaulted") or {}, lang, state.get("settings"))
    if encoder_service(filled):  # 'reranker 200 QPS each with 50 candidates': an encoder's service, sized by its rate
        return _encoder_service(profile, filled, defaulted, lang)
    return _plan_answer(state, config)


# What a follow-up may change about renting or buying: said of it, or of what it is weighed on.
BUY_SAID_SLOTS = RENT_BUY_SLOTS | {"preference", "budget_usd", "budget_usd_per_month", "owned", "personal"}


def _rented_stays(filled: Profile, turn: Turn, previous: dict[str, Any], defaulted: dict[str, str]) -> Profile:
    """A plan rented before stays rented on a follow-up that says nothing of buying ('ok so we only had 4 of them?',
    'make it 32k context'): a user who never asked to buy is not told to buy a server because one figure moved (review
    BM #12); the rent-or-buy line still says where buying would pay off."""
    before = previous.get("recommend") or {}
    # (your own card with part of the model in RAM led: nothing was rented, the rented rows were its alternative)
    if before.get("action") != "rent" or before.get("offload_leads") or filled.preference != "either" \
            or "preference" not in defaulted \
            or BUY_SAID_SLOTS & set(turn.changed) or turn.has("rent_buy") or turn.has("server_price"):
        return filled
    return filled.model_copy(update={"preference": "rent"})


def _plan_answer(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    lang = _lang(state)
    profile = Profile.model_validate(state.get("profile") or {})
    filled, defaulted = fill_defaults(profile, state.get("defaulted") or {}, lang, state.get("settings"))
    turn = _turn(state)
    previous = plan_before(state, turn, profile, lang) or state.get("results") or {}  # 'does that change things?'
    cards = state.get("cards") or {}
    compare = turn.compare or cards.get("compare") or []
    if not compare and turn.also == "compare_cards" and len(turn.cards) >= 2:
        compare = list(turn.cards)  # '用H20还是L20，各要几张': the cards weighed are each sized for the job, as asked ones
    carried = _asked_before(state, turn)  # "同时在用30人左右，够不够" after "机器是8卡": those 8, at the new load
    whatif = turn.whatif or carried or (tuple(cards["whatif"]) if cards.get("whatif") else None)
    before = _plan_cards(previous) if turn.same_hardware else None
    whatif = whatif or before
    weighed, filled = _models_weighed(filled, turn, cards, list(defaulted), config)
    filled, profile = on_fallback(filled, profile, turn.ask, _recorder(config))  # 'full FT? if not, LoRA?'
    sized = _rented_stays(filled, turn, previous, defaulted)  # (the profile kept is the user's: only the plan rents)
    split = split_owned(filled, state.get("also"), list(defaulted), _recorder(config))  # '4台8卡H100…卡怎么分？'
    pool = None if split else pooled_owned(filled)  # 'one 4090 and one 3090': one pool, the slower card's pace
    try:
        answer = advice.compute(sized.model_copy(update={"owned": [split["serve_owned"]]}) if split
                                else sized.model_copy(update={"owned": pool["owned"]}) if pool else sized,
                                previous, compare, whatif, recorder=_recorder(config), defaulted=list(defaulted),
                                quotes=state.get("rent_quotes") or [], also=state.get("also"),
                                counts=dict(turn.counts) if turn.compare else None,
                                for_home=any((t.get("ask") or {}).get("job") == "local"
                                             for t in [turn.model_dump(), *_deferred(state)]),
                                models=list(turn.ask.get("job_models") or []) if turn.compare else None)
    except (ToolError, LookupError, ValueError) as e:
        text = say(lang, "reply.cannot_use", problems=refused(lang, e))  # never the tools' validation text
        return {"messages": [AIMessage(content=text, additional_kwargs=_payload("error", problem=refused("en", e)))],
                "pending": None}
    changed = turn.changed if previous else []
    lead = [str(n).strip() for n in turn.ask.get("lead") or []]
    notes = [n.strip() for n in turn.notes if n.strip() not in lead]
    said = [describe(k, getattr(profile, k), lang, daily=bool(profile.population_daily),
                     monthly=bool(profile.population_monthly)) for k in ACK_ORDER if _stated(getattr(profile, k, None)) and k not in defaulted
            and not (k == "engine" and profile.engine_app)
            and (not previous or said_matters(k, filled)  # what an earlier job used, not this one: not said again
                 or (k == "users" and fewer_in_flight(profile.users, answer.recommend)))]  # read from the user's words
    said = users_said(said, describe("users", profile.users, lang), profile.users, answer.recommend, lang)
    second = state.get("also")
    if second:
        said.append(split_ack(second, lang) if split else also_words(second, lang))
    if state.get("owned_untyped"):  # their type never said: not counted in the plan, and said so
        said.append(say(lang, "ack.owned_untyped", n=state["owned_untyped"]))
    waiting = [Turn.model_validate(t) for t in _deferred(state)]
    bought = _buy_or_rent(turn, filled, answer, config, state)  # 'buy a 5090 or keep renting?': answered first, head-on
    setup_rb = ("", None) if bought else _setup_buy_rent(turn, filled, answer, lang, config)  # 'the 8x h200 box?'
    answer = _headline_follows(answer, setup_rb[1]) if setup_rb[1] else plan_follows(answer, bought)
    ahead, after, answered, answer = _waiting_replies(waiting, filled, answer, lang, config,
                                                      bool(bought or setup_rb[1]))  # one rent-or-buy verdict
    own_prices = any(t.also == "rent_buy" for t in waiting)
    same = writers.same_hardware(answer, before, lang) if before else ""
    if same:  # "what about 64 users?": whether the plan's cards still do it, before the new plan
        notes.insert(0, same)
    extra = _followup_notes(turn, previous, answer, filled, lang, config, notes)
    if turn.whatif and turn.ask.get("added"):  # "would adding a third 3090 help?": yes or no, with the figures
        tried = writers.tried_added(answer, (int(turn.whatif[0]), str(turn.whatif[1])), lang, _heads(filled.model))
        if tried:
            notes.insert(0, tried)
    text, table = writers.write_answer(answer, filled, defaulted, changed, lang, notes, said,
                                       own_prices=own_prices or bool(bought) or bool(setup_rb[1]))
    text, pinned, direct = _setup_first(state, turn, previous, answer, text, lang, config, carried)
    first = "\n\n".join(p for p in (_buy_or_rent_block(bought, filled, answer, lang), setup_rb[0],
                                      _models_block(weighed, filled, answer, lang),
                                      why_first(turn.ask, state.get("results"), lang),  # why the plan's count
                                      _asked_first(answer, turn, cards, lang, config),
                                      long_run_block(answer, lang, _recorder(config)),
                                      moe_budget_block(answer, lang, lambda usd: writers.cash(usd, answer.recommend)))
             if p)  # buy2
    if first:
        text = first + "\n\n" + text
    one = _one_owned(turn, answer, lang)
    enough = owned_verdict(answer.recommend) if {"fits", "more"} & set(_literal_waiting(state)) else None
    if one:  # "单卡能跑不" with 8 cards of their own: one of them, first
        text = one[0] + "\n\n" + text
    if pool:
        text = pooled_line(pool, answer.recommend, lang) + "\n\n" + text
    text, slow = with_slow(text, turn.ask, answer, lang, _recorder(config))  # 'users complain its slow': why, then budget
    text = with_completion(text, filled.model, filled.use_case, answer.recommend, lang)  # autocomplete's latency
    shared = split_words(split, lang, filled.model or "") if split else None  # the service's servers, the run's
    both = shared[1] if shared else side_training(answer, second or turn.ask.get("side_train"), lang, filled.model or "",
                                                           _recorder(config)) \
        or pair_words(answer.pair, second, lang, filled.model or "")  # 'mostly lora on the 70b, sometimes full on the 8b'
    if both:  # the second job on the plan's cards, right under the plan's headline; asked whether both fit: that first
        alone = pinned[0] if pinned else writers.literal_answer(answer, "fits", lang)  # the first model's alone
        verdict = None if shared else pair_verdict(answer.pair, second, lang, filled.model or "") \
            if pinned or turn.has("fit_check") or (alone and alone in text) else None
        text = place_pair(text, both, verdict, alone,
                          shared[0] if shared else pair_headline(answer.pair, lang, second, filled.model or ""))
        pinned = verdict or pinned
    text = with_reserved(text, answer, lang, bool(turn.ask.get("reserved_asked")))  # 'on demand vs 1 yr reserved?'
    if lead:  # "what about the full R1?": the switch said first, right under the headline
        head, sep, rest = text.partition("\n\n")
        text = head + sep + "\n\n".join(lead) + "\n\n" + rest if sep and head.startswith("## ") \
            else "\n\n".join([*lead, text])
    text = with_kv_part(ahead + text + after, turn, filled, answer, lang, _recorder(config))  # '1) kv at 128k? 2) …'
    text, extra = with_fewer(text, extra, turn.ask, answer.recommend, lang, _recorder(config))  # 'only 2 nodes?'
    text, extra = with_consequence(text, extra, state, answer, filled, lang, _recorder(config))  # '只有一台，8 张卡'
    text, extra = with_total_first(text, extra, turn.ask, answer, lang)  # 'how much vram in fp16, and on 2x h100?'
    text, extra = with_asked_more(text, extra, turn.ask, answer.recommend, lang, _recorder(config))  # 'biggest model?'
    text, extra = with_switch(text, extra, turn.ask, answer.recommend, lang, answer.moved)  # 'if we later switch to R1, same cards?'
    text, extra = with_same_box(text, extra, turn.ask, answer.recommend, lang, _recorder(config))  # 'serve it on the same box'
    text, extra = with_pick(text, extra, turn.ask, answer.recommend, lang)  # 'what card would you pick?': one named
    text, extra = with_own_or_rent(text, extra, turn.ask, answer.recommend, lang, _recorder(config))  # 'or rent?'
    text, extra = with_method_choice(text, extra, turn.ask, answer.recommend, lang, _recorder(config))  # 'full or lora?'
    plan_q = _plan_question(turn, answer.model_dump(mode="json"), filled.model_dump(mode="json"), lang) \
        if previous and turn.changed else None
    if plan_q is not None:  # "we'd rather stay on nvidia: what's the total per month?": the new plan, then the answer
        text += "\n\n" + plan_q[1]
    if direct:  # "would a single h100 do it": that setup's answer first; the plan again only when it moved
        also_asked = None if turn.changed else _plan_question(
            turn.model_copy(update={"intents": [i for i in turn.intents if i != "math"]}),
            answer.model_dump(mode="json"), filled.model_dump(mode="json"), lang)  # "how much in total? why not …"
        kept = [n for n in notes if n] if not turn.changed else []  # what the message said beside it: never dropped
        text = "\n\n".join([direct[0], *([also_asked[1]] if also_asked else []), *kept,
                              text if turn.changed or not previous else plan_kept(answer.recommend, lang)])
        answer.direct = direct[1]
    text, extra = with_considered(text, extra, turn.ask, answer, filled, lang)  # 'or buy a used 3090 as a 2nd card?'
    text, extra = with_switched(text, extra, answer, filled, previous, lang)  # 'scratch that, one 4090 + offload?'
    text, extra = with_subsidy(*with_unknown_first(text, extra, state, answer, lang), last_words(state), lang)  # '换成海光的DCU行不行': not on record
    results = answer.model_dump(mode="json")
    message = AIMessage(content=text, additional_kwargs=_payload(
        "answer", results=results, profile=filled.model_dump(mode="json"), assumptions=defaulted,
        **({"direct": direct[1]} if direct else {}),
        decision=writers.decision(answer, lang), table=table, **({"also": answered} if answered else {}),
        **({"second_job": second} if second else {}), **({"owned_split": split} if split else {}), **({"owned_slow": slow} if slow else {}), **({"pinned": pinned[1]} if pinned else {}),
        **extra, **({"one_owned": one[1]} if one else {}), **({"owned_verdict": enough} if enough else {}), **({"model_choice": weighed} if weighed else {}),
        **({"buy_or_rent": bought} if bought else {}), **({"setup_buy_rent": setup_rb[1]} if setup_rb[1] else {})))
    # the load assumed and said (no question asked): a bare count or range next ('20-100') is that load
    assumed_load = "users" in defaulted and filled.phase in ("serve", "production") and not (
        filled.population or filled.users_range or filled.requests_per_s)
    return {"messages": [message], "results": results, "pending": "users" if assumed_load else None,
            "profile": filled.model_dump(), "defaulted": defaulted, "cards": _choice_kept(weighed, turn, cards),
            "deferred": None}


def _encoder_service(profile: Profile, filled: Profile, defaulted: dict[str, str], lang: str) -> dict[str, Any]:
    """An embedding or reranking service at a rate (assistant.encoder_reply): the cards, the rent, the command."""
    said = [describe(k, getattr(profile, k), lang) for k in ACK_ORDER
            if _stated(getattr(profile, k, None)) and k not in defaulted and not (k == "engine" and profile.engine_app)]
    try:
        text, results = encoder_answer(filled, defaulted, said, lang)
    except (ToolError, LookupError, ValueError) as e:
        text = say(lang, "reply.cannot_use", problems=refused(lang, e))  # never the tools' validation text
        return {"messages": [AIMessage(content=text, additional_kwargs=_payload("error", problem=refused("en", e)))],
                "pending": None}
    message = AIMessage(content=text, additional_kwargs=_payload(
        "answer", results=results, profile=filled.model_dump(mode="json"), assumptions=defaulted,
        decision=encoder_decision(results, lang)))
    return {"messages": [message], "results": results, "pending": None, "profile": filled.model_dump(),
            "defaulted": defaulted, "deferred": None}


def _buy_or_rent(turn: Turn, filled: Any, answer: Any, config: RunnableConfig,
                 state: AdvisorState) -> dict[str, Any] | None:
    """'worth buying a 5090 or keep renting?': a month of the rent set against the purchase (assistant.buy_or_rent);
    'what if i just do qlora on the 5090, is it worth buying then' after it: weighed again (assistant.buy_again)."""
    from gpu_advisor.assistant.buy_again import spec as buy_spec
    from gpu_advisor.assistant.buy_or_rent import weigh

    spec = buy_spec(turn, state.get("messages") or [])
    if not spec:
        return None

    best = answer.recommend.best if answer.recommend else None
    return weigh(filled, spec, best, _recorder(config), answer.recommend)


def _setup_buy_rent(turn: Turn, filled: Any, answer: Any, lang: str,
                    config: RunnableConfig) -> tuple[str, dict[str, Any] | None]:
    """'buying a box w/ 8x H200 vs renting them': the setup named bought against rented (assistant.setup_buy_rent)."""
    from gpu_advisor.assistant.setup_buy_rent import first

    return first(turn, filled, answer, lang, _recorder(config), lambda usd: writers.cash(usd, answer.recommend))


def _headline_follows(answer: Any, setup_rb: dict[str, Any] | None) -> Any:
    """The plan's headline goes the way the buy-or-rent verdict said first (assistant.setup_buy_rent.follow)."""
    if not setup_rb or answer.recommend is None:
        return answer
    from gpu_advisor.assistant.rb_tradeoff import asked_rows
    from gpu_advisor.assistant.setup_buy_rent import follow

    rec = follow(answer.recommend, setup_rb)
    return answer.model_copy(update={"recommend": rec, "options": asked_rows(answer.options, rec, setup_rb)})


def _buy_or_rent_block(bought: dict[str, Any] | None, filled: Any, answer: Any, lang: str) -> str:
    if not bought:
        return ""
    from gpu_advisor.assistant.buy_or_rent import block

    return block(bought, find_model(filled.model).name if filled.model else "", lang,
                 lambda usd: writers.cash(usd, answer.recommend))


def _choice_kept(weighed: dict[str, Any] | None, turn: Turn, cards: dict[str, Any]) -> dict[str, Any]:
    """'Qwen3-30B-A3B和Qwen3-32B哪个更省显存？速度哪个快', then '我们就一张L40S' or '上下文拉到32k呢': models weighed on speed
    or memory stay weighed on the next turn's job while the plan is on one of them (engine._models_weighed). The API
    weighed against self-hosting ('现在用deepseek的api，自己买卡会不会更划算', then '那如果换成72B呢') stays asked on the
    follow-ups that change the plan, until another job starts (new_topic.CLEARED)."""
    api = {k: v for k, v in {**(cards.get("api") or {}), **turn.ask}.items() if k in API_KEYS}
    kept: dict[str, Any] = {"api": api} if api else {}
    if not weighed or not weighed.get("on_card"):
        return kept
    return {**kept, "models": [r["model"] for r in weighed["rows"]], "dims": list(weighed.get("dims") or [])}


def _setup_first(state: AdvisorState, turn: Turn, previous: dict[str, Any], answer: advice.Answer, text: str, lang: str,
                 config: RunnableConfig, carried: tuple[int, str] | None):
    """The reply with the answer owed first for the setup asked about: a follow-up's one setup (assistant.direct),
    else the count asked about (assistant.pinned). Returns (text, pinned, direct)."""
    direct = _direct(state, turn, previous, answer, lang, config, carried) \
        or _asked_figure(turn, previous, answer, lang, config)
    if not direct:
        return (*_literal_first(state, answer, turn, text, lang, config), None)
    enough = None if _other_than_owned(answer, direct[1]) else _owned_enough_line(state, answer, lang)
    if enough and direct[1].get("code") != "figure.add_card":  # '如果是1000人呢，需要加卡吗': whether your cards are enough for the change, before what moved
        direct = (enough + "\n\n" + direct[0], direct[1])
    if direct[1].get("code") == "short" and answer.recommend.workload is not None \
            and answer.recommend.workload.spec.trains:
        # 'QLoRA 单卡 4090 够不够': the job as asked fits that card done another way (Unsloth): that yes, not a no
        with_way, way = _literal_first(state, answer, turn, text, lang, config)
        if way is not None and way[1].get("change"):
            return with_way, way, None
    return text, None, direct


def _other_than_owned(answer: advice.Answer, data: dict[str, Any]) -> bool:
    """Whether the setup answered directly is not the cards owned ('2 张 A800 够吗' with four of them): its yes or no
    answers 'enough?', never a verdict on all four above it (it read 'Yes' on 4 over 'No' on the 2 asked)."""
    owned = answer.recommend.owned_options
    return data.get("code") in ("meets", "short") and len(owned) == 1 \
        and (data.get("gpu"), data.get("gpus")) != (owned[0].gpu, owned[0].gpus)


def _direct(state: AdvisorState, turn: Turn, previous: dict[str, Any], answer: advice.Answer, lang: str, config: RunnableConfig,
            carried: tuple[int, str] | None = None) -> tuple[str, dict[str, Any]] | None:
    """The answer for the one setup a follow-up asks about (assistant.direct), or None."""
    from gpu_advisor.assistant.direct import asked_setup, direct_answer

    if not previous.get("recommend") and _answered_before(state):
        previous = {**previous, "recommend": True}  # a plan was shown (two models weighed keep no results): a follow-up
    setup = asked_setup(turn, previous) or carried  # carried: the setup said before, asked again
    if setup is None and previous and len(turn.compare) == 1 and (turn.has("why_not") or (
            "fits" in _literal_waiting(state) and not turn.changed)):
        # "why not H100?", "为什么不用H100": the fewest of it that do the job (its row), answered as that setup;
        # "can we do it on H100s and stay under the 15k?": yes or no on the H100, at the count it needs
        row = next((o for o in answer.options if o.gpu == turn.compare[0] and not o.owned), None)
        setup = (row.gpus, row.gpu) if row is not None else None
    return direct_answer(answer.recommend, answer.options, setup, lang, _recorder(config),
                         why_not=_why_not_said(state)) if setup else None


def _asked_figure(turn: Turn, previous: dict[str, Any], answer: advice.Answer, lang: str,
                  config: RunnableConfig) -> tuple[str, dict[str, Any]] | None:
    """A figure asked, answered first (assistant.asked_figure): the count of each card named, the longest context
    the plan's cards hold, the figures a change moved; None when none was asked."""
    from gpu_advisor.assistant import asked_figure as af

    ask, recorder = turn.ask, _recorder(config)
    lower = answer.recommend.workload.serve_precision if answer.recommend.workload is not None else None
    parts = [af.counts(answer, list(ask.get("count_each") or []), lower if turn.changed else None, lang, recorder)
             if ask.get("count_each") else None,
             af.longest(answer, lang, recorder) if ask.get("longest") and (previous or af.on_cards_said(answer))
             else None,
             af.figure_moved(answer, previous, str(ask["figure"]), lang)
             if ask.get("figure") and previous and turn.changed else None,
             now_and_later(answer, ask["later_rate"]["rps"], lang, recorder) if ask.get("later_rate") else None]
    if ask.get("add_card"):  # '需要再加一张卡吗': yes or no to one card more, first
        from gpu_advisor.assistant.add_card import add_card

        parts.insert(0, add_card(answer, lang, recorder))
    return af.joined(parts, lang)


def _answered_before(state: AdvisorState) -> bool:
    """Whether a reply before this message was an answer with a plan, or models weighed on cards (topic 'weigh')."""
    def planned(data: dict[str, Any]) -> bool:
        return data.get("kind") == "answer" or (data.get("kind") == "info" and data.get("topic") == "weigh")

    return any(isinstance(m, AIMessage) and planned(m.additional_kwargs.get("gpu_advisor") or {})
               for m in (state.get("messages") or [])[:-1])


def _why_not_said(state: AdvisorState) -> bool:
    """Whether the last message asks 'why not …?' of a setup ('why not a couple of h100s', '为什么不用H100')."""
    humans = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage)]
    return bool(humans) and bool(word_pattern("why_not_said").search(_text(humans[-1]).lower()))


def _asked_before(state: AdvisorState, turn: Turn) -> tuple[int, str] | None:
    """The setup the reply before answered directly ('机器是8卡Atlas 800T A2'), when this message asks again whether
    it is enough ('同时在用30人左右，够不够') and names no card of its own: (count, card id), else None."""
    ais = [m for m in state.get("messages") or [] if isinstance(m, AIMessage) and m.content]
    humans = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage)]
    said = ((ais[-1].additional_kwargs.get("gpu_advisor") or {}).get("direct") or {}) if ais else {}
    noted = (state.get("cards") or {}).get("whatif")
    if not said and noted and not state.get("results"):  # noted while a question was open: 'I'll size those 8 too'
        said = {"gpus": noted[0], "gpu": noted[1]}
    if not said.get("gpu") or not humans or turn.whatif or turn.compare or "fits" not in literal_kinds(_text(humans[-1])):
        return None
    return int(said["gpus"]), str(said["gpu"])


def _one_owned(turn: Turn, answer: advice.Answer, lang: str) -> tuple[str, dict[str, Any]] | None:
    from gpu_advisor.assistant.one_owned import one_owned

    return one_owned(answer, lang) if turn.ask.get("one_card") else None


def _planned(turn: Turn, previous: dict[str, Any], answer: advice.Answer, lang: str) -> tuple[str, dict[str, Any]] | None:
    from gpu_advisor.assistant.planned import planned_line

    return planned_line(answer, previous, lang) if previous and turn.ask.get("planned_card") else None


def _saving(turn: Turn, previous: dict[str, Any], answer: advice.Answer, filled: Profile, lang: str,
            config: RunnableConfig) -> tuple[str, dict[str, Any]] | None:
    from gpu_advisor.assistant.precision_saving import precision_saving

    if not previous or not turn.ask.get("saving"):
        return None
    return precision_saving(answer, previous, filled, lang, _recorder(config))


def _owned_count(profile: Profile) -> int:
    """How many cards of their own the profile holds ('8x v100-32gb' -> 8)."""
    counts = [c.partition("x ")[0] for c in profile.owned or []]
    return sum(int(n) for n in counts if n.isdigit())


def _compare_as_switch(u: Any, profile: Profile) -> None:
    """Two methods compared right after a fine-tuning plan, one of them the plan's: the switch to the other on the
    same job (its tokens, examples, epochs and deadline kept), answered against the plan (assistant.method_switch)."""
    from gpu_advisor.assistant.method_switch import as_switch

    to = as_switch(list(u.ask.get("methods") or []), profile.method, profile.phase in TRAINING_PHASES)
    if to:
        u.intents = (u.intents - {"method_compare"}) | {"whatif", "method_switch"}
        u.updates = {**{k: v for k, v in u.updates.items() if k != "model" or v != profile.model}, "method": to}
        u.ask = {k: v for k, v in u.ask.items() if k != "methods"}


def _followup_notes(turn: Turn, previous: dict[str, Any], answer: advice.Answer, filled: Profile, lang: str,
                    config: RunnableConfig, notes: list[str]) -> dict[str, Any]:
    """The lines a follow-up owes above the new plan, put first in `notes`: a method switched or weighed
    (assistant.method_switch), a saving asked (assistant.precision_saving), a card planned in place of their
    machine (assistant.planned), else what changed against the plan before. Returns their data by name."""
    old_best = (previous.get("recommend") or {}).get("best") or {}
    switched = _method_switched(turn, previous, answer, lang, filled, config) \
        or _methods_weighed(turn, answer, filled, lang, config)
    if switched:  # "为什么不用 LoRA？", "why not just qlora?": what the other method changes for this job, and why
        notes.insert(0, switched[0])
    planned = _planned(turn, previous, answer, lang)
    saved = _saving(turn, previous, answer, filled, lang, config)
    # "不微调了，会不会更省": the training run saved and the serving month against the plan before; "renting it is, what
    # changes": the cards and their month against the purchase before (assistant.premise), first, in place of
    # the figures against the plan before
    premise = (dropped_line(turn.ask, answer, previous.get("recommend") or {}, lang)
               or switched_line(previous.get("recommend") or {}, answer, lang)) if previous and turn.changed else ""
    if saved:  # "那上w8a8量化能省多少": the cards saved, or already saved against BF16
        notes.insert(0, saved[0])
    elif (switched or "whatif" in turn.intents) and not premise and not planned and previous and turn.changed \
            and not turn.ask.get("added") and old_best and not turn.ask.get("figure"):  # asked: answered first
        from gpu_advisor.assistant.moved import nothing_moved

        against = nothing_moved(answer, old_best, lang) or writers.against_before(answer, old_best, lang)
        # "qlora on cheaper cards instead?": what changed ("quantize it to fp8" on an FP8 plan: nothing)
        if against and not (switched and switched[1].get("code") == "model_moved"):  # 8B's run against 70B's: not said
            notes.insert(0, against)
    if planned:  # "i'll get a used 3090 instead, is that better for it": yes or no against their machine, first
        notes.insert(0, planned[0])
    if previous and turn.changed and not (switched and switched[1].get("code") == "model_moved"):
        from gpu_advisor.assistant.card_moved import card_moved_line
        from gpu_advisor.assistant.moved import moved_line

        line, answer.moved = moved_line(previous.get("inputs") or {}, answer.inputs, lang, old_best, answer.recommend.best)
        card = None if answer.beyond else card_moved_line(  # (beyond the machines weighed: said by assistant.phase_moved)
            answer.recommend, old_best, previous.get("inputs") or {}, answer.inputs, lang)
        if card:  # '如果租的话一年下来多少钱' moved 4 x 5090 to 1 x A800: what moved and why (review CE #10)
            notes.insert(0, card[0])
            answer.card_moved = card[1]
        if line:
            notes.insert(0, line)
    if premise:
        notes.insert(0, premise)
    return {k: v[1] for k, v in (("method_switch", switched), ("saving", saved), ("planned", planned)) if v}


def _methods_weighed(turn: Turn, answer: advice.Answer, filled: Profile, lang: str,
                     config: RunnableConfig) -> tuple[str, dict[str, Any]] | None:
    """'full finetune vs lora …, which one and what hardware': the other method sized beside the plan, and which."""
    from gpu_advisor.assistant.method_switch import weighed

    pair = turn.ask.get("methods_weighed")
    return weighed(answer, filled, other_weighed(pair, filled.method), lang, _recorder(config),
                   fallback_verdict(turn.ask, filled.method)) if pair else None


def _method_switched(turn: Turn, previous: dict[str, Any], answer: advice.Answer, lang: str, filled: Profile,
                     config: RunnableConfig) -> tuple[str, dict[str, Any]] | None:
    """A question that moves the plan to another fine-tuning method (assistant.method_switch): its reasoned
    comparison with the plan before, or None. When the model moved too ('ok what about qlora on 70b then'), the
    old method is sized on the new model, so the comparison differs only in the method (never 8B against 70B)."""
    from gpu_advisor.assistant.method_switch import method_switch, model_moved

    if not previous or not set(turn.intents) & {"whatif", "why_not", "why", "math", "method_switch"}:
        return None
    moved = model_moved(answer, previous, lang, filled, _recorder(config))
    return moved if moved is not None else method_switch(answer, previous, lang)


def _pinned_before(state: AdvisorState) -> bool:
    """Whether the reply before this turn answered a count asked about ('thinking one H100. enough?')."""
    ais = [m for m in state.get("messages") or [] if isinstance(m, AIMessage) and m.content]
    payload = (ais[-1].additional_kwargs.get("gpu_advisor") or {}) if ais else {}
    return bool(payload.get("pinned"))


def _literal_first(state: AdvisorState, answer: advice.Answer, turn: Turn, text: str, lang: str,
                   config: RunnableConfig) -> tuple[str, tuple[str, dict[str, Any]] | None]:
    """The answer to the message's literal question ('will it fit?', '能跑吗', 'how much vram?') put before the
    plan; a count asked that differs from the plan's ('a single 4090?') is answered on that count (assistant.pinned).
    Returns the text and the pinned answer, if any."""
    # ('can we legally buy h100s to serve …?' asks whether it is allowed: assistant/legal_buy.py answers it)
    kinds = [] if turn.ask.get("legal_beside") else one_verdict(_literal_waiting(state))
    own = own_card_code(answer.recommend) is not None  # 'can i run it?' on your card: its heading answers it
    kinds = [k for k in kinds if not (own and k == "fits") and not (near_leads(answer.recommend) and k in ("fits", "more"))]
    if turn.ask.get("considered"):  # '要不要再买一张3090': the verdict on that card answers it (assistant.considered)
        kinds = [k for k in kinds if k != "more"]
    kind = kinds[0] if kinds else None
    humans = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage)]
    if kind is None and turn.ask.get("recount"):
        kind = "fits"  # "那换成 4 张呢": whether that count of the plan's card does it, first
    # "一张 L20 够吗" then "20-100 人吧": the question still stands, answered again for the load just given
    again = kind is None and len(humans) >= 2 and SLOTS["users"].label(lang) in turn.changed \
        and not (turn.compare or turn.whatif) and (literal_kind(_text(humans[-2])) == "fits" or _pinned_before(state))
    literal = writers.literal_answer(answer, kind, lang)
    pinned = pinned_line(answer.recommend, lang, _recorder(config), answer.one_card, load_said=again) \
        if (kind in ("fits", "more") or again or turn.has("fit_check")) and not own else None
    others = kinds[1:]
    if pinned:  # "would that fit on a single 4090?" with a plan of two: yes or no on the one, and whom it serves
        others = [k for k in kinds if k != "fits"] if kind != "fits" and literal else others
        literal = pinned[0]
    lines = [writers.literal_answer(answer, k, lang) for k in others if not (pinned and k == "fits")]
    more = [line for line in lines if line and line != literal]  # "fits? and per month?": each question answered
    if more:
        literal = "\n\n".join([*([literal] if literal else []), *more])
    daily = writers.literal_answer(answer, "daily", lang) if "daily" in kinds else None
    if daily and literal and daily in literal:  # 'good enough for daily use?': that yes or no, first of all
        literal = "\n\n".join([daily, *(p for p in literal.split("\n\n") if p != daily)])
    if literal:
        head = writers.memory_headline(answer.recommend, lang) if kind == "memory" else \
            writers.fits_headline(answer.recommend, lang, pinned[1]) if pinned else \
            _daily_headline(state, answer, lang) if daily else None
        first, sep, rest = text.partition("\n")
        if head and first.startswith("## "):  # 'how much vram?': cards that hold it, not an order to rent them
            text = head + sep + rest
        text = literal + "\n\n" + text
    return text, pinned


def _daily_headline(state: AdvisorState, answer: advice.Answer, lang: str) -> str | None:
    """'qwen2.5 14b on a single rtx 4090, good enough for daily use?': the card asked about, never an order to buy it."""
    best = answer.recommend.best
    if best is None or not (state.get("profile") or {}).get("only"):
        return None
    return writers.fits_headline(answer.recommend, lang, {"fits": True, "gpu": best.gpu, "gpus": best.gpus})


def _literal_waiting(state: AdvisorState) -> list[str]:
    """The literal question of the last message, or of an earlier one that clarifying questions left waiting ('which
    card and how much per month?', then 'working hours' at the utilisation question: the month's cost first)."""
    for message in reversed(state.get("messages") or []):
        if isinstance(message, HumanMessage):
            kinds = literal_kinds(_text(message))
            if kinds:
                return kinds
        elif isinstance(message, AIMessage) and \
                ((message.additional_kwargs or {}).get("gpu_advisor") or {}).get("kind") != "question":
            return []
    return []


def _heads(model: str | None) -> tuple[int, int] | None:
    """The model's attention and KV heads (tensor parallelism splits them), when it is a known model."""
    try:
        arch = find_model(model or "")
    except (LookupError, ValueError):
        return None
    return int(arch.num_attention_heads), int(arch.num_kv_heads)


def _plan_cards(results: dict[str, Any]) -> tuple[int, str] | None:
    """The cards of the plan answered before (count, catalog id), unless they are the user's own (their
    own cards are sized in every answer)."""
    best = (results.get("recommend") or {}).get("best") or {}
    if not best.get("gpu") or best.get("owned"):
        return None
    return int(best["gpus"]), str(best["gpu"])


def _deferred(state: AdvisorState) -> list[dict[str, Any]]:
    """The turns whose question waits for the plan (a state written before they were a list holds one)."""
    waiting = state.get("deferred") or []
    return [waiting] if isinstance(waiting, dict) else [t for t in waiting if isinstance(t, dict)]


def _distinct(turns: list[Turn]) -> list[Turn]:
    """Each question once: the same question asked again (same code, same cards and engines) is answered once."""
    seen: set[str] = set()
    out = []
    for t in turns:
        key = json.dumps([t.also, t.cards, t.engines, t.subject, t.scope, t.prices], sort_keys=True)
        if t.also and key not in seen:
            seen.add(key)
            out.append(t)
    return out


def _rent_or_buy_at_their_prices(answer: Any, rb: dict[str, Any] | None) -> Any:
    """The plan's rent-or-buy decision taken at the prices the user gave (their comparison follows the
    answer), with the same margin the catalog's prices need before buying is advised."""
    from gpu_advisor.tools.recommend import owning_pays, rents_only

    rec = answer.recommend
    if not rb or rec.action not in ("rent", "buy") or rents_only(rec.workload):
        return answer
    action = "buy" if owning_pays(rb["rent_total_usd"], rb["buy_total_usd"]) else "rent"
    return answer.model_copy(update={"recommend": rec.model_copy(update={"action": action})})


def _plan_question(turn: Turn, results: dict[str, Any], profile: dict[str, Any],
                   lang: str) -> tuple[str, str, dict[str, Any]] | None:
    """A question about the plan (PLAN_QUESTIONS) answered from its results: (topic, text, payload), or None."""
    if turn.has("math") and not turn.has("why"):
        return None
    if turn.has("own_enough"):
        return ("own_enough", *writers.write_own_enough(results, lang))
    if turn.has("total_cost"):
        return ("total_cost", *writers.write_total_cost(results, lang, turn.span_months,
                                                        turn.with_spare or bool(profile.get("uptime"))
                                                        or profile.get("redundancy") == "n+1"))
    if turn.has("servers_limit") or turn.has("servers_count"):
        return ("servers", *writers.write_servers(results, lang, turn.servers, profile.get("uptime"), turn.two_sites))
    if turn.has("cheapest"):
        return ("cheapest", *writers.write_cheapest(results, lang))
    if turn.has("running_costs"):
        return ("running_costs", *writers.write_running_costs(results, lang))
    if turn.has("how_long"):
        return ("how_long", *writers.write_how_long(results, lang))
    return None


def explain_node(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    """Follow-ups about an answer: "show the math" / "why?", "rent or buy?", "can we do it on what we have?",
    "what's the total cost?"."""
    lang = _lang(state)
    turn = _turn(state)
    if turn.has("rent_buy") and not turn.has("math"):
        text, payload = writers.write_rent_or_buy(state.get("results") or {}, lang, payback=turn.has("payback"))
        topic = "rent_or_buy"
    elif (asked := _plan_question(turn, state.get("results") or {}, state.get("profile") or {}, lang)) is not None:
        topic, text, payload = asked
    elif turn.has("why") and not word_pattern("math_asked").search(_text(state["messages"][-1]).lower()):
        text, payload = writers.write_why(state.get("results") or {}, lang)
        topic = "why"
    else:
        text, payload = writers.write_math(state.get("results") or {}, lang, recorder=_recorder(config))
        topic = "math"
    return {"messages": [AIMessage(content=text, additional_kwargs=_payload("info", topic=topic, results=payload))]}


def _concept(turn: Turn, lang: str) -> str:
    """The glossary's entries for the topic; asked which one to use ("…and which one should I use?"), its verdict."""
    text = writers.glossary_reply(turn.topic or "", lang)
    if turn.ask.get("worth"):  # 'is fp8 kv cache worth it or does it tank quality?': the verdict, then how it works
        return worth_answer(str(turn.ask["worth"]), text, lang, turn.ask.get("worth_plan"))
    example = card_example(turn.topic or "", turn.ask.get("example_card"), lang)  # '… on H100?': that card's figures
    text += f"\n\n{example}" if example else ""
    pick = "concept_choice." + "+".join(sorted((turn.topic or "").split("+")))
    if turn.ask.get("choose") and pick in catalog(lang):
        text += "\n\n" + say(lang, pick)
    return text


def _models_weighed(filled: Any, turn: Turn, cards: dict[str, Any], defaulted: list[str],
                    config: RunnableConfig) -> tuple[dict[str, Any] | None, Any]:
    """Two or more models named as the choice for the job (this turn's, or kept while a question was asked first):
    each sized on it (assistant.model_choice), and the profile on the model the verdict picks; None (and the
    profile as it was) when none were named or the job is not yet known."""
    models = turn.ask.get("models") or cards.get("models")
    if not models or not filled.phase or filled.model not in models:
        return None, filled
    from gpu_advisor.assistant.model_choice import weigh

    weighed = weigh(filled, list(models), defaulted, _recorder(config), turn.ask.get("dims") or cards.get("dims"))
    if weighed is not None and weighed["pick"] and weighed["pick"] != filled.model:
        filled = filled.model_copy(update={"model": weighed["pick"]})  # the plan for the model the verdict picks
    return weighed, filled


def _models_block(weighed: dict[str, Any] | None, filled: Any, answer: Any, lang: str) -> str:
    """'Qwen3-32B 还是 Qwen3-30B-A3B 更省钱': the models weighed and the verdict, before the plan ("" when none)."""
    if weighed is None:
        return ""
    from gpu_advisor.assistant.model_choice import block

    return block(weighed, filled.model or "", lang, lambda usd: writers.cash(usd, answer.recommend))


def _asked_first(answer: Any, turn: Turn, cards: dict[str, Any], lang: str, config: RunnableConfig) -> str:
    """What the question asked beside the sizing needs before the plan: each option's cost per million tokens,
    ranked ("which is cheapest per token"); why a smaller count does not serve the rate ("why not just 1 h100?")."""
    parts = []
    if turn.ask.get("per_token") or cards.get("per_token"):
        from gpu_advisor.assistant.per_token import per_token_block

        ranked, answer.per_token = per_token_block(answer, lang, _recorder(config))
        parts.append(ranked)
    api = {k: v for k, v in {**(cards.get("api") or {}), **turn.ask}.items() if k in API_KEYS}
    if api:  # 'vs paying an api … at what volume does self hosting win': the break-even volume (assistant.api_compare)
        from gpu_advisor.assistant.api_compare import api_block

        parts.append(api_block(answer, api, lang, _recorder(config)))
    if turn.whatif and not turn.ask.get("added"):
        parts.append(writers.why_not_rate(answer, lang))
    return "\n\n".join(p for p in parts if p)


def reply_node(state: AdvisorState) -> dict[str, Any]:
    """Replies that size nothing: greetings, concept questions, unclear messages, bad values."""
    lang = _lang(state)
    turn = _turn(state)
    has_answer = bool(state.get("results"))
    parts: list[str] = []
    kind = "info"
    extra: dict[str, Any] = {}
    if turn.has("reset"):
        parts.append(say(lang, "reply.starting_over") + " " + say(lang, "intro"))
    elif turn.has("empty"):
        parts.append(say(lang, "reply.empty"))
    elif turn.problems:
        kind = "error"
        parts.append(say(lang, "reply.cannot_use", problems="; ".join(turn.problems)))
    elif turn.topic:
        parts.append(_concept_and_pair(turn, lang, extra))
        extra["topic"] = turn.topic
    elif turn.has("best_gpu"):
        parts.append(writers.glossary_reply("best-gpu", lang) + " " + say(lang, "reply.best_gpu_tail"))
        extra["topic"] = "best-gpu"
    elif turn.has("injection"):
        parts.append(say(lang, "reply.injection"))
    elif (turn.compare or turn.whatif) and not has_answer:
        cards = list(turn.compare) or ([f"{turn.whatif[0]}x {turn.whatif[1]}"] if turn.whatif else [])
        parts.append(say(lang, "reply.cards_noted", cards=writers.cards_words(cards, lang)))
    elif later := _answered_later(turn):
        parts.append(say(lang, later))
    elif turn.has("greet"):
        parts.append(say(lang, "intro"))
    elif turn.has("thanks"):
        parts.append(say(lang, "reply.thanks"))
    elif turn.has("not_sure") and has_answer:
        parts.append(say(lang, "reply.not_sure_answered"))
    elif turn.has("help"):
        parts.append(say(lang, "intro") + " " + say(lang, "reply.help"))
    elif turn.said or turn.notes:
        preface = say(lang, "reply.understood_nothing_new", said="; ".join(turn.said)) if turn.said else ""
        layout = writers.servers_line(state["results"], lang) if turn.owned_restated and has_answer else None
        parts.append((preface + " " + " ".join(turn.notes)).strip() + (f"\n\n{layout}" if layout else ""))
    else:
        parts.append(say(lang, "reply.not_understood"))
        if turn.read_chars < turn.text_chars:
            parts.append(say(lang, "reply.truncated", chars=f"{turn.read_chars:,}"))
    first = turn.has("reset") or (turn.has("best_gpu") and not state.get("profile", {}).get("phase"))
    return _with_question(state, lang, parts, kind, extra, "phase" if first else None, invite=bool(turn.topic))


def _waiting_replies(waiting: list[Turn], filled: Any, answer: Any, lang: str, config: RunnableConfig,
                     rent_buy_said: bool = False) -> tuple[str, str, list[dict[str, Any]], Any]:
    """Each question left waiting, answered for the plan it is about: the engine asked between ('vllm vs sglang vs
    trt-llm for X on 8xH200, which engine') before the plan, the others under it. (ahead, after, their data, the
    answer with the rent-or-buy at the user's prices.)"""
    from gpu_advisor.assistant.inform import Context, reply

    ahead, after = "", ""
    answered: list[dict[str, Any]] = []  # each waiting question's own data, beside the plan's
    for asked in _distinct(waiting):  # "... vllm or tgi?": each question answered under the plan it is about
        ctx = Context(lang, asked, filled.model_dump(mode="json"),
                      {**answer.model_dump(mode="json"), "rent_buy_said": rent_buy_said},  # (assistant/rb_tradeoff.py)
                      filled.region or "global", _recorder(config))
        if asked.also == "engine_choice" and not asked.ask.get("engine_after"):  # asked second: said second
            ahead += reply(str(asked.also), ctx) + "\n\n"
        else:
            after += "\n\n" + reply(str(asked.also), ctx)
        answered.append({"code": asked.also, **ctx.data})
        answer = _rent_or_buy_at_their_prices(answer, ctx.data.get("rent_or_buy"))
    return ahead, after, answered, answer


def _concept_and_pair(turn: Turn, lang: str, extra: dict[str, Any]) -> str:
    """The glossary's entry, and the MoE and dense models named with it compared ('mixtral 8x7b vs llama 2 70b, which
    is cheaper to host': assistant/moe_pair.py)."""
    text = _concept(turn, lang)
    if turn.ask.get("worth"):
        extra["worth"] = turn.ask["worth"]  # the technique whose verdict was given (assistant/worth.py)
    pair = moe_pair_text(turn.ask.get("moe_pair"), lang)
    if pair is None:
        return text
    extra["moe_pair"] = pair[1]
    return text + "\n\n" + pair[0]


def _answered_later(turn: Turn) -> str | None:
    """A question about the plan asked before there is one: the catalog key of the reply that says so (and "just want
    to understand the concept": no plan wanted, concept4.learn_only)."""
    if turn.has("learn_only"):
        return "concept4.learn_only"
    if turn.has("math") or turn.has("rent_buy"):
        return "reply.math_later"
    if any(turn.has(x) for x in PLAN_QUESTIONS):
        return "reply.plan_later"
    return None


def _still_open(state: AdvisorState) -> str | None:
    """The question asked before this turn, unless this turn answered it ("不确定" took its default, a value filled it)."""
    pending = state.get("pending")
    if pending and ((state.get("profile") or {}).get(pending) is not None or _turn(state).has("not_sure")):
        return None
    return pending


# Slots that say where or how busy, not what job: a question answered with only these known ends with an invitation
# ('…reserved h100 at $2.10/hr? we use 8 gpus steady': how busy they are weighs the reservation; no model is asked).
NO_JOB_SLOTS = ("region", "currency", "utilisation")


def _with_question(state: AdvisorState, lang: str, parts: list[str], kind: str, extra: dict[str, Any],
                   slot: str | None = None, invite: bool = False) -> dict[str, Any]:
    """A reply that sizes nothing, ended as the conversation stands: the question still open asked
    again (or `slot`'s, or the next one when there is no answer yet), else what can be asked next.
    invite: a question answered before anything was planned ends with an invitation, not a question."""
    pending = _still_open(state)
    has_answer = bool(state.get("results"))
    q = None
    quiet = _turn(state).has("no_sizing") and kind == "info"  # "just curious: vLLM or SGLang?": the answer alone
    if quiet:
        pass
    elif slot:
        q = question(slot, lang)
    elif pending:
        q = question(pending, lang)
    elif invite and not has_answer and not any(v for k, v in (state.get("profile") or {}).items()
                                               if k not in NO_JOB_SLOTS):
        parts.append(say(lang, "info.invite"))
    elif not has_answer:
        profile = Profile.model_validate(state.get("profile") or {})
        q = next_question(profile, state.get("defaulted") or {}, state.get("asked") or [], lang, _request(state))
    update: dict[str, Any] = {}
    if q:
        parts.append(f"{q.text}\n\n{writers.choices_line(q.choices)}")
        extra.update(_question_payload(q))
        update["pending"] = q.slot
        if q.slot not in (state.get("asked") or []):
            update["asked"] = [*(state.get("asked") or []), q.slot]
    elif has_answer and not quiet:
        parts.append(say(lang, "reply.followups"))
    message = AIMessage(content=parts[0] + ("\n\n" + "\n\n".join(parts[1:]) if len(parts) > 1 else ""),
                        additional_kwargs=_payload(kind, **extra))
    return {"messages": [message], **update}


def inform_node(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    """Questions that size no workload (assistant.inform): two cards side by side (sized for the job when
    the conversation has one), serving engines, prices and stock, forecasts, a model's quality, jobs the
    tools do not size, rent or buy at prices given. Kind "info"; the open question is asked again."""
    from gpu_advisor.assistant.inform import Context, reply

    lang = _lang(state)
    turn = _turn(state)
    profile = state.get("profile") or {}
    code = _question_code(turn, bool(state.get("results")))
    assert code is not None  # route() only comes here with one
    region = turn.where or profile.get("region") or (state.get("settings") or {}).get("region") \
        or SLOTS["region"].default_for(profile, lang)  # a Chinese question: the Chinese market, as in a plan
    local = ((config or {}).get("configurable") or {}).get("local_machine")
    ctx = Context(lang, turn, profile, state.get("results") or {}, region, _recorder(config), local)
    text = reply(code, ctx)
    if ctx.data.get("choices"):  # the user's own machine, offered: the quick replies that say "use them"
        choices = [(c["label"], c["value"]) for c in ctx.data["choices"]]
        return {"messages": [AIMessage(content=f"{text}\n\n{writers.choices_line(choices)}",
                                       additional_kwargs=_payload("info", topic=code, results=ctx.data,
                                                                  choices=ctx.data["choices"]))]}
    preface = _preface(turn, lang).strip()
    if preface and ctx.data.get("why"):  # 'why is the l40s slower … just curious': the answer's line first, then what was read
        first, _gap, rest = text.partition("\n\n")
        text, preface = f"{first}\n\n{preface}\n\n{rest}", ""
    parts = [f"{preface}\n\n{text}" if preface else text]
    offered = code in OFFERED or (code in ANSWERED_WHOLE and not state.get("results"))
    if offered and not _still_open(state):  # the question answered whole: what can be sized next, offered
        own = ctx.data.get(code)
        if not (isinstance(own, dict) and (own.get("example") or own.get("hold") or own.get("own_offer"))):  # a worked example ends with
            # its own offer; the cards named held or not, the answer
            cards_known = code == "method_compare" and (profile.get("owned") or profile.get("only"))
            parts.append(say(lang, f"{code}.offer" + (".cards_known" if cards_known else "")))  # never re-asks the cards
        return {"messages": [AIMessage(content="\n\n".join(parts),
                                       additional_kwargs=_payload("info", topic=code, results=ctx.data))]}
    return _with_question(state, lang, parts, "info", {"topic": code, "results": ctx.data}, invite=True)


# Questions whose reply answers them whole from what was said (candidates sized on the user's card): the reply
# ends with an offer to size one in full, not with the next slot's question.
OFFERED = ("weigh", "moe_memory", "capacity", "method_compare", "licence", "largest", "budget_largest", "server_price")
# Concept questions answered whole before any plan ("KV cache到底占多少显存？Llama-3.1-70B 128k"): what it is for
# changes nothing in the answer, so the reply ends with an offer, never with "what will you do with it?".
ANSWERED_WHOLE = ("kv_cache",)


def tool_call_messages(calls: list[tuple[str, dict[str, Any], Any]], turn: int) -> list[AnyMessage]:
    """The tool calls behind a reply in the standard form front-ends show as tool activity: one
    AIMessage with `tool_calls` (no text), then a ToolMessage per call with its concise result. The ids
    are `call-{turn}-{i}-{tool}`, `turn` counting the thread's turns that showed tool calls."""
    from gpu_advisor.tools.registry import concise_data

    ids = [f"call-{turn}-{i}-{tool}" for i, (tool, _, _) in enumerate(calls, start=1)]
    request = AIMessage(content="", tool_calls=[{"name": tool, "args": args, "id": call_id, "type": "tool_call"}
                                                for call_id, (tool, args, _) in zip(ids, calls, strict=True)])
    results = [ToolMessage(content=json.dumps(concise_data(result, ranking=tool == "recommend")
                                              if isinstance(result, dict) else result),
                           tool_call_id=call_id, name=tool) for call_id, (tool, _, result) in zip(ids, calls, strict=True)]
    return [request, *results]


def _showing_tool_calls(node):
    """A node that puts the tool calls it made before its reply (see tool_call_messages)."""

    def run(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
        calls: list[tuple[str, dict[str, Any], Any]] = []
        outer = _recorder(config)

        def record(tool: str, arguments: dict[str, Any], result: Any, ms: float) -> None:
            calls.append((tool, arguments, result))
            if outer is not None:
                outer(tool, arguments, result, ms)

        configurable = {**((config or {}).get("configurable") or {}), "tool_recorder": record}
        update = node(state, {**(config or {}), "configurable": configurable})
        if calls:
            # Numbered by the thread's own count, not by the messages it holds: those are a window of
            # WINDOW_TURNS turns, and ids counted from them would repeat from turn 21 on.
            shown = state.get("tool_turns")
            shown = shown if isinstance(shown, int) and not isinstance(shown, bool) and shown >= 0 else 0
            update["messages"] = [*tool_call_messages(calls, shown + 1), *update["messages"]]
            update["tool_turns"] = shown + 1
        return update

    run.__name__ = node.__name__
    return run


def __getattr__(name: str) -> Any:
    """The LangGraph graphs, built where langgraph is imported (assistant.graph_builder): importing the engine, as
    assistant.session's driver does, loads no langgraph."""
    if name in ("build_graph", "graph", "engine_graph"):
        from gpu_advisor.assistant import graph_builder

        return getattr(graph_builder, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
