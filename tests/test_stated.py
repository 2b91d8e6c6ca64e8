"""Every number the user states keeps its role (session 13 reviews ZA/ZB): an output length said with a bare 'out'
or '出' is the output ('out ~300' was read as $300 to buy a card, the $10k/month budget dropped); a one-word label
is a few tokens; a batch in a KV-cache question multiplies the cache; a price said for the machine to buy is its
purchase price, never a budget; a question or a condition about buying is no preference; a reasoning model
writes about 1,500 tokens per answer when no output is said; one purchase price per card in a reply."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.recommend import Workload, rate_lengths, reasoning_output
from tests.conversation import run_conversation

# ---- output lengths said with 'out' / '出' ----------------------------------------------------------------

LENGTHS_EN = ["prompts ~1500 tokens out ~300", "avg prompt 1.5k tokens and ~300 out", "prompts 1500 tokens, 300 out",
              "prompts about 1500 tokens, 300 tokens out", "prompts 1500 tokens, output ~300", "in/out 1500/300",
              "1.5k in 300 out", "in/out: 1.5k/300 tokens", "1500/300 in/out", "input 1500, out 300",
              "prompt 1500 tokens and out ~300", "out ~300, prompts 1500 tokens"]
LENGTHS_ZH = ["输入1500 token，输出300左右", "每个请求输入1500，出300个token", "提示词大概1500 token，出300个token左右",
              "输入/输出 1500/300", "1500进300出", "输入1500个token，输出300"]
LEADS_EN = ["need llama 3.1 8b at 50 requests/sec, {lengths}.", "{lengths}, serving llama 3.1 8b at 50 req/s.",
            "we serve llama 3.1 8b to customers, 50 rps at peak, {lengths}, how many gpus?"]
LEADS_ZH = ["llama 3.1 8b 上线服务，每秒 50 个请求，{lengths}。", "{lengths}，用 llama 3.1 8b 部署，高峰每秒50个请求，要几张卡？"]


@pytest.mark.parametrize(("lead", "lengths"), [*itertools.product(LEADS_EN, LENGTHS_EN),
                                               *itertools.product(LEADS_ZH, LENGTHS_ZH)])
def test_an_output_said_with_out_is_the_output(lead, lengths):
    u = understand(lead.format(lengths=lengths))
    assert u.updates.get("output_tokens") == 300, u.updates
    assert u.updates.get("prompt_tokens") == 1500, u.updates
    assert not u.prices, u.prices  # never a price ('$300 per card to buy')


@pytest.mark.parametrize("lengths", LENGTHS_EN + LENGTHS_ZH)
def test_the_lengths_read_alone(lengths):
    u = understand(lengths)
    said = u.updates.get("output_tokens", u.updates.get("batch_output_tokens"))
    assert said == 300, u.updates


@pytest.mark.parametrize("text", [
    "we're a startup, need llama 3.1 8b at 50 requests/sec, p95 time to first token under 500ms, prompts ~1500 tokens "
    "out ~300. budget is 10k usd a month. rent or buy?",
    "budget is 10k usd a month, llama 3.1 8b at 50 requests/sec, out ~300 with prompts ~1500 tokens, rent or buy?",
    "我们是创业公司，llama 3.1 8b，每秒50个请求，输入1500 token 出300个token，预算每月1万美元，租还是买？",
])
def test_the_budget_survives_beside_a_bare_out(text):
    u = understand(text)
    assert u.updates.get("budget_usd_per_month") == 10000, u.updates
    assert u.updates.get("output_tokens") == 300
    assert "buy_usd" not in u.prices


@pytest.mark.parametrize("text", ["3 out of 5 requests are short, prompts 1500 tokens", "we sold out, llama 3.1 8b"])
def test_out_of_is_no_output(text):
    u = understand(text)
    assert "output_tokens" not in u.updates and "batch_output_tokens" not in u.updates, u.updates


def test_startup_e10_rents_within_the_budget():
    reply = run_conversation(["we're a startup, need llama 3.1 8b at 50 requests/sec, p95 time to first token under "
                              "500ms, prompts ~1500 tokens out ~300. budget is 10k usd a month. rent or buy?"])[-1].content
    head = reply.splitlines()[0]
    assert head.startswith("## Rent"), head
    assert "1,500 tokens in and 300 out" in reply
    assert "$10,000 a month" in reply and "$300 per card" not in reply


# ---- a one-word label ----------------------------------------------------------------------------------------

LABELS_EN = ["output is just a one word label", "the output is a single category", "answer is yes/no",
             "it only outputs yes or no", "just one label per item", "output: a one-word class"]
LABELS_ZH = ["只输出一个类别", "输出就一个标签", "只输出是或否", "输出一个词", "回答是/否就行"]


@pytest.mark.parametrize(("label", "order"), itertools.product(LABELS_EN, (0, 1)))
def test_a_one_word_label_is_a_few_tokens_en(label, order):
    parts = ["classify 30 million product descriptions (~200 tokens each) with llama 3.1 8b", label,
             "deadline is next friday"]
    text = ", ".join(parts if order == 0 else [parts[1], parts[0], parts[2]])
    u = understand(text)
    assert u.updates.get("batch_output_tokens") == 3, u.updates
    assert u.updates.get("batch_items") == 30_000_000


@pytest.mark.parametrize(("label", "order"), itertools.product(LABELS_ZH, (0, 1)))
def test_a_one_word_label_is_a_few_tokens_zh(label, order):
    parts = ["用llama 3.1 8b给3000万条商品描述分类，每条200 token左右", label, "5天内跑完"]
    text = "，".join(parts if order == 0 else [parts[1], parts[0], parts[2]])
    u = understand(text)
    assert u.updates.get("batch_output_tokens") == 3, u.updates


def test_an_output_length_said_wins_over_the_label():
    u = understand("classify 1M tickets with llama 3.1 8b, output is a single category, about 20 tokens")
    assert u.updates.get("batch_output_tokens") == 20, u.updates


# ---- a batch in a KV-cache question --------------------------------------------------------------------------

KV_EN = ["how much memory does the kv cache take for llama 3 70b at 32k context with batch size 8",
         "how big is the kv cache for llama 3 70b at 32k, bs=8",
         "batch size 8, 32k context: how much kv cache does llama 3 70b need?",
         "how much kv cache does llama 3 70b need at 32k context for 8 sequences in parallel"]
KV_ZH = ["KV cache 到底占多少显存？比如 llama3 70b，32k 上下文，batch size 8", "KV cache多大？llama3 70b，批大小为8，上下文32k",
         "llama3 70b 的 kv cache 占多少显存，32k 上下文，8 路并发", "llama3 70b 32k上下文 8个并发 KV cache 多大"]


@pytest.mark.parametrize("text", KV_EN + KV_ZH)
def test_a_kv_question_keeps_its_batch(text):
    u = understand(text)
    assert "kv_cache" in u.intents, u.intents
    assert u.ask.get("users") == 8 and u.ask.get("context") == 32768, u.ask


@pytest.mark.parametrize("text", [KV_ZH[0], KV_EN[0]])
def test_the_kv_reply_multiplies_by_the_batch(text):
    reply = run_conversation([text])[-1].content
    assert "227.1 GB" in reply and "151.9 GB" not in reply, reply


# ---- a price said for the machine to buy; no preference from a question -------------------------------------

MACHINE_ZH = ["公司想买一台 8 卡 H20 服务器，大概一百万人民币，还是直接租云上的划算？每天大概跑 10 个小时推理，用三年",
              "想买一台8卡H20服务器，大概一百万，还是租划算？",
              "打算买一台8卡H20服务器，报价100万，或者租云上的，哪个划算"]
MACHINE_EN = ["we want to buy an 8x h20 server for about 1M yuan, or should we just rent in the cloud?",
              "we are thinking of buying an 8x h20 box, roughly 1M yuan, or is renting cheaper?"]


@pytest.mark.parametrize("text", MACHINE_ZH + MACHINE_EN)
def test_a_price_said_for_the_machine_is_its_purchase_price(text):
    u = understand(text)
    assert u.prices.get("buy_usd_machine") == pytest.approx(1_000_000 * rules().usd_per_cny), u.prices
    assert "budget_usd" not in u.updates, u.updates
    assert "preference" not in u.updates, u.updates


@pytest.mark.parametrize("text", [
    "想买8卡H20还是租云上的划算？", "should we buy an 8x h100 box, or rent in the cloud?",
])
def test_a_question_about_buying_is_no_preference(text):
    assert "preference" not in understand(text).updates


# Buying what the owned servers fall short of is a wish to buy (review BW #13), no longer no preference.
@pytest.mark.parametrize("text", [
    "我们实验室有 2 台 8卡 A800，想部署 DeepSeek-V3 满血版，够不够？不够的话还要买几台",
    "we have 2 servers with 8x a800, want to serve deepseek v3. is it enough? if not, how many more should we buy?",
])
def test_buying_what_the_owned_cards_lack_is_buying(text):
    assert understand(text).updates.get("preference") == "buy"


@pytest.mark.parametrize(("text", "way"), [("we want to buy, not rent", "buy"), ("we would rather rent than buy", "rent"),
                                           ("we want to buy 2 4090s", "buy"), ("只租不买", "rent")])
def test_a_preference_said_is_kept(text, way):
    assert understand(text).updates.get("preference") == way


def test_the_quoted_server_price_is_used_in_both_turns():
    replies = run_conversation(["公司想买一台 8 卡 H20 服务器，大概一百万人民币，还是直接租云上的划算？每天大概跑 10 个小时推理，用三年",
                                "qwen2.5 72b，内部知识库问答，大概一百来个人用"])
    assert "¥1,000,000" in replies[0].content and "倾向" not in replies[0].content
    assert "¥1,609,683" not in replies[1].content and "¥1,000,000" in replies[1].content
    assert "倾向" not in replies[1].content


# ---- reasoning models ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("model", ["deepseek-r1-distill-qwen-32b", "deepseek-r1-distill-llama-70b", "qwq-32b",
                                   "deepseek-r1", "deepseek-r1-distill-qwen-7b"])
def test_a_reasoning_model_writes_long_answers(model):
    assert reasoning_output(model) == 1500
    w = Workload(model=model, phase="serve", requests_per_s=5, use_case="support")
    assert rate_lengths(w)[1] == 1500


@pytest.mark.parametrize("model", ["qwen2.5-32b", "llama-3.1-8b"])
def test_other_models_keep_the_use_default(model):
    assert reasoning_output(model) is None
    assert rate_lengths(Workload(model=model, phase="serve", requests_per_s=5, use_case="support"))[1] != 1500


def test_an_output_said_for_a_reasoning_model_is_kept():
    w = Workload(model="qwq-32b", phase="serve", requests_per_s=5, output_tokens=400)
    assert rate_lengths(w)[1] == 400


@pytest.mark.parametrize(("text", "said"), [
    ("我们是创业公司，预算每月5万人民币左右，要上线一个客服机器人，模型用 deepseek-r1-distill-qwen-32b，高峰每秒大概 5 个请求，租卡还是买卡划算？",
     "输出约 1,500 token"),
    ("customer support bot on deepseek-r1-distill-qwen-32b, 5 requests per second at peak, rent or buy?",
     "about 1,500 tokens"),
])
def test_the_reasoning_output_is_said_as_an_assumption(text, said):
    reply = run_conversation([text])[-1].content
    assert said in reply and "1,500 out" in reply.replace("输出 1,500", "1,500 out"), reply


# ---- one purchase price per card ----------------------------------------------------------------------------

@pytest.mark.parametrize("turns", [["4090和A6000哪个更适合微调7b模型？预算有限，个人用", "qlora吧，数据也就几千条"],
                                   ["4090 or A6000 for fine-tuning a 7b model? limited budget, personal use",
                                    "qlora, a few thousand examples"]])
def test_one_purchase_price_per_card(turns):
    reply = run_conversation(turns)[-1].content
    # (a Chinese buyer pays the 4090's China street price, knowledge/data/china_prices.yaml: one China price per card,
    # review AS ZH4/ZH5 found ¥11,421 and ¥22,136 for the same card)
    table_price = "¥22,559" if "个人用" in turns[0] else "$1,599"
    rb = next(line for line in reply.splitlines() if "租还是买" in line or "Rent or buy" in line)
    assert table_price in rb, rb  # the card's part of the purchase is the table's price per card
