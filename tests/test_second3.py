"""The second question asked in a turn is answered (h-second3): a layout asked of a model on machines ("怎么切",
"how should I split it across two nodes") gets the layout verdict from the tools, not "tell me the model"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import payload, run_conversation


def _results(reply: Any) -> dict[str, Any]:
    return dict(payload(reply).get("results") or {})


# ---------------------------------------------------------------- 1. a layout asked of a model on machines

SPLIT_ONE_NODE = {  # a 70B dense fits one 8-card server: TP inside each, the servers copies side by side
    "en": ["how should I split llama 3 70b across two 8-gpu nodes",
           "TP vs PP, what's the difference? and how do we split a 70B for inference on 2 servers with 8 H100 each",
           "um so we got 2 machines each with 8 h100, how should we split llama 3.1 70b for serving?"],
    "zh": ["TP和PP到底有啥区别啊，我两台8卡机器跑70B推理应该怎么切",
           "两台8卡H100机器跑Llama 3 70B推理应该怎么切",
           "Llama 3.1 70B 推理，2台服务器每台8张H100，怎么切分比较好"],
}
SPLIT_CROSS = {  # a 405B in BF16 does not fit one 8 x A100 server: TP8 inside, PP2 across
    "en": ["we have 2 servers with 8 A100 80GB each. how do we split Llama 3.1 405B for serving?",
           "how should i shard llama 3.1 405b over two nodes of 8 a100 80gb"],
    "zh": ["两台8卡A100 80GB服务器，Llama 3.1 405B 推理怎么切", "Llama 3.1 405B 在2台服务器每台8张A100 80GB上怎么切分"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SPLIT_ONE_NODE.items() for t in v])
def test_split_question_gets_layout_in_one_node(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    verdict = _results(reply).get("par_choice")
    assert verdict, reply.content
    assert (verdict["code"], verdict["pp"], verdict["per_node"], verdict["servers"]) == ("one_node", 1, 8, 2), reply.content
    assert verdict["copies"] >= 2
    assert ("结论" in reply.content) == (lang == "zh"), reply.content


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SPLIT_CROSS.items() for t in v])
def test_split_question_spans_nodes_only_when_one_does_not_hold_it(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    verdict = _results(reply).get("par_choice")
    assert verdict, reply.content
    assert (verdict["code"], verdict["tp"], verdict["pp"]) == ("cross_node", 8, 2), reply.content
    assert ("结论" in reply.content) == (lang == "zh"), reply.content


# ---------------------------------------------------------------- 2. a later switch to another model asked beside the plan

SWITCH = {  # V3 deployed now, R1 later: the plan stays V3; same weights, same cards; R1's longer answers said
    "en": ["we're deploying deepseek v3 on 16 H100 for 200 devs. if we later switch to R1, does the hardware need to change?",
           "deepseek v3 on h100s for 200 internal users, buying. also, if we move to r1 later, same hardware?",
           "Serving DeepSeek-V3 to 200 engineers on H200. Would switching to DeepSeek R1 later mean more hardware?"],
    "zh": ["公司要在内网部署deepseek-v3，给研发200人用，要求国产卡，现在看的是昇腾。另外老板还问了一句：要是后面换成r1，硬件需要改吗",
           "用H100部署deepseek v3给200人用，买卡。以后改用r1的话硬件要改吗",
           "H200 上部署 DeepSeek-V3，200 个研发同时用；要是以后换成 R1，需要换硬件吗"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SWITCH.items() for t in v])
def test_switch_asked_beside_plan_keeps_current_model_and_answers(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    data = payload(reply)
    switch = data.get("model_switch")
    assert switch, reply.content
    assert (switch["code"], switch["from"], switch["to"]) == ("same_weights", "deepseek-v3", "deepseek-r1"), switch
    assert switch["new_out"] > switch["old_out"]
    assert data["results"]["recommend"]["model_id"] == "deepseek-v3", reply.content
    assert switch["gpus"] == data["results"]["recommend"]["best"]["gpus"]
    assert ("硬件不用改" in reply.content) == (lang == "zh"), reply.content


# ---------------------------------------------------------------- 3. the second job on the first job's box

SAME_BOX = {
    "en": ["i want to lora finetune llama 3.1 70b (bf16 base, not qlora) on ~30k examples of 2k tokens, 2 epochs. "
           "cheapest way on runpod-type clouds? also can i then serve it on the same box for 10 users",
           "cheapest way to lora finetune qwen2.5 72b on rented gpus, 50k examples of 1k tokens; afterwards serve it "
           "on the same machine for 20 users?",
           "so, LoRA on Llama 3.1 70B, rented, 30k samples of 2k tokens x2 epochs, cheapest. then can the same gpus "
           "serve it to 10 people?"],
    "zh": ["想在云上租卡用LoRA微调Llama 3.1 70B（bf16底座），3万条2k token的样本，2轮，最便宜的方案？微调完能不能在同一台机器上部署给10个人用",
           "LoRA微调Qwen2.5 72B，租卡，数据5万条，最便宜的。微调好以后就在这台机器上部署，20个人用，行不行",
           "租卡LoRA微调Llama 3.1 70B，3万条样本每条2k token，跑2轮；之后用同样的卡给10个人部署可以吗"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SAME_BOX.items() for t in v])
def test_serving_on_the_same_box_is_answered_on_the_training_cards(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    data = payload(reply)
    rec = data["results"]["recommend"]
    run = rec.get("training_run")
    assert "单卡" not in reply.content.split("\n")[0], reply.content
    # h-fixc2 no longer charges a training run's PCIe twice: LoRA of a 70B now trains on 8 x A40 (was 1 x B200), so
    # the one-card check may show; it is on the fine-tuning cards, never a separate serving plan's
    one = [x for x in reply.content.split("\n") if x.startswith(("**On one card?**", "**单卡能行吗？**"))]
    assert all((run or rec["best"])["gpu_name"] in x for x in one), (one, run)
    assert all(rec["best"]["gpu_name"] not in x for x in one) or run is None or run["gpu"] == rec["best"]["gpu"], one
    if run is None:  # one set of cards does both jobs: the same box by construction
        assert rec["best"]["serves"] and rec["best"]["trains"], reply.content
        return
    box = data.get("same_box")
    assert box, reply.content
    assert (box["gpu"], box["gpus"]) == (run["gpu"], run["gpus"]), (box, run)
    assert box["code"] == "yes" and box["tps"] > 0, box
    assert ("同一台机器上部署" in reply.content) == (lang == "zh"), reply.content


# ---------------------------------------------------------------- 4. "which would you pick": one named pick

PICK = {
    "en": ["Two questions: 1) can I run gemma 2 27b on a macbook pro m3 max 64gb and how fast, 2) if I instead rent a "
           "cloud gpu for the same thing what card would you pick",
           "my macbook m3 max 64gb runs qwen2.5 32b q4 for 8k prompts, just me. if I rented instead, what card would you pick?",
           "serving qwen2.5 32b for 20 users, renting. which gpu would you pick?",
           "ok so renting for llama 3.1 8b, 10 users... your pick?"],
    "zh": ["我自己用，M3 Max 64GB的macbook跑qwen2.5 32b q4，8k提示词。如果改成租卡，你会选哪张？",
           "部署qwen2.5 32b给20个人用，租卡，你推荐哪张卡",
           "租卡给10个人跑llama 3.1 8b，选哪张卡比较好"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in PICK.items() for t in v])
def test_which_would_you_pick_names_one_card(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    data = payload(reply)
    pick = data.get("pick")
    assert pick, reply.content
    rows = {(o["gpu"], o["gpus"]): o for o in data["results"]["recommend"]["options"]}
    assert (pick["gpu"], pick["gpus"]) in rows and rows[(pick["gpu"], pick["gpus"])]["ok"], pick
    assert not rows[(pick["gpu"], pick["gpus"])]["owned"]
    best = data["results"]["recommend"]["best"]
    if not best["owned"]:
        assert (pick["gpu"], pick["gpus"]) == (best["gpu"], best["gpus"]), pick
    assert all((a["gpu"], a["gpus"]) != (pick["gpu"], pick["gpus"]) for a in pick["alternatives"])
    assert ("我选" in reply.content or "我的选择" in reply.content) == (lang == "zh"), reply.content


# ---------------------------------------------------------------- 5. "or is renting better?": a verdict, no preference

RENT_ASKED = {  # the own card runs only a severe 1-bit file: rent for real use
    "en": ["I have an M2 Ultra 192GB, can it run deepseek v3? or is renting better?",
           "can my mac studio m2 ultra with 192gb run deepseek v3, or would it be better to rent gpus?",
           "deepseek v3 on my m2 ultra 192gb: doable? or should i just rent?"],
    "zh": ["我有台mac studio m2 ultra 192G内存，能跑deepseek v3吗？还是说去租卡更好",
           "我的M2 Ultra 192GB能跑DeepSeek V3吗，还是租卡会不会更划算？",
           "m2 ultra 192g 跑 deepseek-v3 行不行？还是租卡更好呢"],
}
KEEP_OWN = {  # the own card does it in a usable format: keep it
    "en": ["my 4090 runs qwen2.5 14b for just me. would it be better to rent?",
           "i have a 4090, just me using qwen2.5 14b; or is renting better?"],
    "zh": ["我有一张4090，自己用，跑qwen2.5 14b，还是租卡更好？"],
}


def _verdict(text: str) -> tuple[dict[str, Any], str, dict[str, Any]]:
    reply = run_conversation([text])[0]
    data = payload(reply)
    verdict = data.get("own_or_rent")
    assert verdict, reply.content
    return verdict, reply.content, data


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in RENT_ASKED.items() for t in v])
def test_rent_asked_beside_own_card_gets_verdict(lang: str, text: str) -> None:
    verdict, content, data = _verdict(text)
    assert verdict["code"] == "rent" and verdict["own"]["quality"] in ("large", "severe"), verdict
    assert verdict["rent"]["precision"] in ("fp8", "int8", "bf16", "w8a8-int8"), verdict
    assert verdict["rent"]["usd_per_month"] > 0
    assert data["profile"].get("preference") in (None, "either"), data["profile"]
    assert ("倾向：租" not in content) and (("真要用的话，租" in content) == (lang == "zh")), content


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in KEEP_OWN.items() for t in v])
def test_rent_asked_when_own_card_does_it_keeps_own(lang: str, text: str) -> None:
    verdict, content, data = _verdict(text)
    assert verdict["code"] == "own" and verdict["own"]["gpu"].startswith("rtx-4090"), verdict
    assert data["results"]["recommend"]["best"]["owned"], content
    assert ("用你自己的" in content) == (lang == "zh"), content


@pytest.mark.parametrize(("lang", "turns"), [
    ("en", ["deploy deepseek v3 for 200 devs on H200", "if we switch to r1, does the hardware need to change?"]),
    ("zh", ["deploy deepseek v3 for 200 devs on H200", "换成r1硬件需要改吗"]),
    ("zh", ["用H200部署deepseek v3给200个研发用", "要是换成R1，硬件要改吗？"]),
])
def test_switch_asked_as_follow_up_is_answered(lang: str, turns: list[str]) -> None:
    reply = run_conversation(turns)[1]
    switch = payload(reply).get("model_switch")
    assert switch and (switch["code"], switch["from"], switch["to"]) == ("same_weights", "deepseek-v3", "deepseek-r1"), \
        reply.content
    assert switch["new_out"] > switch["old_out"]
    assert ("硬件不用改" in reply.content) == (lang == "zh"), reply.content
