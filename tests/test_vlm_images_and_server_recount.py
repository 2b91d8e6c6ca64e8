"""Vision-language models people fine-tune, and the servers owned put right (review s29: 'two 8-card A6000 servers,
full fine-tune of InternVL3-38B on 200k image-text samples, or LoRA?' then '不好意思说错了，只有一台，8 张卡').

- InternVL3 (1B-78B) and Qwen2.5-VL (3B-72B) are on record: each resolves by its usual spellings, carries its language
  model's shape and its vision tower, and a fine-tune counts each example's image tokens (one image a sample unless
  said) with a training sequence that holds one example.
- A correction of the servers ('只有一台，8 张卡', 'sorry, just one box with 8 cards', 'three nodes, 8 cards each') keeps
  the card said before and replaces the count; it never asks which cards the servers hold.
- After the correction, a method weighed before on more cards than are left (a full fine-tune on 16) is said first to
  be out of reach, and the plan's method (LoRA) is the plan; the other method's plan says when it is at the edge of
  memory or spans servers.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import EXAMPLE_TOKENS, understand
from gpu_advisor.assistant.server_recount import servers_recounted
from gpu_advisor.knowledge import find_model
from tests.conversation import run_states

# (id, its language model on record, image tokens of a typical image, spellings)
INTERNVL = [
    ("internvl3-1b", "qwen2.5-0.5b", ["InternVL3-1B", "internvl3 1b", "OpenGVLab/InternVL3-1B"]),
    ("internvl3-2b", "qwen2.5-1.5b", ["InternVL3-2B", "internvl 3 2b", "internvl3-2b-instruct"]),
    ("internvl3-8b", "qwen2.5-7b", ["InternVL3-8B", "internvl3 8b", "OpenGVLab/InternVL3-8B-Instruct"]),
    ("internvl3-9b", None, ["InternVL3-9B", "internvl3 9b"]),
    ("internvl3-14b", "qwen2.5-14b", ["InternVL3-14B", "internvl3 14b", "InternVL3 14B"]),
    ("internvl3-38b", "qwen2.5-32b", ["InternVL3-38B", "internvl3 38b", "InternVL3 38B", "OpenGVLab/InternVL3-38B"]),
    ("internvl3-78b", "qwen2.5-72b", ["InternVL3-78B", "internvl3 78b", "internvl-3 78b"]),
]
QWEN_VL = [
    ("qwen2.5-vl-3b", "qwen2.5-3b", ["qwen2.5-vl-3b", "Qwen2.5 VL 3B", "Qwen/Qwen2.5-VL-3B-Instruct"]),
    ("qwen2.5-vl-7b", "qwen2.5-7b", ["qwen2.5-vl-7b", "Qwen2.5 VL 7B", "qwen 2.5 vl 7b"]),
    ("qwen2.5-vl-32b", "qwen2.5-32b", ["qwen2.5-vl-32b", "Qwen2.5 VL 32B", "Qwen/Qwen2.5-VL-32B-Instruct"]),
    ("qwen2.5-vl-72b", "qwen2.5-72b", ["qwen2.5-vl-72b", "Qwen2.5 VL 72B", "qwen2.5-vl-72b-instruct"]),
]
SPELLED = [(mid, name) for mid, _llm, names in INTERNVL + QWEN_VL for name in names]
ZH_JOB = ["想对 {name} 做 LoRA 微调，图文数据十万条", "{name} 全参微调，数据10万条，要什么卡", "用 {name} 微调，十万条样本"]
EN_JOB = ["fine-tune {name} with LoRA on 100k image-text samples", "full fine-tune of {name} on 100k examples",
          "we want to finetune {name}, 100k samples"]


@pytest.mark.parametrize(("mid", "name"), SPELLED)
def test_each_vlm_resolves_by_its_spellings(mid: str, name: str) -> None:
    assert find_model(name).id == mid
    assert find_model(name.lower()).id == mid


@pytest.mark.parametrize(("mid", "name", "template"),
                         [(m, n, t) for (m, n), t in itertools.product(SPELLED, ZH_JOB + EN_JOB)])
def test_each_vlm_is_read_from_a_message(mid: str, name: str, template: str) -> None:
    u = understand(template.format(name=name))
    assert u.updates.get("model") == mid
    assert u.updates.get("train_examples") == 100_000


@pytest.mark.parametrize(("mid", "llm"), [(m, llm) for m, llm, _n in INTERNVL + QWEN_VL if llm])
def test_vlm_carries_its_language_model_and_vision_tower(mid: str, llm: str) -> None:
    m, text = find_model(mid), find_model(llm)
    assert m.modality == "vision-language"
    shape = ("num_layers", "hidden_size", "intermediate_size", "num_attention_heads", "num_kv_heads", "head_dim")
    assert [getattr(m, k) for k in shape] == [getattr(text, k) for k in shape]
    # the language model's parameters, an output head of its own where the text model ties it (InternVL3 1B/2B), and
    # the vision tower make the whole (within the vocabulary's difference)
    head = m.vocab_size * m.hidden_size / 1e9 if text.tied_embeddings and not m.tied_embeddings else 0.0
    assert m.total_params_b == pytest.approx(text.total_params_b + head + m.vision_params_b, rel=0.03)
    assert m.image_tokens == (2560 if mid.startswith("internvl3") else 1369)


def test_internvl3_vision_towers_by_size() -> None:
    """InternViT-6B (5.5B) with the 38B and 78B, InternViT-300M with the others."""
    big = {m for m, _l, _n in INTERNVL if find_model(m).vision_params_b > 5}
    assert big == {"internvl3-38b", "internvl3-78b"}
    assert all(0.3 <= find_model(m).vision_params_b < 0.4 for m, _l, _n in INTERNVL if m not in big)


def _profile(states: list[dict]) -> dict:
    p = states[-1]["profile"]
    return p if isinstance(p, dict) else p.model_dump()


def _payload(state: dict) -> dict:
    return state["messages"][-1].additional_kwargs.get("gpu_advisor") or {}


@pytest.mark.parametrize(("mid", "text"), [
    ("internvl3-38b", "想对 InternVL3-38B 做 LoRA 微调，图文数据二十万条"),
    ("internvl3-8b", "internvl3 8b lora 微调，数据两万条"),
    ("qwen2.5-vl-7b", "fine-tune qwen2.5-vl-7b with LoRA on 50k samples"),
    ("qwen2.5-vl-72b", "LoRA fine-tune Qwen2.5 VL 72B on 20k examples"),
])
def test_training_examples_count_one_image_each(mid: str, text: str) -> None:
    states = run_states([text])
    p = _profile(states)
    each = EXAMPLE_TOKENS + find_model(mid).image_tokens
    assert p["model"] == mid
    assert p["train_tokens"] == p["train_examples"] * each
    assert states[-1]["results"]["recommend"]["workload"]["seq_len"] == each  # a sequence holds one example
    reply = states[-1]["messages"][-1].content
    assert f"{each:,}" in reply and f"{find_model(mid).image_tokens:,}" in reply  # the assumption said


def test_a_text_model_keeps_the_text_length() -> None:
    p = _profile(run_states(["想对 Qwen2.5-7B 做 LoRA 微调，数据二十万条"]))
    assert p["train_tokens"] == 200_000 * EXAMPLE_TOKENS


def test_a_length_said_is_not_grown_by_images() -> None:
    p = _profile(run_states(["fine-tune qwen2.5-vl-7b with LoRA on 50k samples of 3k tokens each"]))
    assert p["train_tokens"] == 50_000 * 3000


@pytest.mark.parametrize(("method", "key"), [("LoRA", "fig.vision_train.adapter"), ("全参", "fig.vision_train.full")])
def test_the_vision_tower_is_frozen_in_lora_and_trained_in_full(method: str, key: str) -> None:
    states = run_states([f"想对 InternVL3-8B 做{method}微调，图文数据两万条"])
    line = say("zh", key, model="InternVL3 8B", vision="0.33", tokens=2560, mb="0")
    assert line in states[-1]["messages"][-1].content


# ---- the servers put right of the card said before


def _own(n: int, per: int = 8) -> SimpleNamespace:
    return SimpleNamespace(owned=[f"{n}x rtx-a6000"], server_gpus=per)


@pytest.mark.parametrize(("servers", "said", "owned", "per"), [
    (1, None, "8x rtx-a6000", 8), (3, None, "24x rtx-a6000", 8),  # 'actually one box': of the server size said
    (1, 8, "8x rtx-a6000", 8), (3, 8, "24x rtx-a6000", 8),  # 'three nodes, 8 cards each'
    (2, 4, "8x rtx-a6000", 4),  # fewer cards in each
    (2, 12, "12x rtx-a6000", 6),  # more than one server held: the total over them
])
def test_servers_recounted_keep_the_card(servers: int, said: int | None, owned: str, per: int) -> None:
    updates = {"owned": [f"{said}x rtx-a6000"]} if said else {}
    assert servers_recounted(servers, _own(32), updates) == {"owned": [owned], "server_gpus": per}


def test_servers_recounted_leave_another_card_alone() -> None:
    assert servers_recounted(1, _own(16), {"owned": ["8x h100"]}) is None
    assert servers_recounted(1, SimpleNamespace(owned=["8x h100", "4x a100-80gb"], server_gpus=8), {}) is None


FIRST_ZH = "实验室有四台 8 卡 A6000 48G 服务器，想对 Qwen2.5-7B 做 LoRA 微调，数据二十万条"
FIRST_EN = "We have four servers with 8x A6000 48GB each and want to LoRA fine-tune Qwen2.5-7B on 200k examples"
ZH_N = {1: "一", 2: "两", 3: "三"}
ZH_FIX = ["不好意思说错了，只有{n}{w}，8 张卡", "其实是{n}{w}8卡的", "说错了，只有{n}{w}"]
ZH_WORDS = ["台", "个节点", "台服务器"]
EN_N = {1: "one", 2: "two", 3: "three"}
EN_FIX = ["sorry, just {n} {w} with 8 cards", "actually it's {n} {w}, 8 cards each", "sorry, only {n} {w}"]
EN_WORDS = {"box": "boxes", "server": "servers", "node": "nodes"}


def _no_card_question(reply: str, lang: str, servers: int) -> None:
    assert say(lang, "note.servers_without_cards", servers=str(servers)) not in reply


@pytest.mark.parametrize(("n", "template", "word"), list(itertools.product(ZH_N, ZH_FIX, ZH_WORDS)))
def test_zh_server_count_put_right(n: int, template: str, word: str) -> None:
    states = run_states([FIRST_ZH, template.format(n=ZH_N[n], w=word)])
    assert _profile(states)["owned"] == [f"{8 * n}x rtx-a6000"]
    _no_card_question(states[-1]["messages"][-1].content, "zh", n)


@pytest.mark.parametrize(("n", "template", "word"), list(itertools.product(EN_N, EN_FIX, EN_WORDS)))
def test_en_server_count_put_right(n: int, template: str, word: str) -> None:
    states = run_states([FIRST_EN, template.format(n=EN_N[n], w=word if n == 1 else EN_WORDS[word])])
    assert _profile(states)["owned"] == [f"{8 * n}x rtx-a6000"]
    _no_card_question(states[-1]["messages"][-1].content, "en", n)


# ---- the full fine-tune weighed on 16, then one server of 8

CASE = {
    "zh": ["实验室有两台 8 卡 A6000 48G 服务器，想对 InternVL3-38B 做全参微调，图文数据二十万条，能跑吗？不行的话 LoRA 呢",
           "不好意思说错了，只有一台，8 张卡"],
    "en": ["We have two servers with 8x A6000 48GB each. Full fine-tune InternVL3-38B on 200k image-text samples, "
           "or LoRA if that doesn't fit?", "sorry, just one box with 8 cards"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_full_fine_tune_out_after_the_correction_said_first(lang: str) -> None:
    first, second = run_states(CASE[lang])
    weighed = _payload(first).get("method_switch") or {}
    assert (weighed.get("weighed"), weighed.get("from"), weighed.get("to"), weighed.get("old_gpus")) == (True, "full", "lora", 16)
    # the full fine-tune on 16 cards spans the two servers: said with the network it needs
    assert say(lang, "switch.other_servers", servers="2") in first["messages"][-1].content
    said = _payload(second).get("consequence") or {}
    assert {k: said.get(k) for k in ("code", "method", "plan", "gpus", "old_gpus")} == \
        {"code": "method_out", "method": "full", "plan": "lora", "gpus": 8, "old_gpus": 16}
    reply = second["messages"][-1].content
    head = say(lang, "consequence.method_out.head", cards="8 × NVIDIA RTX A6000 48GB", other=say(lang, "mcmp.name.full"))
    plan = say(lang, "consequence.method_out.plan", plan="LoRA", used="", other="", had="16").partition("（")[0] \
        .partition(" (")[0]
    assert reply.index(head.strip()) < reply.index(plan) < reply.index("InternVL3 38B")  # first, before the figures
    assert _profile([second])["owned"] == ["8x rtx-a6000"] and _profile([second])["method"] == "lora"
    _no_card_question(reply, lang, 1)


def test_no_consequence_when_the_weighed_method_still_fits() -> None:
    """Qwen2.5-7B: a full fine-tune fits one server's 8 A6000 too, so the correction has nothing to say first."""
    states = run_states(["实验室有两台 8 卡 A6000 48G 服务器，想对 Qwen2.5-7B 做全参微调，数据二十万条，不行的话 LoRA 呢",
                         "不好意思说错了，只有一台，8 张卡"])
    assert "consequence" not in _payload(states[-1])


def test_full_fine_tune_at_the_edge_is_never_a_plain_fit() -> None:
    """A generic 38B sized at 1,000 tokens a sample: 16 A6000 at about 97% each, said as needing offload or more
    cards, beside the two servers it spans."""
    states = run_states(["实验室有两台 8 卡 A6000 48G 服务器，想对一个 38B 的模型做全参微调，数据二十万条，能跑吗？不行的话 LoRA 呢"])
    reply = states[-1]["messages"][-1].content
    edge = say("zh", "switch.other_edge", share="@", cap="51.0").partition("@")
    line = next(x for x in reply.split("\n") if x.startswith("**同样的任务用全参微调**"))
    assert edge[0] in line and edge[2] in line
    assert say("zh", "switch.other_servers", servers="2") in line
