"""Questions about a plan once it is on screen: "can we do it on what we have?", "what's the total cost?",
"or should I just rent?", in either language. The phrasings are generated (opening, wording, ending); a
few go through the whole graph and are checked on the answer's numbers."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
OPENINGS = {"en": ["", "ok so ", "hmm, ", "and "], "zh": ["", "那", "请问", "好的，"]}
ENDINGS = {"en": ["?", "", " ?", "??"], "zh": ["？", "", "?", "呢"]}
OWN_ENOUGH = {
    "en": ["can we do it on what we have", "can I run it with what I already have", "can we do this with what we own",
           "is what we have enough", "are our cards enough", "is my rig enough", "will our servers be enough",
           "will my gpus cut it", "will our cluster do", "are the cards we have enough"],
    "zh": ["用现有的卡够吗", "现有的够不够", "手上的显卡够用吗", "靠手头的机器能行吗", "已有的服务器够", "我们现有的资源可以吗"],
}
TOTAL_COST = {
    "en": ["what's the total cost", "whats the total cost", "what is the overall cost", "what would be the total bill",
           "how much will it cost us", "how much does the whole thing cost", "how much would this cost per month",
           "how much in total", "what's the damage"],
    "zh": ["总共多少钱", "一共要花多少钱", "总成本是多少", "加起来多少钱", "总费用大概多少", "整体要多少钱"],
}
JUST_RENT = {
    "en": ["or should i just rent", "should we rather rent", "should I simply buy", "should we still buy"],
    "zh": ["要不要直接租", "还是干脆买吧", "该不该租", "是不是该买"],
}


def _phrasings(table: dict[str, list[str]], lang: str) -> list[str]:
    return [o + w + e for o, w, e in itertools.product(OPENINGS[lang], table[lang], ENDINGS[lang])]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("table", "intent"), [(OWN_ENOUGH, "own_enough"), (TOTAL_COST, "total_cost"),
                                              (JUST_RENT, "rent_buy")])
def test_each_phrasing_is_read_as_its_question_and_changes_nothing(table, intent, lang):
    said = _phrasings(table, lang)
    assert len(said) >= 64
    for text in said:
        for pending in (None, "utilisation"):
            u = understand(text, pending)
            assert intent in u.intents, (text, pending, u.intents)
            kept = {k: v for k, v in u.updates.items() if k not in ("preference", "has_host")}
            assert not kept, (text, pending, u.updates)


@pytest.mark.parametrize("text", ["we have 4 A6000s, can we lora fine-tune llama 3.1 8b",
                                  "how much does an h100 cost to rent", "我们现有4张A100，想部署qwen2.5 72b",
                                  "should we buy a b200", "what does the total memory come to"])
def test_a_plan_stated_is_not_one_of_these_questions(text):
    u = understand(text, None)
    assert not u.intents & {"own_enough", "total_cost"}, (text, u.intents)


LAB = "we have 4 A6000s in the lab. we want to lora fine-tune llama 3.1 70b on 50M tokens"


def test_can_we_do_it_on_what_we_have_answers_yes_with_the_fit():
    replies = run_conversation([LAB, "can we do it on what we have?", "现有的卡够吗"])
    first = payload(replies[0])["results"]["recommend"]["best"]
    assert first["owned"] and first["gpu"] == "rtx-a6000"
    yes = replies[1].content
    assert yes.startswith("Yes: your 4 × NVIDIA RTX A6000 48GB do it (")
    assert f"{first['train_per_gpu_bytes'] / 1e9:,.1f} of 51.0 GB per GPU" in yes
    assert f"about {first['job_hours']:,.1f} h a run" in yes
    assert payload(replies[1])["topic"] == "own_enough"
    assert replies[2].content.startswith("可以：你的 4 × NVIDIA RTX A6000 48GB 就能做（")


def test_owned_cards_that_fall_short_say_why_and_name_the_plan_instead():
    replies = run_conversation(["我们有两张3090，想部署qwen2.5 72b给20个人用", "用现有的卡够吗"])
    best = payload(replies[0])["results"]["recommend"]["best"]
    assert not best["owned"]
    text = replies[1].content
    assert text.startswith("按这个方案不行：你的 2 × NVIDIA GeForce RTX 3090 24GB 不够（")
    assert f"上面的方案改用 {best['gpus']} × {best['gpu_name']}。" in text
    assert not re.search(r"[A-Za-z]{4,} [a-z]{4,}", re.sub(r"NVIDIA [\w ]+?\d+GB|[A-Z][\w.]+", "", text))


def test_no_cards_named_asks_which_they_are():
    replies = run_conversation(["serve llama 3.1 8b to 10 users around the clock", "is what we have enough?"])
    assert replies[1].content.startswith("You have not told me which cards you have")


def test_total_cost_of_a_rented_serving_plan_is_its_hourly_and_monthly_rent():
    replies = run_conversation(["serve llama 3.1 70b to 50 users, 8k context, around the clock",
                                "what's the total cost?"])
    best = payload(replies[0])["results"]["recommend"]["best"]
    assert not best["owned"] and best["usd_per_hour"]
    text = replies[1].content
    assert f"rents for ${best['usd_per_hour']:,.2f} an hour" in text
    assert f"about ${best['usd_per_month']:,.0f} a month at 100% use" in text
    assert text.endswith("Not counted: storage, data transfer, and the engineers’ time.")
    assert payload(replies[1])["topic"] == "total_cost"


def test_total_cost_asked_before_the_plan_waits_for_it():
    replies = run_conversation(["serve llama 3.1 70b to 50 users, 8k context", "what's the total cost?"])
    assert replies[1].content.startswith("I'll answer that once there is a plan: first this.")
    assert "How busy will the GPUs be?" in replies[1].content


def test_own_cards_against_renting_in_chinese_names_the_cheapest_rented_option():
    replies = run_conversation(["我们有两张4090，想给10人团队部署qwen2.5 32b", "要不要直接租？"])
    rec = payload(replies[0])["results"]["recommend"]
    assert rec["best"]["owned"]
    text = replies[1].content
    assert text.startswith("继续用你自己的 2 × NVIDIA GeForce RTX 4090 24GB 就行")
    rented = sorted((o for o in rec["options"] if not o["owned"] and o["ok"] and not o["avoid"]
                     and o["usd_per_month"] is not None), key=lambda o: (o["usd_per_month"], o["gpus"], o["gpu"]))
    assert f"最便宜方案 {rented[0]['gpus']} × {rented[0]['gpu_name']}" in text
    assert CJK.search(replies[0].content.splitlines()[0])


@pytest.mark.parametrize(("turns", "engine", "because"), [
    (["should we use vllm or sglang or tensorrt-llm to serve qwen2.5 32b on our 2 h100s?", "about 40"],
     "vllm", "default"),
    (["用vllm还是sglang部署deepseek v3好？我们有8张H200", "50人"], "sglang", "mla_moe"),
    (["ollama or vllm for running qwen3 8b on my 4090, just me"], "llama.cpp", "one_person"),
    (["mac studio m2 ultra 192g 能跑deepseek r1 671b吗", "用ollama还是mlx好"], "llama.cpp", "gguf_only"),
    (["i have a mac studio m2 ultra 192gb, want to run llama 3.3 70b just for me", "ollama or mlx?"], "mlx", "mac"),
])
def test_an_engine_question_ends_in_a_pick_with_its_reason(turns, engine, because):
    replies = run_conversation(turns)
    last = payload(replies[-1])
    data = last["also"][0] if last["kind"] == "answer" else last["results"]
    assert data["pick"] == {"engine": engine, "because": because}
    assert ("**这里我推荐 " if CJK.search(turns[0]) else "**My pick here: ") in replies[-1].content


ONE_SERVER = {
    "en": ["what if we only had one server", "with just one box", "and on a single node", "what about 1 machine",
           "if we only have one node", "only one server"],
    "zh": ["如果只有一台", "只用一台的话", "一台够吗", "要是只有1台", "如果只有一台服务器", "只给一个节点"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fewer_servers_asked_about_is_a_count_of_servers_not_cards(lang):
    for text in _phrasings(ONE_SERVER, lang):
        u = understand(text, None)
        notes = dict(u.notes)
        assert notes.get("note.servers_without_cards") == {"servers": "1"}, (text, u.notes, u.updates)
        assert "owned" not in u.updates and "only" not in u.updates, (text, u.updates)


@pytest.mark.parametrize(("first", "then"), [
    ("we have two 8xH100 servers and want to serve deepseek v3 to 100 users", "what if we only had one server?"),
    ("我们有两台8卡H100服务器，想部署deepseek v3给100人用", "如果只有一台呢"),
])
def test_one_server_of_the_two_you_own_replans_on_its_eight_cards(first, then):
    replies = run_conversation([first, then])
    assert payload(replies[0])["results"]["recommend"]["best"]["gpus"] == 16
    second = payload(replies[1])
    assert second["profile"]["owned"] == ["8x h100-sxm"]
    best = second["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] == 8 and best["ok"]


HOW_LONG = {"en": ["how long will it take", "how long will the training take", "how many hours will the run take",
                   "how long is it going to take", "how long to finish", "how long"],
            "zh": ["大概要多久", "训练要多长时间", "要跑多久", "几个小时能跑完", "需要多久才能完成", "多久能训完"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_how_long_is_read_in_every_phrasing(lang):
    for text in _phrasings(HOW_LONG, lang):
        u = understand(text, None)
        assert "how_long" in u.intents, (text, u.intents)
        assert not set(u.updates) - {"phase", "method"}, (text, u.updates)
    assert "how_long" not in understand("how long is the context", None).intents


@pytest.mark.parametrize(("turns", "start"), [
    (["i have a 3080 10gb and want to qlora llama 3.2 3b on my discord chats, 20M tokens", "how long will it take"],
     "About {h} h a run on 1 × NVIDIA GeForce RTX 3080 10GB."),
    (["我们有两台8卡A800 80G IB互联 全参微调qwen2.5 32b 五万条 每条2k token 训3个epoch", "大概要多久"],
     "在 16 × NVIDIA A800 SXM4 80GB 上每次约 {h} 小时。"),
])
def test_how_long_answers_with_the_plans_hours(turns, start):
    first, second = run_conversation(turns)
    best = payload(first)["results"]["recommend"]["best"]
    assert second.content == start.format(h=f"{best['job_hours']:,.1f}")
    assert payload(second)["topic"] == "how_long"


def test_how_long_for_a_service_is_the_wait_and_the_pace():
    first, second = run_conversation(["serve llama 3.1 8b to 20 users around the clock", "how long?"])
    best = payload(first)["results"]["recommend"]["best"]
    assert f"{best['decode_tokens_per_s']:,.0f} tokens/s" in second.content
    assert second.content.startswith(f"On {best['gpus']} × {best['gpu_name']}, each person waits about ")


@pytest.mark.parametrize(("turns", "text"), [
    (["初创公司 预算每月三万 客服机器人 glm4 9b 高峰同时二十个人 全天", "如果只有一台服务器呢"], "一台服务器就放得下"),
    (["serve deepseek v3 to 100 users around the clock on h100s", "if we only had the one server, is it enough?"],
     "fits in one server"),
])
def test_one_server_asked_about_a_rented_plan_is_answered_from_it(turns, text):
    _first, second = run_conversation(turns)
    assert payload(second)["topic"] == "servers"
    assert payload(second)["results"]["servers_asked"] == 1
    assert text in second.content


def test_one_server_typed_at_the_users_question_is_no_user_count():
    u = understand("what if we only had one server", "users")
    assert "users" not in u.updates and dict(u.notes)["note.servers_without_cards"] == {"servers": "1"}


WHY = {"en": ["why?", "why so many gpus", "why that many cards?", "how come it needs 3 servers"],
       "zh": ["为什么要这么多卡", "为啥要三台", "为什么？"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_is_read_as_a_why_and_the_math_stays_its_own_ask(lang):
    for text in WHY[lang]:
        assert "why" in understand(text, None).intents, text
    assert "why" not in understand("why not an H100?", None).intents


def test_why_answers_in_plain_words_from_the_plans_figures():
    first, why, math = run_conversation(["银行内部部署deepseek v3满血版 首token小于1秒 可用性99.9% 并发两百",
                                         "为什么要这么多卡", "展示计算过程"])
    results = payload(first)["results"]
    serving, best = results["serving_memory"], results["recommend"]["best"]
    assert payload(why)["topic"] == "why"
    assert why.content.startswith(f"DeepSeek-V3 的权重按 fp8 共 {serving['weights_bytes'] / 1e9:,.1f} GB")
    assert f"所以模型和缓存要 {best['servers']} 台服务器" in why.content
    assert not re.search(r"[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}", why.content)  # no English sentence in it
    assert payload(math)["topic"] == "math"


def test_a_gguf_size_said_in_chinese_is_stated_and_a_mac_short_of_it_says_so():
    reply, = run_conversation(["mac studio m2 ultra 192g 能跑deepseek r1 671b吗 量化到q4 速度"])
    data = payload(reply)
    assert data["profile"]["precision"] == "q4_k_m" and "precision" not in data["assumptions"]
    rec = data["results"]["recommend"]
    assert "precision" not in rec["workload"]["flexible"] and rec["relaxed"] is None
    assert "无法按计划完成" in reply.content and "差一点" not in reply.content


@pytest.mark.parametrize(("text", "gpu"), [("昇腾910B要几台服务器", "ascend-910b"), ("910B要几张", "ascend-910b"),
                                          ("how many h100s would i need", "h100-sxm"), ("H20要多少张", "h20"),
                                          ("and how many a100s?", "a100-80gb-sxm")])
def test_how_many_of_one_card_asked_after_a_plan_limits_it_to_that_card(text, gpu):
    assert understand(text, None).updates.get("only") == [gpu], text


def test_how_many_910b_servers_replans_on_910b_only():
    *_, last = run_conversation(["国企 要求信创 只能用国产卡 qwen2.5 72b 两千人 同时在线一百人", "工作时间", "昇腾910B要几台服务器"])
    best = payload(last)["results"]["recommend"]["best"]
    assert best["gpu"] == "ascend-910b" and best["gpus"] == 8


def test_why_for_a_training_plan_gives_the_per_gpu_parts_that_add_up():
    first, why = run_conversation(["full fine-tune llama 3.1 70b on 200M tokens within 2 days", "why?"])
    tm = payload(first)["results"]["training_memory"]
    parts = [tm[k] for k in ("weights_bytes", "gradient_bytes", "optimizer_bytes", "activation_bytes")]
    assert sum(parts) <= tm["per_gpu_total_bytes"] <= sum(parts) + tm["overhead_bytes"] + 1
    for part in parts:
        assert f"{part / 1e9:,.1f} GB" in why.content
    assert "against your 48.0 h deadline" in why.content


def test_servers_asked_with_an_availability_target_count_the_spare():
    _first, one, count = run_conversation(["serve llama 3.3 70b, p95 TTFT under 500ms, 99.9% uptime, ~300 concurrent, 8k",
                                           "and if we can only get one server?", "how many servers is that?"])
    assert "But without a spare server it cannot promise 99.9% availability" in one.content
    assert "(N+1): 2 servers in all." in count.content and payload(count)["results"]["servers_used"] == 1
    _a, _b, zh = run_conversation(["国企 必须国产化信创 要部署qwen2.5 72b 两千人 同时在线五十 用昇腾", "全天候", "要几台服务器"])
    assert zh.content.startswith("一台服务器：方案是 ")


def test_roce_over_ethernet_is_the_fast_fabric():
    u = understand("两台8卡H800服务器，中间是200G RoCE以太网", None)
    assert u.updates["network"] == "fast" and u.updates["network_gbit"] == 200.0


@pytest.mark.parametrize(("text", "months", "spare"), [
    ("whats the total per month including the spare", None, True), ("if we rent instead whats the total for three months", 3, False),
    ("三个月总共多少钱", 3, False), ("含备用一共多少", None, True), ("一年下来总共多少钱", 12, False),
    ("how much per month in total, including the N+1 spare", None, True)])
def test_a_total_asked_over_months_or_with_the_spare_is_read(text, months, spare):
    u = understand(text, None)
    assert "total_cost" in u.intents and (u.span_months, u.with_spare) == (months, spare), (text, u.span_months)


def test_the_total_counts_the_spare_copy_and_the_months():
    first, _total, three = run_conversation(["serve llama 3.3 70b, p95 TTFT under 500ms, 99.9% uptime, ~300 concurrent, 8k",
                                             "whats the total per month including the spare", "and the total for three months?"])
    best = payload(first)["results"]["recommend"]["best"]
    month = best["usd_per_month"] * (1 + 1 / best["replicas"])
    assert f"Over 3 months: about ${month * 3:,.0f}." in three.content


@pytest.mark.parametrize(("text", "pending"), [("要是买h20呢 一张八万", "users"),
                                              ("what if we buy 2 rtx pro 6000 blackwell at 8500 each instead",
                                               "utilisation"),
                                              ("or rent an h100 at 2.5 an hour, 4000 a month", "users")])
def test_a_card_price_typed_at_an_open_question_is_no_answer_to_it(text, pending):
    u = understand(text, pending)
    assert pending not in u.updates and not u.problems, (text, u.updates, u.problems)


@pytest.mark.parametrize("text", ["how many tokens per sec would i get?", "how fast will it be", "速度大概多少",
                                  "每秒能出多少token"])
def test_the_pace_asked_about_the_plan_is_a_how_long_question(text):
    assert "how_long" in understand(text, None).intents, text


def test_a_memory_size_beside_better_is_no_quality_question():
    u = understand("how many tokens per sec would i get? and would a 128gb one be way better", None)
    assert "quality" not in u.intents


@pytest.mark.parametrize("text", ["每个用户每秒出字不低于30个token", "每个用户每秒不低于30个token", "每秒出字30个token",
                                  "每个用户每秒至少30个token"])
def test_a_per_user_speed_floor_in_chinese(text):
    assert understand(text, None).updates.get("min_tokens_per_s") == 30.0, text


def test_the_cheapest_way_names_a_cheaper_option_that_also_meets_everything():
    first, cheap = run_conversation(["五十万条评论要用glm4 9b打标签 每条输入一千token 输出一百token 三天内 最便宜的方案",
                                     "最便宜的方案是哪个"])
    rec = payload(first)["results"]["recommend"]
    ok = [o for o in rec["options"] if o["ok"] and not o["avoid"] and o["job_usd"] is not None]
    cheapest = min(ok, key=lambda o: o["job_usd"])
    data = payload(cheap)
    assert data["topic"] == "cheapest"
    if cheapest["job_usd"] < rec["best"]["job_usd"] * 0.999:
        assert data["results"]["cheapest"]["gpu"] == cheapest["gpu"]
        assert cheap.content.startswith(f"满足你所有要求里最便宜的是 {cheapest['gpus']} × {cheapest['gpu_name']}")
    else:
        assert cheap.content.startswith("上面的方案已经是满足你所有要求里最便宜的")
    _a, en = run_conversation(["ten thousand legal docs with llama 3.1 70b, 4000 tokens in 500 out, by friday, "
                               "today is tuesday", "whats the cheapest way to hit that deadline"])
    assert payload(en)["topic"] == "cheapest"


def test_an_ollama_user_at_home_keeps_their_card_job_and_gguf_file_through_how_often():
    first, second = run_conversation(["一张4090 24g 想本地跑gemma 3 27b聊天 用ollama", "偶尔玩玩 每周几小时"])
    for reply in (first, second):
        data = payload(reply)
        assert data["profile"]["owned"] == ["1x rtx-4090"] and data["profile"]["phase"] == "serve"
        assert "GGUF Q4_K_M（llama.cpp 和 ollama 用户最常用的文件）" in reply.content
        assert "推理用 8-bit 权重" not in reply.content
    assert payload(second)["profile"]["utilisation"] == 0.05


def test_why_says_the_same_per_gpu_memory_as_the_plan():
    first, _b, why = run_conversation(["只能用国产卡，deepseek r1满血版671b，int8，上下文32k，并发20", "全天候", "为什么要这么多卡"])
    per_gpu = payload(first if payload(first)["kind"] == "answer" else _b)["results"]["recommend"]["best"]["serve_per_gpu_bytes"]
    assert f"每张占用 {per_gpu / 1e9:,.1f} GB" in why.content or f"每张要 {per_gpu / 1e9:,.1f} GB" in why.content


def test_a_change_and_a_question_about_the_plan_in_one_message_replan_then_answer():
    _first, second = run_conversation(["serve llama 3.3 70b, p95 TTFT under 500ms, 99.9% uptime, ~300 concurrent, 8k",
                                       "we'd rather stay on nvidia. whats the total per month including the spare"])
    data = payload(second)
    best = data["results"]["recommend"]["best"]
    assert data["kind"] == "answer" and best["gpu"].startswith(("h100", "h200", "b200", "a100", "l40s", "h20"))
    month = best["usd_per_month"] * (1 + 1 / best["replicas"])
    assert f"With the spare copy for failover (N+1), ${best['usd_per_month'] / best['replicas']:,.0f} more: " \
           f"${month:,.0f} a month." in second.content


@pytest.mark.parametrize("text", ["llama3 8b开128k上下文大概要多少显存", "how much vram do i need for qwen2.5 32b at 32k context",
                                  "qwen2.5 14b需要多少显存"])
def test_how_much_memory_a_model_needs_is_answered_at_once(text):
    reply, = run_conversation([text])
    data = payload(reply)
    assert data["kind"] == "answer", reply.content
    assert data["results"]["recommend"]["best"]["serve_per_gpu_bytes"] > 0


def test_two_sites_double_the_servers_and_owned_cards_asked_about_stay_all_of_them():
    *_, sites = run_conversation(["银行 两千员工 qwen3-32b 32k 首字一秒内 99.95% 私有化", "容灾的话需要几台 两个机房"])
    used = payload(sites)["results"]["servers_used"]
    assert f"每个站点 {used} 台，一共 {2 * used} 台" in sites.content
    u = understand("how many extra replicas for n+1 redundancy across two AZs", None)
    assert "note.two_sites" in dict(u.notes)
    *_, h20 = run_conversation(["我们有两台8卡H20 想部署qwen3-235b-a22b 用vllm sglang还是lmdeploy", "全天候",
                                "fp8能跑吗 h20支持吗"])
    best = payload(h20)["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] == 16


@pytest.mark.parametrize(("turns", "model"), [
    (["got a 3080 10gb, wanna run gemma 3 12b, will it fit?", "what about qwen3 14b at q4",
      "could i do a small lora finetune of the gemma one on this card"], "Gemma 3 12B"),
    (["is qwen3 235b actually better than llama 3.3 70b for code?",
      "how many gpus would the qwen one need for 50 concurrent users at 32k"], "Qwen3 235B-A22B"),
])
def test_the_family_one_is_the_model_of_that_family_said_earlier(turns, model):
    *_, last = run_conversation(turns)
    # (the "What moved" line names the model before, by design: the rest of the reply is about the family one)
    text = "\n".join(line for line in last.content.splitlines() if not line.startswith("**What moved**"))
    assert model in text and "Llama 3.3 70B" not in text and "Qwen3 14B" not in text
    assert "Which Gemma do you mean" not in text and "Which Qwen do you mean" not in text
