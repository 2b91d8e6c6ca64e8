"""Changes of premise said in a later turn, applied to the profile so that the plan is made again on them, nothing
stale kept (review T):

- a count of cards corrected ('scratch that, we only got 2 of the a100s', 'finance only approved 2 a100s', '说错了，是
  4张3090', 'actually 4'): that many of the card the profile holds, in the slot that held it (owned, or the cards the
  plan is held to), never weighed beside the old plan; cards said to be had ('we only got 2') are owned, and the
  same cards held to before as a limit are dropped from it (one place, not two);
- a card named again by its bare name ('a100' after '8x a100 40gb') keeps the variant held, not the catalog's default;
- a new question on cards of the user's own drops the cards the old question was held to;
- a job given up ('不微调了', 'no fine-tuning') plans the other alone, and the first line says what it saves;
- renting decided after a plan to buy (or buying after renting): the first line says what changed.
The words are the reader's (reading.premise, words/premise.yaml)."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.phases import PHASES

SLOTS = ("owned", "only")
# Slots that say how to train, and nothing else: dropped with the training (apply_dropped_phase).
TRAINING_ONLY = ("method", "qlora_base")


def counted(entry: str) -> tuple[int, str]:
    """A card entry as (count, card id): '4x rtx-3090' -> (4, 'rtx-3090'), a bare 'rtx-3090' -> (1, 'rtx-3090').
    The one parser of the profile's card entries (the engine's too)."""
    count, sep, card = entry.partition("x ")
    return (int(count), card.strip()) if sep and count.isdigit() else (1, entry.strip())


def _same_card(held: str, card: str | None, name: str) -> bool:
    """Whether the card said ('a100', or none) is the card held ('a100-40gb-sxm'): the same id, or its bare name with
    no memory said, which a name of the held variant begins with, then its memory or form factor."""
    if card is None or held == card:
        return True
    if not name or word_pattern("card_memory_said").search(name):
        return False  # 'a100 40gb' names its variant
    try:
        aliases = find_gpu(held).aliases
    except LookupError:
        return False
    return any(a == name or (a.startswith(name) and word_pattern("card_variant_after").match(a[len(name):])) for a in aliases)


def apply_recount(u: Understanding, profile: Any, updates: dict[str, Any]) -> bool:
    """Put the corrected count in place of the held cards (updates); True when it did."""
    if not u.recount:
        return False
    n, card, name = u.recount
    held = [(slot, counted(e)[1]) for slot in SLOTS for e in getattr(profile, slot, None) or []]
    same = [(slot, c) for slot, c in held if _same_card(c, card, name)]
    if len({c for _s, c in same}) == 1:
        slot, old = same[0]
        new = old
    elif card and len({c for _s, c in held}) == 1:  # 'scratch that, we have 4 h100s' after '8x a100': the plan's card
        slot, old = held[0]
        new = card
    else:
        if card is None and not held and not u.card_count:
            u.card_count = n  # 'actually 2 of them' with no card held: of the card just named (the engine's count)
        return False
    target = "owned" if updates.get("owned") or u.ask.get("recount_had") else slot  # 'we have 2 of them': theirs
    if u.ask.get("recount_taken"):  # '2 of them are taken by another student': the rest are the plan's
        had = sum(counted(e)[0] for e in getattr(profile, slot, None) or [] if counted(e)[1] == old)
        if had <= n:
            return False
        n = had - n
    for where in SLOTS:
        kept = [e for e in getattr(profile, where, None) or [] if counted(e)[1] != old]
        if where == target:
            updates[where] = [*kept, f"{n}x {new}"]
        elif len(kept) < len(getattr(profile, where, None) or []):
            updates[where] = kept or None  # the same cards held in the other slot: in one place now
    if "whatif" in u.intents and updates.get(target) == getattr(profile, target, None):
        u.intents.add("fit_check")  # '只用16张910B够不够？' of the plan on screen: its verdict again, not 'nothing new'
    u.whatif_gpus, u.card_count = None, None
    u.intents.discard("whatif")
    u.ask = {**u.ask, "recounted": True}
    return True


def keep_variant(u: Understanding, profile: Any, updates: dict[str, Any]) -> None:
    """A card held before ('8x a100 40gb') named again by its bare name ('what about 4 a100s?', 'we have 2 a100s'):
    the variant held, not the catalog's default, in the card tried and in the cards owned or held to."""
    names = u.ask.get("card_names") or {}
    held = {counted(e)[1] for slot in SLOTS for e in getattr(profile, slot, None) or []}

    def kept(card: str) -> str:
        same = {h for h in held if _same_card(h, card, names.get(card, ""))} if names.get(card) else set()
        return next(iter(same)) if card not in held and len(same) == 1 else card

    if not names or not held:
        return
    if u.whatif_gpus:
        u.whatif_gpus = (u.whatif_gpus[0], kept(u.whatif_gpus[1]))
    for slot in SLOTS:
        if updates.get(slot):
            updates[slot] = [f"{n}x {kept(c)}" if re.match(r"\d+x ", e) else kept(c)
                             for e in updates[slot] for n, c in [counted(e)]]


def drop_stale_limit(u: Understanding, profile: Any, updates: dict[str, Any], text: str) -> None:
    """A new question on cards of the user's own ('and gpt-oss-20b on my 4080 16gb?' after 'can i run gpt-oss-120b on a
    single h100?'): the cards the old question was held to belonged to it, and go with it. Kept when the new cards
    are among them, or when the message only tells what is owned, asking nothing and changing no model."""
    if not profile.only or "only" in updates or u.recount or u.adds_owned:
        return
    new = {counted(e)[1] for e in updates.get("owned") or []}
    held = {counted(e)[1] for e in profile.only}
    if not new or new & held:
        return
    if updates.get("model", profile.model) != profile.model or word_pattern("asked_at_end").search(text.strip()):
        updates["only"] = None


def apply_dropped_phase(u: Understanding, profile: Any, updates: dict[str, Any]) -> None:
    """'不微调了', 'no fine-tuning, just serve it' after a train-then-serve plan: serving alone is planned (and
    fine-tuning alone for '不部署了'); the training or serving values said stay in the profile, unused."""
    drops, phase = u.ask.get("drops"), profile.phase
    spec = PHASES.get(phase or "")
    if not drops or spec is None or updates.get("phase") not in (None, "serve" if drops == "train" else "fine-tune"):
        return
    if drops == "train" and spec.trains and phase != "batch":
        updates["phase"] = "serve"
        if phase == "production" and profile.utilisation is not None and "utilisation" not in updates:
            updates["utilisation"] = profile.utilisation  # a production service stays up as busy as it was
        for slot in TRAINING_ONLY:  # 'QLoRA' said for the training given up: no longer what was said for this plan
            if getattr(profile, slot, None) is not None and slot not in updates:
                updates[slot] = None
    elif drops == "serve" and spec.trains and phase in ("train-and-serve", "production"):
        updates["phase"] = "fine-tune"


def dropped_line(ask: dict[str, Any], answer: Any, before_rec: dict[str, Any], lang: str) -> str:
    """'不微调了，会不会更省？' after a plan to fine-tune then serve: what giving up the training saves (its run's rent, on
    the plan's cards or on the cards rented for it by the hour) and the serving plan's month against the one before,
    first; '' when either month or the run's rent is unknown."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.writers import cash, gpu_words
    from gpu_advisor.tools.recommend import Option

    rec = answer.recommend
    new = rec.best
    before = before_rec.get("best") or {}
    if ask.get("drops") != "train" or new is None or not before.get("gpu"):
        return ""
    old = Option.model_validate(before)
    run = Option.model_validate(before_rec["training_run"]) if before_rec.get("training_run") else old
    if run.job_usd is None or run.owned or old.owned or new.owned or not new.usd_per_month or not old.usd_per_month:
        return ""
    same = (new.gpu, new.gpus) == (old.gpu, old.gpus) and round(new.usd_per_month, 2) == round(old.usd_per_month, 2)
    key = "same" if same else "cheaper" if new.usd_per_month <= old.usd_per_month else "dearer"
    return say(lang, f"premise.drop_train.{key}", run=cash(run.job_usd, rec), this=gpu_words(new, lang),
               now=cash(new.usd_per_month, rec), was=cash(old.usd_per_month, rec), before=gpu_words(old, lang))


def switched_line(before_rec: dict[str, Any], answer: Any, lang: str) -> str:
    """'capex is a no go, so renting it is. what changes' after a plan to buy (or buying after a plan to rent): the
    plan's cards and what they cost now against the plan before, first; '' when the plan did not switch."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.writers import cash, gpu_words
    from gpu_advisor.tools.recommend import Option

    rec = answer.recommend
    new, old_action = rec.best, before_rec.get("action")
    if new is None or not before_rec.get("best") or {old_action, rec.action} != {"rent", "buy"} or new.owned:
        return ""
    old = Option.model_validate(before_rec["best"])
    if not rec.workload.spec.serves and new.job_usd is not None and old.job_usd is not None:
        # a job that ends ('rent on runpod or buy a box?' of a LoRA run): a run's cost, never a month of renting
        if rec.action == "rent" and new.usd_per_hour and old.purchase_usd:
            return say(lang, "premise.to_rent_run", this=gpu_words(new, lang), run=cash(new.job_usd, rec),
                       hour=cash(new.usd_per_hour, rec), before=gpu_words(old, lang), buy=cash(old.purchase_usd, rec))
        if rec.action == "buy" and new.purchase_usd:
            return say(lang, "premise.to_buy_run", this=gpu_words(new, lang), buy=cash(new.purchase_usd, rec),
                       before=gpu_words(old, lang), run=cash(old.job_usd, rec))
    if rec.action == "rent" and new.billed_usd_per_month and new.usd_per_hour and old.purchase_usd:
        return say(lang, "premise.to_rent", this=gpu_words(new, lang), month=cash(new.billed_usd_per_month, rec),
                   hour=cash(new.usd_per_hour, rec), before=gpu_words(old, lang), buy=cash(old.purchase_usd, rec))
    if rec.action == "buy" and new.purchase_usd and old.billed_usd_per_month:
        return say(lang, "premise.to_buy", this=gpu_words(new, lang), buy=cash(new.purchase_usd, rec),
                   before=gpu_words(old, lang), month=cash(old.billed_usd_per_month, rec))
    return ""
