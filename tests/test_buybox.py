"""A purchase is the box an expert would spec for the whole job (h-buybox, review AV ZH10, AT C2, AU2/7/8/10/12):
a machine bought to fine-tune and serve is one box for both (not serving cards bought and the fine-tune rented);
a card's capacity is always its own; read from the structured results, not the prose."""
from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import gpus
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- one box for both jobs, bought

BOX_FIRST = [
    "预算三十万人民币，想买服务器做qwen2.5-72b的lora微调，数据五万条左右，每条两千token，顺便以后也能拿来跑推理，买什么配置",
    "想买一台服务器，qwen2.5-72b lora微调，五万条数据每条2000 token，以后也用来推理，预算30万元",
    "we want to buy one server to lora finetune qwen2.5-72b on ~50k samples of 2k tokens each and later serve it too, "
    "budget 300k rmb. what config should we buy?",
    "budget 300k rmb. what config should we buy to lora fine-tune qwen2.5-72b (50k samples x 2k tokens) and then "
    "serve it on the same box?",
]
BOX_SECOND = {"zh": "推理那块就内部十来个人用", "en": "about 10 internal people will use the inference"}


def _zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("first", BOX_FIRST)
def test_a_box_bought_for_both_jobs_does_both(first):
    lang = "zh" if _zh(first) else "en"
    reply = run_conversation([first, BOX_SECOND[lang]])[-1]
    d = payload(reply)["decision"]
    assert d["action"] == "buy", first
    assert d["training"] is None, first  # no second set of cards rented for the fine-tune
    assert d["fits"] and d["gpu"], first
    assert d["lang"] == lang


@pytest.mark.parametrize("text", [
    "想买服务器做qwen2.5-72b的lora微调，以后也跑推理，买什么配置",
    "we want to buy a server to fine-tune and serve llama 3.1 70b",
    "what config should we buy to fine-tune qwen2.5 32b and serve it?",
    "打算买一台机器做微调和推理，qwen2.5 32b",
])
def test_buying_a_machine_is_a_preference_to_buy(text):
    assert understand(text).updates.get("preference") == "buy", text


@pytest.mark.parametrize("text", [
    "rent or buy? lora qwen2.5-72b and serve it", "租还是买？微调qwen2.5 72b", "should we buy a server or rent?",
    "买什么配置好，租也可以", "what config should we buy, or just rent?",
])
def test_renting_named_keeps_the_question_open(text):
    assert understand(text).updates.get("preference") != "buy", text


def test_a_bought_server_is_not_an_owned_server_without_cards():
    u = understand("we want to buy one server to fine-tune qwen2.5 72b and serve it")
    assert not any(k == "note.servers_without_cards" for k, _v in u.notes)


# ---------------------------------------------------------------- a card's capacity is its own

CAPACITY = re.compile(r"(?:单张|single) (?P<gpu>NVIDIA [^（(]+?)\s*(?:（| of )(?P<gb>[\d.]+) GB")


@pytest.mark.parametrize("turns", [
    ["预算三十万人民币，想做qwen2.5-72b的lora微调，数据五万条左右，每条两千token，顺便以后也能拿来跑推理", "推理那块就内部十来个人用"],
    ["budget 300k rmb, lora finetune qwen2.5-72b on 50k samples of 2k tokens, later serve it too", "about 10 internal users"],
])
def test_one_card_line_names_the_card_it_was_sized_on(turns):
    names = {g.name: g for g in gpus()}
    text = run_conversation(turns)[-1].content
    for x in CAPACITY.finditer(text):
        gpu = names.get(x["gpu"].strip())
        assert gpu is not None, x["gpu"]
        assert float(x["gb"]) <= gpu.memory_gb * 1.1, (x["gpu"], x["gb"])  # its own memory, never another card's


# ---------------------------------------------------------------- cheapest asked: the cheapest row, or the reason

CHEAPEST = [
    "我们有个离线任务，要用qwen2.5-72b-instruct给100万条商品标题生成描述，每条输入大概200 token 输出300 token，要在3天内跑完，租什么卡最省钱？",
    "离线任务：qwen2.5-72b给100万条商品标题写描述，输入200 token输出300 token，3天内跑完，租卡，便宜点的",
    "我们是做法律文书的小公司，想用 qwen2.5-32b 做 lora 微调，数据5万条，平均每条4000 token（长文书），预算2万块以内，租卡，怎么搞最划算",
    "small legal firm, want to lora finetune qwen2.5-32b on 50k docs of ~4000 tokens each, renting, budget under 20k rmb, "
    "cheapest way to do it?",
    "lora finetune qwen2.5-32b on 50k docs of 4000 tokens, rent gpus as cheap as possible, we are in china",
]


@pytest.mark.parametrize("text", CHEAPEST)
def test_cheapest_asked_leads_with_the_cheapest_row_or_says_why(text):
    reply = run_conversation([text])[-1]
    data = payload(reply)["results"]["recommend"]
    best = data["best"]
    key = "job_usd" if best.get("job_usd") else "usd_per_hour"
    cheaper = [o for o in data["options"] if o.get("ok") and o.get(key) and o[key] < best[key] - 1e-9
               and (o["gpu"], o["gpus"]) != (best["gpu"], best["gpus"])]
    content = str(reply.content)
    if cheaper:  # the plan is not the cheapest row: the reason is said, in the reply's language
        assert any(w in content for w in ("shows less", "标价更低")), text
    assert payload(reply)["decision"]["lang"] == ("zh" if _zh(text) else "en")


@pytest.mark.parametrize("text", ["租卡跑qwen2.5 72b批处理，便宜点的", "rent gpus as cheap as possible for qwen2.5 7b",
                                  "怎么搞最划算，租卡微调qwen2.5 32b", "cheapest gpus to rent for a qwen2.5 72b batch job"])
def test_cheapest_in_other_words_is_the_cheapest_goal(text):
    assert understand(text).updates.get("cheapest") is True, text


# ---------------------------------------------------------------- a default is an assumption, never 'you said'

SAID = re.compile(r"\*\*(?:From what you said|你说的)[:：]?\*\*[:：]?(?P<said>[^\n]*)")


@pytest.mark.parametrize("turns", [
    ["老板让我算一下，公司客服要上个大模型，qwen3 32b，白天高峰大概每秒8个请求，输入平均3k token输出400左右，首字延迟要求1秒以内。只能用国产卡，昇腾910B，需要几张？"],
    ["客服机器人，qwen2.5 14b，高峰在白天，每秒5个请求，首字1秒内，租什么卡"],
    ["startup here, ~120 requests per min to a qwen2.5 7b classifier, prompts are short ~600 tokens in, 20 out. "
     "p95 latency under 1s. cheapest cloud setup?"],
    ["daytime peak of 5 requests per second to qwen2.5 14b, first token under 1s, what should we rent?"],
])
def test_an_inferred_busy_share_is_not_listed_as_said(turns):
    text = str(run_conversation(turns)[-1].content)
    said = SAID.search(text)
    assert said, text[:300]
    assert not re.search(r"utili[sz]ation|利用率|\d+%", said["said"]), said["said"]


@pytest.mark.parametrize("text", ["白天高峰大概每秒8个请求，qwen3 32b", "peak during business hours is 8 req/s for qwen3 32b",
                                  "daytime peak of 8 requests per second, qwen3 32b"])
def test_a_peak_time_is_not_working_hours(text):
    assert understand(text).updates.get("utilisation") != 0.24, text


@pytest.mark.parametrize("text", ["工作时间用，10个人，qwen3 32b", "we use it during business hours, 10 people, qwen3 32b"])
def test_working_hours_said_stays_said(text):
    assert understand(text).updates.get("utilisation") == 0.24, text


# ---------------------------------------------------------------- what the budget's headroom buys

ROOM = [
    "预算30万人民币，想买卡给团队做推理，主要跑qwen2.5 32b，大概20个人同时用。买4090还是L20还是等等别的？",
    "团队20个人同时用qwen2.5 32b，买卡，预算三十万元，推荐什么",
    "budget 300k rmb to buy cards for our team, qwen2.5 32b, about 20 people at once. 4090 or L20?",
    "we want to buy gpus to serve qwen2.5 32b to 20 concurrent users, budget is 300k rmb",
]


@pytest.mark.parametrize("text", ROOM)
def test_a_budget_with_room_says_what_the_room_buys(text):
    reply = run_conversation([text])[-1]
    d = payload(reply)["decision"]
    assert d["action"] == "buy" and d["fits"], text
    content = str(reply.content)
    line = next((x for x in content.splitlines() if "预算还有余量" in x or "budget has room" in x), None)
    if d["gpus"] >= 8:  # twice the cards is no one box: the faster row still within the budget is named instead
        p = payload(reply)["results"]
        rows, budget = p["recommend"]["options"], p["inputs"]["budget_usd"]
        plan = next(o for o in rows if (o["gpu"], o["gpus"], o["ok"]) == (d["gpu"], d["gpus"], True))
        faster = [o for o in rows if o["ok"] and o is not plan and (o["purchase_usd"] or budget + 1) <= budget
                  and (o["decode_tokens_per_s"] or 0) >= 1.3 * plan["decode_tokens_per_s"]]
        named = "仍在预算之内" in content or "Still within the budget" in content
        # h-fixc2: a budgeted service leads with a product's speed (8 × RTX 4080 at 38 tokens/s, was 8 × 4060 Ti at
        # 19), so no row the budget buys is clearly faster and none is named
        assert plan["decode_tokens_per_s"] >= 20 and named == bool(faster), (faster, content[:400])
        assert faster or (d["gpu"], d["gpus"], d["precision"]) == ("rtx-4080", 8, "fp8"), d
        return
    if (d["gpu"], d["gpus"]) == ("l20", 4):
        # session 22: a bought service takes as many of the card as reach a product's speed (4 × L20 at 27 tokens/s,
        # ¥250,000; was 2 at 15); twice that is beyond the ¥300,000, so no room line
        plan = next(o for o in payload(reply)["results"]["recommend"]["options"] if (o["gpu"], o["gpus"], o["ok"]) == ("l20", 4, True))
        assert line is None and plan["decode_tokens_per_s"] >= 20, content[:400]
        return
    assert line is not None, content[:400]
    n = int(re.search(r"(\d+) ×", line)[1])
    assert n == 2 * d["gpus"], line  # the plan's card, twice the count, within the budget


def test_no_room_line_when_the_budget_is_tight():
    reply = run_conversation(["budget 200k rmb to buy cards for our team, qwen2.5 32b, about 20 people at once"])[-1]
    assert "budget has room" not in str(reply.content)
