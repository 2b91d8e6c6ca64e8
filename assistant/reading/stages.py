"""Two training stages said in order: 'full finetune of qwen2.5-72b on ~2B tokens then DPO after', '先全参微调，然后再做
GRPO', 'DPO after the SFT'. Read whole, the later objective took the job and the corpus was sized as one DPO run
(review CP, E4). The first stage is the one sized (its tokens are the ones given; objective 'sft'); the later one is
said in a note (note.then_dpo / note.then_rl): it is a separate run whose size the message does not give."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

LATER = ("dpo", "rl")  # objectives that come after a supervised stage


def _spans(m: Message, key: str) -> list[re.Match[str]]:
    return [x for x in word_pattern(key).finditer(m.masked) if not negated(m.masked, x.start())]


def _in_order(first: re.Match[str], later: re.Match[str], text: str) -> bool:
    """The first stage said before the later one with a 'then' between or an 'after' behind ('sft then dpo', 'full ft,
    dpo afterwards'), or the later one said first, 'after' the first ('dpo after the sft')."""
    if first.end() <= later.start():
        return bool(word_pattern("stages.then").search(text[first.end():later.start()])
                    or word_pattern("stages.later").search(text[later.end():]))
    if later.end() <= first.start():
        return bool(word_pattern("stages.after").search(text[later.end():first.start()]))
    return False


def read_stages(m: Message, u: Understanding) -> None:
    """The supervised stage sized, the later objective noted (u.ask['then_objective'])."""
    text = m.masked
    taken = [(x.start(), x.end()) for n in LATER for x in m.live(f"objective.{n}")]
    if not taken:
        return
    first = [x for x in _spans(m, "stages.first") if not any(s < x.end() and x.start() < e for s, e in taken)]
    for name in LATER:
        later = m.live(f"objective.{name}")
        if any(_in_order(f, x, text) for f in first for x in later):
            u.updates["objective"] = "sft"
            for slot in [k for k in u.updates if k.startswith("rl_")]:
                u.updates.pop(slot)
            u.ask = {**u.ask, "then_objective": name}
            u.notes.append((f"note.then_{name}", {}))
            return
