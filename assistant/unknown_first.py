"""A card or vendor the catalog lacks, asked about ('换成海光的DCU行不行，要几张'): the answer opens with what is not on
record and what the user would need to tell (memory and bandwidth per card); the plan on a card on record follows,
said as an alternative (a domestic one when the plan is domestic), never as the answer to the card asked about.
The yes/no and count headlines written for the plan's card before it are dropped: they answered another card.
Words: lang2.* in the catalogs."""
from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def last_words(state: Any) -> str:
    """The text of the user's last message."""
    for message in reversed(state.get("messages") or []):
        if getattr(message, "type", "") == "human":
            content = message.content
            return content if isinstance(content, str) else " ".join(
                str(c.get("text", "")) if isinstance(c, dict) else str(c) for c in content)
    return ""


def with_unknown_first(text: str, extra: dict[str, Any], state: Any, answer: Any,
                       lang: str) -> tuple[str, dict[str, Any]]:
    """The answer with the off-record card asked about said first, and the plan after it as an alternative."""
    from gpu_advisor.assistant.reading.unknown_asked import unknown_asked
    from gpu_advisor.knowledge import find_gpu

    rec = getattr(answer, "recommend", None)
    best = rec.best if rec is not None else None
    ids = [o.gpu for o in [*(rec.options if rec is not None else []), *(getattr(answer, "options", None) or [])]]
    ids += [str(n[1]) for n in getattr(answer, "named", None) or []]
    sized = tuple(find_gpu(i).name for i in dict.fromkeys(ids) if str(i).startswith("custom:"))  # figures on record
    names = unknown_asked(last_words(state), lang, sized)
    if not names or best is None or str(best.gpu).startswith("custom:"):
        return text, extra
    name = ("、" if lang == "zh" else ", ").join(names)
    lines = [on_record_head(names, unknown_asked(last_words(state), "en", sized), lang)
             or say(lang, "lang2.unknown_head", name=name)]
    if best.ok:
        domestic = find_gpu(best.gpu).domestic_china
        lines.append(say(lang, "lang2.unknown_alt_domestic" if domestic else "lang2.unknown_alt",
                         count=best.gpus, card=best.gpu_name))
    note = say(lang, "note.accelerator_unknown", name=name)
    paragraphs = [p for p in text.split("\n\n") if p.strip() != note.strip()]
    start = next((i for i, p in enumerate(paragraphs) if p.startswith("## ")), 0)
    kept = [p for p in paragraphs[:start] if not p.startswith("**")] + paragraphs[start:]  # verdicts on another card
    gap = "" if lang == "zh" else " "
    extra = {**extra, "unknown_card_asked": {"names": names, "alternative": best.gpu if best.ok else None}}
    return gap.join(lines) + "\n\n" + "\n\n".join(kept), extra


def on_record_head(names: list[str], keys: list[str], lang: str) -> str | None:
    """'昇腾还是海光？': the vendor's models on record with their figures (knowledge: unsized_cards.yaml), in place of
    'not on record', for one vendor named whose models are there; None otherwise."""
    from gpu_advisor.assistant.reading.text import vocab
    from gpu_advisor.assistant.reading.unsized import vendor_cards

    vendors = vocab()["unknown_accelerator_vendors"]
    if len(names) != 1 or len(keys) != 1 or keys[0] not in vendors:
        return None
    cards = vendor_cards(vendors[keys[0]], lang)
    if not cards:
        return None
    keys_by = {(True, False): "lang2.on_record_card", (True, True): "lang2.on_record_missing",
               (False, True): "lang2.on_record_none"}
    listed = say(lang, "lang2.on_record_sep").join(
        say(lang, keys_by[(bool(figures), bool(missing))], card=card, figures=figures, missing=missing)
        for card, figures, missing in cards)
    return say(lang, "lang2.unknown_head_on_record", name=names[0], cards=listed, example=cards[0][0])
