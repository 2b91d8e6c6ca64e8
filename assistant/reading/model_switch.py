"""A later switch to another model asked beside the plan of the current one ("deploy DeepSeek-V3 …; if we later
switch to R1, does the hardware need to change?", "部署deepseek-v3…要是后面换成r1，硬件需要改吗"): the plan stays on
the model deployed now (the first named), and the switch is asked as a comparison on that plan's cards
(u.ask["model_switch"], answered by assistant/model_switch.py). Also the second job asked on the first one's
machine ("lora it, then serve it on the same box", u.ask["same_box"], assistant/same_box.py).
Words: second3.* (words/second3.yaml)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


def read_second_asks(m: Message, u: Understanding) -> None:
    """The second questions this module reads: a later switch of model, the second job on the same box."""
    read_model_switch(m, u)
    if re.search(vocab()["second3"]["pick_asked"], m.masked) and len(set(u.compare_gpus)) < 2:
        u.ask["pick"] = True  # 'what card would you pick': one named card first (assistant/card_pick.py)
    if re.search(vocab()["second3"]["option_asked"], m.masked) and not m.live("preference.rent_only"):
        u.ask["rent_verdict"] = True  # 'or is renting better?': a verdict asked (assistant/own_or_rent.py) ...
        if u.updates.get("preference") in ("rent", "buy"):
            u.updates.pop("preference")  # ... and asking about an option is no preference for it
    if re.search(vocab()["second3"]["same_box"], m.masked):
        u.ask["same_box"] = True  # 'fine-tune it, then serve it on the same box' (assistant/same_box.py)
        # "同一台机器" is the same machine, not one server said without its cards
        u.notes = [n for n in u.notes if n != ("note.servers_without_cards", {"servers": "1"})]


def read_model_switch(m: Message, u: Understanding) -> None:
    words = vocab()["second3"]
    if not re.search(words["hardware_asked"], m.masked):
        return
    ids = [(start, name) for start, _end, name in m.names]
    for start, name in ids:
        now = next((other for s, other in ids if s < start and other != name), None)
        if re.search(words["switch_to"], m.masked[:start]):
            u.ask["model_switch"] = {"to": name}
            if now:  # the model deployed now stays the plan's; the switch is the question beside it
                u.updates["model"] = now
                u.intents -= {"whatif", "weigh"}  # not the two models weighed side by side: one plan, one switch
                u.ask.pop("weigh", None)
                u.notes = [n for n in u.notes if n[0] != "note.model_other"]
            return
