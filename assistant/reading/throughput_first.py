"""Formats weighed with throughput said to count ("fp8 vs int4 awq on H100s? we care about throughput more than
single user speed", "吞吐优先"): the writer (assistant/format_load.py) leads with each format at a load, in
tokens/s in all; a speed said per user ("single user speed", "单用户速度") is a kind of speed, never a count of one
user. The words live in words/fmt.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


def read_throughput_first(m: Message, u: Understanding) -> None:
    """On formats weighed: throughput asked for, and users=1 dropped when only a per-user speed said it."""
    spec = u.ask.get("weigh")
    if not spec or len(spec.get("precisions") or []) < 2:
        return
    words = vocab()["fmt"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if re.search(words["throughput_first"]["en"], m.text) or re.search(words["throughput_first"]["zh"], typed):
        spec["throughput"] = True
    per_user = re.search(words["per_user_metric"], m.masked) or re.search(words["per_user_metric"], typed)
    counts = [q for q in m.role("users") if q.value == 1]
    if per_user and u.updates.get("users") == 1 and len(counts) <= 1 \
            and all(per_user.start() <= q.start < per_user.end() for q in counts):
        u.updates.pop("users")
