"""Two cards compared ('used 3090 or new 4070 ti super for local llm stuff?', '4060ti 16g 和 二手3090 买哪个跑本地模型'):
what the comparison is for (u.ask["job"]: local, train or serve; the reply's verdict weighs the figures that job turns
on) and which cards were said used (u.ask["used"]: their buy price on record is a new card's). The words:
words/compare_verdict.yaml; the verdict: assistant/verdict.py."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern
from gpu_advisor.assistant.reading.used_cards import new_cards, used_cards, used_only

# Characters before a card where a 'used' word is looked for.
USED_WINDOW = 24


@cache
def _jobs() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), str(job)) for p, job in vocab()["compare_verdict"]["jobs"]]


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def buying_choice(m: Message) -> bool:
    """Whether the message asks which card to buy: the cards named are candidates, not owned ones."""
    return bool(word_pattern("compare_verdict.buy_choice").search(_typed(m))
                or word_pattern("compare_verdict.buy_choice").search(m.text))


def difference_asked(m: Message) -> bool:
    """Whether the message asks how two cards differ, beside a job to size: they are compared after the plan."""
    return bool(word_pattern("difference_asked").search(m.masked) or word_pattern("difference_asked").search(_typed(m)))


def curious_why(m: Message, u: Understanding) -> bool:
    """Why one card is slower or faster than the other, asked out of curiosity ('why is the l40s so much slower than
    an h100 at serving a 70b model … just curious', '为什么L40S跑70B推理比H100慢那么多，不买卡，就是好奇'): the two
    cards are compared for the job named, never a plan sized, whatever model is said."""
    return "no_sizing" in u.intents and bool(word_pattern("why_slower").search(m.masked)
                                             or word_pattern("why_slower").search(_typed(m)))


def compare_job(m: Message) -> str | None:
    """The job a comparison is for, from the message's words, or None."""
    for text in (m.masked, _typed(m)):
        for pattern, job in _jobs():
            if pattern.search(text):
                return job
    return None


def compare_jobs(m: Message) -> list[str]:
    """Every job the comparison is for, in the catalog's order ('running models + small finetunes': local, train)."""
    found = [job for pattern, job in _jobs() if pattern.search(m.masked) or pattern.search(_typed(m))]
    return list(dict.fromkeys(found))


def _name_start(m: Message, start: int, end: int) -> int:
    """Where a card's name begins in its span: a counted span ('2 used 3090s') holds the words before the name, which
    is its first word with a digit after the count."""
    if start not in m.counted:
        return start
    words = [x for x in re.finditer(r"\S+", m.text[start:end]) if x.start() > 0 and re.search(r"\d", x.group())]
    return start + words[0].start() if words else start


def read_compare_job(m: Message, u: Understanding) -> None:
    if "compare_cards" not in u.intents and u.also != "compare_cards":
        return
    job = compare_job(m)
    if job in (None, "serve") and curious_why(m, u) and (
            word_pattern("decode_cue").search(m.masked) or word_pattern("decode_cue").search(_typed(m))):
        job = "decode"  # 'why is the l40s slower at serving a 70b': one user's tokens, written one at a time
    jobs = compare_jobs(m)
    if curious_why(m, u):  # asked out of curiosity: the answer leads, no prices weighed, nothing sized beside it
        u.ask = {**u.ask, "why": True}
        u.compare_gpus, u.whatif_gpus = [], None
    if len(jobs) == 2 and set(jobs) == {"local", "train"}:
        u.ask["jobs"] = jobs  # 'macbook m4 pro vs a 4090 desktop, running models + small finetunes': each part weighed
    used = [gpu_id for start, end, gpu_id, _n in m.gpus
            if word_pattern("compare_verdict.used").search(m.text[max(0, start - USED_WINDOW):_name_start(m, start, end)])]
    used += [g for g in used_cards(m) if g not in new_cards(m)]  # '两张3090二手': said after the name too (h-used)
    used_only(m, u, used)  # '二手3090还是4090': the 4090 is bought new (h-used)
    extra = {**({"job": job} if job else {}), **({"used": list(dict.fromkeys(used))} if used else {})}
    if extra:
        u.ask = {**u.ask, **extra}
    home_budget = job == "local" and u.updates.get("budget_usd") is not None and not u.updates.get("owned")
    if buying_choice(m) or home_budget:  # "4060ti 和 二手3090 买哪个": candidates to buy, not cards owned; '4090 or two
        # used 3090s at home? budget is like 1800 bucks total': a one-off budget for one's own machine buys (T1 #4)
        u.updates.pop("owned", None)
        if job == "local" and u.updates.get("preference", "buy") == "buy":
            # a card for one's own machine ('4090 和 5090 选哪个，本地跑大模型'): a purchase, weighed on what each card
            # runs, never a rental at a guessed use ('偶尔' is no percentage; review O2 C15)
            u.updates["preference"] = "buy"
            u.updates.pop("utilisation", None)


def read_versus(m: Message, u: Understanding) -> None:
    """Two or more cards named as the choice beside a job to size ('for serving llama 3.1 8b which is better value,
    L4 or 4090', 'H100 or H200 and how many'): the plan, then the cards compared on that job with a verdict among
    them (the same reply as 'H20 和 L20 差多少？… 选哪个'), though no comparison word was said."""
    if len(u.compare_gpus) < 2 or not {"phase", "model"} & set(u.updates) or curious_why(m, u):
        return  # 'why is the l40s slower than an h100 at serving a 70b … just curious': the comparison alone
    if u.updates.get("phase", "serve") == "serve" and compare_job(m) == "local":
        u.updates["phase"] = "serve"  # '2x 3090 or one 5090 for local llms, mostly 70b': running the model, at home
        u.updates.setdefault("precision", "q4_k_m")  # the usual 4-bit GGUF at home (said as an assumption)
    if u.also is not None:
        return
    from gpu_advisor.assistant.reading.prices import cards_named

    u.also = "compare_cards"
    u.cards = list(dict.fromkeys([*u.compare_gpus, *u.cards]))
    u.counts = {**{gpu_id: n for gpu_id, n in cards_named(m) if n > 1}, **u.counts}
