"""One person's own use and the computer around their card: "just me", "自己用", "个人学习", "on my laptop"
(words/personal.yaml), and the system memory said ("64gb ram", "128G内存") that llama.cpp's CPU offload is
sized for (tools.offload)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.public_product import for_public
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.assistant.reading.used_cards import said_used


def read_personal(m: Message) -> bool | None:
    """True when the message says the job is one person's own ("not just me" says nothing)."""
    for text in (m.masked, m.raw.lower()):
        for x in word_pattern("personal").finditer(text):
            if not negated(text, x.start()):
                return True
    return None


def read_used_ok(m: Message) -> bool | None:
    """True when used cards are accepted ('used is fine', '二手也行'): a purchase is then priced used where a sourced
    used price is on record (knowledge.loader.used_prices). A card said used ('两张3090二手', '二手3090') or a used
    market named ('闲鱼', 'refurbished') is the same (reading.used_cards)."""
    if said_used(m):
        return True
    for text in (m.raw.lower(), m.masked):
        x = word_pattern("used_ok").search(text)
        if x and not negated(text, x.start()):
            return True
    return None


def read_system_ram(m: Message) -> float | None:
    """The system memory in GiB, when said with a word that names the computer's memory (not bare 'memory')."""
    x = word_pattern("system_ram").search(m.masked)
    if x is None or not word_pattern("system_ram_word").search(x.group(0)):
        return None
    gb = float(x.group("gb") or x.group("gb2"))
    return gb if 2 <= gb <= 16384 else None


def read_cpu_offload(m: Message) -> bool | None:
    """Part of the model in system RAM asked for ('加 CPU offload', 'experts in RAM', '--n-cpu-moe'), for serving:
    llama.cpp's offload is then sized on the card named (tools.offload)."""
    if m.phase == "fine-tune":
        return None  # ZeRO's optimizer offload is the trainer's (tools.training)
    if not m.gpus:
        return None  # 'what if we offload part of it to cpu ram, how slow?': a question about the plan (intent offload)
    for text in (m.masked, m.raw.lower()):
        x = word_pattern("cpu_offload").search(text) or word_pattern("cpu_offload_rest").search(text)
        if x and not negated(text, x.start()):
            return True
    return None


def read_own_box(m: Message, u: Understanding) -> None:
    """More people said beside 'just me' ('just me and 30 colleagues', 'our 200 staff'): not one person's own
    job. Then: system memory said beside one card and no owner said ('gpt-oss-120b 4090 + 128G内存', 'on a 4090 with
    128gb ram'): RAM is only ever the user's own computer's, so the card in it is theirs too."""
    users = u.updates.get("users") or 1
    if u.updates.get("personal") and (users > 2 or u.updates.get("population") or u.updates.get("users_range")):
        u.updates.pop("personal")
    home_buys(m, u)
    buys_named(m, u)
    if not u.updates.get("system_ram_gb") or u.updates.get("owned"):
        return
    only = u.updates.get("only") or []
    named = {g for _s, _e, g, _c in m.gpus}
    if len(only) == 1 and not only[0][:1].isdigit():
        card = only[0]
    elif not only and len(named) == 1 and set(u.compare_gpus) <= named:
        card = next(iter(named))
        u.compare_gpus = []
    else:
        return
    if bought_for_home(m, card, u):
        return
    count = next((c for _s, _e, g, c in m.gpus if g == card and c), 1)  # '俩张4090 … 内存256g': both cards are theirs
    u.updates["owned"] = [f"{count}x {card}"]
    u.updates.pop("only", None)


def buys_named(m: Message, u: Understanding) -> None:
    """'thinking of getting two used 3090s to run llama 3.3 70b for me n my brother': the cards named are bought for
    one or two people's own use, never rented (no preference said)."""
    only = u.updates.get("only") or []
    users = u.updates.get("users") or 0
    if len(only) != 1 or "preference" in u.updates or not (u.updates.get("personal") or 0 < users <= 2):
        return
    card = only[0].partition("x ")[2] or only[0]
    s = next((s for s, _e, g, _n in m.gpus if g == card), None)
    if s is not None and word_pattern("home_purchase_before").search(m.masked[max(0, s - 40):s]):
        u.updates["preference"] = "buy"


def bought_for_home(m: Message, card: str, u: Understanding) -> bool:
    """'what if i just get one 4090 and offload the rest to cpu ram (64gb ddr5)': the card is bought for their own
    computer (only that card, bought, one person's own), never a card they have already."""
    at = next(((s, n) for s, _e, g, n in m.gpus if g == card), None)
    if at is None or not word_pattern("home_purchase_before").search(m.masked[max(0, at[0] - 40):at[0]]):
        return False
    u.updates["only"] = [f"{at[1] or 1}x {card}"]
    u.updates["preference"] = "buy"
    return True


def home_buys(m: Message, u: Understanding) -> None:
    """One person's own job at home ('at home', 'for myself', '家里', '自己玩') with no card of theirs, no cloud and no
    rent said: they buy a card for their own computer ('preference' buy), never rent a data-centre one. Their own
    laptop or Mac takes no card, so nothing is bought there. A whole machine said ('buy hardware', '整机') is bought
    with the card: no computer of theirs is assumed (slots: has_host's default for one person buying)."""
    if not u.updates.get("personal") or u.updates.get("owned"):
        return
    if "has_host" not in u.updates and word_pattern("whole_build").search(m.raw.lower()):
        u.updates["has_host"] = False  # 'buy hardware', '配一台整机': the computer around the card is bought too
    if "preference" in u.updates:
        return
    if m.phase not in (None, "serve", "experiment") or u.updates.get("method"):
        return  # a training run ('QLoRA on a 7B, just me, to prove the pipeline') is rented by the job first
    if word_pattern("fixed_device").search(m.raw.lower()):
        return
    u.updates["preference"] = "buy"
    u.ask = {**u.ask, "home_buy": True}  # inferred, not said: the conversation's plan so far may still rule it out


def read_product(m: Message) -> bool | None:
    """True for a product people use: a customer-facing chat, a 客服 bot, a public or paid API ('部署成API对外服务',
    'customer support bot', 'a public api'); never with an internal word ('internal api', '公司内部'). The plan then
    holds each user's speed at load at the rules' product minimum (tools.recommend.Workload.product)."""
    if m.phase in ("fine-tune", "pretrain", "continued-pretrain", "batch"):
        return None
    typed = m.raw.lower()
    if m.live("internal_use") or word_pattern("internal_use").search(typed):
        return None
    if m.live("public_facing") or m.live("product_api") or any(
            word_pattern(key).search(typed) for key in ("public_facing", "product_api")):  # '客服bot' as typed
        return True
    if for_public(m):  # 'an ai writing assistant', 'AI陪聊app': the product named by its kind
        return True
    return None
