"""Whether a model may be used commercially ('can we legally use llama 3.1 70b in a commercial saas? we'd have ~2
million monthly users', 'is qwen2.5 72b ok for commercial use?', '国内公司商用 Llama 3.1 有法律风险吗？用Qwen是不是更稳？
备案的话模型有要求吗'): the models named (or the families named without a size), the monthly active users said and
whether China or its filing was asked go to u.ask["licence"]; assistant/licence.py answers from the licences on
record. With a load said ('… and what hardware for ~5 requests/sec') the plan is sized and the licence answered
under its headline; without one, the licence is the answer (intent 'licence'), never 'how many at once?'.
A card asked about in China ('legally buy h100s') is reading/legal_buy.py's. The words: words/licence.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern

# What the plan is sized on: a load or a job said; without one the licence is answered alone.
LOAD = ("users", "users_range", "population", "population_daily", "requests_per_s", "batch_items", "train_tokens",
        "train_examples", "owned", "only", "budget_usd", "deadline_hours", "ttft_ms", "min_tokens_per_s")
# The roles a count of monthly users may have been given by the quantity reader: not a load once read as MAU.
MAU_ROLES = ("daily_users", "users", "population", "population_daily", "")


def _asked(typed: str) -> bool:
    keys = ("licence.en", "licence.zh", "licence.commercial_en", "licence.commercial_zh")
    return any(word_pattern(k).search(typed) for k in keys)


def _mau(m: Message) -> int | None:
    """The monthly active users said beside a number ('2 million monthly users', '月活200万'), or None."""
    for q in m.qty:
        if q.negated or q.role not in MAU_ROLES:
            continue
        after, before = m.text[q.end:q.end + 30], m.text[max(0, q.start - 20):q.start]
        if word_pattern("licence.mau_after").search(after) or word_pattern("licence.mau_before").search(before):
            return int(q.value)
    return None


def _families(typed: str, models: list[str]) -> list[str]:
    """The families named without a size: those whose words are typed and none of whose models was named."""
    found = []
    for pattern, family in pattern_rows("licence_families"):
        if pattern.search(typed) and family not in found and not any(_of_family(mid, family) for mid in models):
            found.append(family)
    return found


def _of_family(model_id: str, family: str) -> bool:
    from gpu_advisor.knowledge.licences import licence_of

    lic = licence_of(model_id)
    return (lic is not None and lic.family == family) or model_id.startswith(family + "-")


def read_licence(m: Message, u: Understanding) -> None:
    if u.ask.get("export") or u.ask.get("legal_beside") or u.intents & {"reset", "help", "empty"}:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    filing = bool(word_pattern("licence.filing").search(typed))
    if not (_asked(typed) or filing):
        return
    models = list(dict.fromkeys(mid for _s, _e, mid in m.names))
    families = _families(typed, models)
    if not models and not families:
        return
    china = u.updates.get("region") == "china" or bool(word_pattern("legal_buy.china").search(typed))
    mau = _mau(m)
    u.ask["licence"] = {"models": models, "families": families, "mau": mau, "china": china or filing,
                        "filing": filing}
    if mau is not None:  # '2m monthly users' is the licence's scale, not people at once
        kind = ("population_daily", "population_monthly") if u.updates.get("population") == mau else ()
        u.updates = {k: v for k, v in u.updates.items()
                     if not (k in ("users", "population") and v == mau) and k not in kind}
        u.notes = [n for n in u.notes if n[0] != "note.monthly_population"]  # ("sized for the people at once": not asked)
    if not any(k in u.updates for k in LOAD):  # 'is qwen2.5 72b ok for commercial use?': the licence, alone
        u.intents = (u.intents - {"whatif", "fit_check"}) | {"licence"}
