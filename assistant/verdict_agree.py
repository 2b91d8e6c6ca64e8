"""The comparison's closing verdict says what the headline says (one decision per answer).

Two ways they parted (reviews AR 14, AR 9): every row weighed falls short of what was asked (a budget, a target), so
the headline says neither does it, while the verdict went on to pick one on its figures; and the verdict said
'neither card does the job' while the headline planned one of those very cards at another count. Here the verdict
is put in line: all short, it says so first and weighs the two only as the better of two that fall short; 'neither'
beside a plan on one of the cards weighed, it names that plan. Words: catalog verdict_agree.*."""
from __future__ import annotations

from typing import Any


def agree(ctx: Any, sized: str | None) -> str | None:
    """The verdict line, in line with the headline."""
    options = ctx.data.get("options") or []
    if not sized or len(options) < 2:
        return sized
    v = ctx.data.get("verdict") or {}
    rec = ctx.rec
    best = rec.best if rec is not None else None
    names = {o["gpu"]: o["gpu_name"] for o in options}
    gap = "" if ctx.lang == "zh" else " "
    if v.get("code") == "neither":
        if best is not None and best.ok and not best.owned and best.gpu in names:
            head = sized.partition(ctx.say("verdict.neither"))[0]
            ctx.data["verdict"] = {**v, "code": "plan", "pick": best.gpu, "count": best.gpus}
            return head + ctx.say("verdict_agree.neither_plan", count=best.gpus, card=best.gpu_name)
        return sized
    ok = [o for o in options if o.get("ok")]
    if v.get("code") == "cheaper" and len(ok) == 2:
        return sized + _premium(ctx, v, ok, gap)
    if len(ok) == 1 and v.get("pick") and v["pick"] != ok[0]["gpu"]:
        return _only_one(ctx, sized, ok[0], next(o for o in options if o["gpu"] == v["pick"]))
    if ok or not v.get("pick"):
        return sized
    if best is not None and best.ok and best.gpu in names:
        return sized  # the plan itself is on one of them: the headline is that card (plan_on_winner)
    ctx.data["verdict"] = {**v, "short_all": True}
    cut = _after_head(sized)
    return sized[:cut] + gap + ctx.say("verdict_agree.short_all") + gap + sized[cut:].lstrip()


def _premium(ctx: Any, v: dict[str, Any], ok: list[dict[str, Any]], gap: str) -> str:
    """'Is the SXM premium worth it?': the dearer card of two that both do the job is the faster one; what its
    premium buys (speed per user, from its memory bandwidth and NVLink, not room for more users), said after the
    verdict; '' when the cheaper card is as fast."""
    from gpu_advisor.assistant.writers import tps
    from gpu_advisor.knowledge import find_gpu

    cheap = next(o for o in ok if o["gpu"] == v["pick"])
    dear = next(o for o in ok if o["gpu"] != v["pick"])
    a, b = dear.get("decode_tokens_per_s") or 0, cheap.get("decode_tokens_per_s") or 0
    if not (a and b) or tps(a) == tps(b) or a < b:
        return ""
    like = (ctx.data.get("speed") or {}) if dear.get("gpus") != cheap.get("gpus") else {}
    if like.get("same_count"):  # the rows run different counts: the dearer one's speed is its count (like_for_like)
        if like.get("pick") != cheap["gpu"]:
            return ""
        return gap + ctx.say("verdict2.premium_count", other=dear["gpu_name"], a=tps(a), b=tps(b), n=dear["gpus"],
                             m=cheap["gpus"], card=cheap["gpu_name"])
    fast, slow = find_gpu(dear["gpu"]), find_gpu(cheap["gpu"])
    if fast.memory_bandwidth_gbps <= slow.memory_bandwidth_gbps:  # its speed is not its bandwidth (review CK #3:
        # 24 x H100 at 30 tokens/s against 20 x H200 at 27: 'its 0.7x the memory bandwidth' said as the reason)
        more = (dear.get("gpus") or 0) > (cheap.get("gpus") or 0)
        return gap + ctx.say("verdict_agree.premium_cards" if more else "verdict_agree.premium_plain",
                             other=dear["gpu_name"], a=tps(a), b=tps(b), n=dear.get("gpus"), m=cheap.get("gpus"))
    link = "_link" if fast.has_nvlink and not slow.has_nvlink else ""
    return gap + ctx.say(f"verdict_agree.premium{link}", other=dear["gpu_name"], a=tps(a), b=tps(b),
                         x=f"{fast.memory_bandwidth_gbps / slow.memory_bandwidth_gbps:.1f}")


def _only_one(ctx: Any, sized: str, one: dict[str, Any], other: dict[str, Any]) -> str:
    """One row does the job as asked and the verdict picked the other on its figures (the models it runs on one
    card): the row that does the job is the verdict, as the headline; the other's edge and why it falls short after."""
    from gpu_advisor.assistant.catalog import localise

    gap = "" if ctx.lang == "zh" else " "
    head = sized[:_after_head(sized)]
    ctx.data["verdict"] = {"code": "only", "pick": one["gpu"], "other": other["gpu"], "job": "local"}
    why = localise(ctx.lang, other["reasons"][0]) if other.get("reasons") else ctx.say("owned.short")
    return head + gap + ctx.say("verdict.only", card=one["gpu_name"]) + gap + \
        ctx.say("verdict_agree.other_short", other=other["gpu_name"], why=why)


def _after_head(text: str) -> int:
    """Where the verdict's bold head ('**Verdict** (your job):', '**结论**（你的任务）：') ends; 0 without one."""
    close = text.find("**", 2) if text.startswith("**") else -1
    if close < 0:
        return 0
    ends = [i for i in (text.find(":", close), text.find("：", close)) if i >= 0]
    return min(ends) + 1 if ends else 0
