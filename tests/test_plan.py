"""Plans an expert would sign (session 14, plan): the headline is the cheapest option that meets the target among
cards the answer does not warn against; a card restriction or a count the user proposes is not ownership."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from tests.conversation import payload, run_conversation

SUPPORT_14B = [
    "我们是做AI客服的创业公司，用 Qwen2.5-14B，高峰 30 QPS，输入一千 token 输出两百，P99 首字延迟一秒内，租云最便宜的方案是啥",
    "租云最便宜的方案是啥？Qwen2.5-14B 做客服，高峰每秒30个请求，输入1000输出200，P99首字1秒内",
    "请问一下，AI客服用Qwen2.5-14B，峰值30 QPS，输入1k输出200，p99首token不超过1秒，想租云，怎么最省钱",
    "we're in china, ai support startup on qwen2.5 14b, 30 requests per second at peak, 1k in 200 out, p99 ttft "
    "under 1s, cheapest cloud option?",
    "cheapest cloud option for qwen2.5 14b in china pls: support bot, peak 30 qps, prompts 1000 tokens, outputs "
    "200, p99 first token within 1 second",
]


@pytest.mark.parametrize("text", SUPPORT_14B)
def test_a_service_rate_headlines_no_card_the_answer_warns_against(text):
    reply = run_conversation([text])[-1]
    p = payload(reply)
    d = p["decision"]
    assert d["action"] == "rent" and d["fits"], d
    assert find_gpu(d["gpu"]).segment != "consumer", d
    assert "4090" not in reply.content.split("\n", 1)[0]
    assert "你选的" not in reply.content and "you chose" not in reply.content


E1 = [
    "hi, we're a 6 person startup, want to serve llama 3.1 8b for a chatbot, about 15 requests per sec at peak, TTFT "
    "under 500ms, prompts ~1.5k tokens, outputs ~300. what gpus and how many? cheapest cloud option pls",
    "我们6个人的创业公司，想部署llama 3.1 8b做聊天机器人，高峰每秒15个请求，首token 500ms以内，输入1500输出300，"
    "租云最便宜用什么卡几张",
]
WHY_NOT = {
    "en": ["hmm why not H100 or L40S? arent those cheaper per hour", "why not the l40s or h100? aren't they way "
           "cheaper per hour?", "why not L40S or H100 - are those not cheaper"],
    "zh": ["为啥不用H100或者L40S？它们每小时不是更便宜吗", "为什么不用L40S或H100？那些不是更便宜吗",
           "为啥不用l40s和h100，这两个不是每小时更便宜吗"],
}


@pytest.mark.parametrize("lang,first", [("en", E1[0]), ("zh", E1[1])])
@pytest.mark.parametrize("i", range(3))
def test_cards_asked_after_a_rate_plan_are_sized_for_the_rate_and_both_halves_answered(lang, first, i):
    reply = run_conversation([first, WHY_NOT[lang][i]])[-1]
    p = payload(reply)
    assert p.get("topic") == "compare_cards", p.get("kind")
    rows = {o["gpu"]: o["gpus"] for o in p["results"]["options"]}
    assert rows.get("l40s", 0) > 1, rows  # sized for the rate, never one copy's users
    rated = p["results"]["rated_plan"]
    assert rated["stays"] and rated["other"] in rows
    assert "didn't understand" not in reply.content and "没看懂" not in reply.content


RESTRICTED = [
    ("有国产化要求，只能用昇腾910B。全参微调 Qwen2.5-7B，数据大概5亿token，要多少张卡，多久能训完？", "ascend-910b"),
    ("只能用昇腾910B，全参微调Qwen2.5-7B，5亿token，需要几张卡", "ascend-910b"),
    ("国产化项目，我们只能采购910B，要几张卡才能全参微调 Qwen2.5-7B？", "ascend-910b"),
    ("we can only use 910B, full fine-tune qwen2.5 7b on 500M tokens, how many cards and how long?", "ascend-910b"),
    ("customer support bot on mistral 7b, 200 requests per second, p99 TTFT 300ms, inputs ~800 tok outputs ~150. we "
     "already own L40S so stick to those - how many?", "l40s"),
    ("we already own L40S, how many do we need for mistral 7b at 200 requests per second?", "l40s"),
    ("mistral 7b at 200 rps - we have L40S, so stick with them. how many?", "l40s"),
    ("Mistral 7B 客服机器人，每秒200个请求，我们已经有L40S了，就用它，要几张？", "l40s"),
    ("我们实验室有L40S，部署 mistral 7b，每秒200个请求，需要多少张", "l40s"),
]


@pytest.mark.parametrize("text,card", RESTRICTED)
def test_a_card_limited_to_without_a_count_is_no_card_owned(text, card):
    from gpu_advisor.assistant.reading import understand

    u = understand(text)
    assert not u.updates.get("owned"), u.updates
    assert card in (u.updates.get("only") or []), u.updates


@pytest.mark.parametrize("text,owned", [
    ("i have a 4090, can i run qwen2.5 32b?", "1x rtx-4090"),
    ("we have 4 L40S, serve mistral 7b for 50 users, how many more do we need?", "4x l40s"),
    ("我有一张4090，能跑qwen2.5 32b吗", "1x rtx-4090"),
    ("我们有4张L40S，部署mistral 7b，还要几张", "4x l40s"),
])
def test_a_card_counted_or_said_as_one_stays_owned(text, owned):
    from gpu_advisor.assistant.reading import understand

    assert owned in (understand(text).updates.get("owned") or [])


@pytest.mark.parametrize("text", [RESTRICTED[0][0], RESTRICTED[3][0]])
def test_a_card_restriction_plans_the_count_with_standard_optimizer_states(text):
    d = payload(run_conversation([text])[-1])["decision"]
    assert d["gpu"] == "ascend-910b" and d["gpus"] > 1 and not d["owned"] and d["owned_gpus"] == 0, d


@pytest.mark.parametrize("text", [RESTRICTED[4][0], RESTRICTED[7][0]])
def test_owned_cards_of_no_count_give_the_total_on_single_card_copies(text):
    reply = run_conversation([text])[-1]
    d = payload(reply)["decision"]
    assert d["gpu"] == "l40s" and d["gpus"] > 1 and d["owned_gpus"] == 0, d
    # h-fixa (review BJ #6) heads a plan on their cards of no count said 'of the ones you own': no count owned is claimed
    assert "to work beside the" not in reply.content and "在你自有的" not in reply.content
    assert "did not say how many" in reply.content or "但没说有几张" in reply.content
    assert "×TP2" not in reply.content and "×TP4" not in reply.content  # a 7B copy on one card each


HOBBY_A6000 = [
    "个人玩家，一张A6000 48G，想QLoRA微调llama 3.3 70b，数据集1万条，能跑吗，大概要几天",
    "个人玩家，一张A6000，QLoRA微调llama 3.3 70b，1万条数据，能跑吗？要几天",
    "自己玩，一张A6000 48G，想用QLoRA微调llama 3.3 70b，数据1万条，大概要几天",
    "hobbyist, one A6000, want to qlora llama 3.3 70b on 10k examples, can it run, how many days?",
    "hobbyist here, an A6000 48gb, qlora llama 3.3 70b with 10k examples - does it run and how many days?",
]


@pytest.mark.parametrize("text", HOBBY_A6000)
def test_one_persons_card_said_alone_is_theirs_and_timed_first(text):
    d = payload(run_conversation([text])[-1])["decision"]
    assert d["gpu"] == "rtx-a6000" and d["gpus"] == 1 and d["owned"], d


@pytest.mark.parametrize("text", ["个人用，想买一张4090跑qwen 32b", "just me, buying one 4090, qwen 32b?",
                                  "个人玩家，想QLoRA微调llama 3.3 70b，一张A6000够吗"])
def test_a_card_to_get_or_asked_about_is_not_owned(text):
    from gpu_advisor.assistant.reading import understand

    assert not understand(text).updates.get("owned")
