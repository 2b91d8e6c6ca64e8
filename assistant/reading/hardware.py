"""Readers of hardware and market: cards owned, ruled out or chosen, region, budget, rent or buy."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.buy_box import box_bought
from gpu_advisor.assistant.reading.buy_weighed import weighed
from gpu_advisor.assistant.reading.clauses import clause_bounds, negated, rejected
from gpu_advisor.assistant.reading.intents import asked
from gpu_advisor.assistant.reading.memory_cards import card_by_memory, mine_by_memory
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.money_said import item_bought
from gpu_advisor.assistant.reading.owned import adds, count_asked, limited_alternatives, n_asked, owns_nothing
from gpu_advisor.assistant.reading.stated_lengths import buys_what_falls_short, stated_preference
from gpu_advisor.assistant.reading.text import pattern_rows, vocab, word_pattern
from gpu_advisor.knowledge import gpus


def read_region(m: Message) -> str | None:
    """Where the GPUs run: 'us', 'eu', 'china' or 'global', from countries, cities, clouds and ', US'."""
    hits: list[tuple[int, str]] = []
    t = m.masked
    for pattern, region in pattern_rows("regions"):
        for x in pattern.finditer(t):
            outside = word_pattern("region_outside_before").search(t[max(0, x.start() - 16):x.start()])
            if negated(t, x.start()) or outside:
                continue
            if region == "us" and re.fullmatch(r"in the us", x.group()) is None and x.group() == "us":
                continue
            hits.append((x.start(), region))
    for x in word_pattern("region_outside").finditer(t):
        hits.append((x.start(), "global"))
    hits += [(x.start(), "china") for x in m.live("domestic_only") + m.live("china_buyable")]  # a policy of China's
    raw = m.raw
    if not raw.isupper():
        for x in word_pattern("region_us_cased").finditer(raw):
            if not negated(raw.lower(), x.start()):
                hits.append((_map_position(raw, m.text, x.start()), "us"))
    for x in word_pattern("region_us_clause_end").finditer(t):
        if not negated(t, x.start()):
            hits.append((x.start(), "us"))
    return max(hits)[1] if hits else None


def _map_position(raw: str, text: str, pos: int) -> int:
    """Roughly where a raw-text position falls in the cleaned text (for ordering only)."""
    return int(pos * len(text) / max(1, len(raw)))


def read_owned(m: Message) -> list[str] | None:
    """Hardware the user already has: 'I have two 3090s' -> ['2x rtx-3090'], '我有两张4090',
    'our 8x A100 box', a MacBook Pro M3 Max (Apple machines are owned unless being bought)."""
    owned = [f"{count}x {gpu_id}" for i, (s, e, gpu_id, count) in enumerate(m.gpus)
             if _owned(m, s, e, gpu_id) and not _restated(m, i) and not adds(m, s, e)]
    if not owned and not m.gpus and owns_nothing(m):
        return []  # "我们一台都还没买", "we don't have any hardware yet": nothing owned, whatever was said before
    if not owned and not m.gpus and mine_by_memory(m):
        return card_by_memory(m, "card_by_memory_mine")  # 'my 24gb card', '我的24G显卡': theirs, sized as usual
    return owned or None


def _restated(m: Message, i: int) -> bool:
    """A card said again per machine after the machines were counted with it ('two dgx a100 boxes (8x a100
    80gb each)'), or again by 'the' ('my 4090 … the 4090 supposedly has'): the cards already read."""
    s, e, gpu_id, count = m.gpus[i]
    again = s not in m.counted and word_pattern("card_again_before").search(m.masked[max(0, s - 8):s])  # 'the 4090'
    return any(g[2] == gpu_id and g[3] >= count for g in m.gpus[:i]) and bool(again or word_pattern("per_machine_restated").match(m.masked[e:e + 24]))


def read_network(m: Message) -> str | None:
    """The network between servers, when said: 'IB互联', 'over InfiniBand', 'RoCE' (fast); 'plain
    ethernet', '万兆' (slow). Training over owned servers uses all of them only over a fast one."""
    slow = [x for x in m.live("network_slow") if not negated(m.masked, x.start())]
    if any(word_pattern("network_rdma").search(x.group(0)) for x in slow):
        return "slow"  # "没有IB", "no infiniband": the fast fabric said to be missing
    if [x for x in m.live("network_rdma") if not negated(m.masked, x.start())]:
        return "fast"  # "200G RoCE以太网": RDMA over Ethernet is the fast fabric, whatever the cable is called
    for kind in ("slow", "fast"):  # "no infiniband, just ethernet": the negated fast one is skipped
        if [x for x in m.live(f"network_{kind}") if not negated(m.masked, x.start())]:
            return kind
    return None


def read_network_gbit(m: Message) -> float | None:
    """The speed of the network between servers, when said: '100G ethernet' (100), '25GbE' (25), '万兆' (10)."""
    if read_network(m) is None:
        return None
    for x in m.live("network_speed"):
        if not negated(m.masked, x.start()):
            if x.group("mega"):
                return float(x.group("mega")) / 1000  # '万兆' read as 10000兆: megabits
            return float(x.group("gbit")) if x.group("gbit") else float(vocab()["network_speed_words"][x.group("word")])
    return None


def read_server_gpus(m: Message) -> int | None:
    """GPUs in each of several machines named with their cards: 'two 8xH100 nodes' -> 8, '2台8卡A800' -> 8,
    'four Atlas 800I A2' -> 8 (the server model's own count)."""
    for s, _e, _gpu_id, count in m.gpus:
        per = m.per_server.get(s)
        if per and count > per and not negated(m.masked, s):
            return per
    return None


def _owned(m: Message, s: int, e: int, gpu_id: str) -> bool:
    """Whether the card named at s:e is one the user has, from the words before or after it in its clause
    ('we have 4 A100s', '4 A100s sitting in our lab', '机房里放着4张L20' read as 'we have 4 l20')."""
    left, right = clause_bounds(m.masked, s, e)
    clause = m.masked[left:right]
    prefix = m.masked[max(left, s - 80):s]
    near = m.masked[max(0, s - 24):s]
    has = (word_pattern("owned").search(prefix) and not word_pattern("owned_not").search(prefix)) or \
        word_pattern("owned_after").match(m.masked[e:e + 40]) or \
        (word_pattern("owned_just").search(prefix) and word_pattern("owned_single").match(m.text[s:e]))
    mine = word_pattern("owned_mine_near").search(near) or word_pattern("owned_machine").search(clause)
    home = word_pattern("owned_place").search(clause)
    buying = word_pattern("owned_buying").search(prefix) and not re.search(r"\balready\b", prefix)
    if _candidate(m, s) or weighed(m, s, e):
        return False  # 'thinking one H100', '打算用一张H100', '想买…3090还是4060ti': a card weighed, not had
    if n_asked(m, s):
        return False  # "we run qwen in prod, how many H100s?", '我们线上跑…要几张H100': the count asked, not had
    if word_pattern("owned_buy_near").search(m.masked[max(0, s - 20):s]) \
            or word_pattern("owned_rent_counted_zh").search(m.masked[max(0, s - 20):s]):
        return False  # "or buy an 8x h100 server for 280k", '去租几张A100': a card to get, whatever was said before
    if word_pattern("owned_question_near").search(prefix) or _use_is_a_plan(m, s):
        return False  # "but my question was h100 vs h200": cards asked about, not the speaker's
    if (word_pattern("owned_hypothetical").search(prefix) or word_pattern("owned_hypothetical").search(m.masked[e:e + 40])) \
            and not word_pattern("owned_after").match(m.masked[e:e + 40]):  # '… the A6000s we already have?': yours
        return False  # "what if we bought 2 rtx 6000 ada, would that work": a card considered, not owned
    if (home or _default_owned(gpu_id)) and not (has or mine) and len({g for _s, _e, g, _n in m.gpus}) >= 2 and (
            word_pattern("which_cue").search(m.masked) or word_pattern("which_cue").search(m.raw.lower())):
        return False  # "3090 or 4070 ti super for running llms locally?", "m4 pro 48gb vs a 4090 desktop": candidates
    if word_pattern("owned_paid").search(prefix):
        return True  # "we bought two 3090s for $1400": paid for, so owned; the price is what they cost
    if word_pattern("owned_quoted").search(prefix) or word_pattern("owned_quoted_after").match(m.masked[e:e + 40]):
        return False  # "we got quotes: 8x H100 server for $280k to buy": a card priced, not owned
    if _topic(m, s, e) and not word_pattern("intents.rent_buy").search(m.masked):  # ('两张h100 租还是买': to get)
        return True  # "两张3090跑qwen3-235b", "two 8xA800 servers, 10GbE, qwen3-235b lora": what the speaker has
    default = _default_owned(gpu_id) and not buying
    return bool(((has or mine or home) and not (buying and not has)) or default)


def _default_owned(gpu_id: str) -> bool:
    """A card people name as their own unless they say otherwise: a Mac (nobody rents one by the hour), a laptop,
    the consumer cards of words/hardware.yaml's owned_by_default."""
    mac = gpu_id.startswith("apple-") or "vendor=apple" in gpu_id
    return gpu_id in vocab()["owned_by_default"] or mac or _laptop(gpu_id)


def _topic(m: Message, s: int, e: int) -> bool:
    """A counted card that opens its clause in a message naming the model, with no count asked about it, no
    'can it run there?' and no other card offered beside it: the hardware the message is about, the speaker's own."""
    return bool(s in m.counted and m.names and word_pattern("owned_topic_before").search(m.masked[:s])
                and not word_pattern("chosen_count_question").search(m.masked) and not asked(m, "fit_check")
                and not word_pattern("owned_hypothetical").search(m.masked)
                and not _alternative(m, s, e))


def _laptop(gpu_id: str) -> bool:
    """A laptop GPU of the catalog: owned with the laptop, like a Mac (nobody rents one or buys it alone)."""
    from gpu_advisor.knowledge import NotFound, find_gpu

    if gpu_id.startswith("custom:"):
        return False
    try:
        return find_gpu(gpu_id).laptop
    except NotFound:
        return False


def read_exclude(m: Message) -> list[str] | None:
    """Cards ruled out: 'no AMD', 'not Huawei', '不要AMD' -> vendor ids; 'avoid the H20' -> a GPU id.
    'I don't have an H100' rules nothing out. A choice limited to some vendors ('nvidia only', '只用国产芯片')
    rules out every other vendor of the catalog."""
    words = vocab()["vendor_words"]
    out: list[str] = []
    ruled_out_end = -1  # "no amd or huawei": a word joined to a ruled-out one is ruled out too
    for x in _vendor_mentions(m):
        ruled_out = negated(m.masked, x.start()) or _joined(m.masked, ruled_out_end, x.start())
        if ruled_out:
            out.append(words[x.group()])
        ruled_out_end = x.end() if ruled_out else -1
    out += [gpu_id for s, e, gpu_id, _n in m.gpus if rejected(m, s, e)
            and not word_pattern("owned_not").search(m.masked[max(0, s - 40):s])]
    allowed = _allowed_vendors(m)
    if allowed:
        out = [v for v in out if v not in allowed] + sorted(catalog_vendors() - allowed)
    if m.live("china_buyable"):  # only what may be sold new in China: the export-restricted cards are out
        limited = [g for g in gpus() if g.export_limited]
        out += [g.id for g in limited]
        shown = ("、" if m.lang == "zh" else ", ").join(g.name for g in limited[:4])
        _note_once(m, ("note.china_buyable", {"cards": shown, "n": str(len(limited))}))
    return sorted(set(out)) or None


def catalog_vendors() -> set[str]:
    """The vendors whose cards the catalog holds."""
    return {str(g.vendor) for g in gpus()}


def vendor_name(vendor: str) -> str:
    """A vendor as its cards' names spell it ('nvidia' -> 'NVIDIA', 'huawei' -> 'Huawei')."""
    firsts = [g.name.split()[0] for g in gpus() if g.vendor == vendor]
    return max(set(firsts), key=firsts.count) if firsts else vendor


def _vendor_mentions(m: Message) -> list[re.Match[str]]:
    """Vendor words ('amd', 'nvidia', 'consumer cards' ...) in the message, not those naming something else
    ('huawei cloud')."""
    names = sorted(vocab()["vendor_words"], key=len, reverse=True)  # "consumer cards" before "cards"
    found = re.finditer(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b", m.masked)
    return [x for x in found if not word_pattern("vendor_not_after").match(m.masked[x.end():x.end() + 16])]


def _joined(text: str, previous_end: int, start: int, comma: bool = True) -> bool:
    """Whether a word is joined to the one before it by 'or', 'and', '/' or a comma ('no amd or huawei')."""
    joint = r"\s*(?:,|/|or|and|nor|,\s*or|,\s*and)\s*" if comma else r"\s*(?:/|or|and|,\s*or|,\s*and)\s*"
    return previous_end >= 0 and re.fullmatch(joint, text[previous_end:start]) is not None


def _allowed_vendors(m: Message) -> set[str]:
    """The vendors the user limits the choice to, empty when none: the catalog's Chinese vendors under a
    domestic-only policy, or the vendors named as the only (or preferred) ones ('only nvidia or amd')."""
    if m.live("domestic_only"):
        domestic: set[str] = {g.vendor for g in gpus() if g.domestic_china}
        names = ("、" if m.lang == "zh" else ", ").join(g.name for g in gpus() if g.domestic_china)
        _note_once(m, ("note.domestic_only", {"cards": names}))
        return domestic
    words, vendors = vocab()["vendor_words"], catalog_vendors()
    mentions = [x for x in _vendor_mentions(m) if words[x.group()] in vendors and not negated(m.masked, x.start())]
    limited = [False] * len(mentions)
    preferred = False
    for i, x in enumerate(mentions):
        before = word_pattern("vendor_only_before").search(m.masked[max(0, x.start() - 40):x.start()])
        after = word_pattern("vendor_only_after").match(m.masked[x.end():x.end() + 24])
        limited[i] = bool(before or after)
        preferred = preferred or bool(before and word_pattern("vendor_prefer").search(before.group()))
    # "only nvidia or amd", "nvidia or amd only": a vendor joined to a limited one is allowed too
    for order in (range(1, len(mentions)), range(len(mentions) - 2, -1, -1)):
        for i in order:
            j = i - 1 if order.step > 0 else i + 1
            first, second = (mentions[j], mentions[i]) if j < i else (mentions[i], mentions[j])
            limited[i] = limited[i] or (limited[j] and _joined(m.masked, first.end(), second.start(), comma=False))
    allowed = [words[x.group()] for x, ok in zip(mentions, limited, strict=True) if ok]
    if allowed and preferred:
        _note_once(m, ("note.vendor_preferred", {"vendors": ("、" if m.lang == "zh" else ", ").join(vendor_name(v) for v in dict.fromkeys(allowed))}))
    return set(allowed)


def _note_once(m: Message, note: tuple[str, dict[str, str]]) -> None:
    if note not in m.notes:
        m.notes.append(note)


def _candidate(m: Message, s: int) -> bool:
    """'thinking one H100', 'considering 2 A100s', 'planning on an L40S', '考虑两张A100': the card weighed for the plan."""
    return bool(word_pattern("card_candidate_before").search(m.masked[max(0, s - 48):s]))


def _use_is_a_plan(m: Message, s: int) -> bool:
    """'我们用910B全参微调Qwen2.5-7B，要几张', 'we use 910B ..., how many do we need': the card planned, not had."""
    return bool(word_pattern("owned_by_use").search(m.masked[max(0, s - 40):s])
                and word_pattern("cards_count_asked").search(m.masked) and not re.search(r"\d", m.masked[max(0, s - 24):s]))


def read_only(m: Message) -> list[str] | None:
    """Cards the user limits the choice to: 'on rtx 4090s only', 'only H100s', '只用4090'; and, in a
    message that names the model, the card the job is planned on ('fine-tune llama 8b on 4x h100',
    'H20部署Qwen3', 'how many H100s to serve 70B'), with its count when one is given ('4x h100-sxm')."""
    owned = {g for s, e, g, _n in m.gpus if (word_pattern("owned").search(m.masked[max(0, s - 40):s])
                                             and not word_pattern("owned_buy_near").search(m.masked[max(0, s - 20):s])
                                             and not word_pattern("owned_hypothetical").search(m.masked[max(0, s - 40):s])
                                             and not _use_is_a_plan(m, s) and not _candidate(m, s)
                                             and not n_asked(m, s))
             or _owned(m, s, e, g)}  # "we have 8 4090s and rented 2 a100s": the A100s are rented, not owned
    out = []
    limited = limited_alternatives(m)
    for s, e, gpu_id, count in m.gpus:
        if s in limited and gpu_id not in owned:
            out.append(gpu_id)  # "can only get L40S or RTX 6000 Ada": either, as many as the job needs
            continue
        if negated(m.masked, s) or gpu_id in owned or _alternative(m, s, e) or _overflow(m, s, e):
            continue  # ... or 'also rent 8 h100s if needed': a card allowed beside yours, not the only one
        only = word_pattern("only_before").search(m.masked[max(0, s - 64):s]) or word_pattern("only_after").match(m.masked[e:e + 48]) \
            or _candidate(m, s)
        mine = gpu_id.startswith("apple-") or gpu_id in vocab()["owned_by_default"] or _laptop(gpu_id)  # a Mac or laptop named is owned
        if only or (_chosen(m, s, e) and not mine and not count_asked(m, s, e)):
            out.append(f"{count}x {gpu_id}" if s in m.counted else gpu_id)
        elif _chosen(m, s, e) and not mine:
            out.append(gpu_id)  # "需要几台910B服务器", "how many H100s": the card, its count is the question
    if not out and not m.gpus and not mine_by_memory(m):
        out = card_by_memory(m)
    return sorted(set(out)) or None


def _alternative(m: Message, s: int, e: int) -> bool:
    """One of two cards offered as a choice ('rent h100 or h200?', '租h100还是h200划算'): compared, not the
    only one allowed."""
    others = [x for x, _e, g, _n in m.gpus if x != s]
    return bool(others) and bool(word_pattern("card_alternative").match(m.masked[e:e + 16])
                                 or word_pattern("card_alternative_before").search(m.masked[max(0, s - 16):s])
                                 or (any(x < s for x in others)
                                     and word_pattern("card_alternative_way").search(m.masked[max(0, s - 40):s])))


def _chosen(m: Message, s: int, e: int) -> bool:
    """The one card of a message that names the model, said as the card the job runs on."""
    if len(m.gpus) != 1:
        return False
    count_asked = word_pattern("chosen_count_question").search(m.masked) or (
        word_pattern("chosen_after").match(m.masked[e:e + 24]) and word_pattern("count_asked").search(m.masked[e:e + 24])) \
        or word_pattern("count_asked").search(m.masked[max(0, s - 12):s])
    if count_asked:
        return True  # "910B要几台服务器", "how many h100s?": that card, as many as the job needs (a plan or not)
    return bool(m.names and (word_pattern("chosen_before").search(m.masked[max(0, s - 24):s])
                             or word_pattern("chosen_after").match(m.masked[e:e + 24])))


def read_preference(m: Message) -> str | None:
    """Rent or buy: 'i wanna buy not rent' -> buy; 'we'd rather rent, don't want to buy' -> rent; 'rent or buy?' is a
    question (intent rent_buy), not a preference, unless renting only was said ("we're cloud-only, rent or buy?")."""
    if m.live("preference.rent_only") or buys_what_falls_short(m):  # '不够的话买啥': what owned cards lack is bought
        return "rent" if m.live("preference.rent_only") else "buy"
    if word_pattern("intents.rent_buy").search(m.masked) or word_pattern("preference_asked").search(m.masked):
        return box_bought(m)  # "our box or do we need to rent?": asked; 'what config should we buy?': a purchase
    asked = [x.span() for x in word_pattern("buy_more_asked").finditer(m.masked)]  # '要买新卡吗': a question

    def _in_question(x: re.Match[str]) -> bool:
        return any(a <= x.start() < b for a, b in asked) or item_bought(m, x.start())  # 'nvlink有没有必要买': a part

    hits = [(x.start(), name) for name in ("buy", "rent") for x in m.live(f"preference.{name}")
            if not (name == "rent" and _overflow(m, x.start(), x.end())) and not _in_question(x)]
    if not hits and any(_overflow(m, x.start(), x.end()) for x in m.live("preference.rent")):
        _note_once(m, ("note.rent_overflow", {}))  # "rent more if needed": yours first, renting what they cannot do
        return None
    if not hits and not owns_nothing(m):  # "no cloud", "don't want to rent": the other way ("haven't bought any" is neither)
        hits = [(x.start(), other) for name, other in (("buy", "rent"), ("rent", "buy"))
                for x in word_pattern(f"preference.{name}").finditer(m.masked)
                if negated(m.masked, x.start()) and not _in_question(x)]
    if not hits and m.live("credits_said"):
        return "rent"  # '40k in aws credits': credits spend only on rented cards
    if not hits and m.pending == "preference":
        key = m.text.strip(" .!")
        return vocab()["choice_words"]["preference"].get(key)
    return stated_preference(m, hits)  # none when asked ('buy a box, or rent?', '不够的话还要买几台')


def _overflow(m: Message, s: int, e: int) -> bool:
    """A rent said as overflow ('rent more if needed', '不够可以再租'): allowed beside the user's own cards,
    not preferred over them."""
    return bool(word_pattern("rent_overflow_before").search(m.masked[max(0, s - 16):s])
                or word_pattern("rent_overflow_after").match(m.masked[e:e + 48]))


def read_card_count(m: Message, u: Understanding) -> None:
    """A count of cards said with no card ('eight of them', '八张', 'what about 4 cards?'): of the card just named,
    which the engine knows."""
    said = word_pattern("card_count_bare").match(m.masked) or word_pattern("card_count_enough").match(m.masked)
    if said and not m.gpus and 0 < int(said.group(1)) <= 4096:
        u.card_count = int(said.group(1))
        if m.pending and u.updates.get(m.pending) == u.card_count:
            u.updates.pop(m.pending)  # "what about 4 of them" at the users question: 4 of the cards, not 4 users
        if u.card_count == 1 and word_pattern("one_card_asked").search(unicodedata.normalize("NFKC", m.raw).lower()):
            u.ask = {**u.ask, "one_card": True}  # "一张卡够吗？": asked, so one of the user's own cards is tried
    elif not m.gpus and word_pattern("one_card_asked").search(unicodedata.normalize("NFKC", m.raw).lower()):
        u.card_count = 1  # "换 Qwen3-30B-A3B 呢，一张卡行吗": one of the plan's card
        u.ask = {**u.ask, "one_card": True}  # asked as a question: one of the user's own cards tried, not owned


def read_gpus(m: Message, u: Understanding) -> None:
    """Cards named but not owned: two or more to compare ('compare L40S and A100'), or one to try
    ('and on two 4090s?')."""
    for s, e, gpu_id, count in m.gpus:  # "add my old 3060 as a second card": one more card of the user's own
        if adds(m, s, e) and not negated(m.masked, s):
            u.added_cards[gpu_id] = u.added_cards.get(gpu_id, 0) + count
            u.adds_owned = True
    if u.adds_owned:
        u.updates.pop("only", None)
        return
    if u.updates.get("owned"):
        return
    found = [g for g in m.gpus if not rejected(m, g[0], g[1])]
    if not found:
        return
    for s, _e, gpu_id, count in found:  # "what if I add a second 4090", "再加两张4090": more of a card you have
        more = word_pattern("add_cards").search(m.masked[max(0, s - 32):s])
        servers = word_pattern("add_servers").search(m.masked[max(0, s - 48):s])
        if more:
            u.added_cards[gpu_id] = int(more.group("n") or more.group("n2") or (count if s in m.counted else 1))
        elif servers and s in m.counted:  # "add a third server of 8 l40s": its cards, beside yours
            u.added_cards[gpu_id] = count * int(servers["n"] or 1)
    if u.added_cards:
        u.updates.pop("only", None)
        return
    if len(found) >= 2 and (word_pattern("compare").search(m.masked)
                            or word_pattern("answers.count_then_other").search(m.masked)):
        u.compare_gpus = list(dict.fromkeys(g for _s, _e, g, _c in found))
        return
    s, e, gpu_id, count = found[-1]
    later = word_pattern("card_count_later").search(m.masked[e:])
    if later and s in m.counted and 0 < int(later.group(1)) != count:  # "16 张 A800 太多了？用 4 张行不行": the 4
        count = int(later.group(1))
    if s not in m.counted:
        u.compare_gpus = [gpu_id]  # 'why not an H100?': as many as it takes, not one
        return
    u.whatif_gpus = (count, gpu_id)

