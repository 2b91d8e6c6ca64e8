"""enread (review BD/BF, round G of session 18): what a message says is read as it means it.

1. A dataset said in bytes of text ('2GB of raw german legal text', '2 gigs', '2G文本', '法律文书大概两个G') is tokens
   at about 4 bytes a token (Chinese text said as such about 4.2), never a card's memory, a model's size or the
   Chinchilla default (review BD #15: 2 GB read as 152.2B tokens)."""

import itertools
import re

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

SIZES = [("2", "GB", 5e8), ("2", "gb", 5e8), ("500", "MB", 1.25e8), ("1.5", "TB", 3.75e11), ("2", "gigs", 5e8)]
EN = ["continued pretraining of qwen2.5 7b on about {n}{u} of raw german legal text. how many h100 hours?",
      "how many h100 hours to continue pretraining qwen2.5 7b on {n} {u} of scraped german court decisions",
      "we want to continue pretraining qwen2.5 7b, the corpus is about {n} {u}, would 1 node of 8 h100 be fine?",
      "qwen2.5 7b, continued pretraining, a {n}{u} german legal corpus, roughly how many h100 hours",
      "um so basically {n}{u} worth of legal documents, continued pretraining of qwen2.5 7b on h100s, how long"]
ZH = ["qwen2.5 7b 继续预训练，{n}{u}文本，需要多少H100小时",
      "想对qwen2.5 7b做继续预训练，德语法律文书大概{n}个{u}，一台8卡H100够吗",
      "我们手上有{n}{u}的德语法律语料，qwen2.5 7b 继续预训练要多少H100小时",
      "继续预训练qwen2.5 7b，语料大概{n}{u}左右，H100要跑多久"]
ZH_UNITS = {"gigs": "G", "gb": "G"}


@pytest.mark.parametrize(("size", "template"), list(itertools.product(SIZES, EN + ZH)))
def test_bytes_of_text_are_tokens(size, template):
    n, unit, tokens = size
    if template in ZH:
        unit = ZH_UNITS.get(unit, unit)
    u = understand(template.format(n=n, u=unit))
    assert u.updates["train_tokens"] == pytest.approx(tokens)
    assert "params_b" not in u.updates or u.updates["params_b"] == pytest.approx(7.6, abs=0.5)
    assert "train_examples" not in u.updates
    note = next(args for code, args in u.notes if code == "note.text_size_as_tokens")
    for lang in ("en", "zh"):
        text = say(lang, "note.text_size_as_tokens", **note)
        assert "4.2" in text and "0.25" in text


@pytest.mark.parametrize("template", ["continued pretraining of qwen2.5 7b on 2GB of chinese legal text",
                                      "继续预训练qwen2.5 7b，有2GB的中文法律语料", "qwen2.5 7b 继续预训练，中文语料2G"])
def test_chinese_text_runs_about_4_2_bytes_a_token(template):
    assert understand(template).updates["train_tokens"] == pytest.approx(2e9 / 4.2, rel=1e-3)


@pytest.mark.parametrize("text", ["a 3090 24gb", "rtx 3090 24g", "8x h100 80gb for 2 weeks of training data",
                                  "we have 2GB of RAM for the text", "a 24 gb card to train on the data",
                                  "24gb of vram for the data", "4090 24g跑这个数据集", "显存24G，跑7b的数据够吗"])
def test_memory_is_no_text_size(text):
    assert "train_tokens" not in understand(text).updates


# 2. A card's memory put right in one clause while another changes the job ('they're the 80gb ones. and actually we
#    decided on lora'): the held cards become their 80GB variant, their count kept, and the job change taken too
#    (review BD #12: the plan stayed on 8 × A100 40GB).

FIRST = ["planning a full fine tune of mistral 7b on 8 a100 40gb, dataset is 50k examples",
         "打算在8张A100 40G上全参微调mistral 7b，数据5万条"]
FIX_EN = ["wait sorry, they're the 80gb ones. and actually we decided on lora not full ft. how long per epoch?",
          "oh and we switched to lora. also they're 80gb not 40. how long per epoch",
          "correction: not 40gb, 80. we'll do lora, not a full finetune; time per epoch?",
          "my bad, the 80gb version. also lora, not full ft"]
FIX_ZH = ["等下说错了，是80G的。另外我们决定用lora不做全参了，一个epoch要多久？", "改成lora了，卡是80G的，每个epoch多久",
          "不是40G，是80G的。方式换成lora，一轮多久", "抱歉，卡是80G的不是40G；另外不做全参了，用lora"]


@pytest.mark.parametrize(("first", "said"), [(FIRST[0], s) for s in FIX_EN] + [(FIRST[1], s) for s in FIX_ZH]
                         + [(FIRST[1], FIX_EN[0]), (FIRST[0], FIX_ZH[1])])
def test_memory_put_right_beside_a_method_switch(first, said):
    state = run_states([first, said])[-1]
    profile = state["profile"]
    assert profile["only"] == ["8x a100-80gb-sxm"]
    assert profile["method"] == "lora"
    reply = state["messages"][-1].content
    assert "A100 SXM4 80GB" in reply
    assert ("小时" in reply) == (said in FIX_ZH)


# 3. An answer naming a main method and a side one ('mostly full finetunes tbh, some lora', '主要是全参，偶尔lora'):
#    the main one is the plan, the other checked beside it (review BD #7: sized as LoRA).

MAIN_SIDE = [("mostly full finetunes tbh, some lora", "full", "lora"),
             ("full finetunes mostly, with a bit of lora", "full", "lora"),
             ("mainly full fine-tuning, plus the odd lora run", "full", "lora"),
             ("usually lora but a few full finetunes", "lora", "full"),
             ("mostly qlora, sometimes full fine-tuning", "qlora", "full"),
             ("主要是全参微调，偶尔lora", "full", "lora"), ("大部分是全量微调，少量lora", "full", "lora"),
             ("多数是lora，也有一些全参", "lora", "full"), ("主要是lora，还有少量全参微调", "lora", "full"),
             ("基本上都是全参，有时候做lora", "full", "lora")]


@pytest.mark.parametrize(("text", "main", "side"), MAIN_SIDE)
def test_main_method_is_the_plan(text, main, side):
    u = understand(text)
    assert u.updates["method"] == main
    assert (u.second or {}).get("method") == side


BUY_FIRST = ["thinking of buying one 8x H100 server vs just renting. we'd probably use it maybe 40% of the time over "
             "the next two years, mostly finetuning 7b-13b models. whats better financially",
             "在考虑买一台8卡H100服务器还是租，未来两年大概40%的时间在用，主要微调7b-13b的模型，哪个更划算"]


@pytest.mark.parametrize(("first", "answer"), [(BUY_FIRST[0], "mostly full finetunes tbh, some lora"),
                                               (BUY_FIRST[1], "主要是全参微调，偶尔lora"),
                                               (BUY_FIRST[0], "full ft mostly, occasionally lora")])
def test_main_method_answer_sizes_the_plan(first, answer):
    state = run_states([first, answer])[-1]
    assert state["profile"]["method"] == "full"
    reply = state["messages"][-1].content
    assert "LoRA" in reply  # the side job said beside the plan


# 4. A length said with a conversation ('each had a 128k convo going', '10 people with 128k convos each') is that
#    conversation's context, never 128,000 training examples (review BD #10); the KV figure answered first, then yes
#    or no on the cards named, 8-bit weights when 16-bit ones leave the engine no room; a KV part of a question in
#    parts answered before the other part (review BF #9).

CONVO = ["how much kv cache memory does llama 3.1 70b actually eat at the full 128k context? like if 10 people each "
         "had a 128k convo going. is that even doable on one 8xh100 node",
         "10 people with 128k convos each on llama 3.1 70b - kv cache size? can 8 h100s do it",
         "kv cache size for llama 3.1 70b with 10 users, each having a 128k chat open? can one 8xh100 node do it",
         "llama 3.1 70b的kv cache在128k上下文下到底占多少显存？比如10个人每人开着一个128k的对话，一台8卡H100撑得住吗",
         "10个人每人一个128k的对话，llama 3.1 70b的kv cache要多少显存，8张h100够不够"]


@pytest.mark.parametrize("text", CONVO)
def test_a_long_conversation_is_no_count_of_examples(text):
    u = understand(text)
    said = {**u.updates, **u.ask}
    assert "train_examples" not in said and "train_tokens" not in said
    assert said["context"] == 131072 and said["users"] == 10


@pytest.mark.parametrize("text", CONVO)
def test_kv_figure_first_then_the_cards(text):
    reply = run_states([text])[-1]["messages"][-1].content
    assert "42.9 GB" in reply and "21.5 GB" in reply  # one 128k conversation, BF16 and FP8 KV
    assert "429.5 GB" in reply  # ten of them
    yes = "FP8 权重" if "撑" in text or "够" in text else "FP8 weights"
    assert reply.index("42.9 GB") < reply.index(yes)
    assert "68.5 GB" in reply  # per card with FP8 weights: it fits


@pytest.mark.parametrize("text", ["fine tune on a 50k conversations dataset", "we have 50k conversations to train on"])
def test_a_count_of_conversations_stays_a_count(text):
    assert understand(text).updates["train_examples"] == 50_000


PARTS = ["two things: 1) how big is the kv cache for llama 3.1 8b at the full 128k context, per request? 2) how many "
         "concurrent users at 32k context can I fit on a single A100 80gb in bf16",
         "1. kv cache size of llama 3.1 8b at 128k context per request? 2. how many users at 32k context fit on one "
         "a100 80gb in bf16?",
         "两个问题：1）llama 3.1 8b 在128k上下文下每个请求的kv cache多大？2）单张A100 80G用bf16、32k上下文能支持多少并发",
         "llama 3.1 8b在128k上下文时单个请求的kv cache占多少？另外一张a100 80g在bf16下32k上下文能同时服务几个人？"]


@pytest.mark.parametrize("text", PARTS)
def test_kv_part_answered_before_the_other(text):
    reply = run_states([text])[-1]["messages"][-1].content
    assert "17.2 GB" in reply and "8.6 GB" in reply  # one 128k request, BF16 and FP8 KV
    users = re.search(r"(?<![\d,.])13(?![\d,.])", reply)  # then about 13 users at 32k
    assert users and reply.index("17.2 GB") < users.start()


@pytest.mark.parametrize("text", [
    "two questions: 1) how big is the kv cache of llama 3.1 70b at 128k per request? 2) how many h100s do I need to "
    "serve it to 50 users at 8k context",
    "两个问题：一是llama 3.1 70b在128k上下文下单个请求的kv cache多大？二是给50个人用、8k上下文要几张h100"])
def test_kv_part_answered_before_the_plan(text):
    state = run_states([text])[-1]
    reply = state["messages"][-1].content
    assert reply.index("42.9 GB") < reply.index("4 × NVIDIA H100")  # the KV part, then the cards for 50 users at 8k
    assert state["profile"]["context"] == 8192 and state["profile"]["users"] == 50


# 5. Two weight formats weighed and a count asked for each ('how many L40S do I need for each?', '各要几张'): the
#    fewest of the card in each format (FP8 4, AWQ INT4 2 for Llama 3.1 70B at 10 users), beside the quality gap
#    (review BF #8: only the FP8 count was given).

EACH = ["fp8 vs int4 (awq) for llama 3.1 70b on L40S cards, how much quality do I lose with int4 and how many L40S do "
        "I need for each? ~10 concurrent users",
        "llama 3.1 70b on l40s, 10 users at once: how many cards in fp8 and in awq int4 respectively, and how much "
        "worse is int4?",
        "for llama 3.1 70b with ~10 concurrent users on L40S: how many do I need for each format, fp8 or awq int4? "
        "and the quality hit of int4?",
        "llama 3.1 70b 用L40S部署，fp8和awq int4各要几张卡？int4效果掉多少？10个并发",
        "10个并发跑llama 3.1 70b，L40S的话fp8和int4(awq)分别需要几张？int4精度损失多大"]


@pytest.mark.parametrize("text", EACH)
def test_count_for_each_format(text):
    u = understand(text)
    assert u.ask.get("count_each_format") == "l40s"
    reply = run_states([text])[-1]["messages"][-1].content
    if u.lang == "zh":
        assert "FP8 下 4 张" in reply and "AWQ 下 2 张" in reply
    else:
        assert "4 in FP8" in reply and "2 in AWQ" in reply
    assert "1–3%" in reply  # the quality gap of AWQ INT4, published


@pytest.mark.parametrize("text", ["fp8 vs int4 for llama 3.1 70b on L40S, how much quality do I lose?",
                                  "llama 3.1 70b 用L40S，fp8和int4效果差多少？"])
def test_no_count_asked_no_count_per_format(text):
    assert "count_each_format" not in understand(text).ask
