"""'需要多买多少张卡才能顶上原来 8 张 A800 的吞吐', 'how many 910B to replace our 8 A800s': the count that takes over the
other cards' throughput (tools.replace_count), said first in the card comparison, and a verdict on the card to move
to (a domestic replacement is the goal: never 'pick the A800' from one 910B set against eight A800)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.replace_count import ReplaceCount, replace_count


def _asked(ctx: Any) -> ReplaceCount | None:
    asked = (getattr(ctx.turn, "ask", None) or {}).get("replace")
    if not asked:
        return None
    old, n, new = asked
    rec = ctx.rec
    fit = min((o.gpus for o in (rec.options if rec is not None else []) if o.gpu == new and o.ok), default=1)
    per = int(ctx.profile.get("server_gpus") or 8)
    return replace_count(old, int(n), new, fit, per)


def replace_lines(ctx: Any) -> list[str]:
    """The count asked, first: the new cards for the same throughput, the servers, one server fewer's share."""
    r = _asked(ctx)
    if r is None:
        return []
    old, new = find_gpu(r.old_gpu).name, find_gpu(r.new_gpu).name
    lines = [ctx.say("ascend.replace_count", old_n=r.old_count, old=old, new=new, needed=r.needed,
                     ratio=f"{r.bandwidth_ratio:.2f}", old_bw=f"{find_gpu(r.old_gpu).memory_bandwidth_gbps:,.0f}",
                     new_bw=f"{find_gpu(r.new_gpu).memory_bandwidth_gbps:,.0f}", more=max(0, r.needed - r.old_count))]
    if r.servers > 1 and r.fewer_share is not None:
        lines.append(ctx.say("ascend.replace_servers", servers=r.servers, per=r.server_gpus, gpus=r.servers * r.server_gpus,
                             new=new, fewer=r.servers - 1, fewer_gpus=(r.servers - 1) * r.server_gpus,
                             share=f"{r.fewer_share:.0%}"))
    return [*lines, ""]


def replace_verdict(ctx: Any) -> str | None:
    """The verdict when a replacement was asked: the new card, at the count that takes over the old cards' work."""
    r = _asked(ctx)
    if r is None:
        return None
    return ctx.say("ascend.replace_verdict", new=find_gpu(r.new_gpu).name, needed=r.needed, old_n=r.old_count,
                   old=find_gpu(r.old_gpu).name)
