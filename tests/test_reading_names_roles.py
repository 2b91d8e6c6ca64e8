"""Names and number roles (issue 21, expert review): a family and a size said as a follow-up keep the
conversation's generation; a text job gets the text model under a vision one; an unknown model said to be a
MoE is sized as one (active parameters as said, else assumed and said); a network speed is no card memory; a
share of people online is concurrency, not utilisation; items per day with a same-day deadline are a batch
job; an Ascend 910C card is two NPUs. Generated from names, sizes, orders and fillers in both languages."""

from __future__ import annotations

import itertools
import math

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.generation import same_generation
from gpu_advisor.knowledge import find_gpu, find_model
from gpu_advisor.knowledge.resolve import line_sibling, names_version, text_sibling
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- 1. the conversation's generation

LINES = [("qwen2.5-7b", "qwen", ["14b", "32b", "72b"]), ("llama-3.1-8b", "llama", ["70b"]),
         ("qwen2.5-vl-7b", "qwen", ["72b"]), ("qwen3-8b", "qwen", ["14b", "32b"]), ("qwen2.5-14b", "qwen", ["7b", "3b"])]
FOLLOW = {
    "named": ["what about {size} {fam}", "what about the {size} {fam}?", "try {fam} {size} instead", "{fam} {size}?",
              "ok and {size} {fam}", "how about {fam}-{size}", "换成{fam} {size}呢", "{size}的{fam}呢", "用{fam} {size}试试"],
    "bare": ["the {size} one", "what about {size}?", "actually {size}", "换成{size}的", "{size}的呢", "make it {size}"],
}


@pytest.mark.parametrize("kind", ["named", "bare"])
def test_a_family_and_size_said_after_keeps_the_generation(kind):
    n = 0
    for (current, fam, sizes), form in itertools.product(LINES, FOLLOW[kind]):
        for size in sizes:
            want = line_sibling(current, size)
            if want is None or (kind == "named" and find_model(current).family != find_model(want).family.split("-")[0]):
                continue  # "72b qwen" after Qwen2.5-VL 7B names the text family: not asserted here
            text = form.format(size=size.upper() if n % 2 else size, fam=fam.capitalize() if n % 3 else fam)
            new = understand(text).updates.get("model")
            kept = same_generation(current, new, text)
            got = kept[0] if kept else new  # the newest of that size may already be of this generation
            assert got == want, (current, text, new, kept)
            assert kept is None or kept[1] == (kind == "named"), (text, kept)
            n += 1
    assert n >= 40


@pytest.mark.parametrize("current, text", [
    ("qwen2.5-7b", "what about qwen3 14b"), ("qwen2.5-7b", "14b qwen3?"), ("qwen2.5-7b", "换成Qwen3-14B"),
    ("llama-3.1-8b", "llama 3.3 70b instead"), ("qwen2.5-7b", "what about 14b llama"), ("qwen2.5-7b", "what about 13b?"),
])
def test_a_version_another_family_or_a_missing_size_is_taken_as_said(current, text):
    new = understand(text).updates.get("model")
    kept = same_generation(current, new, text)
    if "qwen3" in text.lower():
        assert (kept[0] if kept else new) == "qwen3-14b", (text, new, kept)
    else:
        assert kept is None or kept[0] == new, (text, new, kept)


@pytest.mark.parametrize("first, follow, want, said", [
    ("serve qwen2.5 7b for 20 users around the clock", "what about 14b qwen", "qwen2.5-14b", "Qwen3 14B"),
    ("部署qwen2.5 7b给20人用，全天候", "换成32b的", "qwen2.5-32b", None),
    ("serve llama 3.1 8b for 20 users around the clock", "the 70b one", "llama-3.1-70b", None),
    ("serve qwen2.5 7b for 20 users around the clock", "what about qwen3 14b", "qwen3-14b", None),
])
def test_through_the_conversation(first, follow, want, said):
    _, second = run_conversation([first, follow])
    assert payload(second)["profile"]["model"] == want, second.content[:400]
    if said:
        assert said in second.content  # the newer one named as the option


# ---------------------------------------------------------------- 2. a text job gets the text model

MISTRAL = ["mistral small 24b", "Mistral Small 24B", "mistral-small-24b", "mistral small"]
TEXT_JOBS = ["classify support tickets with {m}", "summarise our emails using {m} for {n} agents", "serve {m} to {n} users",
             "{m} as an internal chatbot, {n} people", "用{m}给工单分类，{n}个客服用", "{m}做客服问答，{n}人用",
             "部署{m}给{n}个同事写周报"]
VISION_JOBS = ["{m} reading scanned invoices, one page per request, {n} users", "{m} to describe product photos for {n} users",
               "用{m}识别扫描件，{n}人用", "{m}看图回答问题，{n}人用", "serve {m} with images, {n} users"]


def test_a_text_job_gets_the_text_model_and_says_so():
    assert text_sibling("mistral-small-3.1-24b") == "mistral-small-3-24b"
    assert text_sibling("gemma-3-27b") is None  # Gemma 2 27B is another model, not Gemma 3 without its tower
    n = 0
    for form, m, users in itertools.product(TEXT_JOBS, MISTRAL, (8, 40)):
        u = understand(form.format(m=m, n=users))
        assert u.updates.get("model") == "mistral-small-3-24b", (form, m, u.updates)
        assert "note.text_model" in dict(u.notes) and "images_per_request" not in u.updates
        n += 1
    assert n >= 50


def test_images_scans_or_a_version_keep_the_vision_model():
    for form, m in itertools.product(VISION_JOBS, MISTRAL):
        u = understand(form.format(m=m, n=10))
        assert u.updates.get("model") == "mistral-small-3.1-24b", (form, m, u.updates)
    for text in ("serve mistral small 3.1 24b to 10 users", "mistral-small-3.1-24b-instruct-2503 for 10 users",
                 "serve mistral small 24b at 64k context to 5 users"):
        assert understand(text).updates.get("model") == "mistral-small-3.1-24b", text
    for text, want in (("serve mistral small 22b", "mistral-small-2409"), ("mistral small 2409 for 5 users", "mistral-small-2409"),
                       ("mistral small 3 for 5 users", "mistral-small-3-24b")):
        assert understand(text).updates.get("model") == want, text
    assert names_version("mistral-small-3.1-24b", "mistral small 3.1") and not names_version("mistral-small-3.1-24b", "mistral small 24b")


# ---------------------------------------------------------------- 3. an unknown MoE is sized as a MoE

UNKNOWN = ["Kimi K3", "Falcon-H9", "Acme-MoE-X", "our in-house model", "我们自研的模型"]
SHAPES = [(1, "T", 1000), (300, "B", 300), (480, "B", 480), (2, "T", 2000), (1.2, "T", 1200)]
WITH_ACTIVE = ["{name}, the {t}{u} MoE, {a}B active, for 50 users", "{name} ({t}{u} MoE, A{a}B) for 50 users",
               "serve {name}: a {t}{u} MoE with {a}B active to 50 users", "{name}是{t}{u}的MoE，激活{a}B，50人用",
               "{name}，{t}{u} MoE，激活参数{a}B，给50人用", "{name} — {t}{u} params, MoE, ~{a}B activated, 50 users"]
NO_ACTIVE = ["serve {name}, the {t}{u} MoE, for 50 users", "{name} is a {t}{u} mixture-of-experts model, 50 users",
             "{name}是{t}{u}的MoE，50人用", "部署{name}，{t}{u}的混合专家模型，50人用"]


def test_a_moe_with_its_active_parameters_is_sized_as_said():
    n = 0
    for name, (t, unit, total), form, a in itertools.product(UNKNOWN, SHAPES, WITH_ACTIVE, (20, 32)):
        text = form.format(name=name, t=t, u=unit, a=a)
        u = understand(text)
        assert u.updates.get("model") == f"{total}B-A{a}B", (text, u.updates)
        assert u.updates.get("users") == 50, (text, u.updates)
        n += 1
    assert n >= 150


def test_a_moe_without_its_active_parameters_is_assumed_and_said_never_dense():
    for name, (t, unit, total), form in itertools.product(UNKNOWN, SHAPES, NO_ACTIVE):
        text = form.format(name=name, t=t, u=unit)
        u = understand(text)
        spec = u.updates.get("model", "")
        assert spec.startswith(f"{total}B-A"), (text, u.updates)
        note = dict(u.notes)["note.moe_active_assumed"]
        assert note["total"] == f"{total}" and f"A{note['active']}B" in spec, (text, note)
        assert 0 < float(note["active"]) < total / 5
    kimi = dict(understand("serve Kimi K3, the 1T MoE, for 50 users").notes)["note.moe_active_assumed"]
    assert kimi["like"] == find_model("kimi-k2").name and kimi["active"] == "31"  # 1000 x 32/1040


@pytest.mark.parametrize("text, want", [("某个自研的70B dense模型，给100人用", "70B"), ("our own 70B dense model for 100 users", "70B"),
                                        ("Falcon-H9 is a 300B dense model, not MoE, 20 users", "300B")])
def test_a_dense_model_stays_dense(text, want):
    assert understand(text).updates.get("model") == want


def test_an_unknown_moe_through_the_conversation_says_the_assumption():
    (reply,) = run_conversation(["serve Kimi K3, the 1T MoE, for 50 users around the clock"])
    assert payload(reply)["profile"]["model"] == "1000B-A31B", reply.content[:300]
    assert "31B active" in reply.content and "Kimi K3" in reply.content


# ---------------------------------------------------------------- 4. a network speed is no card memory

CARDS = [("H100", "h100-sxm"), ("A100", "a100-80gb-sxm"), ("H800", "h800-sxm"), ("A800", "a800-80gb-sxm"), ("H20", "h20")]
NETWORK = ["we have {n}x {card} with {s}G infiniband", "we have {n} {card} over {s}Gb IB", "we own {n} {card}, {s}G RoCE",
           "我们有{n}张{card}，{s}G RoCE网卡", "我们有{n}卡{card} {s}G IB互联", "我们有{n}张{card}，{s}G infiniband"]


def test_a_network_speed_after_a_card_is_the_network():
    n = 0
    for (card, gpu_id), form, count, speed in itertools.product(CARDS, NETWORK, (4, 8), (100, 200, 400)):
        text = form.format(n=count, card=card, s=speed)
        u = understand(text)
        assert u.updates.get("owned") == [f"{count}x {find_gpu(gpu_id).id}"], (text, u.updates)
        assert u.updates.get("network") == "fast" and u.updates.get("network_gbit") == speed, (text, u.updates)
        assert "note.card_memory_as_stated" not in dict(u.notes), text
        n += 1
    assert n >= 150
    assert understand("we have 8x H100 with 400G infiniband").updates.get("network_gbit") == 400
    assert understand("we have 4x 4090 48g").updates.get("owned", [""])[0].startswith("4x ")  # a memory is still one


# ---------------------------------------------------------------- 5. a share of people online is concurrency

ONLINE = ["{p} staff, {s}% online at peak", "we have {p} employees and about {s}% of them are online at the same time",
          "{p} users, {s}% concurrent", "serve llama 3.1 8b to {p} users, peak concurrency is about {s}%",
          "{s}% of our {p} users are active at any one time", "员工{p}人，高峰{s}%在线", "全公司{p}人，高峰期大概有{s}%的人同时在线",
          "部署qwen2.5 7b给{p}人用，高峰{s}%同时在线", "全公司{p}人，峰值在线率{s}%"]


def test_a_share_online_is_people_at_once_not_utilisation():
    n = 0
    for form, p, s in itertools.product(ONLINE, (800, 3000, 12000), (2, 5, 10)):
        text = form.format(p=p, s=s)
        u = understand(text)
        assert "utilisation" not in u.updates, (text, u.updates)
        assert u.updates.get("users") == math.ceil(p * s / 100), (text, u.updates)
        assert u.updates.get("population") == p, (text, u.updates)
        assert dict(u.notes)["note.online_share"]["n"] == f"{math.ceil(p * s / 100):,}"
        n += 1
    assert n >= 60
    assert understand("the GPUs will be 50% busy, 20 users").updates.get("utilisation") == 0.5


# ---------------------------------------------------------------- 6. items per day with a deadline: batch

DAILY = ["nightly {n} docs must finish by 6am", "every day {n} documents, must finish the same day",
         "every night we get {n} tickets to classify with llama 3.1 8b, done before 7am",
         "{n} contracts a day to summarise overnight", "每天{n}份病历，当天跑完", "每晚{n}条记录要在早上6点前跑完，用qwen2.5 7b",
         "每天{n}份合同，当天处理完"]


def test_items_per_day_with_a_deadline_are_a_batch_job():
    n = 0
    for form, items in itertools.product(DAILY, (30000, 200000, 5000)):
        text = form.format(n=items)
        u = understand(text)
        assert u.updates.get("phase") == "batch" and u.updates.get("batch_items") == items, (text, u.updates)
        assert "users" not in u.updates, (text, u.updates)
        n += 1
    assert n >= 20


# ---------------------------------------------------------------- 7. the Ascend 910C is two NPUs

def test_the_910c_is_modelled_per_npu():
    g = find_gpu("910c")
    assert (g.memory_gb, g.npus_per_package, g.sold_in) == (64, 2, 16)
    for form, count in itertools.product(["{n}卡910C", "{n}张昇腾910C", "we have {n}x Ascend 910C", "我们有{n}张910C",
                                           "we own {n} huawei 910c cards"], (2, 4, 8)):
        u = understand(form.format(n=count) + "，部署qwen2.5 72b")
        assert u.updates.get("owned") == [f"{2 * count}x ascend-910c"], (form, u.updates)
        assert dict(u.notes)["note.npus_per_package"]["npus"] == f"{2 * count}"
    for text in ("我们有16个910C NPU", "we have 16 ascend 910c npus"):
        u = understand(text)
        assert u.updates.get("owned") == ["16x ascend-910c"] and "note.npus_per_package" not in dict(u.notes), text


def test_eight_910c_cards_make_one_sixteen_npu_server():
    (reply,) = run_conversation(["8卡910C 部署 qwen2.5 72b 给200人用"])
    assert payload(reply)["profile"]["owned"] == ["16x ascend-910c"]
    assert "16 个 NPU" in reply.content and "1 台 16 卡服务器" in reply.content


@pytest.mark.parametrize("first, follow, users", [
    ("serve llama 3.1 70b to 3000 staff, working hours", "only about 5% are online at peak", 150),
    ("部署qwen2.5 32b给全院2000人用，工作时间", "高峰大概10%在线", 200),
])
def test_a_share_online_said_after_the_people_counts_them(first, follow, users):
    _, second = run_conversation([first, follow])
    profile = payload(second)["profile"]
    assert profile["users"] == users and profile.get("utilisation") != 0.05, second.content[:300]


@pytest.mark.parametrize("text", ["银行内部部署deepseek v3满血版 首token小于1秒 可用性99.9% 并发两百",
                                  "99.9% uptime, 200 concurrent users, serve llama 3.1 70b"])
def test_an_uptime_before_a_count_at_once_stays_an_uptime(text):
    u = understand(text)
    assert u.updates.get("uptime") == 99.9 and u.updates.get("users") == 200, u.updates
