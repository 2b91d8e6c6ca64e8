"""The computer around a card: system memory and the PCIe link (data/host_memory.yaml).

llama.cpp keeps what does not fit the card in system RAM: whole layers (`-ngl` below the layer count) or
a mixture-of-experts model's routed experts (`--n-cpu-moe N`, `-ot exps=CPU`). A decode step then reads
those weights on the CPU, at the RAM's bandwidth; a long prompt's batches copy them to the card over PCIe.
The records give each link's peak (arithmetic from the standards) and the share of it reached, a band.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, KnowledgeError, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "host_memory.yaml"
# A desktop's usual system memory when the user does not say which: the slow end is DDR4-3200, the fast
# end DDR5-5600, both in two channels (the consumer platforms of 2020-2025).
SLOW_RAM = "ddr4-3200-dual"
FAST_RAM = "ddr5-5600-dual"
# A GPU training server's system memory when the user does not say which (DeepSpeed's CPU Adam reads and writes
# the optimizer states there at every step: ZeRO offload's pace).
SERVER_RAM = "ddr4-3200-server"
# System memory taken as there when the user does not say (a desktop built around a 12 GB+ card has 16 GB or
# more): an offload that needs no more than this is the answer on the user's card, with the RAM it needs said.
TYPICAL_SYSTEM_RAM_GB = 16.0


class HostLink(Record):
    """System memory or a PCIe link: its peak bandwidth and the share of it a decode's reads reach."""

    id: str
    kind: Literal["ram", "pcie"]
    label: str = Field(min_length=3)
    pcie_gen: int | None = Field(None, ge=3, le=6)
    peak_gbps: float = Field(gt=0, description="GB/s (10^9 bytes), one direction")
    reached: float = Field(gt=0, le=1)
    reached_range: tuple[float, float]
    measured: bool = Field(description="whether offload measurements were fitted to `reached`")

    @model_validator(mode="after")
    def _band_holds_the_figure(self) -> HostLink:
        lo, hi = self.reached_range
        if not 0 < lo <= self.reached <= hi <= 1:
            raise ValueError(f"reached_range {self.reached_range} must hold reached {self.reached}")
        if (self.kind == "pcie") != (self.pcie_gen is not None):
            raise ValueError("a PCIe link names its generation, system memory none")
        return self

    @property
    def reached_gbps(self) -> tuple[float, float, float]:
        """(slow, central, fast) GB/s reached."""
        lo, hi = self.reached_range
        return self.peak_gbps * lo, self.peak_gbps * self.reached, self.peak_gbps * hi


@cache
def host_links() -> dict[str, HostLink]:
    records = {r.id: r for r in load_records(PATH, HostLink)}
    for needed in (SLOW_RAM, FAST_RAM):
        if needed not in records or records[needed].kind != "ram":
            raise KnowledgeError(f"{PATH.name}: the system memory record '{needed}' is missing")
    return records


def pcie_link(gen: int | None) -> HostLink:
    """The x16 link of a card's PCIe generation (a card with none on record: PCIe 4.0)."""
    links = [r for r in host_links().values() if r.kind == "pcie"]
    want = gen or 4
    exact = [r for r in links if r.pcie_gen == want]
    if exact:
        return exact[0]
    return min(links, key=lambda r: abs((r.pcie_gen or 0) - want))


def ram_band() -> tuple[HostLink, HostLink]:
    """(slow, fast) system memory when the user does not say which."""
    links = host_links()
    return links[SLOW_RAM], links[FAST_RAM]
