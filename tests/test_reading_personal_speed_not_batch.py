"""One person's speed question on their own machine is no batch job, whatever the use ('gemma 3 27b for summarising my
obsidian notes, how many tok/s at q8 vs q4? context maybe 20k'; review BW #2 read it as an offline batch, invented
100,000 items and printed `llama-server -c 10342400`). The context said is the context, both formats are weighed on
the machine, and a counted job ('summarise 100k documents … how many tok/s') stays a batch."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_states

MACHINE_EN = ["mac mini m4 pro 48gb here.", "on my mac mini m4 pro 48gb:", "i have a mac mini m4 pro with 48gb."]
ASK_EN = ["gemma 3 27b for summarising my obsidian notes, how many tok/s at q8 vs q4? context maybe 20k",
          "how fast is gemma 3 27b for summarizing my notes, q4 or q8? 20k context",
          "gemma 3 27b to summarise my notes: tok/s at q8 and at q4 each? context around 20k",
          "how many tokens per second would gemma 3 27b do translating my notes, q8 vs q4, 20k context"]
MACHINE_ZH = ["我的mac mini m4 pro 48g，", "Mac mini M4 Pro 48G，", "手上一台mac mini m4 pro 48g，"]
ASK_ZH = ["用gemma 3 27b总结我的笔记，q8和q4各多少token每秒，上下文2万", "跑gemma 3 27b做笔记摘要，q8和q4速度分别多少，上下文两万",
          "gemma 3 27b总结笔记，q8还是q4，速度大概多少，上下文20k"]


@pytest.mark.parametrize(("machine", "ask"), [*itertools.product(MACHINE_EN, ASK_EN),
                                              *itertools.product(MACHINE_ZH, ASK_ZH)])
def test_a_speed_question_on_ones_own_machine_is_no_batch(machine: str, ask: str) -> None:
    u = understand(f"{machine} {ask}", None)
    assert u.updates.get("phase") == "serve", u.updates
    assert "batch_items" not in u.updates and "batch_input_tokens" not in u.updates
    assert u.updates.get("context") in (20_000, 20_480), u.updates
    assert u.updates.get("owned") == ["1x apple-m4-pro-20c-48gb"]
    assert u.ask["weigh"]["precisions"] in (["q8_0", "q4_k_m"], ["q4_k_m", "q8_0"]), u.ask


@pytest.mark.parametrize("text", ["summarise 100k documents with llama 3.1 8b, how many tok/s on an h100?",
                                  "how many tokens per second for translating 2000 of my notes with qwen2.5 7b on my 4090",
                                  "用qwen2.5 7b总结5万篇新闻，4090上速度多少"])
def test_a_counted_job_asked_for_its_speed_stays_a_batch(text: str) -> None:
    assert understand(text, None).updates.get("phase") == "batch"


@pytest.mark.parametrize(("turns", "q8", "q4"), [
    (["mac mini m4 pro 48gb here. gemma 3 27b for summarising my obsidian notes, how many tok/s at q8 vs q4? context "
      "maybe 20k", "not sure, its just me running it whenever i feel like it, i just want to know the speed"],
     "**Q8_0**", "**Q4_K_M**"),
    (["Mac mini M4 Pro 48G，用gemma 3 27b总结我的笔记，q8和q4各多少token每秒，上下文2万"], "**Q8_0**", "**Q4_K_M**")])
def test_review_bw_2_gives_both_speeds_and_invents_no_batch(turns: list[str], q8: str, q4: str) -> None:
    states = run_states(turns)
    first = states[0]["messages"][-1].content
    assert q8 in first and q4 in first
    assert payload(states[0]["messages"][-1])["topic"] == "weigh"
    for state in states:
        text = state["messages"][-1].content
        assert "100,000" not in text and "10342400" not in text and "-np 128" not in text
        assert state["profile"]["batch_items"] is None
