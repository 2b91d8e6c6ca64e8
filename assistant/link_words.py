"""The link between a card's accelerators inside one server, said from its record (tools.links): NVLink for
NVIDIA's, HCCS for the 8 NPUs of an Ascend 910B/910C server (Atlas 800 A2), Infinity Fabric for AMD's; 'only
PCIe' only for a card that has no fast link. The concept line of tensor against pipeline parallelism names the
card's own link (review AZ #16: '910B 只有 PCIe' said of a server whose NPUs are linked by HCCS)."""
from __future__ import annotations

from typing import Any

from gpu_advisor.tools.links import in_server_link

# the record's interconnect -> the catalog key naming it; NVLink (and the bridge) keeps the shared words
LINK_KEYS = {"nvlink": "parc.nvlink", "nvlink-bridge": "parc.nvlink", "hccs": "facts.link.hccs",
             "infinity-fabric": "facts.link.infinity_fabric"}


def link_said(ctx: Any, card: Any) -> str:
    """The card's in-server link in words, or the PCIe caution when it has none."""
    link = in_server_link(card)
    return ctx.say(LINK_KEYS[link]) if link in LINK_KEYS else ctx.say("parc.pcie", gpu=card.name)


def explain_said(ctx: Any, card: Any) -> str:
    """The two kinds of parallelism in a few lines, the fast link named as the card's own (NVLink by default)."""
    link = in_server_link(card)
    if link in (None, "nvlink", "nvlink-bridge"):
        return str(ctx.say("parc.explain"))
    return str(ctx.say("facts.parc_explain_link", link=ctx.say(f"facts.link_short.{link.replace('-', '_')}")))
