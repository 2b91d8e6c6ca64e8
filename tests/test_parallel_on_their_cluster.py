"""Tensor against pipeline parallel asked by a lab with two nodes (review CF #5): the concept answered and applied to
their cluster, the cards said next read as their own servers, no sizing questions, in both languages."""

from __future__ import annotations

import re

import pytest

from tests.conversation import payload, run_states

FIRST = {
    "en": ["whats the actual difference between tensor paralel and pipeline parallel? when would i pick which if i run "
           "a 70b across 2 nodes with infiniband",
           "what's the difference between tensor parallel and pipline parallel, which should i use for a 70b on 2 nodes?"],
    "zh": ["张量并行和流水线并行到底有什么区别？我用两台机器跑70b，有infiniband，什么时候该选哪个",
           "张量并行和流水线并行有什么区别，两台服务器跑70b该用哪个"],
}
SECOND = {
    "en": ["8x h100 in each node, about 50 ppl", "each node has 8 h100s, 50 users", "16 h100 in total, about 50 people"],
    "zh": ["每台8张h100，大概50个人用", "每台机器8卡H100，50人"],
}
BUSY = {"en": "Working hours", "zh": "上班时间"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _par(state: dict) -> dict:
    return payload(state["messages"][-1])["results"]["par_choice"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_concept_then_their_own_servers(lang: str) -> None:
    for first in FIRST[lang]:
        for second in SECOND[lang]:
            states = run_states([first, second, BUSY[lang]])
            one, two, three = states
            # turn 1: the concept and the verdict, no question
            verdict = _par(one)
            assert verdict["code"] == "one_node" and verdict["servers"] == 2 and verdict["per_node"] == 8, verdict
            assert not one.get("pending") and "choices" not in payload(one["messages"][-1]), first
            # turn 2: their 2 × 8 H100, owned; one TP8 copy holds all 50; both copies behind a load balancer
            data = _par(two)
            assert (data["gpu"], data["per_node"], data["servers"], data["tp"]) == ("h100-sxm", 8, 2, 2), data
            assert (data["users"], data["users_copies"], data["copies"]) == (50, 1, 2), data
            assert data["users_per_gpu_bytes"] < 85e9 and data["users_tokens_per_s"] > 20, data
            profile = two["profile"]
            assert profile["owned"] == ["16x h100-sxm"] and profile["server_gpus"] == 8 and not profile["only"]
            assert not two.get("pending"), (first, second)  # no sizing question
            text = str(two["messages"][-1].content)
            assert ("Nothing to rent or buy" in text) if lang == "en" else ("不用另租或另买" in text), text
            assert ("Rent " not in text) if lang == "en" else ("租用" not in text)
            assert bool(CJK.search(text)) == (lang == "zh"), text
            # turn 3: the plan on the cards they own, never a rental of them
            rec = payload(three["messages"][-1])["results"]["recommend"]
            assert rec["best"]["owned"] and rec["best"]["gpus"] == 16 and rec["action"] == "use", rec["best"]


@pytest.mark.parametrize(("text", "lang"), [(t, "en") for t in FIRST["en"]] + [(t, "zh") for t in FIRST["zh"]])
def test_no_cards_said_the_usual_server_is_said(text: str, lang: str) -> None:
    reply = str(run_states([text])[-1]["messages"][-1].content)
    said = "Sized on servers of 8 × NVIDIA H100 SXM 80GB" if lang == "en" else "这里按每台 8 × NVIDIA H100 SXM 80GB 的服务器算"
    assert said in reply, reply


def test_a_rental_after_the_verdict_is_not_read_as_their_servers() -> None:
    state = run_states([FIRST["en"][0], "ok, we'd rather rent: 50 users on h100s"])[-1]
    assert not state["profile"].get("owned"), state["profile"]
