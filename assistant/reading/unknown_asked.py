"""An accelerator the catalog lacks, named as the card asked about ('换成海光的DCU行不行，要几张', 'would Cambricon
MLUs work, how many'): its names in the reply's language, so the answer says first that it is not on record (never
answers with another card). The names are words/constraints.yaml's unknown_accelerators, the same list the note reads."""
from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.text import clean, pattern_rows


def unknown_asked(raw: str, lang: str, sized: tuple[str, ...] = ()) -> list[str]:
    """The off-record accelerators the message names and does not rule out, in the reply's language; none whose
    words name a card the answer sized from its figures on record (`sized`: 'Cambricon MLU370-X8')."""
    text = clean(raw)
    names: list[str] = []
    for pattern, (en, zh) in pattern_rows("unknown_accelerators"):
        x = pattern.search(text)
        if x and not negated(text, x.start()) and not any(pattern.search(clean(card)) for card in sized):
            names.append(zh if lang == "zh" else en)
    return names
