"""'Is X any good for Y' with one card named ("is H20 any good for serving qwen2.5 72b to 100 users", "H20跑qwen2.5-72b
怎么样", "H20值得买吗"; words/concept_how.yaml card_good): the verdict on the card in words beside the sizing, from the
card's own record against the H100 SXM as the yardstick (the card the guide sizes datacenter serving on): memory and
bandwidth at or above it are strengths (decode, many users' KV cache), BF16 compute under half of it a weakness
(prefill: a long first token on long prompts). A note (catalog concept4.good.*) shown right under the headline."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.asks import formats_named
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

YARDSTICK = "h100-sxm"
STRONG = 0.9  # at least this share of the yardstick's figure: a strength
WEAK = 0.5  # under this share: a weakness
VERDICTS = ("mixed", "strong", "weak", "middle")
NOTE_KEYS = tuple(f"concept4.good.{v}" for v in VERDICTS)  # (their words speak of serving: first token, users)


def read_card_good(m: Message, u: Understanding) -> None:
    from gpu_advisor.knowledge import find_gpu

    if not m.gpus or u.topic:
        return
    words = vocab()["card_good"]
    hit = re.search(words["en"], m.text) or re.search(words["zh"], m.text)
    if not hit:
        return
    before = [g for s, _e, g, _c in m.gpus if s < hit.start()]  # the card the question is about: the last one before it
    if not before or formats_named(m) or u.ask.get("weigh"):  # 'FP8比BF16值得吗': the formats are weighed, not the card
        return
    try:
        g, ref = find_gpu(before[-1]), find_gpu(YARDSTICK)
    except (LookupError, ValueError):
        return
    if g.id == ref.id:
        return
    figures = {"gpu": g.name, "mem": f"{g.memory_gb:g}", "bw": f"{g.memory_bandwidth_gbps / 1000:.1f}",
               "tf": f"{g.bf16_tflops:,.0f}", "ref": ref.name, "ref_mem": f"{ref.memory_gb:g}",
               "ref_bw": f"{ref.memory_bandwidth_gbps / 1000:.2f}", "ref_tf": f"{ref.bf16_tflops:,.0f}"}
    strong_mem = g.memory_gb >= STRONG * ref.memory_gb and g.memory_bandwidth_gbps >= STRONG * ref.memory_bandwidth_gbps
    weak_compute = g.bf16_tflops < WEAK * ref.bf16_tflops
    if strong_mem and weak_compute:
        key = "concept4.good.mixed"
    elif strong_mem:
        key = "concept4.good.strong"
    elif weak_compute:
        key = "concept4.good.weak"
    else:
        key = "concept4.good.middle"
    u.notes.append((key, figures))
    u.ask["card_good"] = g.id
