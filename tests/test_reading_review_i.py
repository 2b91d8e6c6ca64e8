"""Review round I: Chinese amounts typed with a space before their unit ('500 万条'), an item's length said
with hedges ('each ticket is more like 1500 tokens'), outputs said as 'more like 3k tokens each', and an
example length said after the examples were counted, which recounts the training tokens."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.message import prepare
from tests.conversation import run_conversation

SPACES = ("", " ", "  ")


@pytest.mark.parametrize(("number", "unit", "space"), itertools.product(
    ("2", "10", "500", "1.5"), ("万", "千"), SPACES))
def test_a_space_before_a_chinese_unit_keeps_one_number(number, unit, space):
    value = float(number) * {"万": 10_000, "千": 1_000}[unit]
    u = understand(f"用qwen2.5-7b给{number}{space}{unit}条评论打标签")
    assert u.updates.get("batch_items") == value
    assert u.updates.get("phase") == "batch"


@pytest.mark.parametrize("space", SPACES)
def test_a_spaced_budget_in_yuan(space):
    assert understand(f"微调 llama 3 8b，预算 5{space}千块").updates["budget_usd"] == understand("微调 llama 3 8b，预算 5000块").updates["budget_usd"]


@pytest.mark.parametrize("verb", ["打标签", "打标", "贴标签"])
def test_labelling_many_items_is_a_batch_job(verb):
    u = understand(f"200万条客服对话，用Qwen2.5-7B{verb}")
    assert (u.updates.get("phase"), u.updates.get("batch_items")) == ("batch", 2_000_000)


SUBJECTS = ("each ticket", "each email", "every document", "each example", "each review", "each chat")
HEDGES = ("is", "is more like", "is about", "is probably", "is usually", "is closer to", "runs about")


@pytest.mark.parametrize(("subject", "hedge"), itertools.product(SUBJECTS, HEDGES))
def test_an_items_length_with_hedges_is_per_item(subject, hedge):
    m = prepare(f"{subject} {hedge} 1500 tokens", None)
    assert [(q.value, q.role) for q in m.qty] == [(1500.0, "per_item_tokens")]


@pytest.mark.parametrize(("noun", "hedge", "amount"), itertools.product(
    ("outputs are", "answers are", "responses are", "the outputs will be"),
    ("more like", "probably", "usually", "about"), ("3k", "3000")))
def test_outputs_said_per_item_are_outputs(noun, hedge, amount):
    m = prepare(f"its a reasoning model so {noun} {hedge} {amount} tokens each", None)
    assert [(q.value, q.role) for q in m.qty] == [(3000.0, "output_tokens")]


@pytest.mark.parametrize(("first", "then", "examples", "each"), [
    ("fine tune mistral 7b on ~50k support tickets w/ lora", "each ticket is more like 1500 tokens and i want 3 epochs",
     50_000, 1500),
    ("lora fine-tune llama 3 8b on 20k examples", "each example is about 800 tokens", 20_000, 800),
    ("Llama 3.1 70B 上做 SFT，数据大概 2 万条，预算 5000 块", "LoRA 吧，每条大概 1500 token 左右", 20_000, 1500),
    ("用 3 万条数据 LoRA 微调 qwen2.5-7b", "每条平均 600 token", 30_000, 600),
])
def test_a_length_said_later_recounts_the_training_tokens(first, then, examples, each):
    _, reply = run_conversation([first, then])
    tokens = examples * each
    shown = f"{tokens / 1e6:g}M"
    assert shown in reply.content, reply.content
    assert f"{each:,}" in reply.content


def test_a_batch_job_s_output_length_said_later():
    _, reply = run_conversation(["evals with gpt-oss-120b over 50k prompts, need results in 12 hours. how many gpus",
                                 "its a reasoning model so outputs are more like 3k tokens each"])
    assert "1,000 tokens in, 3,000 out" in reply.content


# ---------------------------------------------------------------- jobs that repeat

REPEATS = {
    30.0: ["nightly", "every night", "daily", "every day", "once a day"],
    4.3: ["weekly", "every week", "once a week", "every friday"],
    1.0: ["monthly", "once a month", "every month"],
}
REPEATS_ZH = {30.0: ["每天晚上", "每晚", "每天"], 4.3: ["每周", "每个星期"], 1.0: ["每月", "每个月"]}


@pytest.mark.parametrize(("runs", "word"), [(r, w) for r, ws in REPEATS.items() for w in ws])
def test_a_repeating_batch_job_in_english(runs, word):
    u = understand(f"{word} we summarise 200k docs with llama 3.1 8b")
    assert (u.updates.get("phase"), u.updates.get("runs_per_month")) == ("batch", runs)


@pytest.mark.parametrize(("runs", "word"), [(r, w) for r, ws in REPEATS_ZH.items() for w in ws])
def test_a_repeating_job_in_chinese(runs, word):
    assert understand(f"{word}用qwen2.5-7b给10万篇文档生成摘要").updates.get("runs_per_month") == runs
    assert understand(f"{word}重新微调一次qwen2.5-7b，5万条数据").updates.get("runs_per_month") == runs


@pytest.mark.parametrize("text", ["serve llama 3 8b, 2000 requests per day", "deploy qwen2.5-7b for 50 users daily",
                                  "部署qwen2.5-7b，每天大概2000个请求"])
def test_serving_traffic_is_no_repeating_job(text):
    assert "runs_per_month" not in understand(text).updates


def test_a_nightly_job_prices_a_month_of_runs():
    reply, = run_conversation(["every night we label 3M reviews with qwen2.5-7b, 500 tokens in, 20 out, "
                               "must finish in 10 hours, only rtx 4090"])
    rb = next(line for line in reply.content.splitlines() if line.startswith("**Rent or buy:**"))
    # 22 months: the count meets the 10 hours at the slow end of the speed range too (session 29; was 18)
    assert "repeats about 30 times a month" in rb and "pays for in about 22 months" in rb
    assert "guessed" not in rb  # its use is its runs


def test_a_weekly_job_in_chinese_rents():
    reply, = run_conversation(["每周重新微调一次qwen2.5-7b，5万条数据，LoRA"])
    assert "每月重复约 4.3 次" in reply.content and "所以租" in reply.content


# ---------------------------------------------------------------- how many users the cards hold

CAPACITY_EN = ["how many users can it handle?", "how many people could this serve", "how many concurrent users can "
               "the cards support?", "what's the max number of users", "max concurrency?", "how far can it scale?",
               "how many more users could we take on this?"]
CAPACITY_ZH = ["那最多能撑多少人？", "最多能支持多少并发", "能扛多少个用户", "并发上限是多少", "最大并发多少",
               "最多能同时服务几个人", "能同时给多少人用"]


@pytest.mark.parametrize("text", CAPACITY_EN + CAPACITY_ZH)
def test_a_capacity_question_is_read(text):
    u = understand(text)
    assert "capacity" in u.intents and not u.updates


@pytest.mark.parametrize(("text", "precision"), [("那最多能撑多少人？用fp16", "fp16"), ("how many users can it handle in int4?", "int4")])
def test_a_format_said_with_it_is_the_count_s_format(text, precision):
    u = understand(text)
    assert "capacity" in u.intents and u.ask.get("precision") == precision


@pytest.mark.parametrize("text", ["serve llama 3 8b for 50 users, how many gpus?", "deploy qwen2.5-7b for 30 people"])
def test_a_sizing_request_with_users_is_no_capacity_question(text):
    assert "capacity" not in understand(text).intents


@pytest.mark.parametrize(("model", "gpu", "n", "precision"), [
    ("llama-3.1-70b", "h100-sxm", 2, "fp8"), ("qwen2.5-7b", "rtx-4090", 1, "fp8"), ("glm-4-9b", "l40s", 1, "bf16")])
def test_the_capacity_is_the_edge_of_what_fits(model, gpu, n, precision):
    """At the count found the plan holds; at one more a limit breaks (the same evaluation the plan ranks on)."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.capacity import _holds, capacity
    from gpu_advisor.tools.recommend import Workload, evaluate

    w = Workload(phase="serve", model=model, users=1, context=8192)
    c = capacity(w, gpu, n, precision=precision)
    assert c.users >= 1 and c.limit in ("memory", "speed", "latency")
    base = w.model_copy(update={"serve_precision": precision, "flexible": []})
    assert _holds(evaluate(base.model_copy(update={"users": c.users}), find_gpu(gpu), n), base) is None
    assert _holds(evaluate(base.model_copy(update={"users": c.users + 1}), find_gpu(gpu), n), base) == c.limit
    assert capacity(w, gpu, n * 2, precision=precision).users >= c.users  # more cards never hold fewer


def test_capacity_on_the_plan_in_english():
    *_, reply = run_conversation(["serve llama 3.1 70b for 20 users on h100s", "around the clock",
                                  "how many users can it handle?"])
    assert reply.content.startswith("**About 27 people generating at once** fit on 2 × NVIDIA H100 SXM 80GB (fp8")
    assert "What stops one more: memory." in reply.content


def test_capacity_on_owned_cards_before_a_plan_in_chinese():
    _, reply = run_conversation(["两张魔改的2080ti 22g，想用vllm跑glm-4-9b-chat，几个人同时用没问题", "那最多能撑多少人？用fp16"])
    assert reply.content.startswith("**大约 60 人同时生成**：2 × NVIDIA GeForce RTX 2080 Ti 22GB（fp16")
    assert "大概会有多少人同时和它对话？" in reply.content  # the question still open is asked again


# ---------------------------------------------------------------- counts of prompts, totals of output

@pytest.mark.parametrize(("count", "value"), [("100k", 100_000), ("50k", 50_000), ("200k", 200_000)])
@pytest.mark.parametrize("noun", ["prompts", "requests", "queries"])
def test_a_large_k_count_of_prompts_is_a_count(count, value, noun):
    u = understand(f"batch job, {count} {noun}, ~500 tokens out each")
    assert (u.updates.get("batch_items"), u.updates.get("batch_output_tokens")) == (value, 500)


def test_a_short_k_prompt_at_a_latency_target_is_its_length():
    assert understand("ttft under 300 ms at 2k prompts for 20 users").updates["prompt_tokens"] == 2000


@pytest.mark.parametrize(("said", "total"), [("~50M output tokens", 50e6), ("about 20 million output tokens", 20e6),
                                             ("5M tokens of output", 5e6)])
def test_a_total_of_output_tokens_is_the_job_s(said, total):
    u = understand(f"generating synthetic data w llama 3.3 70b, {said}, prompts ~300 tok each")
    each = u.updates["batch_output_tokens"]
    assert u.updates["phase"] == "batch" and each < 1e6
    assert u.updates["batch_items"] * each == pytest.approx(total, rel=0.01)
    assert u.updates["batch_input_tokens"] == 300
    assert [code for code, _ in u.notes] == ["note.output_total"]


def test_a_total_shared_by_the_items_said():
    u = understand("batch job over 100k docs with qwen2.5-7b, 50M output tokens in all")
    assert (u.updates["batch_items"], u.updates["batch_output_tokens"]) == (100_000, 500)


@pytest.mark.parametrize("text", [
    "got a 3060 12gb, whats the biggest model i can run", "what's the largest model my 4090 can fit?",
    "how big a model can I run on a 4060 ti 16gb", "我有一张4060ti 16g，最大能跑多大的模型", "3090能跑多大的模型",
    "我的4090可以跑多大模型"])
def test_the_biggest_model_on_a_card_is_the_models_that_run_there(text):
    assert "weigh" in understand(text).intents


@pytest.mark.parametrize("text", ["推理显存怎么算？KV cache占多少，Qwen2.5-14B，32k，10并发，bf16",
                                  "how much memory does the kv cache take for qwen2.5 14b at 32k with 10 users in bf16?"])
def test_a_kv_cache_question_shows_its_formula_and_the_total(text):
    reply, = run_conversation([text])
    for figure in ("48", "8", "128", "192 KiB", "64.4 GB", "29.4 GB", "93.8 GB"):
        assert figure in reply.content, figure


# ---------------------------------------------------------------- a card turned down by a judgement after it

JUDGEMENTS_EN = ["feel sketchy for prod", "seem too risky", "are a no-go", "won't cut it", "are out", "look unreliable"]
JUDGEMENTS_ZH = ["不靠谱", "不太行", "不放心", "不考虑", "太慢"]


@pytest.mark.parametrize("judgement", JUDGEMENTS_EN)
@pytest.mark.parametrize(("card", "gpu_id"), [("3090s", "rtx-3090"), ("4090s", "rtx-4090"), ("l4s", "l4")])
def test_a_card_judged_after_it_is_ruled_out(judgement, card, gpu_id):
    u = understand(f"{card} {judgement} tbh. what about h100 or l40s?")
    assert u.updates.get("exclude") == [gpu_id]
    assert gpu_id not in u.compare_gpus and gpu_id not in u.cards


@pytest.mark.parametrize("judgement", JUDGEMENTS_ZH)
def test_a_card_judged_after_it_is_ruled_out_in_chinese(judgement):
    u = understand(f"4090{judgement}，H100或者L40S呢")
    assert u.updates.get("exclude") == ["rtx-4090"] and u.compare_gpus == ["h100-sxm", "l40s"]


@pytest.mark.parametrize("text", ["the 3090 is fine for us, what about 4090 vs 3090", "3090s are great, compare with 4090"])
def test_a_card_praised_stays(text):
    assert "exclude" not in understand(text).updates


# ---------------------------------------------------------------- an RL job told over several turns

@pytest.mark.parametrize(("text", "samples", "completion"), [
    ("全参，verl，每个prompt采样8条，回答2k", 8, 2048), ("每条采样16个，回答长度1k", 16, 1024),  # a token length's k is 1,024
    ("group size 8, responses 2k", 8, 2048), ("num_generations=4, completions up to 1.5k tokens", 4, 1536)])
def test_a_group_and_its_length_said_without_naming_rl(text, samples, completion):
    u = understand(text)
    assert (u.updates.get("rl_samples"), u.updates.get("rl_completion_tokens")) == (samples, completion)
    assert "train_examples" not in u.updates and "train_tokens" not in u.updates


def test_a_loose_response_length_in_a_serving_message_is_no_rl_length():
    assert "rl_completion_tokens" not in understand("serve llama 3 8b, responses about 2k tokens").updates


def test_math_reasoning_is_no_inference_job():
    u = understand("实验室4张A100 40G，想用GRPO训Qwen2.5-7B做数学推理")
    assert u.updates["phase"] == "fine-tune" and u.updates["objective"] == "rl"


def test_an_rl_job_told_over_three_turns():
    *_, reply = run_conversation(["实验室4张A100 40G，想用GRPO训Qwen2.5-7B做数学推理", "全参，verl，每个prompt采样8条，回答2k",
                                  "不用部署，就是训练。数据7500条，2个epoch"])
    text = reply.content
    # verl is a framework on record now (frameworks.yaml), said back with the rest
    assert "7,500 个提示词；每个提示词采样 8 个回答；每个回答 2,048 token；使用 verl；2 轮" in text  # '2k': 2,048
    assert "用于推理服务" not in text and "估算这 7,500" not in text  # a training job (a note may name serving as another use)


@pytest.mark.parametrize("text", ["but my question was h100 vs h200", "my question is h100 or h200?", "我的问题是h100和h200哪个好",
                                  "our real question was: h100 vs h200"])
def test_cards_a_question_is_about_are_not_owned(text):
    u = understand(text)
    assert "owned" not in u.updates and "compare_cards" in u.intents


def test_the_last_answer_and_a_comparison_size_both_beside_the_plan():
    # the load answered, the comparison comes with the plan at once: how busy the cards are changes neither card
    *_, reply = run_conversation(["whats the difference between h100 and h200 for serving llama 70b, is the extra "
                                  "memory worth it", "20-50 ppl. fp8 is fine"])
    rows = [line for line in reply.content.splitlines() if line.startswith("| ")]
    assert any("H100" in r and "| yes |" in r for r in rows) and any("H200" in r and "| yes |" in r for r in rows)
    assert "you own" not in reply.content and "How busy" not in reply.content


@pytest.mark.parametrize("text", ["h100 vs h200 vs b200 for serving deepseek v3 - minimum number of each?",
                                  "deepseek v3 on h100 or h200, fewest gpus?", "deepseek v3 用H20和910B各要几张？",
                                  "部署deepseek v3，H200最少要几张"])
def test_the_fewest_of_each_card_is_asked_and_answered_at_once(text):
    u = understand(text)
    assert {"fit_check", "min_count"} <= u.intents and u.updates["only"] and "x " not in " ".join(u.updates["only"])


def test_the_fewest_of_each_card_for_deepseek_v3():
    reply, = run_conversation(["h100 vs h200 vs b200 for serving deepseek v3 - minimum number of each?"])
    rows = {line.split("|")[1].strip() for line in reply.content.splitlines() if line.startswith("| ") and "yes" in line}
    assert {"8 × NVIDIA H200 SXM 141GB", "16 × NVIDIA H100 SXM 80GB (TP8×PP2)", "4 × NVIDIA B200 180GB (HGX)"} <= rows
    assert "How many people" not in reply.content


@pytest.mark.parametrize("text", ["晚上也要在线的", "夜里也得能用", "周末也要在线", "24小时在线", "晚上也要跑着"])
def test_online_at_night_is_around_the_clock(text):
    assert understand(f"部署qwen2.5-32b，{text}").updates.get("utilisation") == 1.0


@pytest.mark.parametrize("text", ["A800 好租吗", "H20好不好租", "4090好买吗", "L20难租吗"])
def test_is_it_easy_to_rent_is_an_availability_question(text):
    assert "availability" in understand(text).intents


@pytest.mark.parametrize(("text", "hours"), [("两天能跑完不", 48.0), ("三天之内能训完吗", 72.0), ("5个小时能不能跑完", 5.0),
                                             ("一周内可以做完吗", 168.0)])
def test_can_it_finish_in_n_days_is_the_deadline(text, hours):
    assert understand(f"有200万条评论要用qwen2.5-7b打标签，{text}").updates.get("deadline_hours") == hours


# ---------------------------------------------------------------- review round J

@pytest.mark.parametrize("text", ["buy a 4090 or rent for finetuning llama 3.1 8b?", "150k budget, buy 8x H100 vs rent, fine-tune 70b",
                                  "should we purchase the servers or just rent?"])
def test_buy_or_rent_asked_is_no_preference(text):
    u = understand(text)
    assert "rent_buy" in u.intents and "preference" not in u.updates


def test_a_bare_power_price_per_kwh():
    assert understand("buy a 4090 or rent? 10 h/week, 0.30/kWh").updates["electricity_usd_per_kwh"] == 0.3


def test_in_production_with_a_rate_is_serving():
    u = understand("llama 3.1 405b in production, p95 ttft 3s, 5 rps, contexts up to 32k. how many 8xh100 nodes")
    assert u.updates["phase"] == "serve"


@pytest.mark.parametrize("pending", [None, "utilisation", "users"])
def test_prompt_and_answer_lengths_at_any_question(pending):
    u = understand("avg prompt 2k, answers ~400", pending)
    assert u.updates.get("prompt_tokens") == 2000 and 400 in (u.updates.get("batch_output_tokens"), u.updates.get("output_tokens"))
    assert "utilisation" not in u.updates and not u.problems


def test_answer_lengths_said_later_are_the_service_s_output():
    *_, reply = run_conversation(["rent vs buy deepseek v3, 20 rps, launch in 6 wks, budget 40k/month",
                                  "avg prompt 2k, answers ~400"])
    assert "2,000 tokens in and 400 out" in reply.content and "must be between" not in reply.content


@pytest.mark.parametrize("text", ["whats that per month roughly", "how much is that a month", "what would it cost per year"])
def test_a_period_cost_asked_is_the_total_cost(text):
    assert "total_cost" in understand(text).intents


def test_n_of_them_had_is_a_count_of_the_card_just_named():
    assert understand("and if we had 2 of them").card_count == 2


@pytest.mark.parametrize(("text", "start"), [
    ("Qwen3-30B-A3B 4张4090 能支持多少并发", "**大约 68 人同时生成**：4 × NVIDIA GeForce RTX 4090 24GB"),
    ("can gpt-oss-120b run on a single h100? how many users", "**About 29 people generating at once** fit on 1 × NVIDIA H100 SXM 80GB")])
def test_capacity_asked_with_the_model_and_cards_in_one_message(text, start):
    reply, = run_conversation([text])
    assert start in reply.content and "How many people" not in reply.content and "大概会有多少人" not in reply.content


def test_how_many_users_is_no_production_phase():
    assert understand("can gpt-oss-120b run on a single h100? how many users").updates.get("phase") == "serve"


def test_models_weighed_on_one_card_said_stay_on_one_card():
    reply, = run_conversation(["mistral small 3 24b vs gemma 3 27b for serving on one L4?"])
    assert "2 × NVIDIA L4" not in reply.content
    # sized at the usual load (5 at once, said in the reply): the models weighed on the card asked
    assert "Mistral Small 3 24B (2501), INT4**: 20.3 GB of 23.9 GB per GPU on NVIDIA L4 24GB: fits" in reply.content


@pytest.mark.parametrize(("text", "value"), [("那上下文想要32k呢", 32768), ("上下文开到128k", 131072), ("上下文需要16k", 16384),
                                             ("上下文改成8k吧", 8192)])
def test_a_context_wanted_in_chinese(text, value):
    assert understand(text).updates.get("context") == value


def test_running_an_eval_set_is_a_batch_job():
    u = understand("周末跑完评测，DeepSeek-R1满血版，3000题×8k输出，8卡H100能跑完吗，多少小时")
    assert (u.updates["phase"], u.updates["batch_items"], u.updates["batch_output_tokens"]) == ("batch", 3000, 8000)
    assert "quality" not in u.intents


@pytest.mark.parametrize("text", ["qwen2.5-72b的评测怎么样", "这个模型跑分结果如何"])
def test_how_a_model_scores_is_still_a_quality_question(text):
    assert "quality" in understand(text).intents


def test_will_this_card_do_in_a_request_naming_its_model_keeps_the_service():
    u = understand("国企，要求国产化，GLM-4-9B，昇腾910B行不行，并发50，首字500ms")
    assert u.updates.get("phase") == "serve" and u.updates.get("users") == 50


@pytest.mark.parametrize(("text", "method"), [("LoRA吧，全参太贵了", "lora"), ("lora i guess, full is too expensive", "lora"),
                                              ("qlora, lora is overkill", "qlora"), ("全参微调", "full"),
                                              ("full fine-tune is fine", "full")])
def test_a_method_judged_after_it_is_not_chosen(text, method):
    assert understand(text).updates.get("method") == method


@pytest.mark.parametrize(("text", "methods"), [
    ("LoRA和QLoRA到底差在哪，显存能省多少？拿llama3.1 8b举个例子", ["lora", "qlora"]),
    ("lora vs full fine-tune, how much memory for qwen2.5 7b?", ["lora", "full"]),
    ("qlora or lora for llama 3 8b?", ["qlora", "lora"]), ("qwen2.5-7b全参和LoRA区别大吗", ["full", "lora"])])
def test_two_methods_compared(text, methods):
    u = understand(text)
    assert "method_compare" in u.intents and u.ask["methods"] == methods and "phase" not in u.updates


def test_two_methods_compared_on_the_example_model():
    reply, = run_conversation(["LoRA和QLoRA到底差在哪，显存能省多少？拿llama3.1 8b举个例子"])
    assert "**LoRA**：22.3 GB" in reply.content and "**QLoRA**：11.1 GB" in reply.content and "12 GB 的卡放得下" in reply.content


@pytest.mark.parametrize(("text", "hours"), [("两周后ddl", 336.0), ("ddl是两周后", 336.0), ("3天后要结果", 72.0),
                                             ("两周后交付", 336.0), ("截止时间是5天后", 120.0)])
def test_a_deadline_said_as_after_n_days(text, hours):
    assert understand(f"LoRA微调qwen2.5-14b，3万条，{text}").updates.get("deadline_hours") == hours


@pytest.mark.parametrize("text", ["lora vs qlora?", "LoRA和QLoRA有什么区别"])
def test_two_methods_with_no_model_are_the_concept(text):
    assert "method_compare" not in understand(text).intents
