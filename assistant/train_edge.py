"""A training plan at the edge of memory in words (tools.train_margin, tools.rl_margin): it fits on paper but leaves
less than the margin a run keeps free, what gives it room (each lever with its figure), and, for online RL, the
faster layout on the same cards that was passed over because it leaves less."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import GIB
from gpu_advisor.tools.durations import hours_figure
from gpu_advisor.tools.recommend import Finding, Option

EDGE_CODES = ("training_edge", "rl_faster_at_edge")


def _gb(v: float | str) -> str:
    return f"{float(v) / 1e9:,.1f}"


def lever_list(values: dict[str, float | str], lang: str) -> str:
    """The levers of a finding's figures, each with its per-GPU memory, in the order found; '' when none."""
    codes = [c for c in str(values.get("levers", "")).split(",") if c]
    return say(lang, "list_sep").join(say(lang, f"edge.lever.{c}", gb=_gb(values[f"{c}_bytes"]),
                                          gpus=values.get("gpus", "")) for c in codes)


def edge_sentence(finding: Finding, lang: str) -> str:
    """training_edge: at the edge, and what gives it room; rl_faster_at_edge: the faster layout passed over."""
    v = finding.values
    figures = dict(used=_gb(v["used_bytes"]), capacity=_gb(v["capacity_bytes"]), margin=_gb(v["margin_bytes"]))
    levers = lever_list(v, lang)
    if finding.code == "rl_faster_at_edge":
        layout = say(lang, f"edge.layout.{v['layout']}", r=v["r"], t=v["t"])
        line = say(lang, "finding.rl_faster_at_edge", layout=layout, hours=hours_figure(float(v['hours'])),
                   taken=hours_figure(float(v['hours_taken'])), **figures)
        return line + (say(lang, "edge.levers_faster", list=levers) if levers else "")
    line = say(lang, "finding.training_edge", **figures)
    return line + (say(lang, "edge.levers", list=levers) if levers else say(lang, "edge.no_levers"))


def card_units(option: Option, lang: str) -> str:
    """What the card's memory is in the GB the answer counts (10⁹ bytes): an "80 GB" card holds 80 GiB, 85.9 GB,
    of which tools.inference.usable_bytes leaves 85.0 GB, so '85.0 GB' beside an 80 GB card says why; nothing for
    unified memory (a Mac's share is its own rule)."""
    gpu = find_gpu(option.gpu)
    if gpu.unified_memory:
        return ""
    key = "units.card_ecc" if gpu.memory_type == "gddr" and gpu.segment == "datacenter" else "units.card"
    return say(lang, key, gib=f"{gpu.memory_gb:g}", gb=f"{gpu.memory_gb * GIB / 1e9:,.1f}")


def edge_of(option: Option) -> Finding | None:
    """The option's training_edge finding, if its plan is at the edge."""
    return next((f for f in option.findings if f.code == "training_edge"), None)


def fits_edge_line(option: Option, option_words: str, lang: str) -> str | None:
    """The answer's first line to 'does it fit?' when the plan is at the edge: only just, never a plain yes."""
    f = edge_of(option)
    if f is None:
        return None
    return say(lang, "literal.fits_edge", option=option_words, used=_gb(f.values["used_bytes"]),
               capacity=_gb(f.values["capacity_bytes"]), margin=_gb(f.values["margin_bytes"]),
               units=card_units(option, lang))
