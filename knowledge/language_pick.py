"""The model taken for work written in a language other than English when the user names none (a novel in Chinese on
a home card): of the catalog models whose record says they write that language well (ModelArch.strong_languages),
the one closest in size to the usual default, the newer on a tie. Which models qualify is data (models.yaml); this is
the rule that picks among them."""

from __future__ import annotations

from gpu_advisor.knowledge.loader import models
from gpu_advisor.knowledge.resolve import find_model
from gpu_advisor.knowledge.schema import ModelArch


def language_model(lang: str, near: str) -> ModelArch | None:
    """The model strong in `lang` closest in total parameters to the model `near` (an id), or None when none is."""
    size = find_model(near).total_params_b
    strong = [m for m in models() if lang in m.strong_languages]
    if not strong:
        return None
    return min(strong, key=lambda m: (abs(m.total_params_b - size), -m.as_of.toordinal(), m.id))
