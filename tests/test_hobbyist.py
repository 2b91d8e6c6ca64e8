"""One person on their own card or Mac (issue 21, levers of issue 22 item 3): the model asked is kept (a
lower-bit file, part of it in system RAM, or the same family's smaller size, never another family unasked);
a MoE model's experts in system RAM are sized (--n-cpu-moe, the RAM it takes, a tokens/s range); one person's
own job asks nothing about utilisation or users. Generated over model x card x RAM x language x phrasing."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.advice import workload_for
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.slots import next_slot
from gpu_advisor.knowledge import find_model
from gpu_advisor.tools.models import smaller_in_family
from gpu_advisor.tools.offload import OffloadInput, offload
from gpu_advisor.tools.recommend import recommend

# (model id, how people write it)
MODELS = [("gemma-3-27b", ["Gemma 3 27B", "gemma3 27b", "gemma-3-27b"]),
          ("qwen3-32b", ["Qwen3 32B", "qwen3-32b", "qwen 3 32b"]),
          ("llama-3.1-70b", ["Llama 3.1 70B", "llama3.1 70b"])]
MOE = [("qwen3-30b-a3b", ["qwen3 30b a3b", "Qwen3-30B-A3B"]), ("gpt-oss-120b", ["gpt-oss-120b", "gpt oss 120b"])]
CARDS = [("rtx-4080", ["16GB 4080", "4080", "RTX 4080"]), ("rtx-4060-ti-16gb", ["4060 Ti 16G", "4060ti 16gb"]),
         ("rtx-3060-12gb", ["3060 12gb", "RTX 3060 12GB"]), ("rtx-4090", ["4090", "RTX 4090"])]
RAM = [("64gb ram", 64.0), ("128GB RAM", 128.0), ("32 GB of system memory", 32.0), ("96gb ddr5", 96.0)]
RAM_ZH = [("64G内存", 64.0), ("128G内存", 128.0), ("内存32G", 32.0)]
EN = ["{model} on my {card}", "{model} on my {card} with {ram}", "can I run {model} on my {card}? I have {ram}",
      "I have a {card} and {ram}, want to run {model}", "my rig: {card}, {ram}. {model}?"]
ZH = ["{model} {card} + {ram}", "我的{card}能跑{model}吗，{ram}", "想在自己的{card}上跑{model}，{ram}",
      "我有一张{card}，{ram}，想本地跑{model}"]


def _case(template: str, model: str, card: str, ram: str) -> str:
    return template.format(model=model, card=card, ram=ram)


def _cases(models, templates, rams):
    for (mid, names), (cid, cards), (ram, gb), template in itertools.product(models, CARDS, rams, templates):
        yield _case(template, names[sum(map(ord, template)) % len(names)], cards[len(template) % len(cards)], ram), mid, cid, \
            gb if "{ram}" in template else None


READ_CASES = list(_cases(MODELS + MOE, EN, RAM)) + list(_cases(MODELS + MOE, ZH, RAM_ZH))


@pytest.mark.parametrize(("text", "model", "card", "gb"), READ_CASES)
def test_the_card_in_your_computer_is_yours_and_its_ram_is_read(text: str, model: str, card: str, gb: float | None):
    u = understand(text)
    assert u.updates.get("model") == model, text
    assert u.updates.get("system_ram_gb") == gb, text
    if gb is not None or "my" in text or "我的" in text or "自己" in text or "I have" in text:
        assert u.updates.get("owned") == [f"1x {card}"], text


PERSONAL_EN = ["just me", "only me", "it's just me", "for myself", "personal use", "personal project",
               "hobby project", "on my laptop", "on my mac", "for my personal learning"]
PERSONAL_ZH = ["自己用", "个人学习用", "个人使用", "就我一个人用", "自用", "个人项目"]
JOBS_EN = ["I want to run {model}, {p}", "{p}: want to serve {model}", "run {model} locally, {p}"]
JOBS_ZH = ["{p}，想跑一下{model}", "想部署{model}，{p}", "{model}本地跑，{p}"]


@pytest.mark.parametrize(("text"), [t.format(model=m, p=p) for t, m, p in itertools.product(
    JOBS_EN, ["qwen3 14b", "Llama 3.1 8B", "gemma 3 12b"], PERSONAL_EN)] + [t.format(model=m, p=p) for t, m, p in
    itertools.product(JOBS_ZH, ["qwen3 14b", "Llama 3.1 8B"], PERSONAL_ZH)])
def test_one_person_is_asked_nothing_about_utilisation_or_users(text: str):
    u = understand(text)
    assert u.updates.get("personal") is True, text
    profile = {"phase": "serve", **u.updates}
    asked: list[str] = []
    while (slot := next_slot(profile, {}, asked)) is not None:
        asked.append(slot)
    assert "utilisation" not in asked and "users" not in asked, (text, asked)


@pytest.mark.parametrize("text", ["not just me, the whole team of 30 uses it", "不是自己用，给全公司用",
                                  "we serve 40 nurses", "for our 200 staff"])
def test_a_team_is_not_one_person(text: str):
    assert not understand(text).updates.get("personal"), text


def test_one_person_rents_by_the_hour_at_a_few_hours_a_week():
    profile = Profile(phase="serve", model="qwen3-14b", personal=True)
    w = workload_for(profile)
    assert w.utilisation == pytest.approx(0.05) and w.users == 1 and w.personal


@pytest.mark.parametrize(("model", "smaller"), [("gemma-3-27b", "gemma-3-12b"), ("llama-3.1-70b", "llama-3.1-8b"),
                                                ("llama-3.3-70b", "llama-3.1-8b"), ("qwen3-32b", "qwen3-30b-a3b"),
                                                ("gpt-oss-120b", "gpt-oss-20b"), ("qwen3-235b-a22b", "qwen3-32b")])
def test_the_smaller_size_is_of_the_same_family(model: str, smaller: str):
    found = smaller_in_family(model)
    assert found[0] == smaller
    family = find_model(model).family
    assert all(find_model(m).family == family for m in found)


def _home(model: str, card: str, ram: float | None = None, mac: bool = False):
    w = workload_for(Profile(phase="serve", model=model, owned=[f"1x {card}"], system_ram_gb=ram))
    return recommend(w)


@pytest.mark.parametrize(("model", "card"), list(itertools.product(
    ["gemma-3-27b", "qwen3-32b", "llama-3.1-70b", "qwen3-30b-a3b", "gpt-oss-120b"],
    ["rtx-4080", "rtx-4060-ti", "rtx-3060-12gb", "apple-m1-pro-32gb"])))
def test_never_another_family_unasked(model: str, card: str):
    rec = _home(model, card)
    assert find_model(rec.model_id).family == find_model(model).family, (model, card, rec.model_id)


@pytest.mark.parametrize(("model", "card"), [("gemma-3-27b", "rtx-4080"), ("qwen3-32b", "rtx-4060-ti-16gb"),
                                             ("llama-3.1-70b", "rtx-4090")])
def test_a_dense_model_a_card_too_small_for_keeps_the_model_in_fewer_bits(model: str, card: str):
    rec = _home(model, card)
    assert rec.model_id == model and rec.best is not None and rec.best.owned
    assert rec.relaxed in ("q3_k_m", "q2_k", "iq2_m", "iq2_s", "iq2_xs", "iq2_xxs"), rec.relaxed
    assert rec.offload is not None and rec.offload.mode == "layers"
    assert 0 < rec.offload.gpu_layers < rec.offload.layers
    assert not rec.offload_leads  # a lower-bit file all on the card comes first for a dense model


@pytest.mark.parametrize(("model", "card", "ram"), [("qwen3-30b-a3b", "rtx-3060-12gb", 64.0),
                                                    ("gpt-oss-120b", "rtx-4090", 128.0),
                                                    ("gpt-oss-120b", "rtx-3060-12gb", 64.0)])
def test_moe_experts_in_ram_lead_when_the_ram_holds_them(model: str, card: str, ram: float):
    rec = _home(model, card, ram)
    o = rec.offload
    assert o is not None and o.mode == "experts" and o.ram_ok and rec.offload_leads
    assert o.cpu_moe_layers and 0 < o.cpu_moe_layers <= o.layers and f"--n-cpu-moe {o.cpu_moe_layers}" in o.flags
    assert o.ram_needed_gb <= ram and o.gpu_gb * 1e9 <= o.terms[0].value + 1
    slow, fast = o.decode_tokens_per_s_range
    assert slow < o.decode_tokens_per_s < fast < o.all_on_card_tokens_per_s * 2


def test_too_little_ram_says_so_and_does_not_lead():
    rec = _home("gpt-oss-120b", "rtx-4090", 32.0)
    assert rec.offload is not None and rec.offload.ram_ok is False and not rec.offload_leads


@pytest.mark.parametrize(("model", "card"), itertools.product(
    ["gemma-3-27b", "qwen3-32b", "llama-3.1-70b", "qwen3-30b-a3b", "gpt-oss-120b", "mixtral-8x7b"],
    ["rtx-4080", "rtx-3060-12gb", "rtx-4090", "rtx-3090"]))
def test_offload_split_fits_the_card_and_ram_carries_the_rest(model: str, card: str):
    o = offload(OffloadInput(model=model, gpu=card))
    cap = 0
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.inference import usable_bytes
    cap = usable_bytes(find_gpu(card))
    assert o.gpu_gb * 1e9 <= cap
    if o.mode == "layers":
        assert o.cpu_moe_layers is None and o.flags == f"-ngl {o.gpu_layers}"
    # the more RAM-side bytes, the slower than all on a card
    assert o.decode_tokens_per_s <= o.all_on_card_tokens_per_s * 1.001


def test_a_mac_has_nothing_to_offload_to():
    from gpu_advisor.tools.common import ToolError
    with pytest.raises(ToolError):
        offload(OffloadInput(model="llama-3.1-70b", gpu="apple-m1-pro-32gb"))


# A few conversations, turn by turn.
def test_ram_said_after_the_answer_sizes_the_split_for_it():
    from tests.conversation import payload, run_conversation

    first, second = run_conversation(["Gemma 3 27B on my 16GB 4080", "I have 32gb ram"])
    assert payload(first)["decision"]["model"] == "gemma-3-27b"
    assert "how much does your computer have?" in first.content and "`llama-server -ngl " in first.content
    d = payload(second)["decision"]
    assert d["model"] == "gemma-3-27b" and d["owned"] and d["gpu"] == "rtx-4080"
    assert "your 32 GB holds it" in second.content


def test_chinese_moe_on_a_small_card_then_its_ram_puts_the_experts_in_ram():
    from tests.conversation import payload, run_conversation

    first, second = run_conversation(["我的3060 12G能跑qwen3 30b a3b吗", "内存64G"])
    assert payload(first)["decision"]["model"] == "qwen3-30b-a3b"
    head = second.content.splitlines()[0]
    assert "Qwen3 30B-A3B" in head and "一部分放在内存里" in head, head
    assert "--n-cpu-moe" in second.content and "你的 64 GB 够用" in second.content
    assert not any(word in second.content for word in ("Experts in system RAM", "tokens/s ("))  # no English


@pytest.mark.parametrize("turns", [["I want to run qwen3 14b, just me"], ["个人学习用，想跑一下qwen3 8b"],
                                   ["serve qwen3 14b", "just me"], ["部署qwen3 8b", "就我一个人用"],
                                   ["run llama 3.1 8b for myself"]])
def test_one_person_gets_the_answer_without_a_utilisation_question(turns: list[str]):
    from tests.conversation import payload, run_conversation

    last = run_conversation(turns)[-1]
    assert payload(last)["kind"] == "answer", last.content
    assert "How busy" not in last.content and "多忙" not in last.content


def test_one_person_whose_own_card_does_it_is_offered_no_rental():
    from tests.conversation import payload, run_conversation

    reply = run_conversation(["just me: run Gemma 3 27B on my 16GB 4080"])[-1]
    d = payload(reply)["decision"]
    assert d["action"] == "use" and d["owned"] and d["model"] == "gemma-3-27b"
    assert "Or rent" not in reply.content


@pytest.mark.parametrize("text", ["build a personal assistant for our 200 employees", "just me and 30 colleagues",
                                  "不光我自己用，给20个人用"])
def test_more_people_beside_me_is_no_personal_job(text: str):
    assert not understand(text).updates.get("personal"), text
