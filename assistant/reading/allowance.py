"""A card allowed beside a domestic-only rule ('机房只能放国产卡或者H20', 'domestic chips or the H20 only',
'国产化要求，H20也可以'): the rule keeps the domestic cards and the named card too. Every other card of that
card's vendor stays ruled out, the named one is not: the plan weighs the domestic cards and it side by side."""
from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.hardware import read_exclude, read_only
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import gpus

_SPAN = 24  # characters between the rule's words and the card, at most


def allowed_beside_rule(m: Message) -> list[str]:
    """Foreign cards the user allows beside a domestic-only rule, in the order named; empty when none."""
    rules = m.live("domestic_only")
    if not rules:
        return []
    domestic = {g.id for g in gpus() if g.domestic_china}
    out: list[str] = []
    for s, e, gpu_id, _n in m.gpus:
        if gpu_id in domestic or negated(m.masked, s) or gpu_id in out:
            continue
        after = any(r.end() <= s and s - r.end() <= _SPAN
                    and word_pattern("allowance_after_rule").match(m.masked[r.end():s]) for r in rules)
        before = any(e <= r.start() and r.start() - e <= _SPAN
                     and word_pattern("allowance_before_rule").match(m.masked[e:r.start()]) for r in rules)
        said = any(r.end() <= s for r in rules) and word_pattern("allowance_after_card").match(m.masked[e:e + _SPAN])
        if after or before or said:
            out.append(gpu_id)
    return out


def read_exclude_allowing(m: Message) -> list[str] | None:
    """read_exclude, with a card allowed beside a domestic-only rule kept: its vendor is no longer ruled out
    as a whole, only that vendor's other cards are; the note names the domestic cards and the allowed one."""
    out = read_exclude(m)
    allowed = allowed_beside_rule(m)
    if not out or not allowed:
        return out
    by_id = {g.id: g for g in gpus()}
    vendors = {by_id[g].vendor for g in allowed}
    kept = [v for v in out if v not in vendors]
    kept += [g.id for g in gpus() if g.vendor in vendors and g.id not in allowed]
    comma = "、" if m.lang == "zh" else ", "
    m.notes[:] = [n for n in m.notes if n[0] != "note.domestic_only"]
    m.notes.append(("note.facts_domestic_beside", {
        "cards": comma.join(g.name for g in gpus() if g.domestic_china),
        "allowed": comma.join(by_id[g].name for g in allowed)}))
    return sorted(set(kept))


def read_only_allowing(m: Message) -> list[str] | None:
    """read_only, less a card allowed beside a domestic-only rule ('除了国产卡，也可以用H20'): a card allowed
    beside the domestic ones is one choice among them, not the only card."""
    out = read_only(m)
    allowed = allowed_beside_rule(m)
    if not out or not allowed:
        return out
    rest = [g for g in out if g.split("x ")[-1].strip() not in allowed]
    return rest or None


def keep_allowed(m: Message, u: Understanding) -> None:
    """A card allowed beside a domestic-only rule is one of the cards to choose among, not a comparison asked
    ('国产卡或者H20' is no 'H20 or 910B?'): it leaves the cards compared; the plan weighs it with the rest."""
    allowed = allowed_beside_rule(m)
    if not allowed:
        return
    u.compare_gpus = [g for g in u.compare_gpus or [] if g not in allowed]
    only = [g for g in u.updates.get("only") or [] if g.split("x ")[-1].strip() not in allowed]
    if "only" in u.updates:
        u.updates["only"] = only or None


def read_only_sourced(m: Message) -> bool | None:
    """'we can only get L20s', '只能买到H20': the cards named are all the user can get (True), so no card beside
    them is named as a better choice (tools.recommend); None when not said."""
    return True if m.gpus and m.live("only_sourced") else None


# The readers of the cards the choice is limited to ('only'), and of whether they are all the user can get.
ONLY_READERS = (("only", read_only_allowing), ("only_sourced", read_only_sourced))
