"""A count before a Chinese noun for people ('3个标注员', '12位律师', '30名理赔专员') is that many users, the noun kept where it
names staff or a team's job (reading.headcount, reading.people); run by text.clean before the phrase rewrites."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.assistant.reading.text import vocab, word_pattern


@cache
def _pattern() -> re.Pattern[str]:
    ends = "".join(vocab()["zh_people_suffixes"])
    joiners = re.escape(vocab()["zh_groups"]["joiner_chars"])  # '1.2万人和护士': two groups, no noun '人和护士'
    return re.compile(rf"(?<![\d.])(\d{{1,7}})\s*(?:左右|来|多|about)?\s*(?:个|位|名|号)?\s*(?:左右)?\s*的?\s*"
                      rf"(?:(?![{joiners}])[\u3400-\u9fff]){{0,3}}?[{ends}](?![\u3400-\u9fff]*(?:卡|显卡))")


def zh_people(text: str) -> str:
    """'3个标注员', '12位律师', '5名译者': a count before a noun for people by its ending is that many
    users (before the phrase rewrites, which would take the noun apart)."""
    not_people = vocab()["zh_not_people"]

    def repl(x: re.Match[str]) -> str:
        noun = x.group(0)[len(x.group(1)):]
        if any(noun.strip().endswith(w) for w in not_people):
            return x.group(0)
        who = re.search(r"[\u3400-\u9fff]*$", noun).group(0).lstrip("个位名号来多左右的")  # type: ignore[union-attr]
        who = who if who in vocab()["population_nouns"] or word_pattern("builder_nouns").fullmatch(who) \
            or who.endswith(tuple(vocab()["zh_job_suffixes"])) else ""
        # kept for staff ('300名护士', '40个分析师', '30名理赔专员': a job) and for a team's jobs ('三个开发者': the
        # team, reading.headcount)
        return f" {x.group(1)} users {who} "

    return _pattern().sub(repl, text)
