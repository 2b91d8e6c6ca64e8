"""Review round Q's reader findings, each as a generated class: 'batch size' is no batch job; 'how many concurrent
8k requests' on named cards is a capacity question; an active-parameter count said of a named MoE model is that
model's, not a second model."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

BATCH_SIZE = ["does kv cache scale with batch size or just context? {m}", "{m}, batch size 16, what changes",
              "what batch size can {m} take", "{m} with a bigger batch size, more memory?"]
MODELS = ["llama 3.3 70b", "qwen2.5 32b", "mistral 7b"]


@pytest.mark.parametrize(("frame", "model"), list(itertools.product(BATCH_SIZE, MODELS)))
def test_batch_size_is_no_batch_job(frame, model):
    assert understand(frame.format(m=model)).updates.get("phase") != "batch"


@pytest.mark.parametrize("text", ["batch inference of 2M prompts with llama 3 8b", "batch job: 50k documents, qwen2.5 7b",
                                  "offline batch processing with mistral 7b, 1M items"])
def test_a_batch_job_stays_a_batch_job(text):
    assert understand(text).updates.get("phase") == "batch"


CAPACITY = ["how many concurrent {n} requests", "how many concurrent requests", "how many simultaneous users can it take",
            "how many parallel {n} token requests", "how many concurrent chats"]
SETUPS = [("llama 3.3 70b fp8 on 2x h100", "h100-sxm", 2), ("qwen2.5 32b on 4 a100s", "a100-80gb-sxm", 4),
          ("gemma 3 27b on 1 l40s", "l40s", 1)]


@pytest.mark.parametrize(("ask", "setup", "n"), list(itertools.product(CAPACITY, SETUPS, ["8k", "4k", "32k"])))
def test_how_many_concurrent_requests_on_named_cards_is_a_capacity_question(ask, setup, n):
    text, gpu, count = setup
    u = understand(f"{text}, {ask.format(n=n)}?")
    assert "capacity" in u.intents, (text, u.intents, u.updates)
    assert u.updates.get("only") == [f"{count}x {gpu}"] and u.updates.get("phase") == "serve"


# A MoE's active parameters said beside its name are that model's, never a second, dense model of that size.
MOE_ACTIVE = [("deepseek v3", "deepseek-v3", "37b"), ("DeepSeek-R1", "deepseek-r1", "37B"),
              ("qwen3 235b a22b", "qwen3-235b-a22b", "22b"), ("Qwen3-30B-A3B", "qwen3-30b-a3b", "3b")]
ACTIVE_FRAMES = ["{m}是MoE，激活参数才{a}，那显存是不是按{a}算就行了？", "{m} only has {a} active, so memory is {a} right?",
                 "{m} 激活 {a}，部署要多少显存", "since {m} activates just {a} per token, does it need less vram?"]


@pytest.mark.parametrize(("model", "frame"), list(itertools.product(MOE_ACTIVE, ACTIVE_FRAMES)))
def test_a_moe_active_count_said_with_its_name_is_that_model(model, frame):
    name, model_id, active = model
    u = understand(frame.format(m=name, a=active))
    assert u.updates.get("model") == model_id, u.updates
    assert not [k for k, _ in u.notes if k in ("note.moe_active_assumed", "note.model_other")], u.notes


# Only cards that may be sold new in China ('只能用国内能买到的卡'): every export-restricted card is ruled out, the
# region is China, and it is no question about stock.
CHINA_BUYABLE = ["只能用国内能买到的卡", "仅限国内可以采购的显卡", "只用国内能合法买到的卡", "国内能买到的卡才行",
                 "only gpus we can legally buy in china", "just cards that are sold in china", "export-compliant cards only"]


@pytest.mark.parametrize(("said", "job"), list(itertools.product(
    CHINA_BUYABLE, ["部署 GLM-4-9B 给 50 人用，{s}", "{s}, serve qwen2.5 72b to 50 users", "{s}，H20或者L20那种"])))
def test_cards_buyable_in_china_rule_out_every_export_restricted_card(said, job):
    from gpu_advisor.knowledge import gpus

    u = understand(job.format(s=said))
    restricted = {g.id for g in gpus() if g.export_limited}
    assert restricted <= set(u.updates.get("exclude") or []), u.updates
    assert u.updates.get("region") == "china" and "availability" not in u.intents
    assert not {"h20", "l20", "rtx-4090d", "ascend-910b"} & set(u.updates.get("exclude") or [])
    assert [k for k, _ in u.notes].count("note.china_buyable") == 1


@pytest.mark.parametrize("text", ["H100国内能买到吗", "can you buy an h100 in china?"])
def test_asking_whether_a_card_can_be_bought_in_china_stays_a_question(text):
    u = understand(text)
    assert not u.updates.get("exclude")


# Buying said (data may not leave the company) is kept in the rent-or-buy line of a job that ends: never "so rent".
@pytest.mark.parametrize(("text", "lang"), [
    ("lora qwen3 8b, our data can't leave the building so we buy, budget 15k", "en"),
    ("we have to buy the cards, lora llama 3.1 8b on 20k examples", "en"),
    ("数据不能出公司，要买卡放机房，LoRA微调Qwen3-8B，预算10万以内", "zh"),
    ("只能买卡，不能租，全参微调 qwen2.5 1.5b", "zh"),
])
def test_buying_said_is_kept_in_the_rent_or_buy_line_of_a_one_off_job(text, lang):
    from gpu_advisor.assistant.catalog import say
    from tests.conversation import run_conversation

    reply = run_conversation([text])[-1].content
    assert say(lang, "rb.job_buy", option="X", buy="Y", run="Z").split("X")[0] in reply, reply[:600]
    assert say(lang, "rb.job", option="X", buy="Y", run="Z").split("Y")[-1] not in reply


# Buying as the only way and renting ruled out, in every order and spelling: a preference to buy, never to rent.
BUY_ONLY = ["只能买卡", "必须买卡", "只能采购服务器", "不能租", "不能租卡", "不让租卡", "禁止上云", "数据不能出公司，不能租"]
JOBS = ["全参微调 qwen2.5 1.5b", "部署 qwen2.5 72b 给 30 人用", "LoRA 微调 Qwen3-8B"]


@pytest.mark.parametrize(("said", "job", "first"), list(itertools.product(BUY_ONLY, JOBS, [True, False])))
def test_buying_only_or_renting_ruled_out_is_a_preference_to_buy(said, job, first):
    text = f"{said}，{job}" if first else f"{job}，{said}"
    assert understand(text).updates.get("preference") == "buy", text


# A card named only by its memory is sized as the catalog's usual card of that memory, and said.
BY_MEMORY = {24: "rtx-4090", 48: "rtx-a6000", 80: "a100-80gb-sxm", 16: "rtx-4060-ti-16gb"}
MEMORY_FRAMES = ["can i qlora 70b on a single {gb}gb card", "would one {gb}gb gpu run llama 3.1 8b for 5 users",
                 "serve qwen 7b to 10 users on a {gb}GB card", "一张{gb}G的卡能跑 qwen2.5 32b 吗", "单张{gb}GB显卡 LoRA 微调 qwen2.5 7b"]


@pytest.mark.parametrize(("gb", "frame"), list(itertools.product(BY_MEMORY, MEMORY_FRAMES)))
def test_a_card_named_by_its_memory_is_the_usual_card_of_that_memory(gb, frame):
    u = understand(frame.format(gb=gb))
    assert u.updates.get("only") == [f"1x {BY_MEMORY[gb]}"], (frame, u.updates)
    assert [k for k, _ in u.notes].count("note.card_by_memory") == 1


@pytest.mark.parametrize("text", ["my 4090 has 24gb, run qwen 32b?", "a 2080 ti modded to 22gb, qwen2.5 14b q4?",
                                  "serve llama 8b with 24gb of vram budget", "an h100 80gb card for llama 70b fp8"])
def test_a_named_card_or_a_memory_amount_alone_is_no_card_by_memory(text):
    assert "note.card_by_memory" not in [k for k, _ in understand(text).notes]


# A Mac or a home card set against another card ('m4 pro 48gb vs a 4090 desktop') is a candidate, not the user's own.
VERSUS = ["{a} vs {b}, running models locally", "{a} or {b} for running llama 70b locally?", "{a}还是{b}，本地跑qwen 32b哪个好"]
PAIRS = [("macbook m4 pro 48gb", "a desktop with a 4090"), ("mac studio m2 ultra", "2x 3090"), ("mac mini m4 pro 64gb", "4090台式机")]


@pytest.mark.parametrize(("frame", "pair"), list(itertools.product(VERSUS, PAIRS)))
def test_a_mac_set_against_another_card_is_a_candidate_not_owned(frame, pair):
    u = understand(frame.format(a=pair[0], b=pair[1]))
    assert not u.updates.get("owned"), u.updates
    assert len(u.compare_gpus) == 2 and any(g.startswith("apple-") for g in u.compare_gpus)


@pytest.mark.parametrize("text", ["my macbook m3 max 64gb, can it run llama 70b?", "我的 mac studio m2 ultra 能跑 qwen 72b 吗"])
def test_a_mac_alone_is_still_the_users_own(text):
    assert any(o.split("x ", 1)[1].startswith("apple-") for o in understand(text).updates.get("owned") or [])


@pytest.mark.parametrize(("text", "lang"), [("只能用国内能买到的卡，部署 qwen2.5 32b 给 30 人用", "zh"),
                                            ("only gpus we can legally buy in china, serve qwen2.5 32b to 30 users", "en")])
def test_many_cards_ruled_out_are_counted_in_the_acknowledgement_not_listed(text, lang):
    from gpu_advisor.knowledge import gpus
    from tests.conversation import run_conversation

    reply = run_conversation([text])[-1].content
    n = sum(g.export_limited for g in gpus())
    assert (f"排除 {n} 种卡" if lang == "zh" else f"{n} cards ruled out") in reply
    assert reply.count("NVIDIA H100 SXM 80GB") == 0  # the note names a few, the acknowledgement none
