"""Two jobs or two models in one conversation: the second is kept beside the first, never dropped or swapped in.

Generated over joiners, orders, numbers and both languages: the reader keeps the service as the job the
cards are sized for and the other in the `also` slot; the answer says how both sit on the plan's cards
(memory adds when both run at once; the other is checked in its own window when they take turns).
"""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.pairing import second_workload
from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.pair import PairInput, pair
from gpu_advisor.tools.recommend import Workload
from tests.conversation import run_conversation

CHAT_EN = ["a chatbot on qwen2.5 32b for {n} staff", "serve qwen2.5 32b to {n} users", "an internal chat assistant on "
           "qwen2.5 32b for {n} people"]
BATCH_EN = ["a weekly batch job summarising {k}k documents", "a nightly batch job that summarises {k}k documents",
            "a batch job classifying {k}k tickets every week"]
JOIN_EN = [", plus ", " and also ", ", as well as ", ". In addition, ", ", on top of that "]
NUMBERS = [(30, 50), (12, 200), (45, 8)]


@pytest.mark.parametrize("chat,batch,join,numbers", list(itertools.product(CHAT_EN, BATCH_EN, JOIN_EN, NUMBERS)))
def test_chat_plus_batch_keeps_both_english(chat: str, batch: str, join: str, numbers: tuple[int, int]) -> None:
    n, k = numbers
    for text in (chat.format(n=n) + join + batch.format(k=k), batch.format(k=k) + join + chat.format(n=n)):
        u = understand("we want " + text)
        assert u.updates["phase"] == "serve", text
        assert u.updates["model"] == "qwen2.5-32b", text
        assert n in (u.updates.get("users"), u.updates.get("population")), text
        assert "batch_items" not in u.updates, text
        assert u.second is not None, text
        assert u.second["phase"] == "batch" and u.second["batch_items"] == k * 1000, text
        assert u.second["together"] is False, text  # weekly / nightly: its own window


CHAT_ZH = ["白天给{n}个人聊天用", "给{n}个员工部署一个聊天助手", "白天{n}个人用qwen2.5-32b聊天"]
BATCH_ZH = ["晚上跑批量翻译", "夜里跑{k}万条文档的批量摘要", "周末跑一个批量任务，处理{k}万条数据"]


@pytest.mark.parametrize("chat,batch,sep,numbers", list(itertools.product(CHAT_ZH, BATCH_ZH, ["，", "；", " "], NUMBERS)))
def test_day_chat_night_batch_chinese(chat: str, batch: str, sep: str, numbers: tuple[int, int]) -> None:
    n, k = numbers
    text = chat.format(n=n) + sep + batch.format(k=k)
    u = understand(text)
    assert u.updates.get("phase") == "serve", text
    assert n in (u.updates.get("users"), u.updates.get("population")), text
    assert u.second is not None and u.second["phase"] == "batch", text
    assert u.second["together"] is False and u.second["together_said"] is True, text
    if "万" in batch.format(k=k):
        assert u.second["batch_items"] == k * 10_000, text


ADD_EN = ["also want {m} in the same window", "we also need {m} running at the same time", "plus {m} alongside it",
          "and also {m}, simultaneously", "in addition, {m} side by side"]
ADD_ZH = ["同时还要跑一个{m}", "另外还要{m}，一起跑", "还要再加一个{m}同时运行", "此外{m}也要并行跑"]
MODELS = [("qwen2.5-72b", "qwen2.5-72b"), ("llama 3.1 8b", "llama-3.1-8b"), ("Qwen2.5 14B", "qwen2.5-14b")]


@pytest.mark.parametrize("phrase,model", list(itertools.product(ADD_EN + ADD_ZH, MODELS)))
def test_added_model_is_read_as_an_addition(phrase: str, model: tuple[str, str]) -> None:
    u = understand(phrase.format(m=model[0]))
    assert u.second is not None, phrase
    assert u.second["model"] == model[1] and u.second["together"] is True, phrase


SWAP = ["use {m} instead", "switch to {m}", "rather than that, {m}", "换成{m}", "改用{m}", "不要了，换为{m}",
        "what about {m} instead?"]


@pytest.mark.parametrize("phrase,model", list(itertools.product(SWAP, MODELS)))
def test_a_swap_stays_a_swap(phrase: str, model: tuple[str, str]) -> None:
    u = understand(phrase.format(m=model[0]))
    assert u.second is None, phrase
    assert u.updates["model"] == model[1], phrase


@pytest.mark.parametrize("join", [" and also ", ", plus ", ", as well as "])
def test_two_served_models_in_one_message(join: str) -> None:
    u = understand(f"serve qwen2.5 32b for 50 users{join}llama 3.1 8b at the same time")
    assert u.updates["model"] == "qwen2.5-32b" and u.updates["users"] == 50
    assert u.second is not None and u.second["model"] == "llama-3.1-8b" and u.second["together"] is True


def _chat(model: str = "qwen2.5-32b", users: int = 20) -> Workload:
    return Workload(phase="serve", model=model, users=users, utilisation=0.24)


def test_together_memory_is_the_sum_and_sets_the_card_count() -> None:
    first = _chat()
    second = second_workload(first, {"phase": "serve", "model": "qwen2.5-72b"})
    one = pair(PairInput(first=first, second=second, gpu="h100-sxm", gpus=1, together=True))
    alone = pair(PairInput(first=first, second=second, gpu="h100-sxm", gpus=1, together=False))
    assert one.second_per_gpu_bytes is None or not one.fits  # 32B + 72B never share one 80 GB card
    assert one.gpus_needed is not None and one.gpus_needed > 1
    both = pair(PairInput(first=first, second=second, gpu="h100-sxm", gpus=one.gpus_needed, together=True))
    assert both.fits and both.second_per_gpu_bytes is not None
    assert both.term("together_per_gpu_bytes").value == pytest.approx(both.first_per_gpu_bytes
                                                                        + both.second_per_gpu_bytes)
    assert both.first_per_gpu_bytes + both.second_per_gpu_bytes <= both.capacity_bytes * 0.9
    assert alone.gpus_needed is not None and alone.gpus_needed <= one.gpus_needed  # in turns only the larger counts


def test_apart_batch_is_checked_for_its_run_time() -> None:
    first = _chat(users=7).model_copy(update={"serve_precision": "int8"})
    second = second_workload(first, {"phase": "batch", "batch_items": 50_000})
    assert second.model == "qwen2.5-32b" and second.batch_items == 50_000
    r = pair(PairInput(first=first, second=second, gpu="a100-80gb-sxm", gpus=1, together=False))
    assert r.fits and r.second_hours is not None and r.second_hours > 0


def test_conversation_chat_plus_weekly_batch_says_both() -> None:
    # a staff's tool is answered at once, busy in working hours (said, not asked: review T2-18)
    (reply,) = run_conversation(["we want a chatbot on qwen2.5 32b for 30 staff, plus a weekly batch job "
                                 "summarising 50k documents"])
    text = str(reply.content)
    assert "a batch job of Qwen2.5 32B" in text
    assert "for serving" in text.splitlines()[0]
    assert "50,000 items take about" in text and "in its own window" in text
    payload = reply.additional_kwargs["gpu_advisor"]
    assert payload["profile"]["phase"] == "serve" and payload["second_job"]["phase"] == "batch"
    assert reply.additional_kwargs["gpu_advisor"]["results"]["pair"]["second_hours"] > 0


@pytest.mark.parametrize("added", ["also want qwen2.5-72b in the same window", "同时还要跑一个qwen2.5-72b"])
def test_conversation_added_model_is_served_beside_not_swapped(added: str) -> None:
    replies = run_conversation(["serve qwen2.5 32b for 20 users", "working hours", added])
    last = replies[-1]
    payload = last.additional_kwargs["gpu_advisor"]
    assert payload["profile"]["model"] == "qwen2.5-32b"
    assert payload["second_job"]["model"] == "qwen2.5-72b" and payload["second_job"]["together"] is True
    result = last.additional_kwargs["gpu_advisor"]["results"]["pair"]
    assert result["gpus_needed"] >= result["gpus_planned"]
    text = str(last.content)
    assert "Qwen2.5 72B" in text and ("Both models at the same time" in text or "两个模型同时运行" in text)


def test_conversation_swap_replaces_the_model() -> None:
    replies = run_conversation(["serve qwen2.5 32b for 20 users", "working hours", "use qwen2.5-72b instead"])
    payload = replies[-1].additional_kwargs["gpu_advisor"]
    assert payload["profile"]["model"] == "qwen2.5-72b" and "second_job" not in payload


def test_chinese_day_night_answer_is_all_chinese() -> None:
    reply = run_conversation(["白天给20个人聊天用，晚上跑批量翻译", "8B"])[-1]
    text = str(reply.content)
    assert "错开时间运行" in text and "批量任务" in text
    assert "in its own window" not in text


NOT_ADDED = ["部署{m}，大概10个用户同时用", "大概100人 其实同时在线也就二三十个吧 部署{m}", "serve {m} to 20 users, we also have 4 a100s",
             "fine-tune {m} and also serve it to 20 users", "{m} for 30 people at the same time",
             "serve {m} to 20 users and also run it in 4-bit"]


@pytest.mark.parametrize("phrase,model", list(itertools.product(NOT_ADDED, MODELS)))
def test_people_at_once_or_a_trailing_also_adds_no_model(phrase: str, model: tuple[str, str]) -> None:
    u = understand(phrase.format(m=model[0]))
    assert u.second is None, phrase
    assert u.updates["model"] == model[1], phrase


def test_a_model_said_again_in_a_later_turn_is_no_second_model() -> None:
    replies = run_conversation(["serve qwen2.5 32b for 20 users", "working hours", "部署qwen2.5-72b，大概10个用户同时用"])
    payload = replies[-1].additional_kwargs["gpu_advisor"]
    assert payload["profile"]["model"] == "qwen2.5-72b" and "second_job" not in payload


@pytest.mark.parametrize("message", [
    "serve llama 3.1 8b for 10 users during working hours, plus a nightly batch job on qwen2.5 72b over 20k documents",
    "白天给10个人用llama 3.1 8b聊天，晚上用qwen2.5 72b跑2万条批量翻译"])
def test_the_larger_job_in_its_own_window_sizes_the_cards(message: str) -> None:
    reply = run_conversation([message])[-1]
    payload = reply.additional_kwargs["gpu_advisor"]
    assert payload["profile"]["model"] == "llama-3.1-8b" and payload["second_job"]["model"] == "qwen2.5-72b"
    assert payload["second_job"]["batch_items"] == 20_000 and payload["second_job"]["together"] is False
    pair_result = payload["results"]["pair"]
    assert not pair_result["fits"] and pair_result["gpus_needed"] > pair_result["gpus_planned"]
    assert pair_result["second_hours"] > 0
    head = str(reply.content).splitlines()[0]
    assert f"{pair_result['gpus_needed']} × " in head


@pytest.mark.parametrize("message", ["serve qwen2.5 32b for 20 users plus falcon-h9 alongside",
                                     "serve qwen2.5 32b for 20 users, and also falcon-h9 at the same time",
                                     "给20个人部署qwen2.5 32b，同时还要跑falcon-h9"])
def test_an_unknown_second_model_is_said_not_sized_in_place(message: str) -> None:
    u = understand(message)
    assert u.updates["model"] == "qwen2.5-32b" and u.updates.get("users") == 20
    assert u.unknown_model is None and "users_range" not in u.updates
    assert ("pair.unknown_second", {"name": "falcon-h9", "first": "Qwen2.5 32B"}) in u.notes


@pytest.mark.parametrize("joiner", [" plus ", ", plus ", " and also ", ", as well as "])
@pytest.mark.parametrize("users", [8, 20, 150])
def test_plus_before_a_second_clause_is_no_open_range(joiner: str, users: int) -> None:
    u = understand(f"serve qwen2.5 32b for {users} users{joiner}a nightly batch job over 5k documents")
    assert u.updates["users"] == users and "users_range" not in u.updates
    assert u.second is not None and u.second["batch_items"] == 5000
    assert understand(f"serve qwen2.5 32b for {users}+ users").updates["users_range"] == [users, None]
