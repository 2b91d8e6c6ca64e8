"""A support question asked beside a sizing ('… gpt-oss-120b on one h100 vs 2x a100 80gb? is mxfp4 even supported on
a100', '用两张A100部署 gpt-oss-120b，A100 支持 mxfp4 吗？'): the clause that asks it, the formats or features it names
and the cards in it (all the cards named when it names none), kept in u.ask["support"] for the engine to answer
beside the sizing (assistant/support.py). A message that asks only that is reading.followups' card_support.
The words: words/followups.yaml (support_beside, card_support.format)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

MAX_FORMATS = 4


def read_support_beside(m: Message, u: Understanding) -> None:
    if "card_support" in u.intents or not m.gpus or u.intents & {"reset", "help", "empty"}:
        return
    words = vocab()["followups"]["support_beside"]
    start = 0
    for end in [x.end() for x in re.finditer(words["clause_end"], m.text)] + [len(m.text)]:
        clause, at = m.text[start:end], start
        start = end
        said = re.findall(vocab()["followups"]["card_support"]["format"], clause)
        ran = re.search(words["run_cue"], clause) and not _model_in(m, at, end)  # "A100上能跑FP8吗": no model
        if not said or not (re.search(words["cue"], clause) or ran) or not re.search(words["asked"], clause.strip()):
            continue
        cards = [g for s, _e, g, _n in m.gpus if at <= s < end] or [g for _s, _e, g, _n in m.gpus]
        u.ask["support"] = {"formats": list(dict.fromkeys(re.sub(r"\s", "", f) for f in said))[:MAX_FORMATS],
                            "cards": list(dict.fromkeys(cards))}
        return


def _model_in(m: Message, start: int, end: int) -> bool:
    """A model or a model size named between start and end ('A100能跑70b FP8吗' asks whether the model fits)."""
    return any(start <= s < end for s, _e, _n in m.names) or any(start <= q.start < end for q in m.role("model"))
