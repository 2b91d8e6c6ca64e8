"""The slot table: the one description of what the advisor knows about a workload.

Each slot names its default, whether the advisor asks for it, and when it matters; its label,
question, quick replies and the words that state its default live in the language catalogs under
`slot.<name>.*`. Questions, defaults, the profile panel and the answer's assumptions all derive from
this table. Plain data without pydantic, so that a front-end's first screen can show it cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpu_advisor.assistant.catalog import say, text
from gpu_advisor.tools.phases import (
    DEFAULT_COMPLETION_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    DEFAULT_SAMPLES,
    DEFAULT_USERS,
    IMAGE_PROMPT_TOKENS,
    PHASES,
    PROMPTS_PER_STEP,
    RL_PROMPTS,
)

MAX_QUESTIONS = 4
# One person's own use ("just me", "自己用"): a few hours a week (words/time.yaml's row for it), assumed and said,
# never asked.
PERSONAL_UTILISATION = 0.05
# The model an embedding or reranking job is sized with when none is named: the multilingual BGE pair most
# retrieval stacks start from (knowledge/data/models.yaml records both).
ENCODER_MODELS = {"embed": "bge-m3", "rerank": "bge-reranker-v2-m3"}

Profile = dict[str, Any]  # slot name -> value, as kept in the graph's state


def _phase(p: Profile):
    return PHASES.get(p.get("phase") or "")


def always(_p: Profile) -> bool:
    return True


def trains(p: Profile) -> bool:
    spec = _phase(p)
    return spec is None or spec.trains


def fine_tunes(p: Profile) -> bool:
    spec = _phase(p)
    return spec is None or (spec.trains and not spec.pretrains)


def fine_tunes_for_real(p: Profile) -> bool:
    """Worth asking how: someone trying things out starts with QLoRA, the stated default."""
    return fine_tunes(p) and p.get("phase") != "experiment"


def serves(p: Profile) -> bool:
    spec = _phase(p)
    return spec is None or spec.serves


def batch(p: Profile) -> bool:
    spec = _phase(p)
    return spec is not None and spec.batch


def trains_on_data(p: Profile) -> bool:
    """Training on a dataset of tokens said: online RL trains on what it generates instead (tools.rl)."""
    return trains(p) and not reinforces(p)


def reinforces(p: Profile) -> bool:
    """An online RL fine-tune (GRPO, PPO): its prompts, group size and completion length size it (tools.rl)."""
    return fine_tunes(p) and p.get("objective") == "rl"


def reinforces_by_pass(p: Profile) -> bool:
    """An RL run sized as passes over its prompts: one said in steps ('~2000 steps') needs no count of prompts."""
    return reinforces(p) and not p.get("rl_run_steps")


def trains_by_data(p: Profile) -> bool:
    """A training run measured in passes over its data (epochs): an RL run said in steps is not."""
    return trains(p) and not p.get("rl_run_steps")


def writes_tokens(p: Profile) -> bool:
    """A batch job whose model generates: an encoder (embedding, reranking) reads and writes nothing."""
    return batch(p) and not _encoder(p)


def _encoder_limit(p: Profile, default: int) -> int:
    """The most an encoder reads per item when that is below the default item length (BERT-style models read 512
    tokens): the item is cut there, so that is what is read; else 0."""
    if not batch(p) or not _encoder(p):
        return 0
    from gpu_advisor.knowledge import find_model

    limit = find_model(p["model"]).max_context
    return limit if limit < default else 0


def _native_context(p: Profile, default: int) -> int:
    """The model's own context when it is shorter than the default one (Llama 2 reads 4,096 tokens): a context not
    said is held to what the model reads; else 0."""
    if not p.get("model"):
        return 0
    from gpu_advisor.knowledge import find_model

    try:
        model = find_model(p["model"])
    except (LookupError, ValueError):
        return 0
    if model.family == "generic":  # a model known only by its size: its borrowed layout's context is not its own
        return 0
    return model.max_context if model.max_context < default else 0


def _classify_output() -> int:
    """The tokens a classification or extraction job writes per item (knowledge/data/use_cases.yaml)."""
    from gpu_advisor.knowledge.use_cases import use_cases

    return use_cases()["classify"].output_tokens  # the table's own row: no second copy of the figure


def _reasoning_output(p: Profile) -> int | None:
    """A reasoning model's answer with its thinking (knowledge models: R1 and its distills, QwQ), else None."""
    from gpu_advisor.tools.recommend import reasoning_output

    return reasoning_output(p["model"]) if p.get("model") else None


def _model_for_job(p: Profile, lang: str, usual: str) -> str | None:
    """The model taken for a job that wants another than the usual one: an embedding model for 'embed 10M documents',
    a model that writes the user's language for '帮我写小说 … 中文网文'; None: the usual one."""
    if p.get("encoder_job"):
        return ENCODER_MODELS[p["encoder_job"]]
    return language_model_for(p, lang, usual)


def language_model_for(p: Profile, lang: str, usual: str) -> str | None:
    """The model taken when none is named and the work writes text in the conversation's language, other than English
    (a use case with writes_user_language: '帮我写小说', '写中文网文'): the catalog's model strong in that language
    nearest the usual default's size (knowledge.language_pick); None otherwise (English users keep the default)."""
    if lang == "en" or not p.get("use_case"):
        return None
    from gpu_advisor.knowledge.use_cases import use_case

    use = use_case(p["use_case"])
    if use is None or not use.writes_user_language:
        return None
    from gpu_advisor.knowledge.language_pick import language_model

    model = language_model(lang, usual)
    return model.id if model else None


def reasoning_context(p: Profile) -> int:
    """A reasoning model's context when none is said (knowledge rules.reasoning_context_tokens, within what the model
    reads): room for its thinking before the answer (review BJ #18); 0 for other models."""
    if not _reasoning_output(p):
        return 0
    from gpu_advisor.knowledge import find_model, rules

    try:
        limit = find_model(p["model"]).max_context
    except (LookupError, ValueError):
        return 0
    return min(limit, rules().reasoning_context_tokens)


def use_context(p: Profile) -> int:
    """The context per conversation typical of the use said ("a coding assistant", "知识库问答": a row of
    knowledge/data/use_cases.yaml), else 0; a prompt length said sizes the context instead (engine: prompt + reply)."""
    if not p.get("use_case") or p.get("prompt_tokens"):
        return 0
    from gpu_advisor.knowledge.use_cases import use_case

    use = use_case(p["use_case"])
    return use.context if use else 0


def _encoder(p: Profile) -> bool:
    if not p.get("model"):
        return False
    from gpu_advisor.knowledge import find_model

    try:
        return find_model(p["model"]).encoder
    except (LookupError, ValueError):
        return False


def runs_inference(p: Profile) -> bool:
    return serves(p) or batch(p)


def is_job(p: Profile) -> bool:
    spec = _phase(p)
    return spec is not None and not spec.serves


def serves_others(p: Profile) -> bool:
    """Users matter when people other than the one experimenting will use it (a Mac you own is one
    person's computer: not asked, one user assumed and said); a request rate sizes the requests in flight
    instead (tools.queueing), so the people at once are then neither asked nor assumed."""
    return serves(p) and p.get("phase") != "experiment" and not _personal_machine(p) and not p.get("requests_per_s") \
        and not p.get("personal")


def rate_given(p: Profile) -> bool:
    return serves(p) and bool(p.get("requests_per_s"))


def holds_conversations(p: Profile) -> bool:
    """The context held per conversation matters when serving people; with a request rate each request
    holds its prompt and output (tools.recommend.rate_lengths), unless a context is said."""
    return serves(p) and not p.get("requests_per_s")


def _billed_around_the_clock(p: Profile) -> bool:
    """A service for other people (more than one at once, or a population) rented with no utilisation said: it is
    billed every hour of the month (tools.recommend.service_hours), whatever share of them it is busy."""
    if p.get("phase") not in ("serve", "production", "train-and-serve") or p.get("personal"):
        return False  # (only ever said of a utilisation assumed: one the user states has no default words)
    users = p.get("users") or SLOTS["users"].default_for(p)
    return bool(p.get("population")) or (users or 1) > 1


def pays_for_time(p: Profile) -> bool:
    """How busy the cards are decides rent or buy for serving; a job rents by the hour, owned cards
    cost nothing more, someone set on buying has decided already, and cards with no price on record
    (国产化: only Ascend, priced by the vendor on request) leave nothing to weigh."""
    return serves(p) and not p.get("owned") and p.get("preference") != "buy" and not _unpriced_cards(p)


def _unpriced_cards(p: Profile) -> bool:
    """Every card the user allows has neither a buy price nor a rental price on record."""
    # (the records and prices load here, on the first question's answer, not with the app's first screen)
    from gpu_advisor.knowledge import gpus
    from gpu_advisor.tools.cost import try_price

    only, exclude = set(p.get("only") or []), set(p.get("exclude") or [])
    allowed = [g for g in gpus() if (g.id in only if only else not {g.id, g.vendor, g.segment} & exclude)]
    return bool(allowed) and not any(g.buy_price_usd or try_price(g.id) for g in allowed)


# What the user asked beside the workload, kept until the first answer (assistant.engine's request flags):
# "cards": cards named, compared or limited to ("H100 or H200 and how many", "on 4x L40S");
# "aside": a concept asked beside the sizing ("tensor vs pipeline parallel for ... on 4x L40S, which one?");
# "rent_buy": renting against buying asked ("租 L20 还是买两张 4090，哪个划算");
# "serve_cards": the serving cards asked of a train-then-serve job ("微调完…用什么卡部署比较合适").
REQUEST_FLAGS = ("cards", "aside", "rent_buy", "serve_cards")


def _request(p: Profile) -> set[str]:
    return set(p.get("request") or ())


def _target(p: Profile) -> bool:
    """A latency or speed target said: the request is which cards, and how many, meet it."""
    return bool(p.get("ttft_ms") or p.get("e2e_ms") or p.get("min_tokens_per_s"))


# When a question's answer can change the headline of this request (the card class and count, or yes or no): only
# then is it asked; else its default is taken and said among the assumptions. The one place that decides it.
def ask_utilisation(p: Profile) -> bool:
    """How busy the cards are weighs renting against buying; it never changes the cards a target needs, a comparison
    of cards named, or a verdict on them, so it is asked only when renting or buying is open or is the question. An
    availability target or redundancy is around the clock; one person's own use a few hours a week: said, not asked."""
    if p.get("uptime") or p.get("redundancy") or p.get("personal"):
        return False
    if p.get("encoder_job") or (_encoder(p) and p.get("phase") in ("serve", "production")):
        return False  # an embedding or reranking service is rented around the clock (assistant.encoder_reply)
    if p.get("preference") == "rent" or (p.get("population") and not p.get("population_daily")):
        return False  # renting decided ('renting it is'): the cards stay; a staff's tool: busy in working hours, said
    request = _request(p)
    return "rent_buy" in request or not ({"cards", "serve_cards"} & request or _target(p))


def ask_users(p: Profile) -> bool:
    """The people at once come from the people who use it (tools.traffic) or the range said; how to split a model
    over the cards said ('TP or PP on 4x L40S?') is answered for a small load, said. An embedding or reranking
    service is sized by its request rate (tools.encoder_serving), never by people at once."""
    if p.get("population") or p.get("users_range") or p.get("encoder_job") or _encoder(p):
        return False
    return not ("aside" in _request(p) and (p.get("only") or p.get("owned")))


def ask_method(p: Profile) -> bool:
    """One person's own gaming card or Mac fine-tunes with QLoRA, the stated default: not asked; nor when the
    question of a train-then-serve job is the serving cards (the method moves only the training run's card); nor for
    an online RL run, whose trainers (verl, OpenRLHF, TRL's GRPOTrainer) train every weight unless told otherwise: full
    where it fits the cards, else LoRA, said as the assumption (assistant.rl_turn.rl_method)."""
    return not personal_machine(p) and not ("serve_cards" in _request(p) and p.get("phase") in ("train-and-serve", "production")) \
        and not reinforces(p)


def _home_buyer(p: Profile) -> bool:
    """One person buying a card for their own use with none of theirs said (reading.personal.home_buys)."""
    return bool(p.get("personal")) and p.get("preference") == "buy" and not p.get("owned")


@dataclass(frozen=True)
class Slot:
    name: str
    default: Any = None  # taken when the user does not say; None: the tools decide (or not modelled)
    asks: bool = False  # whether the advisor asks for it, in table order
    matters: Callable[[Profile], bool] = always
    panel: bool = False  # shown in the "What I know" panel
    by_lang: tuple[tuple[str, Any], ...] = ()  # a default that depends on the conversation's language
    ask_when: Callable[[Profile], bool] = always  # its answer can change this request's headline (asked slots)

    def label(self, lang: str) -> str:
        return say(lang, f"slot.{self.name}.label")

    def default_for(self, profile: Profile, lang: str = "en") -> Any:
        own = dict(self.by_lang)
        if lang in own:
            return own[lang]
        if self.name == "users" and profile.get("users_range"):
            return range_point(profile["users_range"])
        if self.name == "model" and (chosen := _model_for_job(profile, lang, self.default)):
            return chosen
        if self.name == "users" and (profile.get("phase") == "experiment" or _personal_machine(profile)
                                     or (profile.get("personal") and not profile.get("population"))):
            return 1
        if self.name == "utilisation" and profile.get("personal"):
            return PERSONAL_UTILISATION
        if self.name == "method" and reinforces(profile):
            from gpu_advisor.assistant.rl_turn import rl_method

            return rl_method(profile)[0]  # full where it fits the cards (verl's, OpenRLHF's default), else LoRA
        if self.name == "has_host" and _home_buyer(profile):
            return True  # one person buying a card for home: it goes into the computer they have, said
        if self.name == "users" and profile.get("population"):
            return _at_once(profile).at_once
        if self.name == "utilisation" and (profile.get("phase") == "production" or profile.get("uptime")
                                           or profile.get("redundancy")):
            return 1.0  # a production service, or one with an availability target or redundancy, is up around the clock
        if self.name in ("batch_input_tokens", "seq_len") and (images := _with_images(self.name, profile)):
            return images
        if self.name == "batch_input_tokens" and _encoder_limit(profile, self.default):
            return _encoder_limit(profile, self.default)
        if self.name == "context":  # the use's context (a coding assistant's 16k), held to what the model reads
            typical = max(use_context(profile) or self.default, reasoning_context(profile))  # (R1, QwQ: its thinking)
            return _native_context(profile, typical) or typical
        if self.name == "batch_output_tokens" and _reasoning_output(profile):
            return _reasoning_output(profile)  # R1, QwQ: the thinking before each answer is written too
        if self.name == "batch_output_tokens" and profile.get("use_case") == "classify":
            return _classify_output()  # a label per item ('情感打标签', 'classify 10M reviews'), not 200 tokens
        return self.default

    def default_words(self, lang: str, profile: Profile) -> str:  # noqa: C901 - one short branch per slot
        key = f"slot.{self.name}.default"
        if self.name == "model" and profile.get("encoder_job"):
            return say(lang, key + "_" + profile["encoder_job"])
        if self.name == "model" and (written := language_model_for(profile, lang, self.default)):
            from gpu_advisor.knowledge import find_model

            return say(lang, key + "_language", model=find_model(written).name, usual=find_model(self.default).name)
        if self.name == "users" and profile.get("users_range"):
            low, high = profile["users_range"]
            return say(lang, key + ("_range" if high else "_open_range"), n=f"{range_point(profile['users_range']):,}",
                       low=f"{low:,}", high=f"{high or low:,}")
        if self.name == "users" and profile.get("phase") == "experiment":
            key += "_experiment"
        elif (self.name == "users" and (_personal_machine(profile) or profile.get("personal"))) or (self.name == "utilisation" and profile.get("personal") and profile.get("phase") != "production"):
            key += "_personal"
        elif self.name == "users" and profile.get("population"):
            peak = _at_once(profile)
            kind = "_population_monthly" if profile.get("population_monthly") else "_population_daily" \
                if profile.get("population_daily") else "_population"
            return say(lang, key + kind,
                       n=f"{peak.at_once:,}", people=f"{peak.people:,}", share=f"{peak.share * 100:g}%",
                       quantile=f"{peak.quantile:.0%}")
        elif self.name == "method" and reinforces(profile):
            from gpu_advisor.assistant.rl_turn import rl_method_words

            return rl_method_words(profile, lang)
        elif self.name == "has_host" and _home_buyer(profile):
            key += "_personal"
        elif self.name == "precision" and profile.get("precision") == "q4_k_m":
            return say(lang, "assume.gguf_default")  # "用ollama": the GGUF file such users run, not the 8-bit default
        elif self.name == "utilisation" and profile.get("uptime") and profile.get("phase") != "production":
            return say(lang, key + "_uptime", uptime=f"{profile['uptime']:g}%")
        elif self.name == "utilisation" and profile.get("phase") == "production":
            key += "_production"
        elif self.name == "utilisation" and profile.get("redundancy"):
            key += "_redundancy"
        elif self.name == "utilisation" and _billed_around_the_clock(profile):
            key += "_service"  # busy in working hours, rented every hour (tools.recommend.service_hours): both said
        elif self.name == "horizon_months":
            from gpu_advisor.tools.cost import DEFAULT_HORIZON_MONTHS

            return say(lang, key, months=DEFAULT_HORIZON_MONTHS)
        elif self.name == "batch_input_tokens" and _encoder_limit(profile, self.default):
            return say(lang, key + "_encoder", tokens=f"{_encoder_limit(profile, self.default):,}")
        elif self.name in ("context", "batch_output_tokens"):  # sized from the use said, when one was
            return _context_words(lang, key, profile, self.default) if self.name == "context" \
                else _output_words(lang, key, profile)
        elif self.name == "seq_len":
            return say(lang, key + "_images", tokens=f"{self.default_for(profile, lang) or 0:,}")
        elif self.name == "batch_input_tokens" and _image_tokens(profile):
            image = _image_tokens(profile)
            return say(lang, key + "_image", tokens=f"{image + IMAGE_PROMPT_TOKENS:,}", image=f"{image:,}")
        return say(lang, key)


def range_point(said: Any) -> int:
    """The point of a range of people at once that is sized: its top, so that the cards hold the busiest
    moment said; an open range ("100+") at its floor, the least that was said. Either is stated as an
    assumption, never typed in the user's name."""
    low, high = said
    return int(high or low)


def _at_once(profile: Profile):
    """The people at once of the population said, at the share for how it was counted (a day's users or a
    staff: tools.traffic.peak_share)."""
    from gpu_advisor.tools.traffic import PeakInput, peak_at_once, peak_share

    return peak_at_once(PeakInput(people=profile["population"], share=peak_share(bool(profile.get("population_daily")))))


def _with_images(name: str, p: Profile) -> int | None:
    """A batch item's prompt, or a training sequence, of a vision model's data with its images (None: the table's or
    the tools' default): one image and its prompt a batch item; one example with its image a training sequence."""
    if name == "seq_len":
        from gpu_advisor.assistant.vlm_examples import example_sequence

        return example_sequence(p)
    return _image_tokens(p) + IMAGE_PROMPT_TOKENS if _image_tokens(p) else None


def _image_tokens(p: Profile) -> int:
    """Tokens of one typical image for a vision-language model in a batch job, else 0."""
    if not p.get("model") or p.get("phase") != "batch":
        return 0
    from gpu_advisor.knowledge import find_model

    try:
        return find_model(p["model"]).image_tokens or 0
    except (LookupError, ValueError):
        return 0


def personal_machine(p: Profile) -> bool:
    """A Mac or one consumer or laptop card of the user's own (not a card asked about)."""
    return bool(p.get("owned")) and _personal_machine({"owned": p["owned"]})


def _personal_machine(p: Profile) -> bool:
    """A Mac, a laptop or a single gaming card you own is one person's computer: unless told otherwise, one
    person uses it."""
    owned = p.get("owned") or [card for card in p.get("only") or [] if card.startswith("1x ")]  # "fit on a 4090?"
    if any("apple-" in card for card in owned):
        return True
    if not owned or (len(owned) == 1 and len(p.get("only") or owned) != 1):
        return False
    from gpu_advisor.knowledge import find_gpu

    # two of one gaming card beside the computer's own RAM said ('2x 3090 + 128GB DDR4'): one person's PC too
    pair = len(owned) == 1 and bool(p.get("system_ram_gb"))
    for entry in owned:  # one gaming card, or one each of two kinds in one PC ('a 7900 XTX and my old 3060')
        count, _, card = entry.partition("x ")
        try:
            gpu = find_gpu(card.strip())
        except (LookupError, ValueError):
            return False
        if count.strip() not in (("1", "2") if pair else ("1",)) or not (gpu.laptop or gpu.segment == "consumer"):
            return False
    return len(owned) <= 2


SLOTS: dict[str, Slot] = {s.name: s for s in (
    Slot("phase", "experiment", asks=True, panel=True),
    Slot("model", "llama-3.1-8b", asks=True, panel=True, ask_when=lambda p: not p.get("encoder_job")),
    Slot("method", "qlora", asks=True, matters=fine_tunes_for_real, panel=True, ask_when=ask_method),
    Slot("objective", "sft", matters=fine_tunes),
    Slot("rl_algorithm", "grpo", matters=reinforces),
    Slot("rl_prompts", RL_PROMPTS, matters=reinforces_by_pass),
    Slot("rl_samples", DEFAULT_SAMPLES, matters=reinforces),
    Slot("rl_completion_tokens", DEFAULT_COMPLETION_TOKENS, matters=reinforces),
    Slot("rl_prompt_tokens", DEFAULT_PROMPT_TOKENS, matters=reinforces),
    Slot("rl_layout", None, matters=reinforces),  # None: whichever of colocated and split pays (tools.rl.rl_layouts)
    Slot("rl_rollout_gpus", None, matters=reinforces),  # "4 for rollouts": split, that many cards for the engine
    Slot("rl_pipelined", None, matters=reinforces),
    Slot("rl_run_steps", None, matters=reinforces),  # "~2000 steps": the run is that many steps (tools.rl)
    Slot("rl_prompts_per_step", PROMPTS_PER_STEP, matters=reinforces),  # "batch size 256 prompts", "每步256条"
    Slot("rl_reward_model", None, matters=reinforces),  # None: a rule or a verifier scores the rollouts
    Slot("rl_critic_model", None, matters=reinforces),  # None: PPO's critic is the policy's size (tools.rl)
    Slot("rl_steps", None, matters=reinforces),  # "how long per 1000 steps", "每1000步要多久": their time, from a step's  # "async", "异步": a split step overlaps rollouts and update
    Slot("framework", None, matters=trains),
    Slot("mixed_precision", None, matters=trains),  # None: the framework's, else mixed precision (tools.training)
    Slot("engine", None, matters=runs_inference),  # None: vLLM, or llama.cpp for one person at home and on Macs
    Slot("engine_app", None, matters=runs_inference),  # "with ollama": named in the reply, sized as llama.cpp
    Slot("qlora_base", None, matters=trains),  # None: NF4, QLoRA's usual 4-bit base  # None: HF Trainer's defaults (tools.training says so)
    Slot("precision", None, matters=runs_inference, panel=True),
    Slot("kv_cache", None, matters=runs_inference),  # None: 16-bit, or 8-bit on your own cards when that fits
    Slot("batch_items", 100_000, asks=True, matters=batch, panel=True),
    Slot("batch_input_tokens", 1000, matters=batch),
    Slot("batch_output_tokens", 200, matters=writes_tokens),
    Slot("context", 8192, matters=holds_conversations, panel=True),
    # The people who use it ("3000 internal users", "our 800 employees"): the people at once, which size
    # the cards, are then taken from it (tools.traffic) and not asked for.
    Slot("population", None, matters=serves_others, panel=True),
    Slot("population_daily", None, matters=serves_others),  # "2k daily users": counted a day, a smaller share at once
    Slot("population_monthly", None, matters=serves_others),  # "5k monthly users": a day's share of them, on the safe side
    Slot("users_range", None, matters=serves_others),  # "20-100" at once: users sized at a stated point of it
    Slot("users", DEFAULT_USERS, asks=True, matters=serves_others, panel=True, ask_when=ask_users),
    Slot("user_groups", None, matters=serves_others),  # the groups by job users or population adds up to
    Slot("utilisation", 0.24, asks=True, matters=pays_for_time, panel=True, ask_when=ask_utilisation),
    Slot("uptime", None, matters=serves),
    # The traffic's shape ('busy 9 to 6 on weekdays, almost nobody at night'): each way to pay by the month
    # (tools.traffic_month), on the busy hour's plan
    Slot("peak_hours", None, matters=serves),
    Slot("peak_days", None, matters=serves),
    Slot("offpeak_share", None, matters=serves),  # "99.9% uptime": the service is up around the clock (utilisation 100%)
    Slot("redundancy", None, matters=serves),  # "N+1", "两个机房": every card it runs is in the budget check
    Slot("train_tokens", None, matters=trains_on_data),
    Slot("train_examples", None, matters=trains_on_data),  # the count behind train_tokens, when said
    Slot("epochs", 1.0, matters=trains_by_data),
    Slot("seq_len", None, matters=trains),  # None: the tools' 2,048 tokens, said in the plan's assumptions
    Slot("deadline_hours", None, matters=always, panel=True),
    Slot("go_live_hours", None, matters=serves),  # a service's go-live date: rented when buying takes longer
    Slot("runs_per_month", None, matters=lambda p: not serves(p)),  # None: a job that runs once
    Slot("ttft_ms", None, matters=serves, panel=True),
    Slot("ttft_percentile", None, matters=serves),  # None: p99 (the queueing model's default)
    Slot("tpot_percentile", None, matters=serves),  # the percentile a per-token target was said at (tools.queueing)
    Slot("e2e_ms", None, matters=serves),  # the whole answer back within it, at ttft_percentile
    Slot("prompt_tokens", None, matters=serves),
    Slot("images_per_request", None, matters=serves),  # None: text only
    Slot("min_tokens_per_s", None, matters=serves),
    # A request rate ("20 requests per second"): the requests in flight come from it by Little's law (tools.queueing)
    Slot("requests_per_s", None, matters=serves, panel=True),
    # The hours a day a volume said per day was spread over (24; 8 in working hours): a later "working hours" packs
    # the same day's volume into its hours (assistant.day_volume)
    Slot("rate_day_hours", None, matters=serves),
    # The items a day said for a service ('每天两万张图片'): its rate is requests_per_s; kept so that a later 'not a chat,
    # a batch done in 8 h' is a batch job of that many items a day (assistant.day_items)
    Slot("items_per_day", None, matters=serves),
    # The model named before, when a size asked after it is only another line's ('换成72B' after Qwen3 32B): a smaller
    # model to fall back to is of that line (tools.models.smaller_in_family)
    Slot("line_said", None, matters=runs_inference),
    Slot("output_tokens", None, matters=rate_given),  # None: tools.recommend's RATE_OUTPUT_TOKENS, said
    # A Chinese conversation that names no place is priced for the Chinese market, and says so.
    Slot("region", "global", panel=True, by_lang=(("zh", "china"),)),
    Slot("currency", None),  # None: yuan in China, dollars elsewhere; a setting or the user may say CNY
    Slot("budget_usd_per_month", None, panel=True),
    Slot("budget_per", None),  # '$3/hr', '每天最多500': the monthly budget was said by the hour or day, said back so
    Slot("budget_usd", None, panel=True),
    Slot("electricity_usd_per_kwh", None),  # None: the region's typical price (tools.cost)
    Slot("hosting_usd_per_month", None),  # None: tools.cost's hosting per card-month; said: for all the cards bought
    Slot("owned", None, panel=True),
    Slot("server_gpus", None, matters=serves),  # None: servers of 8 (tools.scale)
    Slot("network", None, matters=trains),  # None: not said; training over your servers then uses one if it does the job
    Slot("network_gbit", None, matters=trains),  # None: Ethernet's speed not said (tools.recommend assumes 10 Gb/s)
    Slot("exclude", None, panel=True),
    Slot("only", None, panel=True),
    Slot("only_sourced", None),  # "只能买到H20", "we can only get L20s": the only cards are all they can get
    Slot("only_bought", None),  # "rent or buy two 4090s?", "买4张L20还是租": the only cards, that many, weighed to buy
    Slot("has_host", None),
    Slot("cheapest", None, matters=lambda p: not serves(p)),  # the least paid plan that does the job, not a sooner one
    Slot("preference", "either", matters=serves),
    # What it serves ("a coding assistant", "RAG over our contracts", "客服"): the context and a request rate's
    # lengths typical of that use (knowledge/data/use_cases.yaml) when they are not said.
    Slot("use_case", None, matters=serves),
    Slot("product", None, matters=serves),  # customer-facing chat, 客服, a public API: rules' per-user speed floor
    Slot("personal", None),  # "just me", "自己用": one user, their own device first, no utilisation asked
    Slot("fewest_owned", None),  # 'how many of ours does it eat': the fewest owned cards that do it (reading.fleet)
    Slot("owned_busy", None),  # 'half of them train', '一半在训练': that share of the owned cards left to it
    Slot("used_ok", None),  # "used is fine", "二手也行": a purchase priced used where a sourced used price is on record
    Slot("budget_leeway", None),  # '一万五左右': percent over the budget that counts as within; '最多': 0, a hard cap
    Slot("used_cards", None),  # '二手3090还是4090': only the cards said used are priced used; None: every card
    Slot("buy_count", None),  # "想买两张卡", "buy two cards": cards bought that many at a time (tools.recommend)
    Slot("system_ram_gb", None, matters=serves),
    Slot("cpu_offload", None, matters=serves),
    Slot("loras", None, matters=serves),  # "serve 50 customer-specific LoRAs", "挂20个LoRA": adapters on one base
    Slot("lora_rank", None, matters=serves),  # None: rank 16, said in the adapters' assumptions
    Slot("encoder_job", None),  # "embed 10M documents", "reranker 200 QPS": the model defaults to that job's encoder
    Slot("candidates_per_query", None, matters=serves),  # a reranking query's candidates; None: one text per request
    # Serving levers (tools.prefix_cache, tools.speculative): a prompt prefix every request shares, its hit rate,
    # speculative decoding asked for ('auto': the model's own MTP layers, else an EAGLE-3 head)
    Slot("shared_prefix_tokens", None, matters=serves),
    Slot("prefix_hit_rate", None, matters=serves),
    Slot("speculative", None, matters=serves),
    Slot("draft_model", None, matters=serves),  # 'X as the draft': that draft model sized (tools.speculative_plan)
    Slot("horizon_months", None),  # None: tools.cost's rent-or-buy horizon; said ("用两年", "over 2 years"): that one
)}


@dataclass(frozen=True)
class Question:
    slot: str
    text: str
    choices: list[tuple[str, str]]  # (label, value sent back as the user's message)


def question(slot: str, lang: str = "en") -> Question:
    """The question for a slot in a language; its quick replies' values are words the reader
    understands in that language, so pressing one never changes the conversation's language."""
    return Question(slot, say(lang, f"slot.{slot}.question"),
                    [(label, value) for label, value in text(lang, f"slot.{slot}.choices")])


ASKED: tuple[str, ...] = tuple(name for name, s in SLOTS.items() if s.asks)


def relevant(slot: str, profile: Profile) -> bool:
    return SLOTS[slot].matters(profile) if slot in SLOTS else True


def next_slot(profile: Profile, defaulted: dict[str, str], asked: list[str],
              request: tuple[str, ...] | list[str] = ()) -> str | None:
    """The next slot to ask about, or None when it is time to answer. `request`: REQUEST_FLAGS the user's
    question raised; a slot is asked when it matters and its answer can change the headline (Slot.ask_when)."""
    if len(asked) >= MAX_QUESTIONS:
        return None
    # a question asked and left unanswered takes its default for what follows: an unanswered "what will you do
    # with it?" is the stated default (trying it out), never a fine-tuning whose method is then asked
    profile = {**profile, **{name: SLOTS[name].default_for(profile, "en") for name in asked
                             if name in SLOTS and profile.get(name) is None and name not in defaulted}}
    profile["request"] = tuple(request)
    for name in ASKED:
        slot = SLOTS[name]
        if profile.get(name) is None and name not in defaulted and name not in asked and slot.matters(profile) \
                and slot.ask_when(profile):
            return name
    return None


def _context_words(lang: str, key: str, profile: Profile, default: int) -> str:
    """The context assumed, said: the model's own limit when it reads less, the use's typical context, or the
    slot's default."""
    native = _native_context(profile, use_context(profile) or default)
    if native:
        return say(lang, key + "_native", tokens=f"{native:,}")
    if reasoning_context(profile) > (use_context(profile) or default):
        return say(lang, key + "_reasoning", tokens=f"{reasoning_context(profile):,}")
    if use_context(profile):
        return say(lang, key + "_use_case", tokens=f"{use_context(profile):,}",
                   use=say(lang, f"use_case.{profile['use_case']}"))
    return say(lang, key)


def _output_words(lang: str, key: str, profile: Profile) -> str:
    """The tokens written per batch item assumed, said: a classification job's label, or the slot's default."""
    if _reasoning_output(profile):
        return say(lang, key + "_reasoning", tokens=f"{_reasoning_output(profile):,}")
    if profile.get("use_case") == "classify":
        return say(lang, key + "_classify", tokens=f"{_classify_output():,}")
    return say(lang, key)
