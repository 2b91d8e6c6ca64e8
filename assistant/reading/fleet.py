"""Cards you own are a ceiling, not a count to fill (review AP E3): 'how many of our 16 GPUs does serving eat',
'are we over-provisioned', 'used for training 40% of the week', '要占几张卡', '有一半在训练'. The slot
`fewest_owned` makes the plan on owned cards the fewest of them that meet every target (tools.recommend), the rest
said to stay free; a share of them said busy ('half of them train', '一半在训练') is `owned_busy`, left out of the
cards the plan may take. A count asked ('how many GPUs do we need') with cards owned in the same message is the same
question. Training said as what the cards do besides (their own research) is no fine-tuning of the model served,
and its share of the week no utilisation of the service. The words: words/fleet.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.literal import literal_kind
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def _said(m: Message, key: str) -> re.Match[str] | None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    for text in (typed, m.masked):
        x = word_pattern(key).search(text)
        if x and not negated(text, x.start()):
            return x
    return None


def read_fleet(m: Message, u: Understanding) -> None:
    """Sets u.updates['fewest_owned'] (and 'owned_busy') when the message asks how much of the owned cards a job
    takes, or says part of them does other work."""
    busy = _said(m, "fleet.busy") or _said(m, "fleet.zh_busy")
    share = _said(m, "fleet.busy_share")
    said = unicodedata.normalize("NFKC", m.raw).lower()
    counted = bool(u.updates.get("owned")) and literal_kind(said) == "count" \
        and not word_pattern("fleet.more_asked").search(said)  # 'how many more servers': cards to add
    if (busy or share or counted or _takes_theirs(m, u) or _said(m, "fleet.zh")) \
            and not (_to_buy(m) and not u.updates.get("owned")):  # their use of cards to buy: no fleet of theirs
        u.updates["fewest_owned"] = True
    if (busy or share) and u.updates.get("only") and not u.updates.get("owned") and not _to_buy(m):
        u.updates["owned"] = [c if c[:1].isdigit() else f"1x {c}" for c in u.updates.pop("only")]  # busy: theirs
    if share:
        word = next((g for g in share.groups() if g), "")
        u.updates["owned_busy"] = 0.5 if not word[:1].isdigit() else min(90, int(word)) / 100
    if (busy or share) and u.updates.get("phase") == "train-and-serve" and _said(m, "fleet.serves"):
        u.updates["phase"] = "serve"  # 'used for training 40% of the week … host llama': their training, our serving
        u.updates.pop("utilisation", None)  # (the training's share of the week, not the service's)


def _to_buy(m: Message) -> bool:
    """Whether a card named is one to buy or rent ('should we buy 8 h100s or keep renting? we run training jobs 60% of
    the time': the share is their use, the cards not theirs yet)."""
    return any(word_pattern("owned_buy_near").search(m.masked[max(0, s - 20):s]) for s, _e, _g, _c in m.gpus)


def _takes_theirs(m: Message, u: Understanding) -> bool:
    """'how many of our 16 does it eat', 'we own H100s, how many do we need': a count of the user's own cards. A count
    only needed of cards named and never said to be theirs ('how many H100s do i need to serve …') is a count to rent
    or buy: no cards of theirs to count down, no 'the ones you own' heading (review V #6 after h-fixa's BJ #6)."""
    takes = _said(m, "fleet.takes")
    if takes is None or not word_pattern("fleet.need").search(takes.group(0)) or not m.gpus or u.updates.get("owned"):
        return takes is not None
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    return any(x and not word_pattern("owned_not").search(text[max(0, x.start() - 24):x.end()])
               for text in (typed, m.masked) for x in [word_pattern("owned").search(text)])


def capacity_on_cards(u: Understanding) -> bool:
    """'serving llama 3.1 8b on one a100 40gb, 32k context. how many concurrent users before the kv cache runs out?'
    (review AP E14): a capacity question that names its model and cards is that capacity on those cards, never the
    KV-cache follow-up with the model and the card dropped ('Tell me the model and the cards first')."""
    if "capacity" not in u.intents or not u.updates.get("model") or not (u.updates.get("owned") or u.updates.get("only")):
        return False
    u.intents -= {"kv_cache"}
    u.topic, u.aside = None, None
    u.updates.setdefault("phase", "serve")
    return True
