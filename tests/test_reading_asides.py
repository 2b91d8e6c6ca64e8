"""What a sizing request says beside the workload: constraints the sizing does not model (availability
targets, redundancy, compliance, a cloud provider), questions asked beside it (which engine, rent or buy
at the user's own prices), and a job's start day. Generated in English and Chinese, each form crossed
with sizing sentences in both orders; then through the whole graph, in the language asked."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import payload, run_conversation

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
SIZING = {"en": ["serve llama 3.1 70b to 200 users", "deploy qwen2.5 32b for 40 nurses"],
          "zh": ["部署qwen2.5-72b给50人同时用", "给30个客服部署qwen2.5-32b"]}
JOINS = {"en": (", ", ". ", "; "), "zh": ("，", "。", " ")}


def _both_orders(lang: str, clause: str):
    for sizing, join in itertools.product(SIZING[lang], JOINS[lang]):
        yield f"{sizing}{join}{clause}"
        yield f"{clause}{join}{sizing}"


def _notes(text: str) -> dict[str, dict[str, str]]:
    return dict(understand(text).notes)


UPTIME = {"en": ["we need {p}% uptime", "uptime of {p}%", "SLA {p}%", "availability target {p}%", "{p}% availability is required"],
          "zh": ["可用性要{p}%", "要求{p}%的可用性", "可用率{p}%", "在线率要达到{p}%"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_availability_target_is_noted_and_never_read_as_utilisation(lang):
    n = 0
    for form, p in itertools.product(UPTIME[lang], ("99.9", "99.95", "99")):
        for text in _both_orders(lang, form.format(p=p)):
            u = understand(text)
            assert "utilisation" not in u.updates, text
            assert dict(u.notes).get("note.redundancy_target") == {"target": f"{float(p):g}%"}, text
            assert u.updates.get("model"), text
            n += 1
    assert n >= 96


REDUNDANCY = {"en": ["with N+1 redundancy", "it needs failover", "high availability is a must", "no single point of failure",
                     "active-active across two sites", "we need a hot standby"],
              "zh": ["要求高可用", "要有冗余", "需要容灾", "双活部署", "不能宕机", "主备切换"]}
COMPLIANCE = {"en": [("it has to be HIPAA compliant", "HIPAA"), ("GDPR applies", "GDPR"), ("we are SOC 2 audited", "SOC 2"),
                     ("data residency in the EU", "data residency")],
              "zh": [("要过等保三级", "等保"), ("数据不能出境", "数据驻留"), ("需要符合GDPR", "GDPR")]}
PROVIDERS = {"en": [("aws only", "AWS"), ("we're an azure shop", "Azure"), ("on GCP", "Google Cloud"),
                    ("it must run on alibaba cloud", "Alibaba Cloud")],
             "zh": [("只能用阿里云", "阿里云"), ("在腾讯云上", "腾讯云"), ("用火山引擎", "火山引擎"), ("部署在华为云", "华为云"),
                    ("公司用AWS", "AWS")]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_redundancy_compliance_and_providers_are_said_back(lang):
    for form in REDUNDANCY[lang]:
        for text in _both_orders(lang, form):
            assert "note.redundancy" in _notes(text), text
    for form, name in COMPLIANCE[lang]:
        for text in _both_orders(lang, form):
            assert name in _notes(text).get("note.compliance", {}).get("names", ""), text
    for form, name in PROVIDERS[lang]:
        for text in _both_orders(lang, form):
            notes = _notes(text)
            said = notes.get("note.provider") or notes.get("note.provider_cards")
            assert said and said["name"] == name, text


def test_a_constraint_that_is_negated_or_absent_adds_no_note():
    assert not _notes("serve llama 3.1 70b to 200 users, no need for redundancy")
    assert not _notes("serve llama 3.1 70b to 200 users at 50% utilisation")
    assert understand("serve llama 3.1 70b to 200 users at 50% utilisation").updates["utilisation"] == 0.5


def test_on_prem_and_air_gapped_words_mean_owning_the_hardware():
    for text in ("私有化部署qwen2.5-72b，50人同时用", "数据不能出内网，部署qwen2.5-72b给50人", "air-gapped deployment of llama 3.1 70b for 50 users",
                 "离线部署qwen2.5-32b给20个人用"):
        assert understand(text).updates.get("preference") == "buy", text


# ---------------------------------------------------------------- engines asked about beside a sizing

ENGINE_QUESTIONS = {"en": ["should we use vllm or tgi?", "vllm or sglang?", "which serving engine should we use?",
                           "lmdeploy or vllm, which is faster?"],
                    "zh": ["用vllm还是sglang？", "推理框架用哪个好？", "lmdeploy和vllm哪个快？", "tgi还是vllm"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_engine_question_beside_a_sizing_is_kept_for_after_the_answer(lang):
    for form in ENGINE_QUESTIONS[lang]:
        for text in _both_orders(lang, form):
            u = understand(text)
            assert u.also == "engine_choice", text
            assert u.updates.get("model") and "engine" not in u.updates, text


@pytest.mark.parametrize("text, lang, engines", [
    ("serve qwen 14b to 30 users, should we use vllm or tgi?", "en", ["vLLM", "TGI"]),
    ("sglang还是vllm，部署qwen2.5-14b给20个人用哪个？", "zh", ["SGLang", "vLLM"]),
])
def test_the_answer_then_answers_the_engine_question_in_the_same_language(text, lang, engines):
    first, reply = run_conversation([text, "working hours" if lang == "en" else "工作时间"])
    assert payload(first)["kind"] == "question"  # asked first, the engine question promised with the plan
    assert ("other question" if lang == "en" else "另一个问题") in first.content
    assert payload(reply)["kind"] == "answer"
    _head, _, tail = reply.content.partition("**Serving engines**" if lang == "en" else "**推理引擎**")
    assert tail, reply.content
    for name in engines:
        assert f"**{name}" in tail
    assert bool(CJK.search(tail)) == (lang == "zh")
    if "TGI" in engines:
        assert "maintenance mode" in tail


def test_an_engine_without_a_model_of_its_own_is_said_to_be_sized_as_another():
    for text, name in (("serve llama 3 8b with tgi for 10 users", "TGI"), ("用lmdeploy部署qwen2.5-7b", "LMDeploy")):
        note = _notes(text)["note.engine_sized_as"]
        assert note["name"].startswith(name) and note["other"] == "vLLM"


# ---------------------------------------------------------------- rent or buy at the user's prices

CNY = rules().usd_per_cny
RENT = {"en": [("renting is {r} a month per card", "rent_usd_per_month"), ("rent costs {r} per month for one card", "rent_usd_per_month"),
               ("renting is {h} an hour per card", "rent_usd_per_hour")],
        "zh": [("租的话一个月{r}一张", "rent_usd_per_month"), ("租一张卡一个月{r}", "rent_usd_per_month"), ("月租{r}一张", "rent_usd_per_month"),
               ("租一小时{h}元", "rent_usd_per_hour")]}
BUY = {"en": [("buying the whole machine is {b}", "buy_usd_machine"), ("or we buy a server for {b}", "buy_usd_machine"),
              ("buying one card is {c}", "buy_usd")],
       "zh": [("买整机{b}", "buy_usd_machine"), ("买一台服务器要{b}", "buy_usd_machine"), ("买一张{c}", "buy_usd")]}
HORIZON = {"en": [("over {y} years", 12), ("we'd keep it {y} years", 12), ("for {m} months", 1)],
           "zh": [("用{y}年", 12), ("{y}年折旧", 12), ("用{m}个月", 1)]}
CUE = {"en": ["which is cheaper?", "which makes more sense?", "is buying worth it?"], "zh": ["哪个划算？", "哪个更省钱", "值得买吗"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rent_and_buy_prices_per_card_month_hour_and_machine_are_read_with_the_horizon(lang):
    money = {"en": {"r": ("$400", 400.0), "h": ("$0.6", 0.6), "b": ("$9,000", 9000.0), "c": ("$2,000", 2000.0)},
             "zh": {"r": ("2800", 2800 * CNY), "h": ("3", 3 * CNY), "b": ("6万", 60000 * CNY), "c": ("1.5万", 15000 * CNY)}}[lang]
    n = 0
    for (rent, rkey), (buy, bkey), (horizon, per), cue in itertools.product(RENT[lang], BUY[lang], HORIZON[lang], CUE[lang]):
        said = {k: v[0] for k, v in money.items()}
        parts = [rent.format(**said), buy.format(**said), horizon.format(y=2, m=18), cue]
        for order in ((0, 1, 2, 3), (1, 0, 2, 3), (2, 0, 1, 3)):
            text = JOINS[lang][0].join(parts[i] for i in order)
            u = understand(text)
            assert "rent_buy" in u.intents, text
            want_rent = money["r" if rkey == "rent_usd_per_month" else "h"][1]
            want_buy = money["b" if bkey == "buy_usd_machine" else "c"][1]
            assert u.prices.get(rkey) == pytest.approx(want_rent, rel=1e-3), (text, u.prices)
            assert u.prices.get(bkey) == pytest.approx(want_buy, rel=1e-3), (text, u.prices)
            assert u.prices.get("horizon_months") == (24 if per == 12 else 18), (text, u.prices)
            assert not {"budget_usd", "budget_usd_per_month", "preference"} & set(u.updates), text
            n += 1
    assert n >= 240


@pytest.mark.parametrize("text, lang", [
    ("我们想部署Qwen2.5-32B给内部用，大概20人。租的话一个月2800一张4090，买整机6万，用两年，哪个划算？", "zh"),
    ("we want to serve qwen2.5 32b to 20 staff. renting is $400 a month per 4090, or we buy the whole machine for $9k "
     "and keep it 2 years. which is cheaper?", "en"),
])
def test_a_sizing_with_rent_and_buy_prices_is_sized_on_that_card_then_compared_at_those_prices(text, lang):
    reply = run_conversation([text])[0]  # an internal tool: working hours assumed and said, or asked
    if payload(reply)["kind"] != "answer":
        reply = run_conversation([text, "working hours" if lang == "en" else "工作时间"])[-1]
    data = payload(reply)
    assert data["kind"] == "answer"
    best = data["results"]["recommend"]["best"]
    assert best["gpu"] == "rtx-4090"
    n = best["gpus"]
    title = "## " + ("Rent or buy the" if lang == "en" else "")
    assert reply.content.count("**Rent or buy:**" if lang == "en" else "**租还是买**") == 0  # the catalog's comparison left out
    assert reply.content.startswith("## Buy" if lang == "en" else "## 购买")  # the decision at their prices
    section = reply.content.split(f"{n} × NVIDIA GeForce RTX 4090 24GB")[-1]
    assert title.strip() in reply.content
    assert ("24 months" if lang == "en" else "使用 24 个月") in section
    assert ("after about" if lang == "en" else "个月回本") in section
    assert bool(CJK.search(section)) == (lang == "zh")


# ---------------------------------------------------------------- Chinese numbers beside counts


@pytest.mark.parametrize("text, users", [("三十一个人用qwen2.5 7b", 31), ("给二十一个人部署qwen2.5 7b", 21), ("一个人用qwen2.5 7b", 1)])
def test_a_count_ending_in_one_keeps_its_tens(text, users):
    assert understand(text).updates["users"] == users


# ---------------------------------------------------------------- a machine holding the cards counted


@pytest.mark.parametrize("rig", ["rig", "box", "server", "machine", "workstation", "pc"])
@pytest.mark.parametrize("count, card, gpu_id", [(2, "3090", "rtx-3090"), (4, "4090", "rtx-4090"), (8, "A100", "a100-80gb-sxm")])
def test_cards_counted_with_an_x_before_one_machine_are_the_cards_in_it(rig, count, card, gpu_id):
    for joined in (f"{count}x{card}", f"{count}x {card}", f"{count} x {card}"):
        u = understand(f"I want to run qwen2.5 32b on my {joined} {rig}")
        assert u.updates["owned"] == [f"{count}x {gpu_id}"], joined
        assert "note.servers_full" not in dict(u.notes) and "note.servers_boards" not in dict(u.notes)


@pytest.mark.parametrize("said, gb", [("with 256gb ram", "256"), ("and 128 GB of system memory", "128"), ("64gb ddr5", "64"),
                                      ("内存256G", "256"), ("64g内存", "64"), ("内存有 96GB", "96")])
def test_system_memory_is_said_back_as_offload_not_sized(said, gb):
    for text in (f"run qwen3 30b a3b on my 2x3090 {said}", f"{said}，两张3090跑qwen3-30b-a3b"):
        u = understand(text)
        assert dict(u.notes).get("note.system_ram") == {"gb": gb}, text
        assert "memory" not in str(u.updates.get("owned")), text


# ---------------------------------------------------------------- who uses it, said every way (review round A)

SERVE = {"en": "serve qwen2.5 7b", "zh": "部署qwen2.5 7b"}


@pytest.mark.parametrize("said, users", [
    ("for me + 2 friends", 3), ("for me and 3 colleagues", 4), ("me plus 1 friend", 2), ("我和两个朋友用", 3),
    ("我跟3个同事用", 4), ("customers, peak maybe 40 chats at once", 40), ("50 conversations at once", 50),
    ("for our 6-person team", 6), ("a 12 person team uses it", 12), ("十来个同事推理", 10), ("高峰五六十", 55),
    ("并发估计300", 300), ("高峰期大概80个用户", 80), ("peak maybe 40", 40),
])
def test_people_at_once_said_every_way(said, users):
    for text in (f"{SERVE['en']} {said}", f"{said}，{SERVE['zh']}"):
        assert understand(text).updates.get("users") == users, text


@pytest.mark.parametrize("said, n", [("3000 daily users", "3,000"), ("DAU 5000", "5,000"), ("日活两千", "2,000"), ("日活跃用户2万", "20,000")])
def test_daily_users_are_the_people_who_use_it_and_said_back(said, n):
    for text in (f"{SERVE['en']}, {said}", f"{said}，{SERVE['zh']}"):
        u = understand(text)
        assert "users" not in u.updates and dict(u.notes).get("note.daily_population") == {"n": n}, text
        assert u.updates.get("population") == int(n.replace(",", "")), text
    u = understand(f"{SERVE['en']}, {said}, 40 concurrent")
    assert u.updates["users"] == 40


@pytest.mark.parametrize("said, n", [("a 6 person startup", "6"), ("we are a 10-person company", "10"), ("我们是一家10人的创业公司", "10")])
def test_a_company_size_is_not_its_users(said, n):
    u = understand(f"{said}, {SERVE['en']}")
    assert "users" not in u.updates and dict(u.notes).get("note.headcount") == {"n": n}


@pytest.mark.parametrize("text, slot, value", [
    ("每个用户每秒要吐20个token以上，部署qwen2.5 7b给30个人", "min_tokens_per_s", 20.0),
    ("部署qwen2.5 7b给30个人，每个用户每秒至少生成15个token", "min_tokens_per_s", 15.0),
    ("qwen2.5 14b推理给二十个人用，每天跑十个小时左右", "utilisation", 0.4167),
    ("serve qwen2.5 14b to 20 users, daily we run it 12 hours", "utilisation", 0.5),
    ("私有化部署qwen2.5-72b 20人 64k吧", "context", 65536),
    ("serve llama 3.1 8b to 50 users, 32k", "context", 32768),
    ("about 8k a month for gpus, serve gpt-oss-120b to 40 concurrent", "budget_usd_per_month", 8000.0),
    ("p95首token小于800ms，p99小于1.5秒，部署qwen2.5-72b给200人", "ttft_ms", 800.0),
    ("serve llama 3.3 70b to 150 users, p99 ttft under 2 s and p50 under 500 ms", "ttft_ms", 500.0),
])
def test_targets_and_lengths_said_the_way_people_type_them(text, slot, value):
    assert understand(text).updates.get(slot) == pytest.approx(value, rel=1e-3), text


def test_a_percentile_target_says_the_tail_is_not_modelled():
    assert "note.tail_latency" in dict(understand("serve llama 3.3 70b to 150 users, p95 TTFT < 500ms").notes)
    assert "note.tail_latency" not in dict(understand("serve llama 3.3 70b to 150 users, TTFT < 500ms").notes)


@pytest.mark.parametrize("text", ["我有张3060 12g的游戏卡 想本地跑个qwen2.5 7b玩玩 能跑吗 要不要量化",
                                  "should i quantize llama 3 8b for my 3060?", "想在4060上跑qwen3 8b，需不需要量化"])
def test_asking_whether_to_quantise_states_no_precision_and_trains_nothing(text):
    u = understand(text)
    assert "precision" not in u.updates and u.updates.get("phase") in (None, "serve"), (text, u.updates)


@pytest.mark.parametrize("text, owned", [
    ("we have two dgx a100 boxes (8x a100 80gb each)", "16x a100-80gb-sxm"),
    ("we have two 8x a100 boxes", "16x a100-80gb-sxm"),
    ("实验室有4台8卡的A800", "32x a800-80gb-sxm"),
    ("our lab has 2 servers, 8x H100 each", "16x h100-sxm"),
])
def test_owned_servers_count_every_card_once(text, owned):
    assert understand(text + ", full fine-tune qwen2.5 32b").updates["owned"] == [owned]


@pytest.mark.parametrize("text, name", [("只能用昇腾或者海光，部署qwen2.5 7b", "海光 DCU"), ("海光的DCU能不能也算一下", "海光 DCU"),
                                        ("serve llama 3 8b on cambricon mlu290", "Cambricon MLU"), ("用寒武纪跑qwen", "寒武纪 MLU")])
def test_accelerators_outside_the_catalog_are_said_unknown(text, name):
    assert dict(understand(text).notes).get("note.accelerator_unknown") == {"name": name}


@pytest.mark.parametrize("text, per_token", [
    ("qlora gemma-2-27b on 40 million characters of support docs", 4.0),
    ("qlora gemma-2-27b on 40 million characters of chinese docs", 1.4),
    ("微调qwen2.5 7b，语料4000万字", 1.4),
    ("微调qwen2.5 7b，英文语料4000万个characters", 4.0),
])
def test_characters_become_tokens_at_the_ratio_of_the_texts_language(text, per_token):
    note = dict(understand(text).notes)["note.text_as_tokens"]
    assert float(note["ratio"]) == per_token and "region" not in understand(text).updates


def test_a_quality_question_about_formats_gets_the_quantization_entry():
    u = understand("is fp8 noticeably worse than bf16 for gemma 3 27b?")
    # the two widths compared (assistant.precisions: on the plan, else the quantization entry), nothing sized
    assert "precision_compare" in u.intents and u.ask["named"] == ["fp8", "bf16"] and not u.updates


# ---------------------------------------------------------------- the final review round's classes


@pytest.mark.parametrize("text, owned", [
    ("两台H800 8卡机器，部署Kimi K2", "16x h800-sxm"), ("我们有8台H100(每台八卡,IB互联)", "64x h100-sxm"),
    ("我们有128台昇腾910B（每台8卡）", "1024x ascend-910b"), ("手上有4台昇腾910B服务器，每台8卡64G", "32x ascend-910b"),
    ("我们有三台A800服务器 每台8张80G", "24x a800-80gb-sxm"), ("we have 3 servers w/ 8x A100 80GB each", "24x a100-80gb-sxm"),
])
def test_owned_clusters_said_the_chinese_way_count_every_card(text, owned):
    u = understand(text if "有" in text or "have" in text else "我们有" + text)
    assert u.updates.get("owned") == [owned], (text, u.updates)


@pytest.mark.parametrize("text, users", [
    ("gpt-oss-120b for ~50 employees, maybe 15 using it at once", 15), ("qwen3 32b, maybe 60 hitting it at the same time at peak", 60),
    ("mistral small 24b, maybe 25 at peak, 400 employees total", 25), ("部署qwen2.5 32b，全院五百人用，高峰大概同时六十人", 60),
])
def test_the_number_at_once_wins_over_the_headcount(text, users):
    assert understand(text).updates.get("users") == users


@pytest.mark.parametrize("text", ["run llama 3.1 8b, q4 or q8?", "4060跑qwen3 8b ollama q4还是q5", "qwen2.5 7b: q4_k_m or q6_k?",
                                  "fp8 vs awq int4 for qwen3 32b?"])
def test_two_formats_asked_between_state_no_format(text):
    assert "precision" not in understand(text).updates


@pytest.mark.parametrize("text", ["own 2x a100 80gb pcie, fine tune phi-4, our box or do we need to rent?",
                                  "deepseek v3 at q4 on my mac? or should i just rent something",
                                  "我有一张3090，qlora gemma 3 12b，不够的话租什么"])
def test_rent_asked_about_is_no_preference(text):
    assert "preference" not in understand(text).updates


def test_a_card_in_a_what_if_is_not_owned():
    assert "owned" not in understand("what if we bought instead, would 2 rtx 6000 ada work for qwen3 30b a3b").updates
    assert understand("we have 2 rtx 6000 ada").updates["owned"] == ["2x rtx-6000-ada"]


@pytest.mark.parametrize("text, hours", [("lora微调qwen3-14b，5万条，后天就要交付", 48.0), ("微调qwen2.5 7b，大后天之前要完成", 72.0)])
def test_the_day_after_tomorrow(text, hours):
    assert understand(text).updates["deadline_hours"] == hours


@pytest.mark.parametrize("text, card", [("gaming laptop w/ rtx 4070 8gb, can i run llama 3.1 8b", "1x rtx-4070-laptop"),
                                        ("my laptop has an rtx 4070", "1x rtx-4070-laptop"),
                                        ("比如qwen3-30b-a3b，我单张4090 24G能跑吗", "1x rtx-4090"),
                                        ("我两张3090能跑qwen2.5 72b吗", "2x rtx-3090")])
def test_ones_own_card_said_in_passing_is_owned(text, card):
    assert understand(text).updates.get("owned") == [card]


def test_one_gaming_card_or_laptop_of_ones_own_is_one_person():
    from gpu_advisor.assistant.slots import SLOTS

    for owned, users in ((["1x rtx-4090"], 1), (["1x rtx-4070-laptop"], 1), (["2x rtx-3090"], 5), (["1x h100-sxm"], 5),
                         (["1x apple-m3-max-128gb"], 1)):
        assert SLOTS["users"].default_for({"owned": owned, "phase": "serve"}) == users, owned


@pytest.mark.parametrize("digits", [16, 18, 40])
def test_a_model_size_too_long_to_read_is_refused_not_replaced(digits):
    u = understand(f"serve a {'1' * digits}B model to 5 users")
    # 16+ digits are no figure at all (reading.written: said as not used); 40 are cut to 15 (readable), quoted whole
    assert "model" not in u.updates and [code for code, _ in u.problems] == ["size_too_large" if digits > 30 else "number_unused"]
    assert "1" * (15 if digits > 30 else digits) in "".join(p.get("billions", p.get("typed", "")).replace(",", "") for _c, p in u.problems)


@pytest.mark.parametrize("text", ["那如果只用一年呢", "3年", "两个月呢", "what about 2 years?", "for 6 months"])
@pytest.mark.parametrize("pending", ["users", "context"])
def test_a_length_of_time_is_no_answer_to_a_count_question(text, pending):
    assert pending not in understand(text, pending).updates


@pytest.mark.parametrize("text, users", [("20", 20), ("20个人", 20), ("about 30", 30)])
def test_a_bare_count_still_answers_the_users_question(text, users):
    assert understand(text, "users").updates["users"] == users


def test_a_bare_range_answers_the_users_question_as_a_range():
    assert understand("5-20", "users").updates == {"users_range": [5, 20]}


@pytest.mark.parametrize("text", [
    "DeepSeek-V3不是只激活37B吗，为啥显存还得按671B算？EP和TP有啥区别，大规模部署一般怎么组合？",
    "whats the difference between tensor parallel and pipeline parallel for llama 70b?",
])
def test_a_concept_question_with_a_model_as_its_example_sizes_nothing(text):
    u = understand(text)
    assert u.topic and not u.updates


def test_a_concept_asked_beside_a_workload_is_answered_beside_its_sizing():
    u = understand("whats the diff between prefill and decode? serve mistral small to 20 users")
    assert u.aside == "prefill-decode" and u.updates["users"] == 20


@pytest.mark.parametrize("text, cloud", [("serve llama 3.1 70b to 200 users, aws only", "aws"), ("we're an azure shop, serve qwen2.5 72b", "azure"),
                                         ("部署qwen2.5-72b，公司用AWS", "aws"), ("serve gemma 3 27b on GCP", "gcp")])
def test_a_cloud_named_as_where_to_run_keeps_to_the_cards_it_rents(text, cloud):
    from gpu_advisor.knowledge.clouds import clouds

    u = understand(text)
    assert u.updates["only"] == list(clouds()[cloud].gpus)
    assert "mi300x" not in u.updates["only"] or cloud == "azure"


def test_a_cloud_without_cards_on_record_is_only_said():
    u = understand("serve qwen2.5-72b, we can only use nebius")
    assert "only" not in u.updates and dict(u.notes)["note.provider"] == {"name": "Nebius"}
    assert u.updates["preference"] == "rent"  # still a cloud: renting


def test_every_cloud_card_is_in_the_catalog():
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.clouds import clouds

    for cloud in clouds().values():
        for gpu_id in cloud.gpus:
            assert find_gpu(gpu_id).id == gpu_id


def test_a_production_service_is_assumed_up_around_the_clock():
    from gpu_advisor.assistant.slots import SLOTS

    assert SLOTS["utilisation"].default_for({"phase": "production"}) == 1.0
    assert SLOTS["utilisation"].default_for({"phase": "serve"}) == 0.24
    assert "around the clock" in SLOTS["utilisation"].default_words("en", {"phase": "production"})
    assert "全天候" in SLOTS["utilisation"].default_words("zh", {"phase": "production"})


QUOTED = ["we got quotes: 8x H100 server for $280k to buy, or $2.10/gpu-hr to rent",
          "vendor quoted us 8x H100 at $280k, cloud is $2.10 per gpu-hour",
          "8x H100 server for $280k to buy or $2.10/gpu-hr, which is better?"]


@pytest.mark.parametrize("text", QUOTED)
def test_cards_with_a_price_quoted_are_considered_not_owned(text):
    u = understand(f"{text} serve glm-4.5-air for 40 users")
    assert not u.updates.get("owned") and 280_000.0 in (u.prices.get("buy_usd_machine"), u.prices.get("buy_usd"))


@pytest.mark.parametrize("word", ["reserved", "on a 1-year commitment", "3 year reservation", "包年"])
def test_a_reserved_hourly_price_is_billed_every_hour(word):
    u = understand(f"rent at $2.10/gpu-hr {word} or buy the 8x H100 box for $280k")
    assert u.prices.get("rent_usd_per_month") == pytest.approx(2.10 * 730) and "rent_usd_per_hour" not in u.prices
    assert "note.reserved" in dict(u.notes)


@pytest.mark.parametrize(("text", "names"), [
    ("只能用国产卡，海光DCU或者寒武纪都行，LoRA微调GLM-4-9B", "海光 DCU、寒武纪 MLU"),
    ("国产化要求，昆仑芯、摩尔线程、海光都可以，部署qwen2.5-7b", "海光 DCU、昆仑芯、摩尔线程"),
    ("we could use hygon dcu or cambricon mlu290, serve qwen2.5 7b", "Hygon DCU, Cambricon MLU"),
])
def test_every_accelerator_without_figures_is_said(text, names):
    assert _notes(text)["note.accelerator_unknown"] == {"name": names}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_service_with_an_availability_target_is_up_around_the_clock(lang):
    text = {"en": "serve qwen2.5 32b to 40 concurrent users, 99.9% uptime",
            "zh": "部署qwen2.5-32b给40人同时用，可用性要99.9%"}[lang]
    data = payload(run_conversation([text])[-1])
    assert data["kind"] == "answer" and data["profile"]["uptime"] == 99.9 and data["profile"]["utilisation"] == 1.0
    hours = {"en": "serve qwen2.5 32b to 40 concurrent users in working hours, 99.9% uptime",
             "zh": "部署qwen2.5-32b给40人同时用，只在工作时间用，可用性要99.9%"}[lang]
    assert payload(run_conversation([hours], thread="b")[-1])["profile"]["utilisation"] == 0.24


@pytest.mark.parametrize(("text", "uptime"), [("gpt-oss-120b for 500 staff, uptime 99.95", 99.95), ("SLA 99.9, serve qwen2.5 7b", 99.9),
                                              ("部署qwen2.5-7b，可用性要求99.99", 99.99)])
def test_an_availability_target_without_its_percent_sign_is_read(text, uptime):
    u = understand(text)
    assert u.updates.get("uptime") == uptime and "utilisation" not in u.updates


@pytest.mark.parametrize(("text", "hourly"), [("autodl上4090是1.88一小时，自己买一张4090要1万6，每天跑8小时", 1.88),
                                              ("租H100现在一小时大概15块人民币，买一台8卡H100服务器报价220万，租还是买", 15.0)])
def test_a_chinese_hourly_price_is_a_rent_quote_not_a_budget(text, hourly):
    u = understand(text)
    assert u.prices["rent_usd_per_hour"] == pytest.approx(hourly * rules().usd_per_cny, rel=1e-3)
    assert not {"budget_usd", "budget_usd_per_month"} & u.updates.keys()


@pytest.mark.parametrize("text", ["should i buy nvda now or wait", "英伟达股票现在能买吗", "is nvidia stock a buy before the next launch?"])
def test_share_questions_are_declined_as_investment_advice(text):
    u = understand(text)
    assert "out_of_scope" in u.intents and u.scope == "investment"


def test_a_quoted_machine_price_in_k_is_no_context():
    u = understand("quote of 285k for an 8xH100 box vs runpod at 2.39/hr per gpu, deepseek v3 fp8 to ~300 users 24/7")
    assert "context" not in u.updates and u.prices["buy_usd_machine"] == 285_000.0
