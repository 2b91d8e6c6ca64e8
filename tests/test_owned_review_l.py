"""Review L (class 2): the user's own hardware leads the answer. Cards said to be theirs in a later turn ('卡是现成的',
"it's my own card"), cards a group or cluster has ('我们组有 16 张 A800', 'the cluster has'), an owned box asked
'TP or PP on that box?', owned cards that fall short of a LoRA (QLoRA on them first), and a question about memory
alone (the memory figure first, no 'Rent' headline). Both languages, several phrasings, said first or later."""
from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.literal import literal_kind
from tests.conversation import run_conversation


def _head(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


def _best(reply: Any) -> dict[str, Any]:
    return reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]


def _no_rent_or_buy(text: str) -> None:
    for marker in ("**Rent or buy", "**租还是买", "## Rent", "## 租用", "## Buy", "## 购买", "export", "出口管制"):
        assert marker not in text, marker


# ---------------------------------------------------------------- 1. said to be theirs in a later turn

LATER_ZH = ["卡是现成的", "工作时间，卡是现成的，就想知道够不够用", "我自己的卡啊", "卡都是我们自己的", "用现有的", "就用现有的卡",
            "显卡我们已经有了"]
LATER_EN = ["it's my own card", "we already have them", "those are ours, not rented", "the card is mine",
            "I already own it"]


@pytest.mark.parametrize("later", LATER_ZH)
def test_chinese_later_turn_makes_the_card_named_before_owned(later: str) -> None:
    replies = run_conversation(["GLM-4-9B 推理，单卡 4090 够不够，并发20", "工作时间", later])
    text = replies[-1].content
    assert _head(text).startswith("## 使用你自己的 1 × NVIDIA GeForce RTX 4090 24GB"), _head(text)
    best = _best(replies[-1])
    assert best["owned"] and best["gpus"] == 1 and best["gpu"] == "rtx-4090"
    _no_rent_or_buy(text)


@pytest.mark.parametrize("later", LATER_EN)
@pytest.mark.parametrize("first", ["serve llama 3.1 8b on a 4090 for 10 users, enough?",
                                   "llama 3.1 8b for 10 people at once, on 2x L40S, enough?"])
def test_english_later_turn_makes_the_cards_named_before_owned(first: str, later: str) -> None:
    replies = run_conversation([first, "business hours", later])
    text = replies[-1].content
    count, card = (1, "rtx-4090") if "4090" in first else (2, "l40s")
    best = _best(replies[-1])
    assert best["owned"] and best["gpus"] == count and best["gpu"] == card, best
    assert _head(text).startswith(f"## Use your {count} × "), _head(text)
    _no_rent_or_buy(text)


@pytest.mark.parametrize("message", ["GLM-4-9B 推理，单卡 4090 够不够，并发20，卡是现成的",
                                     "serve glm-4-9b for 20 users on a single 4090, enough? it's my own card"])
def test_said_in_the_same_message_the_card_is_owned(message: str) -> None:
    u = understand(message)
    assert u.updates.get("owned") == ["1x rtx-4090"] and not u.updates.get("only") and u.whatif_gpus is None


@pytest.mark.parametrize("message", ["不是我的卡", "it is not my card", "what about 32k context", "my budget is 2k",
                                     "我们不租"])
def test_no_ownership_read_where_none_is_said(message: str) -> None:
    u = understand(message)
    assert not u.owns_named and not u.updates.get("owned")


def test_a_later_turn_after_a_rented_plan_owns_the_planned_cards() -> None:
    replies = run_conversation(["fine-tune qwen2.5 7b with lora", "we already have them"])
    first = _best(replies[0])
    best = _best(replies[-1])
    assert best["owned"] and best["gpu"] == first["gpu"] and best["gpus"] == first["gpus"]


@pytest.mark.parametrize("later", ["my cards are slow, what about 32k context?", "我的卡能跑 32k 上下文吗"])
def test_my_card_alone_does_not_make_a_rented_plan_owned(later: str) -> None:
    u = understand(later)
    assert u.owns_named == "mine"
    replies = run_conversation(["fine-tune qwen2.5 7b with lora", later])
    assert not _best(replies[0])["owned"]
    last = replies[-1].additional_kwargs["gpu_advisor"].get("results") or {}
    assert not (last.get("recommend") or {}).get("best", {}).get("owned")


# ---------------------------------------------------------------- 2. owned by a group, a lab, a cluster

GROUP = [("我们组有 16 张 A800 80G（两台，有IB），全参 SFT R1-Distill-Qwen-32B，5万条×4k，3 epoch，要多久", 16),
         ("组里有 16 张 A800 80G，两台，有IB，全参微调 R1-Distill-Qwen-32B，5万条，每条4k，3 epoch，要多久", 16),
         ("实验室有16张A800 80G（两台，IB互联），全参SFT R1-Distill-Qwen-32B，5万条×4k，训3个epoch，多久", 16),
         ("实验室只有 8 张 A800，全参 SFT R1-Distill-Qwen-32B，5万条×4k，3 epoch，要多久", 8),
         ("our lab has 16 A800 80G in two servers with infiniband, full sft r1-distill-qwen-32b, 50k examples x 4k, "
          "3 epochs, how long?", 16),
         ("our cluster has 16 a800s (2 nodes, IB). full finetune deepseek-r1-distill-qwen-32b on 50k samples x 4k "
          "tokens, 3 epochs. how long", 16),
         ("the cluster has 16 A800 80GB, 2 nodes over infiniband; full SFT of R1-Distill-Qwen-32B, 50k examples x 4k, "
          "3 epochs: how long?", 16)]


@pytest.mark.parametrize(("message", "count"), GROUP)
def test_a_group_or_cluster_owns_its_cards_and_the_time_is_on_them(message: str, count: int) -> None:
    reply = run_conversation([message])[-1]
    best = _best(reply)
    assert best["owned"] and best["gpu"] == "a800-80gb-sxm" and best["gpus"] == count, best
    head = _head(reply.content)
    assert head.startswith((f"## Use your {count} × NVIDIA A800", f"## 使用你自己的 {count} × NVIDIA A800")), head
    # 50,000 examples of 4k tokens, 3 epochs: 600M tokens on the A800s (~17 h on 16 of them)
    inputs = reply.additional_kwargs["gpu_advisor"]["results"]["inputs"]
    assert inputs["train_tokens"] == 200_000_000 and inputs["epochs"] == 3
    assert 12 < best["job_hours"] * count / 16 < 24
    _no_rent_or_buy(reply.content)


@pytest.mark.parametrize("message", ["学校集群有4张A800 80G，想用LoRA微调DeepSeek-R1-Distill-Qwen-32B，能跑吗，大概要多久",
                                     "我们集群有4张A800，LoRA微调DeepSeek-R1-Distill-Qwen-32B，要多久",
                                     "课题组有4张A800 80G，LoRA 微调 R1-Distill-Qwen-32B 能跑吗"])
def test_a_school_cluster_is_owned_then_and_after_the_data_is_said(message: str) -> None:
    replies = run_conversation([message, "数据2万条，平均长度4k，训3个epoch"])
    for reply in replies:
        best = _best(reply)
        assert best["owned"] and best["gpus"] == 4 and best["gpu"] == "a800-80gb-sxm", best
        assert _head(reply.content).startswith("## 使用你自己的 4 × NVIDIA A800"), _head(reply.content)


@pytest.mark.parametrize(("message", "tokens"), [("lora qwen2.5 7b, 2万条×2k", 40_000_000),
                                                 ("full sft qwen2.5 32b on 50k examples x4k", 200_000_000),
                                                 ("qlora llama 3.1 8b, 10k samples * 1.5k", 15_000_000)])
def test_examples_times_a_length_in_thousands_are_tokens_each(message: str, tokens: int) -> None:
    assert understand(message).updates.get("train_tokens") == tokens


# ---------------------------------------------------------------- 3. the owned box kept, TP or PP answered

@pytest.mark.parametrize(("turns", "zh"), [
    (["tp vs pp for serving, which for a 70b on 4 gpus", "4x L40S one box pcie, llama 3.3 70b ~10 users",
      "which one tp or pp on that box?"], False),
    (["4x L40S in one box over pcie, llama 3.3 70b, about 10 users", "tp or pp on this box?"], False),
    (["我们有一台4张L40S的机器，PCIe，跑 llama 3.3 70b，10个人用", "这台机器上用tp还是pp？"], True)])
def test_tp_or_pp_on_the_owned_box_gets_a_verdict(turns: list[str], zh: bool) -> None:
    replies = run_conversation(turns)
    sized = next(r for r in replies if "gpu_advisor" in r.additional_kwargs  # the first plan ('70b on 4 gpus' alone
                 and (r.additional_kwargs["gpu_advisor"].get("results") or {}).get("recommend"))  # is a TP/PP verdict)
    best = _best(sized)
    assert best["owned"] and best["gpus"] == 4 and best["gpu"] == "l40s"
    text = replies[-1].content
    assert ("张量并行 4" if zh else "tensor parallel 4") in text
    assert ("张量并行 2 × 流水线并行 2" if zh else "tensor parallel 2 × pipeline parallel 2") in text
    assert "A100 SXM" not in text and "## " not in text  # no plan swapped in for the box


# ---------------------------------------------------------------- 4. owned but not enough: their cards first

@pytest.mark.parametrize("message", ["lab has 8x 3090 no nvlink, lora finetune llama 3.1 70b. doable?",
                                     "we have 8 rtx 3090s (no nvlink). LoRA fine-tune Llama 3.1 70B, possible?",
                                     "实验室有8张3090，没有nvlink，lora微调llama 3.1 70b，能行吗",
                                     "我们组有8张3090，lora 微调 llama 3.1 70b 可以吗"])
def test_lora_that_misses_owned_cards_leads_with_qlora_on_them(message: str) -> None:
    reply = run_conversation([message])[-1]
    best = _best(reply)
    assert best["owned"] and best["gpus"] == 8 and best["gpu"] == "rtx-3090", best
    results = reply.additional_kwargs["gpu_advisor"]["results"]
    assert results["recommend"]["relaxed"] == "qlora"
    assert results["recommend"]["workload"]["method"] == "qlora"
    head = _head(reply.content)
    assert head.startswith(("## Use your 8 × NVIDIA GeForce RTX 3090", "## 使用你自己的 8 × NVIDIA GeForce RTX 3090")), head
    assert "QLoRA" in reply.content.split("|")[0]  # said before the table: the change that makes them do it
    _no_rent_or_buy(reply.content)


def test_full_fine_tune_is_not_turned_into_qlora_on_owned_cards() -> None:
    reply = run_conversation(["lab has 8x 3090, full finetune llama 3.1 70b. doable?"])[-1]
    results = reply.additional_kwargs["gpu_advisor"]["results"]
    assert results["recommend"].get("relaxed") != "qlora"


# ---------------------------------------------------------------- 5. a question about memory alone

MEMORY = [("how much vram to full finetune llama 3.2 3b", "en"),
          ("how much gpu memory do i need to full fine-tune llama 3.2 3b?", "en"),
          ("what's the vram needed to full finetune Llama 3.2 3B", "en"),
          ("全参微调 llama 3.2 3b 需要多少显存", "zh"),
          ("llama 3.2 3b 全参微调，显存要多少？", "zh")]


@pytest.mark.parametrize(("message", "lang"), MEMORY)
def test_a_memory_question_opens_with_the_memory_figure(message: str, lang: str) -> None:
    assert literal_kind(message) == "memory"
    reply = run_conversation([message])[-1]
    best = _best(reply)
    used = f"{best['train_per_gpu_bytes'] / 1e9:.1f} GB"
    first = reply.content.splitlines()[0]
    assert first.startswith("**About " if lang == "en" else "**大约需要 ") and used in first, first
    head = _head(reply.content)
    assert head.startswith("## A plan that holds it" if lang == "en" else "## 放得下的方案"), head
    assert "Rent" not in head and "租用" not in head


@pytest.mark.parametrize("message", ["will llama 3.2 3b full finetune fit on a 4090? how much vram",
                                     "how long to full finetune llama 3.2 3b", "4090够不够，需要多少显存"])
def test_fits_and_duration_questions_keep_their_own_first_line(message: str) -> None:
    assert literal_kind(message) in ("fits", "duration")
