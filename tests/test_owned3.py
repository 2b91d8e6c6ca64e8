"""Plans for hardware the user owns (review AH #14, AG #20, AG #14, AH #17): the user's own servers are shared out
between two jobs, never replaced by rented cards; phrasings in both languages, in several word orders."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

# AH #14: 4 servers of 8 H100 owned, a DeepSeek-V3 service for 20 and a full fine-tune of Llama 3.1 70B on 200M tokens.
SPLIT = [
    ("zh", "我们有4台8卡H100，想知道能不能同时干两件事：一是全参微调Llama-3.1-70B（数据2亿token），二是留一部分卡部署"
           "DeepSeek-V3给内部用，20个并发。卡怎么分？"),
    ("zh", "4台8卡H100服务器，部署DeepSeek-V3给20个人用，同时全量微调Llama 3.1 70B，2亿token的数据，怎么分配卡"),
    ("en", "we have 4 servers with 8x H100 each. we want to full fine-tune llama 3.1 70b on 200M tokens and also serve "
           "deepseek-v3 internally for 20 concurrent users at the same time. how should we split the gpus?"),
    ("en", "we've got 32 H100s (4 nodes of 8). serve deepseek v3 for 20 users and full finetune llama 3.1 70b on 200M "
           "tokens, how do we divide them up"),
]


@pytest.mark.parametrize(("lang", "text"), SPLIT)
def test_owned_servers_split_between_service_and_training(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    kw = reply.additional_kwargs["gpu_advisor"]
    split = kw.get("owned_split")
    assert split, reply.content[:400]
    assert split["total"] == 32 and split["gpu"] == "h100-sxm"
    assert split["serve_gpus"] % 8 == 0 and 8 <= split["serve_gpus"] < 32
    assert split["train_gpus"] == 32 - split["serve_gpus"]
    assert split["train_model"] == "llama-3.1-70b" and split["method"] == "full"
    assert split["tokens"] == pytest.approx(2e8) and split["hours"] and split["hours"] > 0
    assert split["per_gpu_bytes"] <= split["capacity_bytes"]
    best = kw["results"]["recommend"]["best"]
    assert best["owned"] and best["gpu"] == "h100-sxm" and best["gpus"] == split["serve_gpus"]
    head = reply.content.split("\n", 1)[0]
    assert "A800" not in head and ("租" not in head) and ("Rent" not in head)
    assert ("32" in head) and (str(split["train_gpus"]) in head)
    if lang == "zh":
        assert "本方案不测算" not in reply.content
    else:
        assert "not sized" not in reply.content


def test_split_second_turn_keeps_it() -> None:
    """AH #14 as reviewed: the answer to a later question keeps the split."""
    replies = run_conversation([SPLIT[0][1], "工作时间"])
    assert all(r.additional_kwargs["gpu_advisor"].get("owned_split") for r in replies
               if r.additional_kwargs["gpu_advisor"].get("results"))


def test_two_servers_lora_on_the_other() -> None:
    reply = run_conversation(["we have 2 nodes of 8x H100. want to serve llama 3.1 70b for 50 users and also lora "
                              "fine-tune qwen2.5 32b on 100M tokens. how to split?"])[-1]
    split = reply.additional_kwargs["gpu_advisor"]["owned_split"]
    assert (split["serve_gpus"], split["train_gpus"], split["method"]) == (8, 8, "lora")
    assert "InfiniBand" not in reply.content.split("\n\n")[1]  # one server trains: no network between servers


# AG #20: their own 4 x A6000 serving Llama 3.1 70B AWQ are slow; buy another box or upgrade, 'budget maybe 40k'.
SLOW = [
    ("en", "we run a 4x A6000 box (48gb each, no nvlink) serving llama 3.1 70b awq for about 20 people. users are "
           "complaining its slow. should we buy another box or upgrade to something else? budget maybe 40k"),
    ("en", "budget probably around 40k. our 4x a6000 server (no nvlink) running llama 3.1 70b awq for 20 users feels "
           "really sluggish, buy a second one or upgrade?"),
    ("zh", "我们有4张A6000（没有NVLink）跑llama 3.1 70b awq，20个人用，大家嫌慢，要不要再买一台还是换卡？预算4万美元"),
    ("zh", "预算大概4万美元。我们自己的4张A6000没有nvlink，部署llama 3.1 70b awq给20个人用，响应太慢了，加一台还是升级？"),
]


@pytest.mark.parametrize(("lang", "text"), SLOW)
def test_slow_owned_box_why_then_budget(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    kw = reply.additional_kwargs["gpu_advisor"]
    profile = kw["profile"]
    assert profile["budget_usd"] == pytest.approx(40000) and profile.get("context") in (None, 8192)
    assert profile["owned"] == ["4x rtx-a6000"]
    slow = kw.get("owned_slow")
    assert slow, reply.content[:500]
    assert slow["gpu"] == "rtx-a6000" and slow["gpus"] == 4 and slow["pcie"]
    best = kw["results"]["recommend"]["best"]
    assert best["owned"] and best["gpu"] == "rtx-a6000"  # their box runs it: never 'rent 4 more'
    box = slow["second_box"]
    assert box["gpus"] == 8 and box["purchase_usd"] and box["purchase_usd"] <= 40000
    assert box["tokens_per_s"] > slow["tokens_per_s"]
    if "upgrade" in slow:
        assert slow["upgrade"]["purchase_usd"] <= 40000 and slow["upgrade"]["tokens_per_s"] > slow["tokens_per_s"]
    body = reply.content.split("\n\n")
    assert body[0].startswith("## ") or body[1].startswith("## ")
    assert "NVLink bridges" not in reply.content and "40,960" not in reply.content
    assert lang != "zh" or "为什么慢" in reply.content


@pytest.mark.parametrize("text", ["budget maybe 40k", "budget is probably like 40k", "we have about 40k to spend",
                                  "budget roughly 40k"])
def test_budget_with_a_filler_is_money_not_context(text: str) -> None:
    from gpu_advisor.assistant.reading import understand

    u = understand(f"serve llama 3.1 70b for 20 people, {text}")
    assert u.updates.get("budget_usd") == pytest.approx(40000) and "context" not in u.updates
    assert understand("serve llama 3.1 70b for 20 people at 40k context").updates.get("context") == 40960


# AG #14 / AH #17: the count asked is the cards the job needs; the 8-card server they are sold in is said beside it.
NEED = [
    ("en", "need ~30 tok/s per user at 500 concurrent users, llama 3.1 8b in fp8, 2k context each. how many h100s? "
           "we'd buy them", "h100-sxm"),
    ("en", "how many h100s do we need to serve llama 3.1 8b fp8 to 500 users at once, 30 tok/s each, 2k context? "
           "planning to buy", "h100-sxm"),
    ("zh", "500人同时用llama 3.1 8b fp8，每人30 token/s，上下文2k，需要几张H100？打算买", "h100-sxm"),
    ("zh", "用昇腾910B做LoRA微调Qwen2.5-32B可以吗，数据大概8000条，每条平均3000字。另外训练完的模型用几张910B部署比较合适，"
           "预计10个人同时用", "ascend-910b"),
]


@pytest.mark.parametrize(("lang", "text", "gpu"), NEED)
def test_count_asked_is_the_need_not_the_server(lang: str, text: str, gpu: str) -> None:
    from gpu_advisor.assistant.need_count import fewest
    from gpu_advisor.tools.recommend import Recommendation

    reply = run_conversation([text])[-1]
    rec = Recommendation.model_validate(reply.additional_kwargs["gpu_advisor"]["results"]["recommend"])
    assert rec.best is not None and rec.best.gpu == gpu
    if rec.best.gpus < 8:  # (no price on record to buy by, session 15) the count needed is the plan, its server said
        # (review BW #12: the plan rents, so its heading says how the card is rented, not that it is only bought)
        assert rec.best.ok and "华为云按实例出租" in reply.content.split("\n\n")[2]
        return
    need = fewest(rec)
    assert need is not None and need.gpus < 8 and need.ok
    first = reply.content.split("\n\n")[:2]
    said = (f"{need.gpus} × {need.gpu_name}", f"下 {need.gpus} 张")  # the count line, or each format's count
    assert any(x in p for p in first for x in said), first
    assert not any(f"8 × {need.gpu_name}**" in p for p in first)
    assert any(x in reply.content for x in ("整机", "服务器")) if lang == "zh" else ("servers of 8" in reply.content)


# AG #9 T2: the count said of the card named before, as the user's own, is never 'Buy'.
OWN_COUNT = [
    ("can i serve gemma 2 27b on one rtx 6000 ada for our support bot, like 15 concurrent chats",
     "wait we actually have 2 of them in the box", "rtx-6000-ada"),
    ("can a single a100 80gb serve qwen2.5 32b for 20 users?", "oh we have two of those actually", "a100-80gb-sxm"),
    ("can a single a100 80gb serve qwen2.5 32b for 20 users?", "turns out we have 2 in the server", "a100-80gb-sxm"),
    ("我们的客服机器人想用一张RTX 6000 Ada跑gemma 2 27b，大概15个并发", "其实我们机器里有两张", "rtx-6000-ada"),
    ("一张A100 80GB能不能给20个人跑qwen2.5 32b？", "等下，我们其实有两张", "a100-80gb-sxm"),
]


@pytest.mark.parametrize(("first", "second", "gpu"), OWN_COUNT)
def test_count_said_as_owned_is_never_buy(first: str, second: str, gpu: str) -> None:
    reply = run_conversation([first, second])[-1]
    kw = reply.additional_kwargs["gpu_advisor"]
    assert kw["profile"]["owned"] == [f"2x {gpu}"]
    best = kw["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] == 2 and best["gpu"] == gpu
    head = next(p for p in reply.content.split("\n\n") if p.startswith("## "))
    assert "Buy" not in head and "购买" not in head and "买" not in head


@pytest.mark.parametrize("text", ["we own 2 servers of 8 a100, the network between them is slow, serve llama 3.1 70b for 100 users",
                                  "our 4x a6000 for llama 3.1 70b, training is slow, 20 users",
                                  "我们有4张A6000跑llama 3.1 70b，网络太慢，20个人用"])
def test_something_else_slow_is_no_complaint(text: str) -> None:
    from gpu_advisor.assistant.reading import understand

    assert not understand(text).ask.get("slow")
