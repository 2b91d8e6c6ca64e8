"""Review T: the headline fits the user's situation, and no unasked boilerplate rides along.

- a cloud named with a card ('we're on aws so h100s') rents that card there: never 'you own', never a purchase, never a
  card the cloud does not rent (T2 #11);
- a production service at a request rate with no preference is not headlined on a card both priced from one offer and
  off CUDA that nobody asked for, nor bought against a one-offer rent (T1 #5, T3 #7);
- the user's card leads ('currently on a single a100', 'my 24gb card'), and LoRA on one named card that fits only on
  a 4-bit base takes that way on that card (T3 #19, #15);
- no stock paragraph beside a sizing that did not ask about stock, no rent-or-buy at a guessed use for one person on
  their own or asked-about card (T1 #2, #7, #8, T3 #9, #11, #16);
- '4090 or two used 3090s … budget 1800': headline and verdict agree, 'used' is said (T1 #4);
- rent at AutoDL, then 'buy, which is cheaper over a year': the buy is not kept to AutoDL's cards, and the 12 months
  say when buying pays off instead of 'never' (T2 #5).
Decisions are asserted on the codes the reply carries (action, card, filters), generated over phrasings and both
languages."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import used_prices
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.tools.cost import few_offers
from gpu_advisor.tools.recommend import Option, Workload, _action, doubly_unsure
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- a cloud named with its card: rented there

CLOUD_CARDS = [("aws", "AWS", "h100", "h100-sxm"), ("aws", "aws", "a100 80gb", "a100-80gb-sxm"),
               ("aws", "AWS", "l40s", "l40s"), ("gcp", "gcp", "h100", "h100-sxm"), ("gcp", "google cloud", "l4", "l4")]
EN_CLOUD = ["serve llama 3.1 70b to 200 users. we're on {cloud} so {card}s. how many nodes",
            "we're on {cloud} so {card}s, need to serve llama 3.1 70b for 200 users",
            "serve llama 3.1 70b for 200 users on {cloud} {card}s",
            "hey, serve llama 3.1 70b for 200 users, we are on {cloud} using {card}s"]


@pytest.mark.parametrize("cloud,name,card,gpu_id,template",
                         [(*c, t) for c, t in itertools.product(CLOUD_CARDS, EN_CLOUD)])
def test_a_card_said_with_a_cloud_is_rented_there(cloud, name, card, gpu_id, template):
    assert gpu_id in clouds()[cloud].gpus
    u = understand(template.format(cloud=name, card=card))
    assert not u.updates.get("owned"), u.updates
    assert u.updates.get("only") == [gpu_id], u.updates
    assert u.updates.get("preference") == "rent"


@pytest.mark.parametrize("text,gpu_id", [
    ("我们在AutoDL上，用4090部署qwen2.5 7b", "rtx-4090"),
    ("我们在 autodl 上用 A800 部署 qwen2.5 72b，给50个人用", "a800-80gb-sxm"),
    ("在阿里云上用A100部署qwen 72b", "a100-80gb-sxm"),
])
def test_chinese_card_on_a_cloud_is_rented_there(text, gpu_id):
    u = understand(text)
    assert not u.updates.get("owned") and u.updates.get("only") == [gpu_id] and u.updates["preference"] == "rent"


@pytest.mark.parametrize("text,owned", [
    ("有两张4090不够去autodl租几张，想部署qwen2.5 72b给20个人用", ["2x rtx-4090"]),
    ("we have two 4090s, want to rent more on runpod to serve qwen2.5 72b to 20 people", ["2x rtx-4090"]),
    ("we bought 8 h100s and also use aws, serve llama 3.1 70b to 200 users", ["8x h100-sxm"]),
])
def test_cards_said_had_stay_owned_beside_a_cloud(text, owned):
    assert understand(text).updates.get("owned") == owned


def test_aws_h100_service_rents_h100_and_never_buys():
    reply = run_conversation(["serve llama 3.1 70b instruct in prod, ~50 requests/sec at peak, prompt 2k, ~300 "
                              "output, p99 ttft <800ms, p99 itl <60ms. we're on aws so h100s. how many nodes"])[-1]
    data = payload(reply)
    assert data["decision"]["action"] == "rent" and data["decision"]["gpu"] == "h100-sxm", data["decision"]
    assert data["profile"]["owned"] is None and data["profile"]["only"] == ["h100-sxm"]
    assert "MI300X" not in reply.content and "you own" not in reply.content


# ---------------------------------------------------------------- production at a rate: no unasked AMD, no buy

RATE_EN = ["need to serve mistral small 24b in prod. p95 ttft under 500ms, ~50 rps, avg prompt 1500 tokens, output "
           "300. what gpus and how many",
           "serving llama 3.3 70b for an internal chatbot. need p95 ttft under 1s, about 20 requests per second at "
           "peak, avg prompt 1500 tokens and ~300 output tokens. what hardware and how many"]
RATE_ZH = ["内部聊天机器人部署 llama 3.3 70b，高峰每秒 20 个请求，p95 首字 1 秒以内，平均输入 1500 token、输出 300，"
           "要什么卡、要几张？我们在海外"]


@pytest.mark.parametrize("message", RATE_EN + RATE_ZH)
def test_a_rate_service_is_not_headlined_on_an_unasked_thinly_priced_rocm_card(message):
    reply = run_conversation([message])[-1]
    decision = payload(reply)["decision"]
    assert decision["action"] in ("rent", "buy") and decision["gpu"] != "mi300x", decision
    best = payload(reply)["results"]["recommend"]["best"]
    assert not (decision["action"] == "buy" and few_offers(best.get("price_offers"))), decision


@pytest.mark.parametrize("message,lang", [(RATE_EN[0], "en"), (RATE_EN[1], "en")])
def test_the_cheaper_rocm_row_says_both_doubts(message, lang):
    reply = run_conversation([message])[-1]
    rows = payload(reply)["results"]["recommend"]["options"]
    mi = [o for o in rows if o["gpu"] == "mi300x" and o["ok"]]
    assert mi, "the passed-over card stays in the table"
    assert "runs off CUDA, which you did not ask about" in reply.content


def _option(gpu: str, offers: int | None, usd_per_hour: float = 10.0, purchase: float = 100_000.0) -> Option:
    return Option(gpu=gpu, gpu_name=gpu, gpus=8, ok=True, headroom_fraction=0.5, capacity_bytes=1e11,
                  usd_per_hour=usd_per_hour, purchase_usd=purchase, price_offers=offers)


@pytest.mark.parametrize("offers,named,expected", [(1, False, True), (2, False, True), (9, False, False),
                                                   (1, True, False)])
def test_doubly_unsure_is_few_offers_and_unasked_software_risk(offers, named, expected):
    w = Workload(model="llama-3.1-8b", phase="serve", candidates=["mi300x"] if named else None)
    assert doubly_unsure(_option("mi300x", offers), w) is expected
    assert doubly_unsure(_option("h100-sxm", offers), w) is False  # CUDA: one doubt only


@pytest.mark.parametrize("offers,action", [(1, "rent"), (2, "rent"), (9, "buy")])
def test_no_purchase_headlined_against_a_thin_rent(offers, action):
    from gpu_advisor.tools.cost import RentBuyResult

    w = Workload(model="llama-3.1-8b", phase="serve", utilisation=1.0)
    rb = RentBuyResult(gpu="h100-sxm", gpus=8, utilisation=1.0, horizon_months=36, rent_total_usd=400_000,
                       buy_total_usd=200_000, break_even_utilisation=0.5, cheaper="buy", rule_of_thumb=(0.6, 0.7))
    assert _action(w, _option("h100-sxm", offers), rb) == action


# ---------------------------------------------------------------- the user's own card first

@pytest.mark.parametrize("text,owned", [
    ("thinking of going from 4k to 32k seq len for llama 3.1 8b lora, currently on a single a100 80gb",
     ["1x a100-80gb-sxm"]),
    ("lora llama 3.1 8b at 32k, currently using one a100 80gb", ["1x a100-80gb-sxm"]),
    ("目前在用一张A100 80GB，llama 3.1 8b lora 32k 上下文显存够吗", ["1x a100-80gb-sxm"]),
    ("我们现在用的是两张4090，想部署qwen2.5 14b", ["2x rtx-4090"]),
    ("can i finetune gpt-oss-20b on my 24gb card? lora on 10k examples", ["1x rtx-4090"]),
    ("我的24G显卡能微调gpt-oss-20b吗？lora，1万条", ["1x rtx-4090"]),
])
def test_the_card_one_is_on_is_owned(text, owned):
    assert understand(text).updates.get("owned") == owned


def test_a_single_card_asked_about_is_not_owned():
    u = understand("can i finetune gpt-oss-20b on a single 24gb card? lora on 10k examples")
    assert u.updates.get("only") == ["1x rtx-4090"] and not u.updates.get("owned")


@pytest.mark.parametrize("message", [
    "can i finetune gpt-oss-20b on a single 24gb card? heard the weights are mxfp4 so its small. want to do lora on "
    "like 10k examples for tool calling",
    "单张24G的卡能微调gpt-oss-20b吗？lora，1万条工具调用数据",
])
def test_lora_on_one_named_card_takes_the_4bit_base_that_fits_it(message):
    data = payload(run_conversation([message])[-1])
    d = data["decision"]
    assert (d["gpus"], d["gpu"], d["fits"]) == (1, "rtx-4090", True), d
    assert data["results"]["recommend"]["taken_lever"] in ("qlora", "qlora-unsloth")
    assert data["results"]["recommend"]["taken_because"] == "count_named"


@pytest.mark.parametrize("message", ["can i finetune gpt-oss-20b on my 24gb card? lora on like 10k examples",
                                     "我的24G显卡能微调gpt-oss-20b吗？lora，1万条"])
def test_lora_on_my_card_uses_my_card(message):
    d = payload(run_conversation([message])[-1])["decision"]
    assert d["action"] == "use" and d["gpu"] == "rtx-4090" and d["owned"], d


# ---------------------------------------------------------------- no unasked extras

@pytest.mark.parametrize("text,stock", [
    ("batch inference with qwen2.5 72b over 5 million docs, 800 in 150 out, by friday. cheapest way to rent for this?",
     False),
    ("classify 10 million tickets with llama 3.1 8b by friday, 300 tokens each. cheapest way to get it done?", False),
    ("h100 vs a100 for finetuning, is the h100 actually worth ~2x the hourly price? lora on 7b-14b models", False),
    ("老板想微调DeepSeek V3，LoRA，数据10万条，每条1500 token，需要多少卡？我们能租到H800", False),
    ("serve llama 3.1 70b to 20 users, is the h100 in stock anywhere?", True),
    ("部署qwen2.5 72b给20人用，H20能租到吗", True),
])
def test_stock_is_answered_beside_a_sizing_only_when_asked(text, stock):
    u = understand(text)
    assert (u.also == "availability" or "availability" in u.intents) is stock, (u.also, u.intents)


@pytest.mark.parametrize("turns,absent", [
    (["got a 4060 ti 16gb, want to run qwen2.5 14b locally w/ ollama", "what about qwen2.5 coder 32b at q4"],
     "**Rent or buy:**"),
    (["can i run gpt-oss-120b on a single h100 80gb? heard its mxfp4"], "**Rent or buy:**"),
    (["我有一张4060 Ti 16G，想用ollama本地跑qwen2.5 14b", "换成 qwen2.5 coder 32b 的 q4 呢"], "**租还是买**"),
    (["单张H100 80G能跑gpt-oss-120b吗"], "**租还是买**"),
])
def test_no_rent_or_buy_at_a_guessed_use_for_one_person(turns, absent):
    reply = run_conversation(turns)[-1]
    assert payload(reply)["kind"] == "answer"
    assert absent not in reply.content


def test_a_service_for_others_keeps_its_rent_or_buy():
    reply = run_conversation(["serve llama 3.1 8b to 30 users around the clock on our own 4090, or rent more?"])[-1]
    assert "**Rent or buy:**" in reply.content or payload(reply)["decision"]["action"] == "use"


# ---------------------------------------------------------------- headline and verdict agree; 'used' said

@pytest.mark.parametrize("message,used_said", [
    ("single 4090 or two used 3090s for running llama 3.3 70b at home? budget is like 1800 bucks total",
     "_Used price: the NVIDIA GeForce RTX 3090 24GB sells for"),
    ("单张4090还是两张二手3090，在家本地跑llama 3.3 70b，预算总共12000元", "_二手价：NVIDIA GeForce RTX 3090 24GB 二手约"),
])
def test_headline_verdict_and_budget_agree_for_used_cards(message, used_said):
    reply = run_conversation([message])[-1]
    data = payload(reply)
    assert data["profile"]["preference"] == "buy"  # a one-off budget for one's own machine
    rows = {o["gpu"]: o for o in data["results"]["options"]}
    pair = rows["rtx-3090"]
    # h-used (AQ 8, AR 14): two used 3090s are priced at the sourced used price, within the budget
    assert pair["gpus"] == 2 and pair["headroom_fraction"] > 0 and pair["meets"]["budget"] is True
    assert pair["purchase_usd"] == pytest.approx(2 * used_prices()["rtx-3090"].usd)
    assert used_said in reply.content
    # the headline and the verdict say the same: buy the two used 3090s, the one option that does the job
    assert (data["decision"]["action"], data["decision"]["gpu"], data["decision"]["gpus"]) == ("buy", "rtx-3090", 2)
    assert [a["verdict"]["pick"] for a in data["also"] if a.get("code") == "compare_cards"] == ["rtx-3090"]


# ---------------------------------------------------------------- rent at a cloud, then buy

@pytest.mark.parametrize("turns,never", [
    (["想在 AutoDL 上租卡部署 GLM-4-9B-Chat 做个小程序后端，估计同时在线 50 人，租啥卡划算", "算了还是直接买吧，一年下来哪个便宜"],
     "买永远不划算"),
])
def test_buying_after_renting_at_a_cloud_drops_its_cards_and_says_when_buying_pays(turns, never):
    replies = run_conversation(turns)
    first, second = payload(replies[0]), payload(replies[1])
    assert first["profile"]["only"] and first["profile"]["preference"] == "rent"
    assert second["profile"]["only"] is None and second["profile"]["preference"] == "buy"
    rb = second["results"]["recommend"]["rent_or_buy"]
    assert rb["horizon_months"] == 12 and (rb["payback_months"] is None or rb["payback_months"] > 12)
    # a company buying in China is planned on a card sold there officially (h-rank4: the L20 in a server), and at
    # that price buying never pays against the rent: said so, with the grey-market 5090's reason beside it
    assert second["decision"]["gpu"] == "l20" and replies[1].content.splitlines()[0].endswith(never)
    assert "非正规渠道" in replies[1].content
