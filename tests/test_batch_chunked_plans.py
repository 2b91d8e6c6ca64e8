"""Batch jobs sized on the job as stated, end to end (review CH #3, #9): the tokens in all, the deadline's hours,
the context of the launch command and the card count. An item longer than the model reads (3,000 novels of 500k
字 against Qwen2.5 72B's 32,768) is sized as chunked map-reduce, said plainly, never as single passes past the
model's context; an item that fits (25-page pdfs, 15,100 tokens) gets a launch context that holds it."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.tools.chunked import CHUNK_NOTES_TOKENS, chunk_plan
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- the plan (tools.chunked)


def test_an_item_that_fits_one_pass_is_not_chunked() -> None:
    assert chunk_plan(15_100, 500, 32_768) is None
    assert chunk_plan(32_268, 500, 32_768) is None  # exactly the context


def test_a_novel_past_the_context_is_chunks_and_one_merge() -> None:
    plan = chunk_plan(357_243, 1_429, 32_768)
    assert plan is not None
    assert (plan.chunks, plan.chunk_tokens, plan.notes_tokens) == (12, 29_771, CHUNK_NOTES_TOKENS)
    assert (plan.merges, plan.rounds, plan.passes) == (1, 1, 13)
    assert plan.tokens_in == 357_243 + 12 * 500  # the book, then its 12 summaries read by the merge
    assert plan.tokens_out == 12 * 500 + 1_429  # 12 summaries, then the result
    assert plan.longest <= 32_768  # no pass is longer than the model reads


@pytest.mark.parametrize(("item", "window"), [(5_000_000, 32_768), (40_000_000, 32_768), (100_000, 4_096),
                                              (1_000_000, 8_192)])
def test_notes_past_one_context_are_merged_in_rounds(item: int, window: int) -> None:
    plan = chunk_plan(item, 300, window)
    assert plan is not None
    assert plan.chunks * (plan.chunk_tokens) >= item and plan.longest <= window
    fits_one_merge = plan.chunks * plan.notes_tokens + 300 <= window
    assert (plan.rounds == 1) == fits_one_merge and plan.merges >= plan.rounds
    assert plan.tokens_out == plan.chunks * plan.notes_tokens + (plan.merges - 1) * plan.notes_tokens + 300


def test_an_output_longer_than_the_context_cannot_be_chunked() -> None:
    assert chunk_plan(100_000, 32_000, 32_768) is None


def test_the_recommendation_carries_the_plan_and_times_every_pass() -> None:
    w = Workload(model="qwen2.5-72b", phase="batch", batch_items=3000, batch_input_tokens=357_243,
                 batch_output_tokens=1_429, deadline_hours=336, candidates=["h100-sxm"], preference="rent")
    rec = recommend(w)
    assert rec.chunking is not None and rec.chunking.chunks == 12
    assert not any("more than Qwen2.5 72B reads" in x for x in rec.warnings)
    assert any("map-reduce, 12 chunks" in x for x in rec.assumptions)
    assert rec.best is not None and rec.best.gpus == 4 and rec.best.job_hours is not None
    assert rec.best.job_hours <= 336


# ---------------------------------------------------------------- conversations

CH3_EN = ("got about 40k pdfs, avg twenty five pages each, need to pull json fields out of them with qwen2.5 32b "
          "instruct, output maybe 500 tokens per doc. its thursday and it has to be done by monday morning. what "
          "should i rent and how many")
CH3_ZH = ("手上有大概4万份pdf，平均每份25页，要用qwen2.5-32b-instruct抽取json字段，每份输出大概500 token，今天周四，"
          "周一早上之前要跑完，租什么卡、要几张")
CH9_ZH = ("有三千本网络小说要做摘要，每本平均五十万字，每本出两千字左右的摘要，用qwen2.5-72b-instruct，两周内要跑完，"
          "租A100还是H100，要几张")
CH9_EN = ("we have 3000 web novels to summarise, each about 500k chinese characters, a 2000-character summary per book, "
          "qwen2.5-72b-instruct, must finish within two weeks. rent A100 or H100, and how many?")


def _launch_context(text: str) -> int:
    said = re.search(r"--max-model-len (\d+)", text)
    assert said, text
    return int(said.group(1))


@pytest.mark.parametrize("text", [CH3_EN, CH3_ZH])
def test_pdfs_of_25_pages_are_sized_at_their_length(text: str) -> None:
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "answer"
    profile = data["profile"]
    assert (profile["batch_items"], profile["batch_input_tokens"], profile["batch_output_tokens"]) == (40_000, 15_100, 500)
    assert profile["deadline_hours"] == 84.0  # Thursday 21:00 to Monday 09:00, the time now not said
    assert "624M" in reply.content  # 40,000 x (15,100 + 500) tokens in all, not 60M
    assert _launch_context(reply.content) >= 15_100 + 500  # the context holds each item and its output
    best = data["results"]["recommend"]["best"]
    # one MI300X (global prices) or two H800s (China, asked in Chinese): either well inside the 84 h
    assert (best["gpu"], best["gpus"]) == (("mi300x", 1) if text is CH3_EN else ("h800-sxm", 2))
    assert best["meets"]["deadline"] and best["job_hours"] <= 84
    assert ("84 h" in reply.content) if text is CH3_EN else ("84 小时" in reply.content)
    assert ("600 a page" in reply.content) if text is CH3_EN else ("每页 600 token" in reply.content)


@pytest.mark.parametrize("text", [CH9_ZH, CH9_EN])
def test_novels_past_the_models_context_are_chunked_map_reduce(text: str) -> None:
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "answer"  # '三千本' was the count: no question asks it again
    profile = data["profile"]
    assert (profile["batch_items"], profile["batch_output_tokens"], profile["deadline_hours"]) == (3000, 1_429, 336.0)
    assert profile["context"] is None  # each novel's length is its input, not a context asked for
    rec = data["results"]["recommend"]
    plan = rec["chunking"]
    assert (plan["chunks"], plan["merges"], plan["window"]) == (12, 1, 32_768)
    assert 3000 * (plan["tokens_in"] + plan["tokens_out"]) == 3000 * (357_243 + 6_000 + 6_000 + 1_429)
    assert "1.1B" in reply.content and "22M" in reply.content  # read and written in all, every pass counted
    assert ("map-reduce" in reply.content) and (("12 chunks" in reply.content) if text is CH9_EN else ("12 块" in reply.content))
    assert _launch_context(reply.content) == 32_768  # each pass within the model's context, none past it
    assert rec["best"]["gpus"] == 4 and rec["best"]["job_hours"] <= 336
    assert not any("RoPE" in w or "YaRN" in w for w in rec["warnings"])  # nothing sized past the context to warn of


@pytest.mark.parametrize("text", ["summarise 40k docs of about 100 pages each with qwen2.5 32b instruct, 500 token "
                                  "summaries, within 5 days",
                                  "4万份文档，平均每份100页，用qwen2.5-32b-instruct做摘要，每份摘要500 token，5天内跑完"])
def test_an_item_within_yarns_reach_is_one_pass_with_a_window_that_holds_it(text: str) -> None:
    reply = run_conversation([text])[-1]
    rec = payload(reply)["results"]["recommend"]
    assert rec["chunking"] is None and rec["workload"]["batch_input_tokens"] == 60_100  # 100 pages at 600 tokens
    assert _launch_context(reply.content) == 131_072  # not the native 32,768, which would cut every document
    assert '"rope_type": "yarn"' in reply.content
