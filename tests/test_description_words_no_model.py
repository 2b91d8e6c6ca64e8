"""Description words are no model names (review BR E10, C9; BS #13): a family whose name is an everyday word
('step', 'mamba') names a model only with a digit; Chinese words before a size ('更适合做7B') are no name; a format
said of the checkpoint ('bf16 by default', 'ships in bf16') describes the model, no format asked for."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

DESCRIPTIONS = ["hybrid mamba attention", "mamba attention layers", "a mamba hybrid", "mamba-style attention",
                "solar powered office", "one step at a time", "how long per step"]
SIZES = [("its 34B params", "34B"), ("34b parameters", "34B"), ("about 34 billion params", "34B"),
         ("7b params", "7B")]


@pytest.mark.parametrize(("words", "size"), [
    (", ".join(order), size)
    for (said, size), desc in itertools.product(SIZES, DESCRIPTIONS)
    for order in ((said, desc), (desc, said))])
def test_description_words_name_no_model(words, size):
    u = understand(words)
    assert u.unknown_model is None, (words, u.unknown_model)
    assert u.updates.get("model") == size, (words, u.updates)


@pytest.mark.parametrize(("text", "name"), [
    ("serve step-3 on 8 h100", "step-3"), ("serve step3 on 8 h100", "step3"), ("mamba 2.8b on a 4090", "mamba 2.8b"),
    ("serve solar 10.7b", "solar 10.7b"), ("can i run falcon-h1-34b on 2x l40s", "falcon-h1-34b")])
def test_a_family_with_a_digit_is_still_a_name(text, name):
    assert (understand(text).unknown_model or "").lower() == name


ZH_WORDS = ["我们更适合做{n}的", "L40S和A100哪个更适合做{n}模型推理啊", "哪个更适合{n}", "感觉跑{n}比较好", "应该做{n}的吧",
            "{n}够不够", "觉得{n}可以"]


@pytest.mark.parametrize(("text", "size"), [
    (t.format(n=n), n.upper()) for t, n in itertools.product(ZH_WORDS, ["7B", "14b", "70B"])])
def test_chinese_words_before_a_size_are_no_name(text, size):
    u = understand(text)
    assert u.unknown_model is None, (text, u.unknown_model)
    assert u.updates.get("model") == size, (text, u.updates)


@pytest.mark.parametrize(("text", "name"), [("用盘古星河-38B做客服", "盘古星河-38B"), ("自研的星河-38b", "星河-38b"),
                                            ("讯飞星火-13B能跑吗", "讯飞星火-13B"), ("用书生浦语 20B", "书生浦语 20B")])
def test_chinese_model_names_stay_names(text, name):
    assert understand(text).unknown_model == name


def test_a_step_in_an_rl_question_is_no_model():
    text = "实验室两台A800 80G 八卡机 nvlink，想用verl跑GRPO 训Qwen3-8B 数学推理，每个prompt采样16条，最长回复8k，能跑吗 大概多久一个step"
    u = understand(text)
    assert u.unknown_model is None and u.updates.get("model") == "qwen3-8b", u.updates


CHECKPOINT = ["bf16 by default", "it is bf16 by default", "the checkpoint ships in bf16", "weights are bf16",
              "released in bf16", "权重默认是bf16的", "它默认是bf16的权重", "权重是bf16"]


@pytest.mark.parametrize("said", CHECKPOINT)
@pytest.mark.parametrize("lead", ["its 34B params, hybrid mamba attention, {}", "{}, 34b parameters"])
def test_a_checkpoint_format_described_is_no_format_asked(lead, said):
    got = understand(lead.format(said)).updates
    assert "precision" not in got, got
    assert got.get("model") == "34B", got


@pytest.mark.parametrize(("text", "fmt"), [("serve qwen2.5 7b in bf16", "bf16"), ("bf16 weights please", "bf16"),
                                           ("the weights are bf16, serve it in fp8", "fp8"), ("deploy llama 3.1 8b bf16", "bf16"),
                                           ("用bf16部署qwen2.5 7b", "bf16")])
def test_a_format_asked_for_still_is(text, fmt):
    assert understand(text).updates.get("precision") == fmt


def test_the_description_keeps_the_unknown_model_and_its_format_choice():
    states = run_states(["can i serve falcon-h1-34b on 2x L40S for an internal tool?",
                         "its 34B params, hybrid mamba attention, bf16 by default"])
    reply = states[-1]["messages"][-1].content
    assert "mamba attention" not in reply
    assert states[-1]["profile"]["model"] == "34B"
    assert states[-1]["profile"].get("precision") is None
