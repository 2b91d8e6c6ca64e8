"""Names reviews found replaced or dropped (review CQ, CR): Llama 3.2 Vision 11B/90B were sized as a generic 90B with
"Llama 3.2 comes in 1B/3B"; the RX 7900 XT (20 GB) and 7900 GRE were unknown; a card the catalog does not hold,
named with its memory ('Radeon Pro W7800 (32gb)', 'Arc A770 16G'), disappeared or lost the memory said; and
'serving X (our own finetune)' / 'serve a finetune of mistral' planned a fine-tune. Each class is crossed over its
spellings, orders and both languages."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, find_model
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from tests.conversation import run_conversation

# --- Llama 3.2 Vision --------------------------------------------------------------------------------------------

VISION_NAMES = {
    "llama-3.2-90b-vision": ["Llama 3.2 90B Vision", "llama3.2-vision:90b", "llama-3.2-90b-vision-instruct",
                             "llama 3.2 vision 90b", "Llama-3.2-90B-Vision", "meta-llama/Llama-3.2-90B-Vision-Instruct"],
    "llama-3.2-11b-vision": ["Llama 3.2 11B Vision", "llama3.2-vision:11b", "llama-3.2-11b-vision-instruct",
                             "llama 3.2 vision 11b", "llama3.2 11b"],
}


@pytest.mark.parametrize(("model_id", "name"), [(m, n) for m, names in VISION_NAMES.items() for n in names])
def test_llama_32_vision_names_resolve(model_id: str, name: str) -> None:
    assert find_model(name).id == model_id


@pytest.mark.parametrize(("model_id", "total", "cross", "state_mb"), [
    ("llama-3.2-11b-vision", 10.6, 8, 210), ("llama-3.2-90b-vision", 88.6, 20, 525)])
def test_llama_32_vision_shape(model_id: str, total: float, cross: int, state_mb: int) -> None:
    m = find_model(model_id)
    assert (m.total_params_b, m.recurrent_layers, m.state_kind, m.modality) == (total, cross, "image_cross_attention",
                                                                                 "vision-language")
    # the image's keys and values in the cross-attention layers: layers x K,V x 8 heads x 128 x 2 bytes x 6,404 patches
    assert m.recurrent_state_bytes == cross * 2 * 8 * 128 * 2 * 6404
    assert round(m.recurrent_state_bytes / 1e6) == state_mb


def test_image_state_is_counted_per_request() -> None:
    """Each sequence holds its image's keys and values: 10 users more hold 10 x 525 MB more than the text cache alone."""
    def kv(users: int) -> float:
        return inference_memory(InferenceMemoryInput(model="llama-3.2-90b-vision", precision="fp8", batch=users,
                                                     context=4096)).kv_cache_bytes
    m = find_model("llama-3.2-90b-vision")
    text_per_token = 2 * (m.num_layers - m.recurrent_layers) * m.num_kv_heads * m.head_dim * 2
    assert kv(20) - kv(10) == pytest.approx(10 * (4096 * text_per_token + m.recurrent_state_bytes), rel=0.001)


@pytest.mark.parametrize(("text", "lang"), [
    ("serve llama 3.2 90b vision to 20 users around the clock, images are invoices", "en"),
    ("we want Llama-3.2-11B-Vision for reading receipts, 10 people at once, one 4090 enough?", "en"),
    ("用llama 3.2 11b vision做发票识别，10个人同时用，一张4090够吗", "zh"),
    ("部署 Llama-3.2-90B-Vision-Instruct，20个用户同时用，全天候", "zh"),
])
def test_vision_answer_says_images_are_cross_attended(text: str, lang: str) -> None:
    reply = str(run_conversation([text])[-1].content)
    if lang == "zh":
        assert "图像不占上下文 token" in reply and "交叉注意力" in reply
        assert "1B/3B" not in reply and "通用" not in reply.split("\n\n")[0]
    else:
        assert "images are not tokens in its context" in reply and "cross-attention layers" in reply
        assert "1B/3B" not in reply and "generic" not in reply
    assert "MB" in reply


# --- AMD consumer cards on record --------------------------------------------------------------------------------

@pytest.mark.parametrize(("gpu_id", "memory", "bandwidth"), [("rx-7900-xt", 20, 800), ("rx-7900-gre", 16, 576)])
def test_rdna3_cards_on_record(gpu_id: str, memory: int, bandwidth: int) -> None:
    g = find_gpu(gpu_id)
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.vendor, g.stack, g.fp8_tflops) == (memory, bandwidth, "amd", "rocm",
                                                                                        None)
    assert "huggingface.co/hardware/" in g.source and "amd.com" in g.source


@pytest.mark.parametrize("name", ["RX 7900 XT", "rx7900xt", "Radeon RX 7900 XT", "7900 XT 20GB", "AMD Radeon RX 7900 XT"])
@pytest.mark.parametrize("template", ["I have an {c}. can it run qwen2.5 14b for coding? just me",
                                      "我有一张{c}，想本地跑qwen2.5 14b写代码，就我自己用"])
def test_7900_xt_owned_is_sized_on_it(name: str, template: str) -> None:
    u = understand(template.format(c=name))
    assert u.updates.get("owned") == ["1x rx-7900-xt"], u.updates
    assert not any(key.startswith("note.card_unknown") for key, _v in u.notes)


# --- a card the catalog does not hold, named with its memory -----------------------------------------------------

UNKNOWN = ["Radeon Pro W7800", "Arc A770", "Radeon VII", "Quadro P6000", "Pro W7900"]
MEMORY = [("({gb}gb)", "en"), (" {gb}G", "zh"), (" with {gb} GB", "en"), (" {gb}GB显存", "zh"), (", {gb}gb", "en")]


@pytest.mark.parametrize("card", UNKNOWN)
@pytest.mark.parametrize(("form", "lang"), MEMORY)
@pytest.mark.parametrize("gb", ["16", "32", "48"])
def test_unknown_card_keeps_the_memory_said(card: str, form: str, lang: str, gb: str) -> None:
    said = card + form.format(gb=gb)
    text = (f"我有一张{said}，能跑qwen2.5 7b吗，就我自己用" if lang == "zh"
            else f"I have a {said}. can it run qwen2.5 7b? just me")
    u = understand(text)
    notes = dict(u.notes)
    assert "note.card_unknown_memory" in notes, u.notes
    assert notes["note.card_unknown_memory"]["gb"] == gb
    assert notes["note.card_unknown_memory"]["name"].lower() == card.lower()
    # the memory is no headcount; the card is sized as the user's own, of the memory said (its bandwidth assumed)
    assert u.updates["users"] == 1
    [owned] = u.updates["owned"]
    assert owned.startswith(f"1x custom:memory={gb}GB,") and owned.endswith(f"name={card} {gb}GB"), owned


@pytest.mark.parametrize("card", UNKNOWN)
def test_unknown_card_without_memory_asks_for_both(card: str) -> None:
    u = understand(f"I have a {card}. can it run qwen2.5 7b? just me")
    assert "note.card_unknown" in dict(u.notes) and "note.card_unknown_memory" not in dict(u.notes)


@pytest.mark.parametrize(("text", "phrase"), [
    ("I have a Radeon Pro W7800 (32gb). can it run qwen2.5 14b for coding? just me", 'beyond the 32 GB you said'),
    ("我有一张Arc A770 16G，能跑qwen2.5 7b吗，就我自己用", "只知道你说的 16 GB 显存"),
])
def test_unknown_card_memory_is_said_back(text: str, phrase: str) -> None:
    assert phrase in str(run_conversation([text])[-1].content)


# --- 'our own finetune': a model, not a job ----------------------------------------------------------------------

MODEL_NOUN = ["serving {m} (our own finetune), 30 users at once", "serve a finetune of {m} for 30 users",
              "my fine-tune of {m} needs to serve 30 users", "deploying a fine-tune of {m}, 30 concurrent users",
              "we host our own fine tune of {m} for 30 users"]
JOB_NOUN = ["we want to do a finetune of {m} with lora", "our finetune job: {m} lora on 20k examples",
            "plan a fine-tune of {m} then serve it to 30 users"]


@pytest.mark.parametrize("template", MODEL_NOUN)
@pytest.mark.parametrize("model", ["mistral 7b", "llama 3.1 8b", "qwen2.5 14b"])
def test_finetune_as_a_model_serves(template: str, model: str) -> None:
    assert understand(template.format(m=model)).updates.get("phase") == "serve"


@pytest.mark.parametrize("template", JOB_NOUN)
@pytest.mark.parametrize("model", ["mistral 7b", "llama 3.1 8b", "qwen2.5 14b"])
def test_finetune_as_a_job_trains(template: str, model: str) -> None:
    assert understand(template.format(m=model)).updates.get("phase") in ("fine-tune", "train-and-serve")


# --- developers counted beside a coding tool use it ---------------------------------------------------------------

CODERS_EN = ["programmers", "developers", "devs", "software engineers", "coders"]
CODERS_ZH = ["程序员", "开发", "开发者", "开发人员", "研发"]
TOOLS_EN = ["want a self-hosted coding assistant with qwen2.5-coder 32b", "looking for a copilot alternative, qwen2.5-coder 32b"]
TOOLS_ZH = ["想私有化部署一个代码助手，qwen2.5-coder 32b", "想搞个AI编程助手，用qwen2.5-coder 32b"]


@pytest.mark.parametrize("noun", CODERS_EN)
@pytest.mark.parametrize("tool", TOOLS_EN)
@pytest.mark.parametrize(("frame", "n"), [("we have {n} {noun}", 30), ("our company has {n} {noun}", 40),
                                          ("we have {n} {noun} and 5 testers", 25)])
def test_developers_beside_a_coding_tool_use_it_en(noun: str, tool: str, frame: str, n: int) -> None:
    u = understand(frame.format(n=n, noun=noun) + ", " + tool)
    total = n + (5 if "testers" in frame else 0)
    assert u.updates.get("population") == total or u.updates.get("users") == total, u.updates


@pytest.mark.parametrize("noun", CODERS_ZH)
@pytest.mark.parametrize("tool", TOOLS_ZH)
@pytest.mark.parametrize(("frame", "n"), [("公司有{n}个{noun}", 30), ("我们有{n}个{noun}", 40), ("公司有{n}个{noun}和5个测试", 25)])
def test_developers_beside_a_coding_tool_use_it_zh(noun: str, tool: str, frame: str, n: int) -> None:
    u = understand(frame.format(n=n, noun=noun) + "，" + tool)
    total = n + (5 if "测试" in frame else 0)
    assert u.updates.get("population") == total, u.updates


@pytest.mark.parametrize("text", [
    "we're 3 devs building a coding assistant for our customers, qwen2.5-coder 7b",
    "团队有3个开发，想微调一个代码助手 qwen2.5-coder 7b",
    "we have 3 developers and want to fine-tune a coding assistant on qwen2.5-coder 7b",
    "我们有2个程序员，想做个代码助手给客户用，qwen2.5-coder 7b",
])
def test_developers_who_build_it_stay_the_team(text: str) -> None:
    u = understand(text)
    assert u.updates.get("users") is None and u.updates.get("population") is None, u.updates
