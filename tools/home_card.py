"""One person at home whose own card cannot hold the model asked (review CG #9 and its D note, review CG's 72B on a
4090): the answer is about that model on that card, never a smaller model at the head or four rented cards in 8 bits.

- what the card does with it: llama.cpp with part of the model in system RAM (tools.offload), at the speed that gives,
  slow or not: it is the one way the model runs on the card (Recommendation.offload_leads, `home_short`);
- the smallest change that runs it all on cards: the fewest more of the same card beside it in the same computer, in
  the file the split uses (4-bit Q4_K_M, or the file asked), llama.cpp's layer split (`more_cards`);
- a smaller model of its family on the card stays the fallback, said as one (the owned lever 'model=...').
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Option, Recommendation, Workload

# The most cards of one kind a home computer takes (a desktop board's x16/x8 slots and one power supply).
HOME_MAX_CARDS = 4
# The file people run a model in at home when none was asked (llama.cpp's 4-bit K-quant).
HOME_FILE = "q4_k_m"


def home_short(w: Workload, rec: Recommendation) -> bool:
    """One person at home (tools.recommend.one_at_home) whose own card holds the model asked in no file the plan
    tried, and who named no other engine than llama.cpp."""
    from gpu_advisor.tools.recommend import one_at_home

    return one_at_home(w) and w.engine in (None, "llama.cpp") and not any(o.ok for o in rec.owned_options) \
        and not (rec.best is not None and rec.best.owned)


def home_file(w: Workload, rec: Recommendation) -> str:
    """The file the home answer sizes: the split's, else a GGUF file asked, else HOME_FILE."""
    from gpu_advisor.knowledge import find_precision

    if rec.offload is not None:
        return rec.offload.precision
    asked = w.serve_precision
    return asked if asked and find_precision(asked).family == "gguf" else HOME_FILE


def more_cards(w: Workload, rec: Recommendation) -> Option | None:
    """The user's cards and the fewest more of the same card (up to HOME_MAX_CARDS in all) that hold the model asked
    all on the cards in the home file and meet what the plan must meet (reading speed); None when the user is not
    short at home, owns a Mac (no card goes beside it), or no such count does."""
    from gpu_advisor.tools.recommend import evaluate, parse_owned

    if not home_short(w, rec):
        return None
    count, gpu = parse_owned(w.owned[0])
    if gpu.unified_memory:
        return None
    sized = w.model_copy(update={"serve_precision": home_file(w, rec)})
    if gpu.laptop:  # a laptop takes no second card: one desktop card (in a desktop or an eGPU enclosure) instead
        return _desktop_card(sized, gpu)
    for n in range(count + 1, HOME_MAX_CARDS + 1):
        o = evaluate(sized, gpu, n, owned=True)
        if o is not None and o.ok:
            return o
    return None


def _desktop_card(w: Workload, laptop: object) -> Option | None:
    """The desktop card of the laptop GPU's vendor with the least memory (then the least bandwidth) that holds the
    model alone and meets what the plan must meet (review CUA #1: 'a second card like yours beside it' for a laptop)."""
    from gpu_advisor.knowledge import gpus
    from gpu_advisor.tools.recommend import evaluate

    vendor = getattr(laptop, "vendor", None)
    desks = sorted((g for g in gpus() if g.segment == "consumer" and not g.laptop and not g.unified_memory
                    and g.vendor == vendor), key=lambda g: (g.memory_gb, g.memory_bandwidth_gbps, g.id))
    for g in desks:
        o = evaluate(w, g, 1)
        if o is not None and o.ok:
            return o
    return None


def in_home_file(w: Workload, rec: Recommendation) -> Workload | None:
    """The workload in the home file when the user is short at home on a card (not a Mac) and said no format: the
    split, the cards added and the rented cards that hold it whole are then all the same 4-bit file, compared like for
    like (review CG #9 D note: the 70B's alternative was 4 rented cards in Q8_0 where Q4_K_M needs 2); None
    otherwise."""
    from gpu_advisor.tools.models import resolve_model
    from gpu_advisor.tools.recommend import parse_owned

    if w.serve_precision is not None or "precision" not in w.flexible or not home_short(w, rec):
        return None
    if resolve_model(w.model).native_precision == "mxfp4":
        return None  # gpt-oss ships its own 4-bit file (MXFP4), the one the split and the cards run already
    return None if parse_owned(w.owned[0])[1].unified_memory else w.model_copy(update={"serve_precision": HOME_FILE})
