"""An online-RL plan against the training margin (tools.train_margin): whether the layout taken leaves the margin
on its training cards, the levers that give it room when it does not, and the faster layout on the same cards that
was passed over because it leaves less (tools.rl prefers the layout with room)."""

from __future__ import annotations

from gpu_advisor.tools.rl import RlInput, RlLayouts, RlResult, training_setup
from gpu_advisor.tools.train_margin import at_edge, edge_values


def _used(r: RlResult) -> float:
    """The memory judged against the margin: the training cards' when split, every card's when colocated."""
    return r.train_per_gpu_bytes if r.layout == "split" else r.per_gpu_bytes


def _values(inp: RlInput, r: RlResult, server_gpus: int) -> dict[str, float | str]:
    split = r.layout == "split"
    setup = training_setup(inp, r.train_gpus if split else None)
    return edge_values(setup, _used(r), r.capacity_bytes, server_gpus=server_gpus,
                       beside=r.rollout_gpus if split else 0)


def rl_edge(inp: RlInput, r: RlResult, server_gpus: int) -> dict[str, float | str] | None:
    """The taken run's figures at the edge (tools.train_margin.edge_values), None when it leaves the margin."""
    if not r.fits or not at_edge(_used(r), r.capacity_bytes, r.train_gpus):
        return None
    return _values(inp, r, server_gpus)


def passed_over(inp: RlInput, lay: RlLayouts, r: RlResult, server_gpus: int) -> dict[str, float | str] | None:
    """The faster layout on the same cards that leaves less than the margin, passed over for `r` (which leaves it):
    its figures at the edge and its levers, its layout (split: rollout and training cards), its hours and the taken
    run's (hours_taken); None when the taken run is also the fastest."""
    faster = r.faster_at_edge
    if faster is None and lay.for_room:
        faster = lay.colocate if r.layout == "split" else lay.split
    if faster is None or not faster.fits or faster.hours >= r.hours:
        return None
    values = _values(inp, faster, server_gpus)
    values.update({"layout": faster.layout, "r": str(faster.rollout_gpus), "t": str(faster.train_gpus),
                   "hours": faster.hours, "hours_taken": r.hours})
    return values
