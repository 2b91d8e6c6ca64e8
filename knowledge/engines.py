"""Which serving engines run on which card: the answer picks one that runs there, and names the others."""

from __future__ import annotations

from gpu_advisor.knowledge.loader import engines
from gpu_advisor.knowledge.schema import Engine, Gpu, SizedEngine

_ON: dict[int, tuple[Gpu, tuple[tuple[Engine, str], ...]]] = {}  # id(card) -> (card, its engines): cards are frozen


def engines_on(gpu: Gpu) -> list[tuple[Engine, str]]:
    """(engine, its name on this card) for every engine that runs on the card, in preference order. Worked out
    once per card: a recommendation asks it of each card many times."""
    held = _ON.get(id(gpu))
    if held is None or held[0] is not gpu:
        if len(_ON) >= 1024:  # cards described by their numbers are new objects each time
            _ON.clear()
        found = tuple((e, name) for e in engines() if (name := e.name_on(gpu)) is not None)
        held = _ON[id(gpu)] = (gpu, found)
    return list(held[1])


def runs_on(sized: SizedEngine, gpu: Gpu) -> bool:
    """Whether some engine sized by this model runs on the card."""
    return engine_for(sized, gpu) is not None


def engine_for(sized: SizedEngine, gpu: Gpu) -> str | None:
    """The engine an answer names for figures from this sizing model on this card (vLLM-Ascend on an
    Ascend 910B, llama.cpp on a Mac), or None when no engine of that kind runs there."""
    for e, name in engines_on(gpu):
        if e.sized_as == sized:
            return name
    return None


def also_runs(sized: SizedEngine, gpu: Gpu) -> list[str]:
    """The other engines that run on the card, for the answer's 'also runs here' line."""
    picked = engine_for(sized, gpu)
    return [name for e, name in engines_on(gpu) if name != picked and e.id != "transformers" and e.suggested]
