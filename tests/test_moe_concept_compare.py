"""A MoE concept question beside a comparison of two models, in one message (review CK #12): the comparison is
answered first with both models' figures from the tools, then the concept; in both languages, either order."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.writers import gb
from tests.conversation import payload, run_conversation

PAIRS = [("GLM-4.5-Air", "Qwen3-30B-A3B", "glm-4.5-air", "qwen3-30b-a3b"),
         ("qwen3-30b-a3b", "deepseek v3", "qwen3-30b-a3b", "deepseek-v3")]
ZH_CMP = {"memory": ["{a}跟{b}都是moe，用vllm部署哪个更省显存？", "{a}和{b}哪个更省显存"], "speed": ["{a}和{b}哪个跑得更快？"]}
ZH_WHY = ["为啥moe激活参数那么少，显存还是要那么多", "为什么moe只激活一小部分参数，显存却要全部放下"]
ZH_JOIN = ["{c}还有{w}", "{w}？{c}"]
EN_CMP = {"memory": ["{a} vs {b} with vllm, which needs less memory?", "{a} or {b}, which uses less vram?"],
          "speed": ["which is faster, {a} or {b}?"]}
EN_WHY = ["why does moe need so much memory when so few params are active",
          "why does a MoE need memory for all its parameters when only a few are active?"]
EN_JOIN = ["{c} also {w}", "{w} and {c}"]


def _cases() -> list[tuple[str, str, str, tuple[str, str]]]:
    out = []
    for lang, cmps, whys, joins in (("zh", ZH_CMP, ZH_WHY, ZH_JOIN), ("en", EN_CMP, EN_WHY, EN_JOIN)):
        for (a, b, ia, ib), (dim, forms), why, join in itertools.product(PAIRS, cmps.items(), whys, joins):
            for form in forms:
                out.append((join.format(c=form.format(a=a, b=b), w=why), lang, dim, (ia, ib)))
    return out


CASES = _cases()


@pytest.mark.parametrize(("text", "lang", "dim", "ids"), CASES)
def test_both_read(text: str, lang: str, dim: str, ids: tuple[str, str]) -> None:
    u = understand(text)
    assert "moe_memory" in u.intents
    assert u.ask["models"] == list(ids)
    assert u.ask["dims"] == [dim]
    assert "model" not in u.updates  # two weighed: neither is picked yet


REPLIES = [CASES[0], CASES[3], CASES[len(CASES) // 2], CASES[len(CASES) // 2 + 5], CASES[-1]]


@pytest.mark.parametrize(("text", "lang", "dim", "ids"), REPLIES)
def test_both_answered_comparison_first(text: str, lang: str, dim: str, ids: tuple[str, str]) -> None:
    message = run_conversation([text])[-1]
    reply = str(message.content)
    compared = payload(message)["results"].get("moe_compare")
    assert compared is not None, reply
    rows = {r["model"]: r for r in compared["rows"]}
    assert set(rows) == set(ids)
    for r in rows.values():  # both models' memory figures, as the tools sized them
        assert f"{gb(r['mem_bytes'])} GB" in reply
    verdict = compared["verdicts"][dim]
    smaller = min(rows.values(), key=lambda r: r["mem_bytes"] if dim == "memory" else -r["tps"])
    assert verdict["pick"] == smaller["model"]
    concept = "显存看总参数" if lang == "zh" else "Memory follows the total"
    assert concept in reply
    assert ("GLM" in reply or "DeepSeek" in reply) and "Qwen3" in reply  # both models named
    verdict_at = reply.index("**结论**" if lang == "zh" else "**Verdict**")
    assert verdict_at < reply.index(concept)  # the question asked comes first
