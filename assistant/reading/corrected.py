"""A correction inside one message: "want to fine tune llama 3 8b with lora on 50k examples, how many gpus? hmm
actually wait, make that the 70B and full fine-tune, not lora. sorry", "用lora微调llama 3 8b……等等，改成70B，全量微调，
不用lora". Read whole, the model after the cue won but the method before it stayed (and the two methods were weighed
as if asked). Now what is said after the first correction cue (words/corrected.yaml), read alone, replaces every
slot of CORRECTED it names; a pair of methods weighed goes when the correction names one method."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.multi import read_second
from gpu_advisor.assistant.reading.text import clean, word_pattern

# The slots a correction replaces: what the job is, on what, in which format.
CORRECTED = ("model", "method", "phase", "precision", "owned", "engine", "objective")


def read_corrected(raw: str, u: Understanding, read: Callable[[str], Understanding]) -> None:
    """Replace the slots the correction names with what it says (read is understand() on the tail alone)."""
    text = clean(raw)
    cue = word_pattern("corrected.cue").search(text)
    if cue is None or not text[:cue.start()].strip():
        return  # nothing said before the cue: the whole message is the correction, read as it is
    tail = read(text[cue.end():])
    said = {k: tail.updates[k] for k in CORRECTED if tail.updates.get(k)}
    if not said:
        return
    u.updates.update(said)
    if "method" in said and u.ask.get("methods_weighed") and not tail.ask.get("methods_weighed"):
        u.ask = {k: v for k, v in u.ask.items() if k != "methods_weighed"}


def read_second_corrected(cut: str, pending: str | None, u: Understanding,
                          read: Callable[[str, str | None], Understanding]) -> None:
    """A second job said in the message (reading.multi), a correction inside it, then a main job and a side one."""
    from gpu_advisor.assistant.reading.aside_train import read_aside_train, read_side_use
    from gpu_advisor.assistant.reading.fewer import read_fewer
    from gpu_advisor.assistant.reading.fixed_count import read_fixed_count
    from gpu_advisor.assistant.reading.job_models import read_job_models
    from gpu_advisor.assistant.reading.main_side import read_main_side
    from gpu_advisor.assistant.reading.owned_slow import read_count_owned, read_slow
    from gpu_advisor.assistant.reading.parts2 import read_later_second, read_side_train

    read_second(cut, pending, u, read)
    read_later_second(u)  # '70B mostly, but maybe llama 405b later': the later model is a note, no second service
    read_corrected(cut, u, lambda text: read(text, None))
    read_main_side(cut, u, lambda text: read(text, None))  # 'mostly lora on the 70b, sometimes full on the 8b'
    read_aside_train(cut, u, lambda text: read(text, None))  # 'can i run 70b? also could i lora something on it'
    read_job_models(cut, u, lambda text: read(text, None))  # 'qlora 32b models and chat with 70b at q4'
    read_side_use(cut, u)  # '主要做lora微调，偶尔推理': how often the side job runs, no utilisation
    read_fixed_count(cut, u)  # '有16张910B…等下我看错了，是32张': the count after the cue
    read_slow(cut, u)  # 'users are complaining its slow' on their own cards: why, before the options
    read_count_owned(cut, u)  # 'wait we actually have 2 of them in the box': that many of the card named, theirs
    read_fewer(cut, u)  # 'and if we only get 2 of the nodes, how long then': the time on fewer, after the plan
    read_side_train(cut, u)  # '偶尔也想拿 qwen2.5 7b 做做lora微调': a run beside the plan (reading.parts2)
