"""Groups of people kept with the count they add up to, so that one group can be put right: after '团队有3个算法工程师
和10个产品经理要用…' (13 users), '不对，是30个产品经理，不是10个', 'actually 30 PMs, not 10', 'PM有30个' or 'make that 5
engineers' replace that group's number and the count is added up again (3 + 30 = 33), in the slot that held the sum
(review: the correction was dropped, and its 30 read as a 30% utilisation). The groups and the correction come from
the reader (u.ask['user_groups'], u.ask['group_fixed']: assistant/reading/people_groups.py)."""

from __future__ import annotations

from typing import Any

Groups = tuple[tuple[str, int], ...]


def regroup(updates: dict[str, Any], profile: Any, ask: dict[str, Any]) -> tuple[str, dict[str, str]] | None:
    """Keep the groups said with the count they add up to, apply a correction of one group kept before, and drop
    the groups when the count is said again another way. Returns the note that says the new sum, if any."""
    said, fixed = ask.pop("user_groups", None), ask.pop("group_fixed", None)
    changes = ask.pop("group_change", None)
    if ask.pop("people_bare", None) and profile.population and "users" in updates \
            and not {"population", "users_range"} & set(updates):
        updates["population"] = updates.pop("users")  # '改成200人' after 260 people who use it: 200 who use it
        updates["users"] = None  # (the number at once estimated from them again)
    if said and sum(n for _job, n in said) in (updates.get("users"), updates.get("population")):
        updates["user_groups"] = tuple((job, n) for job, n in said)
        return None
    kept: Groups = tuple(profile.user_groups or ())
    if not kept and changes and any(change == "add" and n for _job, change, n in changes):
        kept = _counted_before(profile)  # '销售一百五十人也要用' after '客服两百人': the 200 are one group, 150 added
    slot = _holder(profile, kept)
    changed = changed_groups(kept, changes) if slot and changes else None
    at = _fixed_group(kept, fixed) if slot and not changed else None
    if slot and (changed or (fixed and at is not None)):
        groups = changed or tuple((job, fixed[2] if i == at else n) for i, (job, n) in enumerate(kept))
        said = {n for _job, _change, n in changes or ()} | ({fixed[2]} if fixed else set())
        for key in ("population", "population_daily", "population_monthly", "users_range"):
            updates.pop(key, None)  # the count said is one group's, not everyone's
        if updates.get("users") in said or slot == "users":  # (a number at once said beside it, '并发算五十', stays)
            updates.pop("users", None)
        updates[slot] = sum(n for _job, n in groups)
        updates["user_groups"] = groups
        ask.pop("count_fixed", None)  # (the number ruled out is the group's, not the plan's count: assistant.count_role)
        if len(groups) == 1:  # ('如果只给研发用呢': one group left, no sum)
            return "note.people_one_group", {"n": f"{updates[slot]:,}"}
        return "note.people_listed", {"parts": " + ".join(f"{n:,}" for _job, n in groups),
                                      "n": f"{updates[slot]:,}"}
    if kept and {"users", "population", "users_range"} & set(updates):
        updates["user_groups"] = None  # the count said again another way: the groups no longer add up to it
    return None


def changed_groups(groups: Groups, changes: list[tuple[str, str, float | None]]) -> Groups | None:
    """The groups after the changes said of them ('double the physicians', 'only R&D', 'add 40 customer success
    reps': reading.group_change), or None when none applies to a group kept (or none would be left)."""
    out = list(groups)
    only = {job for job, change, _n in changes if change == "only" and any(j == job for j, _ in groups)}
    applied = bool(only)
    for job, change, n in changes:
        at = [i for i, (kept_job, _n) in enumerate(out) if kept_job == job]
        if change == "add" and n and not at:
            out.append((job, int(n)))  # a new group ('add 40 customer success reps')
        elif not at or change in ("keep", "only"):
            continue
        elif change == "remove":
            out = [g for i, g in enumerate(out) if i not in at]
        elif n:
            i = at[0]
            new = {"set": n, "add": out[i][1] + n, "times": out[i][1] * n}[change]
            out[i] = (job, max(1, round(new)))
        applied = True
    if only:
        out = [g for g in out if g[0] in only]
    result = tuple(out)
    return result if applied and result and result != groups else None


def _counted_before(profile: Any) -> Groups:
    """The people counted before as one group of no job, when a follow-up adds a group to them: everyone who uses
    it when said, else the users at once said."""
    before = profile.population or profile.users
    return (("", int(before)),) if before else ()


def _holder(profile: Any, groups: Groups) -> str | None:
    """The slot that holds the groups' sum: the people at once, or the people who use it."""
    total = sum(n for _job, n in groups)
    if not groups:
        return None
    return "users" if profile.users == total else "population" if profile.population == total else None


def _fixed_group(groups: Groups, fixed: tuple[str | None, int | None, int] | None) -> int | None:
    """The group the correction names: the only one of its job, or of its job the one with the number ruled out;
    with none of its job ('make that 5 engineers, not 3' after '3 devs'), the only one with the number ruled out."""
    if not fixed:
        return None
    job, old, _new = fixed
    same = [i for i, (kept_job, _n) in enumerate(groups) if kept_job == job] or list(range(len(groups)))
    if len(same) > 1:
        same = [i for i in same if groups[i][1] == old]
    return same[0] if len(same) == 1 else None
