"""Review round O/P, follow-ups and changes of mind keep everything that still holds (assistant/advice.py kept_named,
assistant/moved.py, assistant/method_switch.py model_moved, assistant/reading/method_compare.py, assistant/parts.py).

Generated over first turns × change kinds × phrasings × both languages; each asserts the slots that survive, what
is asked again (nothing already known), and the card and count of the new answer:
1. a change of model (and load) after 'X or Y?' keeps the budget, region and both named cards, sized for the new job;
2. a card asked about ('why not 2x L40S') stays beside the plan after the load question is answered;
3. a method comparison on the user's own cards keeps the phase: a later question never asks it again;
4. a change to what the plan already used ('quantize it to fp8' on an FP8 plan) says nothing moved;
5. the model and the method changed together: said first, the old method sized on the new model;
6. another model asked with 'how fast' is one re-plan answered with the new model's speed, not two parts.
"""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.policy import question
from tests.conversation import run_states, unexplained_numbers

NOT_UNDERSTOOD = {say("en", "reply.not_understood"), say("zh", "reply.not_understood")}


def _run(turns: list[str]) -> tuple[dict[str, Any], list[str]]:
    states = run_states(turns)
    state = states[-1]
    replies = [str(s["messages"][-1].content) for s in states]
    assert not any(replies[-1].startswith(n) for n in NOT_UNDERSTOOD), replies[-1][:300]
    if _lang(turns[0]) == "zh":  # a Chinese reply carries no English sentence (tests/test_no_english_in_chinese.py)
        from tests.test_no_english_in_chinese import english_runs

        assert english_runs(replies[-1]) == [], replies[-1]
    data = _payload(state)
    moved = (data.get("results") or {}).get("moved") if data["kind"] == "answer" else None
    if moved:  # the line saying what moved: every number in it from the two plans' tool inputs, in the answer's data
        line = next(x for x in replies[-1].split("\n") if x.startswith(say(data.get("lang") or _lang(turns[-1]),
                                                                            "moved.head", items="§").partition("§")[0]))
        assert unexplained_numbers(line, {"moved": moved}) == [], line
    return state, replies


def _lang(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def _payload(state: dict[str, Any]) -> dict[str, Any]:
    return dict(state["messages"][-1].additional_kwargs["gpu_advisor"])


def _rows(state: dict[str, Any]) -> set[tuple[int, str]]:
    results = state["results"]
    best = results["recommend"]["best"]
    return {(int(o["gpus"]), str(o["gpu"])) for o in [best, *results["options"]]}


# ---------------------------------------------------------------- 1. new model: budget, region, both cards kept

CANDIDATE_FIRST = {
    "zh": [("创业公司，下个月上线，要部署 DeepSeek-V3 对外服务，预算每月 5 万人民币，租卡的话 H20 还是 H800 好",
            {"h20", "h800-sxm"}),
           ("部署 DeepSeek-V3 对外服务，每月预算5万元，H20 和 H800 选哪个", {"h20", "h800-sxm"})],
    "en": [("startup, launch in 6 weeks, need to serve llama 3.3 70b for a chat product, maybe 50 concurrent users at "
            "peak, budget 8k usd/month. h100 or a100?", {"h100-sxm", "a100-80gb-sxm"}),
           ("serve llama 3.3 70b to 50 concurrent users, budget $8k a month, a100 or h100?",
            {"h100-sxm", "a100-80gb-sxm"})],
}
CANDIDATE_CHANGE = {
    "zh": ["算了 V3 太贵了，换成 Qwen3-32B 呢，并发大概100", "那换成 Qwen3-32B 吧，并发 100",
           "改成用 Qwen3-32B，并发大概100"],
    "en": ["ok make it qwen3 32b then, 100 concurrent users", "scrap that, qwen3 32b instead, about 100 concurrent",
           "what about qwen3 32b with 100 concurrent users?"],
}


@pytest.mark.parametrize(("first", "cards", "change"),
                         [(f, c, g) for lang in ("zh", "en") for f, c in CANDIDATE_FIRST[lang]
                          for g in CANDIDATE_CHANGE[lang]])
def test_a_new_model_keeps_budget_region_and_both_named_cards(first: str, cards: set[str], change: str) -> None:
    before, _ = _run([first])
    state, replies = _run([first, change])
    profile, was = state["profile"], before["profile"]
    lang = "zh" if "预算" in first else "en"
    old_model = "DeepSeek-V3" if lang == "zh" else "Llama 3.3 70B"
    assert say(lang, "moved.item", label=say(lang, "slot.model.label"), old=old_model, new="Qwen3 32B") in replies[-1]
    assert say(lang, "moved.head", items="§").partition("§")[0] in replies[-1]  # what moved, said
    assert profile["model"] == "qwen3-32b" and profile["users"] == 100
    for slot in ("budget_usd_per_month", "region", "phase", "preference"):
        assert profile.get(slot) == was.get(slot), slot
    assert profile.get("budget_usd_per_month")
    shown = {gpu for _n, gpu in _rows(state)}
    assert cards <= shown, shown  # both cards named in the first turn, sized again for the new model
    assert {g for _n, g in state["results"]["named"]} == cards
    assert _payload(state)["kind"] == "answer"


def test_the_new_plan_is_on_the_cheaper_named_card_that_now_does_the_job() -> None:
    first, _cards = CANDIDATE_FIRST["zh"][0]
    state, replies = _run([first, CANDIDATE_CHANGE["zh"][0]])
    best = state["results"]["recommend"]["best"]
    assert best["gpu"] in ("h20", "h800-sxm") and best["ok"]  # neither did DeepSeek-V3 on budget; both do Qwen3-32B
    assert "H800" in replies[-1] and "H20" in replies[-1]


def test_new_cards_named_replace_the_kept_ones() -> None:
    first, _cards = CANDIDATE_FIRST["en"][0]
    state, _ = _run([first, "what about l40s instead?"])
    assert [g for _n, g in state["results"]["named"]] == ["l40s"]


# ---------------------------------------------------------------- 2. a card asked about stays after the load answer

WHY_NOT = {
    "en": ("deploying gpt-oss-120b for our team, thinking one H100. enough?",
           ["why not 2x L40S instead, theyre cheaper", "what about 2x l40s, cheaper?"], ["5-20", "about 20 people"]),
    "zh": ("团队要部署 gpt-oss-120b，打算用一张 H100，够吗",
           ["为啥不用两张 L40S，更便宜", "两张 L40S 呢，便宜点"], ["5-20 人", "大概 20 个人同时用"]),
}


@pytest.mark.parametrize(("lang", "why", "load"), [(lang, w, ld) for lang, (_f, ws, lds) in WHY_NOT.items()
                                                   for w in ws for ld in lds])
def test_a_card_asked_about_stays_beside_the_plan_after_the_load_is_answered(lang: str, why: str, load: str) -> None:
    first = WHY_NOT[lang][0]
    state, replies = _run([first, why, load])
    assert state["profile"]["users"] == 20
    assert state["profile"]["only"] == ["1x h100-sxm"]
    assert (2, "l40s") in _rows(state) and (1, "h100-sxm") in _rows(state)
    assert state["results"]["named"] == [[2, "l40s"]]
    assert "L40S" in replies[-1]


# ---------------------------------------------------------------- 3. the phase named is never asked again

METHOD_FIRST = {
    "en": ["our lab has 4x v100 32gb (no nvlink i think), can we do lora on gemma 3 27b? or even full finetune of "
           "gemma 2 9b", "we have 4x v100 32gb, lora or full finetune of gemma 2 9b?"],
    "zh": ["实验室有4张V100 32G，能LoRA微调 Gemma 2 9B 吗，还是全参微调", "我们有 4 张 V100 32G，Gemma 2 9B 全参微调还是 LoRA 微调"],
}
CONCEPT_NEXT = {
    "en": ["ok and v100 doesnt do bf16 right? does that change anything", "does v100 support bf16?"],
    "zh": ["V100 不支持 bf16 对吧，那怎么办", "V100 支持 bf16 吗"],
}


@pytest.mark.parametrize(("first", "nxt"), [(f, n) for lang in ("en", "zh") for f in METHOD_FIRST[lang]
                                            for n in CONCEPT_NEXT[lang]])
def test_a_method_comparison_keeps_the_fine_tuning_phase(first: str, nxt: str) -> None:
    state, replies = _run([first])
    assert state["profile"]["phase"] == "fine-tune"
    # "no nvlink": the PCIe form of the card (reading/links.py)
    assert state["profile"]["owned"] == ["4x v100-pcie-32gb" if "no nvlink" in first else "4x v100-sxm2-32gb"]
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in first) else "en"
    assert say(lang, "method_compare.offer.cards_known") in replies[-1]  # the cards are known: not asked for
    state, replies = _run([first, nxt])
    assert state["profile"]["phase"] == "fine-tune"
    assert _payload(state).get("slot") != "phase"
    assert question("phase", lang).text not in replies[-1]


def test_an_answer_to_a_question_asks_nothing_already_known() -> None:
    for turns in (["准备部署 Llama 3.1 70B，想用两张 4090，行不行", "那换成 4 张呢",
                   "算了还是直接上 Qwen2.5-14B 吧，两张 4090 够不够，并发 20 左右", "内部用，工作时间"],
                  ["serve llama 3.1 70b on two 4090s, will that work?", "what about 4 of them",
                   "ok go with qwen2.5 14b instead, 2 4090s, about 20 concurrent", "internal use, working hours"]):
        state, _ = _run(turns)
        assert _payload(state)["kind"] != "question"
        assert state["profile"]["model"] == "qwen2.5-14b" and state["profile"]["users"] == 20
        assert state["profile"]["utilisation"] == pytest.approx(0.24, abs=0.01)


# ---------------------------------------------------------------- 4. a change that moves nothing says so

ALREADY = {
    "en": ("serve llama 3.1 8b for 20 users on an h100", ["what if i quantize it to fp8", "what about fp8?",
                                                          "and in fp8?"]),
    "zh": ("用一张 H100 部署 Llama 3.1 8B，20 个人同时用", ["那量化成 fp8 呢", "换成 fp8 呢", "用 FP8 的话呢"]),
}


@pytest.mark.parametrize(("lang", "change"), [(lang, c) for lang, (_f, cs) in ALREADY.items() for c in cs])
def test_a_change_to_what_the_plan_already_used_says_nothing_moved(lang: str, change: str) -> None:
    first = ALREADY[lang][0]
    before, _ = _run([first])
    assert before["results"]["recommend"]["best"]["precision"] == "fp8"
    state, replies = _run([first, change])
    best = state["results"]["recommend"]["best"]
    assert (best["gpus"], best["gpu"], best["precision"]) == (1, "h100-sxm", "fp8")
    head = say(lang, "moved.nothing_precision", precision="FP8", option="§").partition("§")[0]
    assert head in replies[-1]
    assert say(lang, "whatif.before.head", this="§", was="§").partition("§")[0] not in replies[-1]


# ---------------------------------------------------------------- 5. the model and the method moved together

BOTH_MOVED = {
    "en": ("our lab has 8x V100 32GB, can we full finetune llama 3.1 8b?",
           ["ok what about qlora on 70b then", "what about qlora on the 70b instead?", "and qlora on llama 3.1 70b?"]),
    "zh": ("实验室有 8 张 V100 32G，想全参微调 Llama 3.1 8B，能行吗", ["那 70B 用 QLoRA 呢", "换成 70B 用 QLoRA 呢"]),
}


@pytest.mark.parametrize(("lang", "change"), [(lang, c) for lang, (_f, cs) in BOTH_MOVED.items() for c in cs])
def test_model_and_method_moved_are_said_and_compared_on_the_new_model(lang: str, change: str) -> None:
    state, replies = _run([BOTH_MOVED[lang][0], change])
    profile = state["profile"]
    assert profile["model"] == "llama-3.1-70b" and profile["method"] == "qlora"
    assert profile["owned"] == ["8x v100-sxm2-32gb"]
    best = state["results"]["recommend"]["best"]
    assert (best["gpus"], best["gpu"]) == (8, "v100-sxm2-32gb")
    switch = _payload(state)["method_switch"]
    assert switch["code"] == "model_moved" and switch["old_model"] == "llama-3.1-8b"
    assert switch.get("weighed")  # the full fine-tune sized on the 70B, not the 8B's run
    text = replies[-1]
    assert "Llama 3.1 8B → Llama 3.1 70B" in text
    assert say(lang, "whatif.before.head", this="§", was="§").partition("§")[0] not in text


# ---------------------------------------------------------------- 6. another model and 'how fast': one answer

SPEED = {
    "en": ("i have a 2080 ti 22gb modded, can it run gemma 3 27b?", ["what about 12b then, how fast is it",
                                                                     "and the 12b? how fast"]),
    "zh": ("我自己有台 2080Ti 22G 魔改版，想跑 Gemma 3 27B 行不行", ["那跑 12B 的呢，速度大概多少", "12B 的呢？速度多少"]),
}


@pytest.mark.parametrize(("lang", "change"), [(lang, c) for lang, (_f, cs) in SPEED.items() for c in cs])
def test_a_speed_asked_with_another_model_is_answered_for_the_new_model(lang: str, change: str) -> None:
    state, replies = _run([SPEED[lang][0], change])
    assert state["profile"]["model"] == "gemma-3-12b"
    assert state["profile"]["owned"] == ["1x rtx-2080-ti-22gb"] or state["profile"]["owned"][0].startswith("1x ")
    text = replies[-1]
    assert not text.startswith("**1.")  # one answer, not split into two parts
    best = state["results"]["recommend"]["best"]
    assert f"{round(best['decode_tokens_per_s'])} token" in text


# ---------------------------------------------------------------- 7. two widths asked: the other named card too

WIDTHS = {
    "en": ("llama 3.1 405b for on-prem, p95 under 100ms per token, ~10 concurrent users. buy h100 or h200?",
           ["ok and if we go fp8 vs bf16?", "fp8 or bf16?", "what's the difference between fp8 and bf16 here"]),
    "zh": ("本地部署 Llama 3.1 405B，10 个人同时用，买 H100 还是 H200",
           ["那 fp8 和 bf16 比呢", "fp8 跟 bf16 比怎么样", "用 fp8 还是 bf16"]),
}


@pytest.mark.parametrize(("lang", "ask"), [(lang, a) for lang, (_f, asks) in WIDTHS.items() for a in asks])
def test_two_widths_are_checked_on_the_other_card_named_too(lang: str, ask: str) -> None:
    state, replies = _run([WIDTHS[lang][0], ask])
    data = _payload(state)["results"]["precision_compare"]
    plan = (data["gpus"], data["gpu"])
    other = {(r["gpu"], r["precision"]): r for r in data["named"]}
    assert plan[1] in ("h200", "h100-sxm") and {g for g, _p in other} == {"h100-sxm", "h200"} - {plan[1]}
    if plan[1] == "h200":  # 405B in BF16 (812 GB of weights) does not fit 8 × 80 GB; FP8 does
        assert other[("h100-sxm", "bf16")]["fits"] is False and other[("h100-sxm", "fp8")]["fits"] is True
        assert say(lang, "fup.prec.named_no", fmt="BF16", need="§", have="§").partition("§")[0] in replies[-1]
    assert state["profile"]["model"] == "llama-3.1-405b" and state["profile"]["users"] == 10


# ---------------------------------------------------------------- 8. a new count: the first line in the plan's format

RECOUNT = {
    "en": ("serve llama 3.1 70b on two 4090s, will that work?", ["what about 4 of them", "and with 4 cards?"]),
    "zh": ("准备部署 Llama 3.1 70B，想用两张 4090，行不行", ["那换成 4 张呢", "4 张呢"]),
}


@pytest.mark.parametrize(("lang", "count"), [(lang, c) for lang, (_f, cs) in RECOUNT.items() for c in cs])
def test_a_new_count_is_answered_in_the_format_the_plan_uses(lang: str, count: str) -> None:
    state, replies = _run([RECOUNT[lang][0], count])
    best = state["results"]["recommend"]["best"]
    assert (best["gpus"], best["gpu"]) == (4, "rtx-4090")
    first = replies[-1].split("\n", 1)[0]
    sep = "，" if lang == "zh" else ", "
    assert f"{best['precision']}{sep}" in first, first  # the format of the plan below, not another engine's
    assert state["profile"]["model"] == "llama-3.1-70b" and state["profile"]["phase"] == "serve"


# ---------------------------------------------------------------- 9. answers to questions keep the cards named

ANSWERED = [
    (["4090 和 5090 选哪个，主要是本地跑大模型+偶尔微调 7B", "LoRA 吧"], {"rtx-4090", "rtx-5090"}, "lora"),
    (["4090 or 5090? mostly running llms locally plus the occasional 7b finetune", "lora"], {"rtx-4090", "rtx-5090"},
     "lora"),
    (["想微调 GLM-4-9B，用 A100 40G 还是 4090 划算一点，租的", "哦对了我们要全参微调，不是 LoRA", "数据 5 万条，每条 1k token"],
     {"a100-40gb-sxm", "rtx-4090"}, "full"),
    (["want to finetune glm-4-9b, renting: a100 40gb or 4090, which is better value?", "full fine-tune, not lora",
      "50k examples, about 1k tokens each"], {"a100-40gb-sxm", "rtx-4090"}, "full"),
]


@pytest.mark.parametrize(("turns", "cards", "method"), ANSWERED)
def test_answers_to_questions_keep_the_named_cards_and_ask_nothing_known(turns: list[str], cards: set[str],
                                                                        method: str) -> None:
    state, _replies = _run(turns)
    assert _payload(state)["kind"] == "answer"
    assert state["profile"]["method"] == method and state["profile"]["phase"] == "fine-tune"
    assert {g for _n, g in state["results"]["named"]} == cards
    assert cards <= {g for _n, g in _rows(state)}
    assert state.get("pending") is None


# ---------------------------------------------------------------- 10. 'enough?' still stands when the load comes next

STILL_ASKED = {
    "en": ("deploying gpt-oss-120b for our team, thinking one H100. enough?", "h100-sxm",
           ["about 120 people at once", "120 concurrent users"], 120),  # 50 fit one H100 with an FP8 KV cache
    "zh": ("我们公司打算部署 Qwen3-30B-A3B，问下一张 L20 48G 够吗", "l20", ["20-100 人吧，内部知识库问答", "大概 100 人同时用"], 100),
}


@pytest.mark.parametrize(("lang", "load"), [(lang, ld) for lang, (_f, _g, lds, _n) in STILL_ASKED.items() for ld in lds])
def test_a_count_asked_before_is_answered_again_for_the_load_given_next(lang: str, load: str) -> None:
    first, gpu, _loads, users = STILL_ASKED[lang]
    state, replies = _run([first, load])
    assert state["profile"]["users"] == users
    best = state["results"]["recommend"]["best"]
    assert best["gpu"] == gpu and best["gpus"] > 1  # one card does not hold them: the plan takes more of it
    pinned = _payload(state)["pinned"]
    assert (pinned["gpus"], pinned["gpu"]) == (1, gpu) and 0 < pinned["users_held"] < users
    head = say(lang, "pinned.short", users=users, model="§", option="", held="", precision="", tps="",
               plan="").partition("§")[0]
    assert replies[-1].startswith(head), replies[-1][:200]


# ---------------------------------------------------------------- 11. a training job: every fact survives a change

TRAIN_FIRST = {
    "en": "we own 8x A100 80GB, need to lora fine tune qwen2.5-14b on 200k samples avg 1.5k tokens, 2 epochs, must "
          "finish in 48h",
    "zh": "我们有 8 张 A100 80G，要 LoRA 微调 Qwen2.5-14B，20 万条数据，平均 1.5k token，2 个 epoch，48 小时内要跑完",
}
TRAIN_CHANGE = {
    "en": [("scrap that, qwen2.5 32b instead", "model", "qwen2.5-32b"), ("make it qwen2.5-32b", "model", "qwen2.5-32b"),
           ("ok what about qlora then", "method", "qlora"), ("qlora instead?", "method", "qlora")],
    "zh": [("算了，换成 Qwen2.5-32B", "model", "qwen2.5-32b"), ("改成 Qwen2.5-32B 吧", "model", "qwen2.5-32b"),
           ("那用 QLoRA 呢", "method", "qlora"), ("换成 QLoRA 吧", "method", "qlora")],
}
TRAIN_KEPT = {"phase": "fine-tune", "train_tokens": 300_000_000.0, "train_examples": 200_000, "epochs": 2.0,
              "seq_len": 1500, "deadline_hours": 48.0, "owned": ["8x a100-80gb-sxm"]}


@pytest.mark.parametrize(("lang", "change", "slot", "value"),
                         [(lang, c, s, v) for lang, rows in TRAIN_CHANGE.items() for c, s, v in rows])
def test_a_training_change_keeps_data_deadline_cards_and_region(lang: str, change: str, slot: str, value: str) -> None:
    state, replies = _run([TRAIN_FIRST[lang], change])
    profile = state["profile"]
    assert profile[slot] == value
    for key, kept in TRAIN_KEPT.items():
        assert profile[key] == kept, key
    assert profile["region"] == ("china" if lang == "zh" else "global")
    other = {"model": ("method", "lora"), "method": ("model", "qwen2.5-14b")}[slot]
    assert profile[other[0]] == other[1]  # the slot not changed stays as said
    best = state["results"]["recommend"]["best"]
    assert (best["gpus"], best["gpu"], best["owned"]) == (8, "a100-80gb-sxm", True)
    assert say(lang, "moved.head", items="§").partition("§")[0] in replies[-1]
    assert _payload(state).get("slot") is None  # nothing asked again
