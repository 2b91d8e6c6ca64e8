"""Deterministic text understanding: what a message says about the workload.

No model download, no randomness: the grammar is this package's code, the words are data in
assistant/reading/words/ (one file per dimension). `understand(text, pending)` returns the slot values
the message gives (`updates`), the intents it carries ("show the math", "start over", a question with
its own reply ...), the language it is written in, and notes and problems as catalog codes with their
values (never English sentences: the engine writes them in the conversation's language). `pending` is
the slot of the question just asked: a bare answer ("15", "working hours") fills it, and a bare choice
number ("2") is returned as `choice` for the engine to map onto that question's quick replies.

How a message is read:
1. cut to MAX_MESSAGE_CHARS, NFKC-normalised and lower-cased; Chinese numerals become digits and
   Chinese phrases become the English the readers know; English number words become digits;
2. catalog model names and GPU names are found and masked, so that their digits ("llama 3.1 8b",
   "4090") are never read as quantities;
3. every remaining quantity gets a role: first from the unit right after it ("50 users", "32k
   context", "3000字"), then from a label before it with filler words skipped ("上下文得有32k"), a
   label already taken by its own number left alone (quantities.py);
4. each slot's reader picks its value; a value right after "not", "no", "instead of", "rather than"
   ... is what the user does not want ("buy not rent", "not 7B, 70B");
5. a question that is no sizing request gets its intent code (intents.QUESTIONS: compare_cards,
   engine_choice, availability, forecast, quality, out_of_scope; concept for the glossary; why_not,
   fit_check and rent_buy beside a sizing) with what it is about (cards, engines, the model, the kind of
   job, prices given); the values its own words filled are dropped, so no workload is made up.
"""

from __future__ import annotations

from gpu_advisor.assistant.reading.all_day import read_all_day
from gpu_advisor.assistant.reading.allowance import keep_allowed
from gpu_advisor.assistant.reading.answers import read_answers
from gpu_advisor.assistant.reading.asked_figure import read_asked_figure
from gpu_advisor.assistant.reading.asks import read_ask, read_market
from gpu_advisor.assistant.reading.budget_cap import read_budget_cap
from gpu_advisor.assistant.reading.budget_largest import read_budget_largest
from gpu_advisor.assistant.reading.buy_or_rent import cloud_only, read_buy_or_rent
from gpu_advisor.assistant.reading.capacity import read_capacity
from gpu_advisor.assistant.reading.card_forms import read_card_forms
from gpu_advisor.assistant.reading.card_value import read_card_value
from gpu_advisor.assistant.reading.choice_dims import read_choice_dims
from gpu_advisor.assistant.reading.compare_job import read_compare_job, read_versus
from gpu_advisor.assistant.reading.comparisons import read_comparisons
from gpu_advisor.assistant.reading.concept_card import read_concept_on_card
from gpu_advisor.assistant.reading.considered import read_considered
from gpu_advisor.assistant.reading.constraints import cards_on_the_cloud, read_constraints
from gpu_advisor.assistant.reading.corrected import read_second_corrected
from gpu_advisor.assistant.reading.costs import budget_periods
from gpu_advisor.assistant.reading.count_bought import read_count_bought
from gpu_advisor.assistant.reading.count_why import read_count_why
from gpu_advisor.assistant.reading.data_on_site import read_data_on_site
from gpu_advisor.assistant.reading.day_window import busy_hours_a_day
from gpu_advisor.assistant.reading.draft_model import read_draft
from gpu_advisor.assistant.reading.engine_speed import read_engine_speed
from gpu_advisor.assistant.reading.examples import (
    read_example_images,
    read_example_tokens,
)
from gpu_advisor.assistant.reading.followup_turns import read_elsewhere_and_turn_words
from gpu_advisor.assistant.reading.followups import kv_of_model, read_followup
from gpu_advisor.assistant.reading.forecast import read_forecast_reserve
from gpu_advisor.assistant.reading.fp8_training import read_precision_concepts
from gpu_advisor.assistant.reading.framework_choice import read_framework_choice
from gpu_advisor.assistant.reading.framework_why import read_framework_why
from gpu_advisor.assistant.reading.goals import drop_lone_cheapest
from gpu_advisor.assistant.reading.hardware import (
    read_card_count,
    read_gpus,
)
from gpu_advisor.assistant.reading.history import own_model_note
from gpu_advisor.assistant.reading.intents import (
    concept_asked,
    polite_free,
    read_fit_check,
    read_intents,
    read_question,
    read_topic,
    read_total_span,
)
from gpu_advisor.assistant.reading.io_split import read_io_split
from gpu_advisor.assistant.reading.kept import kept_reads
from gpu_advisor.assistant.reading.knowledge_asks import read_knowledge_asks
from gpu_advisor.assistant.reading.leads import engine_asks
from gpu_advisor.assistant.reading.leeway import read_leeway
from gpu_advisor.assistant.reading.levers import claim_levers
from gpu_advisor.assistant.reading.link_need import read_link_need
from gpu_advisor.assistant.reading.links import read_no_link
from gpu_advisor.assistant.reading.mac_memory import read_mac_by_memory
from gpu_advisor.assistant.reading.machine import read_this_machine
from gpu_advisor.assistant.reading.memory_doubt import read_memory_doubt
from gpu_advisor.assistant.reading.memory_types import read_memory_types
from gpu_advisor.assistant.reading.mentions import product_now
from gpu_advisor.assistant.reading.message import Understanding, prepare
from gpu_advisor.assistant.reading.method_compare import read_method_compare
from gpu_advisor.assistant.reading.method_why import read_method_why
from gpu_advisor.assistant.reading.model_choice import read_model_choice
from gpu_advisor.assistant.reading.moe import read_moe_question
from gpu_advisor.assistant.reading.output_total import read_input_total, read_output_total
from gpu_advisor.assistant.reading.owned import read_owns_them
from gpu_advisor.assistant.reading.parallel_choice import read_parallel_choice
from gpu_advisor.assistant.reading.pending import pending_value, read_choice
from gpu_advisor.assistant.reading.period_count import read_period_count
from gpu_advisor.assistant.reading.personal import (
    read_own_box,
)
from gpu_advisor.assistant.reading.planned_card import read_planned_card
from gpu_advisor.assistant.reading.prefix_saving import read_prefix_saving
from gpu_advisor.assistant.reading.premise import read_dropped_phase, read_recount, read_serving_cards_asked
from gpu_advisor.assistant.reading.prices import read_prices
from gpu_advisor.assistant.reading.put_right import read_put_right
from gpu_advisor.assistant.reading.quotes import read_quotes
from gpu_advisor.assistant.reading.readers import READERS
from gpu_advisor.assistant.reading.relative import read_scale
from gpu_advisor.assistant.reading.rent_buy_sides import read_rent_buy_sides
from gpu_advisor.assistant.reading.reserved_asked import read_reserved_asked
from gpu_advisor.assistant.reading.saving import read_saving
from gpu_advisor.assistant.reading.slow_decode import read_slow_decode
from gpu_advisor.assistant.reading.stages import read_stages
from gpu_advisor.assistant.reading.stated import quoted_from
from gpu_advisor.assistant.reading.text import (
    CJK_WEIGHT,
    EXAMPLE_TOKENS,
    MAX_MESSAGE_CHARS,
    clean,
    language,
    normalised,
    readable,
    vocab,
    word_pattern,
)
from gpu_advisor.assistant.reading.thinking import read_thinking
from gpu_advisor.assistant.reading.tp_divide import read_tp_divide
from gpu_advisor.assistant.reading.untyped import read_owned_untyped
from gpu_advisor.assistant.reading.user_base import read_user_base
from gpu_advisor.assistant.reading.user_speed import read_user_speed
from gpu_advisor.assistant.reading.variant_said import read_variant_said
from gpu_advisor.assistant.reading.weigh import read_weigh
from gpu_advisor.assistant.reading.whatif import read_whatif
from gpu_advisor.assistant.reading.worth import read_worth
from gpu_advisor.assistant.reading.written import unused_numbers
from gpu_advisor.assistant.terminal import printable
from gpu_advisor.knowledge import gpus
from gpu_advisor.knowledge.clouds import clouds

__all__ = ["CJK_WEIGHT", "EXAMPLE_TOKENS", "MAX_MESSAGE_CHARS", "READERS", "Understanding", "clean", "language",
           "readable", "understand", "vocab"]



@kept_reads
def understand(raw: str, pending: str | None = None, whole: bool = True) -> Understanding:  # noqa: C901 - the readers in order, one guard each
    """Read one message; `pending` is the slot of the question just asked (or None). `whole`: the message
    itself, not one of its clauses read for a second job (reading.multi)."""
    raw = printable(raw or "")  # terminal control sequences are no words ('\x1b]52;c;…' was read as 52 users)
    u = Understanding()
    cut = readable(raw)
    u.lang = language(cut)
    if not cut.strip():
        u.intents.add("empty")
        return u
    if len(cut) < len(raw):
        u.intents.add("truncated")
    m = prepare(cut, pending)
    if whole:
        m.problems += unused_numbers(normalised(cut))  # '1e-320 tok/s', 'to 1e308 users': said as not used, never misread
    read_card_forms(m)  # 'h100 pcie and sxm': the SXM form is a second card named
    read_mac_by_memory(m)  # 'a mac studio … is 512gb enough?': the 512 GB Mac Studio (M3 Ultra)
    read_no_link(m)  # 'no nvlink': the PCIe form of each card named, before any reader takes the cards
    claim_levers(m)  # 'a 3k token system prompt every request shares': its count is the shared prefix, not the prompt
    product_now(m)  # "we're on Kimi, want to serve llama 3.1 8b": what they use today, not the model to size
    u.intents |= read_intents(m)
    if "total_cost" in u.intents:
        u.span_months, u.with_spare = read_total_span(m)
    if "reset" in u.intents:
        u.intents &= {"reset", "truncated", "injection"}
        return u
    if "help" in u.intents:
        return u
    u.choice = read_choice(m)
    if u.choice is not None:
        return u
    for slot, reader in READERS:
        value = reader(m)
        if slot == "phase":
            m.phase = value if isinstance(value, str) else None
        if value is None:
            continue
        if slot == "owned" or not isinstance(value, tuple):
            u.updates[slot] = value
        else:
            u.updates[value[0]] = value[1]
    read_user_base(m, u)  # '用户大概一千人，工作时间用': the people who use it, not all of them at once
    read_draft(m, u)  # 'llama 3.1 8b as draft for 70b': the draft recorded, the 70B of its family served
    if m.unknown:
        u.unknown_model = m.unknown[0]
        if m.unknown[1] and "model" not in u.updates and not any(code.startswith(("size_", "active_")) for code, _ in m.problems):
            u.updates["model"] = m.unknown[1]
    cloud = read_constraints(m)
    cards_on_the_cloud(m, u.updates, cloud)
    if cloud and not u.updates.get("only") and not u.updates.get("owned"):
        u.updates["only"] = list(dict.fromkeys(g for c in [cloud, *m.also_clouds] for g in clouds()[c].gpus))
        # "aws only": the cards that cloud rents; "runpod or vast": the cards either rents
    if cloud is not None and "preference" not in u.updates and not u.updates.get("owned") \
            and ("rent_buy" not in u.intents or m.live("preference.rent_only") or cloud_only(m, cloud)):
        u.updates["preference"] = "rent"  # a cloud named as where to run: renting (asked 'buy or rent': neither yet)
    read_data_on_site(m, u, cloud)  # '病历', 'patient records', '数据不出院': owned hardware, the reason said
    u.card_spec, u.unknown_card, u.unknown_count = m.card_spec, m.unknown_card, m.unknown_count
    if m.gives_up_model:
        u.ask["replaces_model"] = True  # "we could also do 8b if the 70b is too expensive": instead, not beside
    own_model_note(m, u)
    u.online_share = next((q.value for q in m.role("online_share")), None)
    u.day_hours = busy_hours_a_day(m)  # 'working hours': a day's volume said before is used within them (assistant.day_volume)
    u.problems += m.problems
    u.notes += m.notes
    read_all_day(m, u)  # 'who'll use it all day': the working day, said as assumed (reading.all_day)
    read_gpus(m, u)
    read_considered(m, u)  # 'or should i buy a used 3090 as a second card': weighed beside the owned card
    read_card_count(m, u)
    read_own_box(m, u)
    if u.updates.get("loras") and not u.updates.get("phase") and pending != "phase":
        u.updates["phase"] = "serve"  # '一个底座挂20个LoRA': adapters are served
    if u.updates.get("cpu_offload") and u.updates.get("engine") in ("vllm", "sglang") and not u.updates.get("phase") \
            and pending != "phase":
        u.updates["phase"] = "serve"  # 'can i offload to cpu with vllm?': a server's engine runs it
    if u.updates.get("precision") and (u.updates.get("only") or u.updates.get("owned")) and u.updates.get("model") \
            and not u.updates.get("phase") and not u.updates.get("method") and pending != "phase":
        u.updates["phase"] = "serve"  # 'deepseek v3 on h200s fp8, how many': a weight format on cards is inference
    if u.updates.get("encoder_job") and not u.updates.get("phase") and pending != "phase":
        u.updates["phase"] = "serve"  # 'reranker 200 QPS each with 50 candidates': queries answered live (a corpus
        # counted is a batch job, read by reading.job)
    read_leeway(m, u)
    read_owned_untyped(m, u)
    read_whatif(m, u)
    read_owns_them(m, u)  # after the what-if: 'a 4090, enough? it's my own card' is no card to try, it is theirs
    read_recount(m, u)  # 'scratch that, only 2 of the a100s': the count of the plan's cards corrected
    read_put_right(m, u)  # 'I meant H200s not H100s', "80G的" (reading.put_right); 'we only have 40gb A100s'
    read_dropped_phase(m, u)  # '不微调了', 'skip the finetune': the job given up
    read_stages(m, u)  # 'full finetune … then DPO after': the fine-tune sized, the DPO run after it noted
    read_serving_cards_asked(m, u)  # '微调完…用什么卡部署': the serving cards are the question
    cny = [q for q in m.role("money") if q.extra == "CNY"]
    china_cards = {g.id for g in gpus() if g.china_specific}  # H20, A800, H800, L20, Ascend: sold for China
    if "region" not in u.updates and (cny or any(g in china_cards for _s, _e, g, _c in m.gpus)):
        u.region_hint = "china"
    u.scale = {slot: f for slot, f in read_scale(m).items() if slot not in u.updates}
    pending_value(m, u)
    topic = read_topic(m)
    if topic == "best-gpu" or (topic is None and word_pattern("best_gpu").search(m.text)):
        if not _sizing(u):
            u.intents.add("best_gpu")
            u.updates, u.problems, u.compare_gpus, u.whatif_gpus = {}, [], [], None
    elif topic and not kv_of_model(m, u, topic):  # "what is the kv cache for qwen3 32b at 128k": that model's figure
        own = {slot for t in topic.split("+") for slot in vocab()["topic_slots"].get(t, [])}
        rest = {k for k in u.updates if k not in own}
        asked = concept_asked(m, topic) or (not u.updates and word_pattern("explain_bare").search(polite_free(m.text)))
        if asked and not rest and not u.compare_gpus and not u.whatif_gpus:
            u.topic = topic
            u.intents.add("explain")
            u.intents -= {"math"}
            u.updates, u.problems, u.unknown_model = {}, [], None
        elif asked and rest and _names_only(m, rest):
            u.topic = topic  # "DeepSeek-V3只激活37B，为啥显存按671B算？EP和TP有啥区别": a concept, the model its example
            u.intents.add("explain")
            u.intents -= {"math"}
            u.updates, u.problems, u.unknown_model = {}, [], None
        elif asked and rest and not (len({g for _s, _e, g, _c in m.gpus}) >= 2
                                     and set(topic.split("+")) <= set(vocab()["job_topics"])):
            u.aside = topic  # "what's the diff between prefill and decode? ... serve mistral small": both
            u.intents -= {"math"}
    read_concept_on_card(m, u, topic)  # 'why is decode slower than prefill on H100?': the concept, on that card
    read_ask(m, u)
    budget_periods(m, u)  # 'to get us through the first month', '$200 a night': a budget made monthly
    read_budget_cap(m, u)  # 'if we can only spend like $3/hr', '每小时最多20块': a monthly budget at that rate
    if u.topic and "+" in u.topic and (word_pattern("compare_verdict.concept_choice").search(m.text)
                                       or word_pattern("compare_verdict.concept_choice").search(m.raw.lower())):
        u.ask["choose"] = True  # "difference between TP and PP, and which one for serving on 2 gpus": a verdict too
    if len(u.compare_gpus) >= 2 and not word_pattern("compare_verdict.for_others").search(m.raw.lower()):
        u.ask["one_user"] = True  # "4090 和 3090 哪个更适合跑 glm-4 9b 推理": answered at once, for one person (said)
    read_answers(m, u)  # '$ per 1M output tokens … vs an API', 'whats speculative decoding … on my single 4090?'
    read_io_split(m, u)  # '3:1 in/out' with no volume: a ratio, the other length worked out from the one said
    read_question(m, u)
    read_compare_job(m, u)
    read_versus(m, u)
    read_model_choice(m, u)
    engine_asks(m, u)
    read_weigh(m, u)
    read_choice_dims(m, u)
    read_buy_or_rent(m, u)
    read_moe_question(m, u)
    read_memory_types(m, u)
    read_this_machine(m, u)
    read_capacity(m, u)
    read_budget_largest(m, u)  # '$3000 budget, biggest model i can run?', no card, no model: what the money buys
    read_method_compare(m, u)
    read_comparisons(m, u)
    read_method_why(m, u)
    read_saving(m, u)
    read_planned_card(m, u)
    read_output_total(m, u)
    read_input_total(m, u)
    read_example_tokens(m, u)
    read_example_images(m, u)
    read_thinking(m, u)
    read_framework_choice(m, u)
    read_market(m, u)
    read_elsewhere_and_turn_words(m, u)  # a card hard to get, then 'any card is fine', 'load triples'
    read_fit_check(m, u)
    read_prices(m, u)
    read_quotes(m, u)
    read_forecast_reserve(m, u)
    if cloud and u.quotes:
        quoted_from(m, u, cloud)
    read_period_count(m, u)  # 'no wait, 50k a day', '不对，是每天五万': a rate only after a message that counted requests
    read_followup(m, u)
    read_knowledge_asks(m, u)  # a support question beside a sizing; why a card is not sold in China (export rules)
    if "model" not in u.updates and not u.unknown_model and word_pattern("distill_asked").search(m.masked):
        u.ask["distill"] = True  # "ok the distill ones then", "那蒸馏版呢": the planned model's distills
    read_variant_said(m, u)  # 'the air version', '换成air版', 'a smaller one': the current model's variant
    read_precision_concepts(m, u)  # 8-bit against 16-bit; FP8 training; a MoE model against a dense one
    read_framework_why(m, u)
    read_memory_doubt(m, u)
    read_reserved_asked(m, u)  # 'on demand vs a 1 yr reserved?' beside a sizing: weighed on the plan's price
    read_parallel_choice(m, u)  # 'TP or PP for 70B across 2 nodes?': the model's layout, not the glossary alone
    read_tp_divide(m, u)  # 'can vllm do tp=3 on three 3090s?', 'tp为什么要2的幂': the head-division rule
    read_asked_figure(m, u)  # last: a question another reader took for a support question may ask a count
    read_count_why(m, u)  # '为什么要3台服务器？两台不够吗': the plan's count asked why, a smaller one tried
    read_worth(m, u)  # 'is fp8 kv cache worth it or does it tank quality?', nothing to size: a verdict, no slot
    read_engine_speed(m, u)  # 'why is vllm so much faster than transformers': how, not which engine
    read_user_speed(m, u)  # 'why does my tokens/s per user drop when more users hit vllm': the concept, beside a sizing
    read_slow_decode(m, u)  # 'why is my H100 so slow, only 40 tok/s on an 8b': the card's ceiling, the causes
    read_prefix_saving(m, u)  # 'prefix caching 是啥原理？system prompt 2k token，开了能省多少': the saving computed
    read_link_need(m, u)  # 'nvlink vs pcie for inference, do i actually need it': the need answered, not the glossary
    read_card_value(m, u)  # 'H20和A100哪个跑推理划算': prices divided into bandwidth and compute
    if whole and not u.ask.get("memory_doubt") and not u.intents & {"explain", "best_gpu", "weigh", "moe_memory", "precision_compare",
                                                                           "prefix_saving"}:
        read_second_corrected(cut, pending, u, lambda text, said: understand(text, said, whole=False))
    keep_allowed(m, u)  # '国产卡或者H20': the H20 is one of the cards to choose among, not the only one
    drop_lone_cheapest(u)
    read_count_bought(m, u)  # 'rent or buy two 4090s?': that many of the card weighed for buying (tools.count_bought)
    read_rent_buy_sides(m, u)  # 'rent an A100 or buy 2 RTX 4090s?': which card each side is (assistant/setup_buy_rent.py)
    if "engine" not in u.updates:
        u.updates.pop("engine_app", None)  # an app is only ever said beside its engine (llama.cpp), never alone
    u.weak = m.weak & set(u.updates)
    return u


# Slots a concept question names as its example without asking for a sizing ("大规模部署一般怎么组合"): no number said.
EXAMPLE_SLOTS = {"model", "phase", "precision", "method"}
WORKLOAD_ROLES = {"model", "model_total", "model_active", ""}


def _names_only(m, rest: set[str]) -> bool:
    """Whether a concept question's other values are only its example (a model, a phase word), with no
    quantity of a workload (users, context, tokens, money, time) and no card."""
    return rest <= EXAMPLE_SLOTS and not m.gpus and all(q.role in WORKLOAD_ROLES for q in m.qty)


def _sizing(u: Understanding) -> bool:
    """Whether a message gives anything to size (then 'which GPU is best for it' is answered)."""
    return bool(set(u.updates) - {"region", "preference"}) or bool(u.unknown_model)
