"""One message prepared for the readers, and what they make of it."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from gpu_advisor.assistant.reading.adapters import find_adapters
from gpu_advisor.assistant.reading.cards import elided_siblings, lone_servers, outside_catalog, repeated_bare
from gpu_advisor.assistant.reading.cjk_names import cjk_unknown_model
from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.draft_model import find_draft
from gpu_advisor.assistant.reading.encoder_job import find_candidates
from gpu_advisor.assistant.reading.hub_names import held_repos
from gpu_advisor.assistant.reading.mac_said import unsold_mac
from gpu_advisor.assistant.reading.names import find_engines, find_gpus, find_models
from gpu_advisor.assistant.reading.output_said import relabel_said
from gpu_advisor.assistant.reading.quantities import Quantity, quantities
from gpu_advisor.assistant.reading.rl_models import find_rl_models
from gpu_advisor.assistant.reading.stated_lengths import relabel_lengths
from gpu_advisor.assistant.reading.text import MAX_QUANTITIES, clean, language, mask, vocab, word_pattern
from gpu_advisor.assistant.reading.unknown_names import unknown_model
from gpu_advisor.assistant.reading.unsized import unsized_named
from gpu_advisor.assistant.reading.variants import line_named, variant_notes


@dataclass
class Understanding:
    """What one message says: slot updates, intents and notes, never a decision."""

    updates: dict[str, Any] = field(default_factory=dict)
    intents: set[str] = field(default_factory=set)
    compare_gpus: list[str] = field(default_factory=list)
    whatif_gpus: tuple[int, str] | None = None
    problems: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (code, values): catalog problem.<code>
    topic: str | None = None
    unknown_model: str | None = None
    lang: str = "en"
    choice: int | None = None
    notes: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (catalog key, values)
    day_hours: float | None = None  # the hours a day the service is used, when said ('工作时间', '9 to 6'): reading.day_window
    scale: dict[str, float] = field(default_factory=dict)  # "double the users": slot -> factor on its value
    region_hint: str | None = None  # a budget in yuan or a Chinese accelerator: China, unless a region is known
    aside: str | None = None  # a concept asked about in a message that also sizes something
    also: str | None = None  # a question (intent code) asked beside a sizing: answered after it
    # what a question with its own reply is about (assistant.reading.intents.read_question)
    cards: list[str] = field(default_factory=list)  # cards asked about, catalog ids
    counts: dict[str, int] = field(default_factory=dict)  # a count said with a card ("two L40S")
    engines: list[str] = field(default_factory=list)  # serving engines asked about, engines.yaml ids
    subject: str | None = None  # the model a quality question is about
    scope: str | None = None  # the kind of job the tools do not size
    where: str | None = None  # the region a price or stock question names
    prices: dict[str, float] = field(default_factory=dict)  # rent_usd_per_hour, buy_usd: prices the user gave
    quotes: list[dict[str, Any]] = field(default_factory=list)  # rental prices quoted per card (reading.quotes)
    weak: set[str] = field(default_factory=set)  # slots read from weak cues only: they change no value already known
    added_cards: dict[str, int] = field(default_factory=dict)  # "add a second 4090": card -> how many more
    card_count: int | None = None  # "eight of them", "八张" with no card named: a count of the card just named
    card_spec: str | None = None  # a card's memory and bandwidth said with no card named ('custom:memory=48GB,...')
    span_months: int | None = None  # "the total for three months": the months a total is asked over
    with_spare: bool = False  # "including the spare": a total with the N+1 copy
    unknown_card: tuple[str, bool] | None = None  # an accelerator named with no figures on record: (name, the user's own)
    unknown_count: int = 1  # how many of that accelerator were said ('4张海光K100')
    ask: dict[str, Any] = field(default_factory=dict)  # what a question about the plan is about (reading.asks)
    online_share: float | None = None  # "5% online at peak" with no count of people: percent of those known before
    second: dict[str, Any] | None = None  # a second job or model beside the first (reading.multi)
    example_tokens: int | None = None  # one training example's length said with no count ('每条大概1500 token')
    owned_untyped: int | None = None  # "we have an 8-gpu box": cards owned, their type not said (reading.untyped)
    adds_owned: bool = False  # added_cards are the user's own ('add my old 3060 as a second card'): owned even if none was
    owns_named: str | None = None  # '卡是现成的' ('said'), 'my gpus' ('mine') with no card named: the cards before are owned;
    # '就这一张' ('one'): one of the card before is owned, no more
    example_images: bool = False  # the training examples counted are images ('2万张图'): the engine sizes each
    recount: tuple[int, str | None, str] | None = None  # 'scratch that, only 2 of the a100s': (count, card or None,
    # the card's name as said): the count corrected (reading.premise, assistant.premise)

    @property
    def empty(self) -> bool:
        return not (self.updates or self.intents or self.compare_gpus or self.whatif_gpus or self.topic or self.scale
                    or self.choice is not None or self.unknown_model or self.card_count
                    or self.owned_untyped or self.owns_named or self.notes)  # a note says what was read ("spot instances", "which Qwen?")


@dataclass
class Message:
    """One message prepared for the slot readers."""

    raw: str
    text: str
    masked: str
    pending: str | None
    lang: str
    names: list[tuple[int, int, str]]
    gpus: list[tuple[int, int, str, int]]
    qty: list[Quantity]
    problems: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (code, values): catalog problem.<code>
    notes: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (catalog key, values)
    unknown: tuple[str, str | None] | None = None  # (name as typed, size spec or None)
    phase: str | None = None  # the phase this message states, once read
    counted: set[int] = field(default_factory=set)  # starts of the card spans that carry a count ('4x h100')
    engines: list[tuple[int, int, str]] = field(default_factory=list)  # serving engines named (start, end, id)
    weak: set[str] = field(default_factory=set)  # slots read only from weak cues ('use' for serving)
    gives_up_model: bool = False  # a model named as the one to give up ('8b if the 70b is too expensive')
    per_server: dict[int, int] = field(default_factory=dict)  # card span start -> cards in each machine counted
    card_spec: str | None = None  # memory and bandwidth said with no card named, as a custom: card spec
    unknown_card: tuple[str, bool] | None = None  # an accelerator with no figures on record: (name, the user's own)
    unknown_count: int = 1  # how many of that accelerator were said ('4张海光K100')
    also_clouds: list[str] = field(default_factory=list)  # more clouds named with the first ("runpod or vast")
    loras: int | None = None  # LoRA adapters served on one base ('挂20个LoRA'), reading.adapters
    lora_rank: int | None = None
    candidates: int | None = None  # a reranking query's candidates ('50 candidates', '每个查询50个候选'), reading.encoder_job
    ranged: set[int] = field(default_factory=set)  # starts of the quantities read as a range of people at once
    team: list[tuple[int, int]] = field(default_factory=list)  # the job nouns of the team that builds it ('3 devs'):
    # (start, end) in masked, no use of the service (reading.headcount, reading.use_case)
    # the groups of a count of people listed by job ('3 ml engineers and 10 PMs'): the sum's start -> (job code or
    # None, count) each (reading.listed_people, reading.people_groups)
    groups: dict[int, tuple[tuple[str | None, int], ...]] = field(default_factory=dict)
    named: set[int] = field(default_factory=set)  # starts of the counts named by a job ('30 PMs'): people, never a
    # bare answer to the question asked (reading.people_groups)
    rl_models: dict[str, str] = field(default_factory=dict)  # an RL run's other models by role ('reward', 'critic')
    draft: str | None = None  # speculative decoding's draft model named ('X as draft'): a catalog id or a size

    def live(self, key: str) -> list[re.Match[str]]:
        """Matches of a vocabulary pattern that are not negated (the first MAX_QUANTITIES of them: a
        word repeated a thousand times says no more than a hundred times)."""
        found = itertools.islice(word_pattern(key).finditer(self.masked), MAX_QUANTITIES)
        return [m for m in found if not negated(self.masked, m.start())]

    def role(self, *roles: str, live: bool = True) -> list[Quantity]:
        """Quantities with one of these roles (by default only those not negated)."""
        return [q for q in self.qty if q.role in roles and not (live and q.negated)]


def prepare(raw: str, pending: str | None) -> Message:  # raw: readable(message)
    """Clean the message, find and mask model and GPU names, and give every quantity its role."""
    text = clean(raw)
    held = held_repos(text, raw)  # a repo id the Hugging Face cache holds: that repository, before any catalog name
    names = sorted(held + find_models(mask(text, held)))
    masked = mask(text, names)
    engines = find_engines(text)
    vendors = [(x.start(), x.end(), "api") for x in word_pattern("usage.api_vendor_span").finditer(text)]
    unknown, masked = unknown_model(text, masked, raw, engines + vendors)  # 'moonshot api': a vendor, not a model
    if unknown is None:  # '盘古星河-38B': a name in Chinese characters
        unknown, masked = cjk_unknown_model(text, masked, raw)
    card_notes: list[tuple[str, dict[str, str]]] = []
    counted: set[int] = set()
    per_server: dict[int, int] = {}
    found_gpus = find_gpus(masked, card_notes, counted, per_server)
    found_gpus, hidden, outside = outside_catalog(masked, raw, found_gpus)  # '3080 ti laptop', '1080 ti'
    unsized, unsized_notes, waiting = unsized_named(masked, found_gpus, language(raw))  # '海光K100': figures missing
    found_gpus = elided_siblings(masked, _count_after(masked, found_gpus, counted))  # 'a100 40gb and 80gb'
    found_gpus = repeated_bare(masked, found_gpus)  # '8张V100 16G … V100不支持bf16吧': the same cards
    masked = mask(masked, found_gpus + hidden + unsized)
    servers = lone_servers(masked, found_gpus)
    unsold = [unsold_mac(gpu_id) for _, _, gpu_id, _ in found_gpus if "vendor=apple" in gpu_id]
    lang = language(raw)  # raw is already the readable part (understand cuts it first)
    spec, masked = _card_spec(masked, found_gpus)
    masked, loras, lora_rank = find_adapters(masked)  # '50 customer-specific LoRAs': no headcount, no method
    masked, candidates = find_candidates(masked)  # 'each with 50 candidates': no headcount, no corpus
    masked, names, rl_models = find_rl_models(text, masked, names)  # 'rm用7b的': the reward model, not the one trained
    said = names  # every name said, the draft's too: none is a line named with no size ('llama 3.1' of 'llama 3.1 8b')
    masked, names, draft = find_draft(masked, names)  # 'llama 3.1 8b as draft for 70b': the draft, not the one served
    msg = Message(raw, text, masked, pending, lang, names, found_gpus,
                  relabel_said(masked, relabel_lengths(masked, quantities(masked, lang))))
    msg.card_spec = spec
    msg.loras, msg.lora_rank = loras, lora_rank
    msg.candidates = candidates
    msg.rl_models = rl_models
    msg.draft = draft
    msg.unknown = unknown
    msg.engines = engines
    msg.counted = counted
    msg.per_server = per_server
    msg.notes += [("note.model_held", {"name": repo}) for _s, _e, repo in held[:1]]
    msg.notes += [note for note in (*unsold, *card_notes, *outside, *unsized_notes, servers) if note] \
        + variant_notes(text, said, raw) + [note for note in (line_named(text, said),) if note]
    msg.unknown_card = waiting[:2] if waiting else None
    msg.unknown_count = waiting[2] if waiting else 1
    for q in msg.qty:  # "每篇3000字": read as tokens, the ratio said
        if q.extra.startswith("range|") and not q.negated:  # "200-300 words each", "4-8k tokens": the point read
            _r, span, unit, at, _top = q.extra.split("|")
            msg.notes.append((f"note.length_range_{at}", {"said": span, "unit": unit or ("token" if lang == "zh" else "tokens"),
                                                            "tokens": f"{q.value:,.0f}"}))
            continue
        if q.said and q.role and not q.negated:
            number, unit, per_token, *size = q.said.split("|")
            if size == ["page"]:  # '25 pages each': a page of text, the tokens a page runs said with their range
                pages = vocab()["page_tokens"]
                msg.notes.append(("note.pages_as_tokens", {"said": f"{float(number):,.0f} {unit}", "tokens": f"{q.value:,.0f}",
                                                           "each": f"{pages['each']:,}", "low": f"{pages['low']:,}",
                                                           "high": f"{pages['high']:,}"}))
                continue
            if size:  # '40 MB of chat logs': a size of text data, about 4 bytes a token
                msg.notes.append(("note.text_size_as_tokens", {"said": f"{float(number):g} {unit}",
                                                               "tokens": f"{q.value:,.0f}"}))
                continue
            msg.notes.append(("note.text_as_tokens", {"said": f"{float(number):,.0f} {unit}", "tokens": f"{q.value:,.0f}",
                                                      "ratio": f"{float(per_token):g}", "unit": unit}))
    from gpu_advisor.assistant.reading.card_count import card_counts  # reads a prepared Message
    from gpu_advisor.assistant.reading.closest import (  # reads a prepared Message
        closest_names,
        family_stand_in,
    )
    from gpu_advisor.assistant.reading.e2e import e2e_times  # reads a prepared Message
    from gpu_advisor.assistant.reading.headcount import (  # reads a prepared Message
        builder_teams,
        headcounts,
        staffed_seats,
        team_self,
    )
    from gpu_advisor.assistant.reading.listed_people import (  # reads a prepared Message
        add_listed,
        job_first,
        listed_roles,
        staff_not_use,
    )
    from gpu_advisor.assistant.reading.people_groups import named_people  # reads a prepared Message
    from gpu_advisor.assistant.reading.roles import (  # roles reads a prepared Message
        moe_sizes,
        npu_counts,
        online_share,
        param_counts,
    )
    from gpu_advisor.assistant.reading.user_population import product_users  # reads a prepared Message
    from gpu_advisor.assistant.reading.zh_groups import zh_groups  # reads a prepared Message

    card_counts(msg)  # '0 H100s', '0张H100', 'on 0 GPUs': said back, never one owned card
    closest_names(msg)  # 'gemma 3n e8b', 'mistral small 3.3': the model sized said to be the closest on record
    job_first(msg)  # '研发四十个人，客服二十个': the 20 are people, their job said first
    named_people(msg)  # '30个产品经理', 'PM有30个': people, never a bare number for the question asked
    listed_roles(msg)  # '40个客服加5个产品经理': the 5 are people too
    zh_groups(msg)  # '坐席120人和工作人员400人', '120名医生及400名护士': groups named by job, everyone who uses it
    headcounts(msg)
    product_users(msg)  # 'startup here … for ~200 users', '单位 … 给两百个人用': the people who use it, not all at once
    builder_teams(msg)  # '3 ml engineers and 2 researchers': the team that builds it, no users
    team_self(msg)  # "we're 4 ppl (2 devs, 1 ml guy and me)": the team that builds it, no users
    add_listed(msg)  # '3 data scientists and 2 backend devs': 5 people
    staffed_seats(msg)  # '六十来个坐席': people at once during the shift, not a population
    staff_not_use(msg)  # '客服二十个': staff who use it, no support use
    online_share(msg)
    param_counts(msg)  # '总参数两千三百亿，激活二百二十亿': 230B total, 22B active
    moe_sizes(msg)
    family_stand_in(msg)  # 'minimax-m3', 'deepseek-v5' with no size said: the family's record, said
    npu_counts(msg)
    e2e_times(msg)
    from gpu_advisor.assistant.reading.item_rate import item_rates  # reads a prepared Message

    item_rates(msg)  # '一分钟600篇', '600 essays a minute': a request rate
    from gpu_advisor.assistant.reading.period_hours import period_hours  # reads a prepared Message

    period_hours(msg)  # '一个月大概用两百个小时': 27% of the time
    from gpu_advisor.assistant.reading.generations import read_counted  # reads a prepared Message

    read_counted(msg)  # '5000 prompts x 8 samples each', '日活两万，每人每天问10次': what the counts make
    return msg


def _card_spec(masked: str, found_gpus: list) -> tuple[str | None, str]:
    """A card's memory and bandwidth said with no card named ('it has 48GB and about 768 GB/s', '48G显存，带宽
    768GB/s'): a custom card spec, and the text with both figures masked (they count no users or tokens)."""
    if found_gpus:
        return None, masked
    memory = word_pattern("spec_memory").search(masked)
    bandwidth = word_pattern("spec_bandwidth").search(masked)
    if not memory or not bandwidth:
        return None, masked
    spec = f"custom:memory={memory['memory']}GB,bandwidth={bandwidth['bandwidth']}{bandwidth['unit'].upper()}B/s"
    return spec, mask(masked, [memory.span(), bandwidth.span()])


def _count_after(masked: str, found: list[tuple[int, int, str, int]], counted: set[int]) -> list[tuple[int, int, str, int]]:
    """One card named with no count, and a count of cards a few words on ('用 4090 部署，4张卡'): that card's count."""
    if len(found) != 1 or found[0][0] in counted:
        return found
    s, e, gpu_id, _n = found[0]
    said = word_pattern("card_count_after").match(masked, e)
    if not said or not 0 < int(said.group(1)) <= 4096:
        return found
    counted.add(s)
    return [(s, e, gpu_id, int(said.group(1)))]

