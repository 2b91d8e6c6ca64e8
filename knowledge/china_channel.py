"""How a card is had in mainland China through official channels, from its record and the export rules on record
(data/export_rules.yaml): 'official' (a domestic accelerator, a card no rule names, or one made for China and not
barred since), 'licence' (made for China, then put under a licence requirement: sold officially while NVIDIA holds a
licence, so supply depends on it: the H20), or 'grey' (barred, or a rebuilt board: grey-market channels only, without warranty). A record's own
china_channel overrides the rules. One
source of truth for the ranking of a purchase in China and for the reply to 'H20和4090哪个更好买'."""

from __future__ import annotations

from typing import Literal

from gpu_advisor.knowledge.export_rules import export_rules
from gpu_advisor.knowledge.schema import Gpu

Channel = Literal["official", "licence", "grey"]


def china_channel(gpu: Gpu) -> Channel:
    """The channel the card is bought through in China (see the module's note)."""
    if gpu.china_channel is not None:
        return gpu.china_channel
    if gpu.domestic_china:
        return "official"
    barring = [r for r in export_rules() if gpu.id in r.barred]
    if not barring:
        return "grey" if gpu.export_limited and not gpu.china_specific else "official"
    if gpu.china_specific and barring[-1].criterion == "licence":
        return "licence"
    return "grey"


def officially_sold(gpu: Gpu) -> bool:
    """Bought through official channels in China (a licensed card counted in, its supply caveat said apart)."""
    return china_channel(gpu) != "grey"
