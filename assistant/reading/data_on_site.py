"""Data that must stay on the user's own site (review advice29 #1: a provincial hospital's '病历质控' on Qwen3-32B
under '信创' was told 'at 24 % use, rent'): patient records, a bank's customer data, classified material, a
government intranet (words/data_on_site.yaml), or the site said outright ('数据不出院', 'on-prem only', 'air-gapped':
on_prem_said). The plan owns the hardware (preference 'buy', even when the message asks 'rent or buy?'), and the
note says why in one sentence, with a private cloud inside their network as the alternative. A cloud named as
where to run, renting said, or cards of their own keep their own reading."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern


def data_kind(m: Message) -> str | None:
    """The kind of data said to stay on site ('patient', 'finance', 'classified', 'government'), 'stated' when only
    the site is said ('on-prem', '数据不出院'), None when neither is said (a negated mention is none)."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()  # the Chinese words as typed ('患者数据' is masked 'data')
    for pattern, kind in pattern_rows("data_on_site"):
        if any(not negated(text, x.start()) for text in (m.masked, typed) for x in pattern.finditer(text)):
            return str(kind)
    said = any(not negated(m.masked, x.start()) for x in word_pattern("on_prem_said").finditer(m.masked)) \
        and not word_pattern("on_prem_choice").search(m.masked)  # 'cloud or on-prem?': asked, not a rule
    return "stated" if said else None


def read_data_on_site(m: Message, u: Understanding, cloud: str | None) -> None:
    """Buy, with the note, where the data must stay on site and nothing said points at renting."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if "quality" in u.intents or any(word_pattern("ability_question").search(t) for t in (m.masked, typed)):
        return  # 'gemma 3 27b写病历够用吗' asks whether the model writes records well: no job to buy for
    if not u.updates.get("phase") and "rent_buy" not in u.intents:
        return  # no job said ('will llama 8b hallucinate on medical notes?' asks of quality): nothing to buy yet
    kind = data_kind(m)
    if kind is None or cloud is not None or u.updates.get("owned") or u.updates.get("preference") == "rent" \
            or m.live("preference.rent_only"):  # 'rent or buy?' is a question (reading/hardware.read_preference)
        return
    asked = "rent_buy" in u.intents or u.updates.get("preference") != "buy"
    u.updates["preference"] = "buy"
    note: tuple[str, dict[str, str]] = (f"note.on_site_{kind}", {})
    if (kind != "stated" or asked) and note not in u.notes:  # 'on-prem, what to buy?' needs no reason said back
        u.notes.append(note)
