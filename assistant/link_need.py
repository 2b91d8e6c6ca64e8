"""Whether inference needs NVLink, asked as a concept with no plan ('whats the difference between nvlink and pcie
for inference, do i actually need it'; reading/link_need.py sets ask["link_need"]): the answer first (usually
not), the cases where it matters, the links' bandwidths (tools.link_need), and for a model named the cards it takes
on the card named (or an 80 GB H100). ctx.data["link_need"] holds the tool's result."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.link_need import LinkNeedInput, link_need


def _gbps(x: float) -> str:
    return f"{x:,.0f}"


def _model_line(ctx: Any, r: Any) -> str:
    from gpu_advisor.assistant.writers import gb
    from gpu_advisor.knowledge import find_gpu

    gpu = find_gpu(str(r.gpu)).name
    need, cap = gb(r.per_gpu_bytes or 0), gb(r.capacity_bytes or 0)
    if r.cards_needed == 1:
        return ctx.say("lneed.one", model=r.model, gpu=gpu, need=need, cap=cap)
    if r.cards_needed == 2:
        return ctx.say("lneed.two", model=r.model, gpu=gpu, need=need, cap=cap)
    if r.cards_needed:
        return ctx.say("lneed.many", model=r.model, gpu=gpu, n=r.cards_needed, need=need, cap=cap)
    return ctx.say("lneed.none", model=r.model, gpu=gpu)


def link_need_reply(ctx: Any) -> str:
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError

    ask = ctx.turn.ask
    inp = LinkNeedInput(model=ask.get("model"), gpu=ask.get("gpu"))
    try:
        r = _call(ctx, "link_need", link_need, inp)
    except (ToolError, LookupError, ValueError):
        r = _call(ctx, "link_need", link_need, LinkNeedInput())
    rows = ctx.say("list_sep").join(ctx.say("lneed.row", gbps=_gbps(x.nvlink_gbps), name=x.name) for x in r.nvlink)
    low, high = r.nvlink_over_pcie
    parts = [ctx.say("lneed.head"), "\n".join([ctx.say("lneed.never"), ctx.say("lneed.tp2"), ctx.say("lneed.matters")]),
             ctx.say("lneed.figures", rows=rows, gen4=_gbps(r.pcie_gbps[4]), gen5=_gbps(r.pcie_gbps[5]),
                     low=f"{low:.0f}", high=f"{high:.0f}")]
    if ask.get("gpu"):
        card = find_gpu(str(ask["gpu"]))
        parts.append(ctx.say("lneed.card_link", gpu=card.name, gbps=_gbps(card.nvlink_gbps))
                     if card.interconnect == "nvlink" and card.nvlink_gbps
                     else ctx.say("lneed.card_pcie", gpu=card.name, gbps=_gbps(r.gpu_pcie_gbps or 64)))
    if r.model:
        parts.append(_model_line(ctx, r))
    ctx.data["link_need"] = r.model_dump(mode="json", exclude={"terms"})
    return "\n\n".join(parts)
