"""Review CV #1 and NC30 #10 (session 31, cards31): the Pascal cards people still own are on record (GTX 1080 Ti,
GTX 1080, GTX 1070, TITAN Xp, Tesla P40, Tesla P100) with their real figures, no BF16 and no tensor cores, and
llama.cpp as their engine; and inline code completion is a latency use whose target comes from the data."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpu_advisor.assistant.completion_latency import completion_seconds, completion_words
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import engines, find_gpu
from gpu_advisor.knowledge.use_cases import use_case
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.recommend import Option
from gpu_advisor.tools.throughput import SpeedInput, speed

# ---------------------------------------------------------------- the cards and their figures

# id -> (memory GB, bandwidth GB/s, the rate 16-bit weights multiply at, TFLOPS)
FIGURES = {
    "gtx-1080-ti": (11, 484, 11.3), "gtx-1080": (8, 320, 8.9), "gtx-1070": (8, 256, 6.5),
    "titan-xp": (12, 547.6, 12.1), "tesla-p40": (24, 347, 11.8), "tesla-p100-pcie-16gb": (16, 732, 18.7),
}
SPELLINGS = {
    "gtx-1080-ti": ["gtx1080ti", "1080 ti", "GTX 1080Ti 11G", "GTX 1080 Ti", "1080Ti", "geforce gtx 1080 ti",
                    "gtx 1080 ti 11gb"],
    "gtx-1080": ["GTX 1080", "gtx1080", "gtx 1080 8gb"],
    "gtx-1070": ["GTX 1070", "gtx1070", "gtx 1070 8g"],
    "titan-xp": ["titan xp", "TITAN Xp", "titanxp", "Titan Xp 12GB"],
    "tesla-p40": ["p40", "P40", "tesla p40", "Tesla P40 24GB", "tesla p40 24g", "p40 24gb"],
    "tesla-p100-pcie-16gb": ["p100", "Tesla P100", "P100 16GB", "tesla p100 pcie"],
}


@pytest.mark.parametrize(("gpu_id", "spelling"), [(g, s) for g, ss in SPELLINGS.items() for s in ss])
def test_every_spelling_finds_the_card(gpu_id, spelling):
    assert find_gpu(spelling).id == gpu_id


@pytest.mark.parametrize("gpu_id", FIGURES)
def test_pascal_figures_and_no_bf16(gpu_id):
    g = find_gpu(gpu_id)
    memory, bandwidth, rate = FIGURES[gpu_id]
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.bf16_tflops) == (memory, bandwidth, rate)
    assert g.arch == "pascal" and not g.native_bf16 and not g.tensor_cores and g.fp8_tflops is None
    assert "http" in g.source  # every figure names where it came from


@pytest.mark.parametrize("gpu_id", FIGURES)
def test_pascal_runs_llamacpp_not_vllm(gpu_id):
    g = find_gpu(gpu_id)
    runs = {e.id for e in engines() if e.support_on(g) is not None}
    assert "llama.cpp" in runs
    assert not {"vllm", "sglang", "lmdeploy", "tensorrt-llm"} & runs


# (message, card, count) in both languages, with fillers, counts and orders
READ = [
    ("got an old gtx 1080 ti (11 gigs), can i run qwen2.5-7b", "gtx-1080-ti", 1),
    ("i have a GTX 1080Ti 11G, run llama 3 8b for myself", "gtx-1080-ti", 1),
    ("we own 2 tesla p40 24gb, serve qwen2.5-14b for 3 people", "tesla-p40", 2),
    ("my titan xp, can it run qwen2.5-7b?", "titan-xp", 1),
    ("我有一张1080 ti，想跑qwen2.5-7b", "gtx-1080-ti", 1),
    ("手上有两张p40，部署qwen2.5-14b", "tesla-p40", 2),
    ("我有四张Tesla P40 24G，本地跑qwen2.5-32b", "tesla-p40", 4),
    ("我有一张gtx1080ti 11g，跑llama 3 8b", "gtx-1080-ti", 1),
]


@pytest.mark.parametrize(("text", "gpu_id", "count"), READ)
def test_messages_read_the_card(text, gpu_id, count):
    u = understand(text)
    cards = list(u.updates.get("owned") or u.updates.get("only") or [])
    want = f"{count}x {gpu_id}" if count > 1 else gpu_id
    assert cards in ([want], [f"1x {gpu_id}"]), u.updates
    assert not [n for n, _ in u.notes if n in ("note.card_unknown", "note.card_memory_as_stated")]


def test_1080_ti_sizing_uses_its_real_figures():
    """Qwen2.5 14B Q4_K_M on a 1080 Ti: decode bound by its 484 GB/s at llama.cpp's GDDR efficiency (not the 616
    GB/s of a 2080 Ti), and a 4k prompt several seconds on CUDA cores (the review's 3.9 s was a tensor-core card)."""
    s = speed(SpeedInput(model="qwen2.5-14b", precision="q4_k_m", gpu="gtx-1080-ti", context=4096, engine="llama.cpp"))
    turing = speed(SpeedInput(model="qwen2.5-14b", precision="q4_k_m", gpu="rtx-2080-ti", context=4096,
                              engine="llama.cpp"))
    assert 30 < s.decode_tokens_per_s < 45 < turing.decode_tokens_per_s
    assert 8 < s.time_to_first_token_s < 16
    assert turing.time_to_first_token_s < 5
    m = inference_memory(InferenceMemoryInput(model="qwen2.5-14b", precision="q4_k_m", gpu="gtx-1080-ti", context=4096))
    assert m.engine == "llama.cpp" and m.fits


@pytest.mark.parametrize("gpu_id", ["gtx-1080-ti", "tesla-p40", "tesla-p100-pcie-16gb"])
def test_16_bit_on_pascal_says_no_tensor_cores(gpu_id):
    s = speed(SpeedInput(model="qwen2.5-1.5b", precision="fp16", gpu=gpu_id, context=2048, engine="llama.cpp"))
    assert any("no tensor cores and no BF16" in w for w in s.warnings)
    assert not any("FP16 tensor cores only" in w for w in s.warnings)


# ---------------------------------------------------------------- autocomplete is a latency use


def _rec(gpu: str, model_precision: str = "q4_k_m") -> SimpleNamespace:
    best = Option(gpu=gpu, gpu_name=find_gpu(gpu).name, gpus=1, owned=True, capacity_bytes=1, headroom_fraction=0.1,
                  ok=True, serves=True, engine="llama.cpp", precision=model_precision)
    return SimpleNamespace(best=best, options=[best])


def test_the_target_is_data():
    uc = use_case("completion")
    assert uc is not None and uc.latency_target_s == 0.3 and uc.latency_models
    assert use_case("chat").latency_target_s is None


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("gpu", "small"), [("gtx-1080-ti", "Qwen2.5-Coder 3B"), ("tesla-p40", "Qwen2.5-Coder 3B")])
def test_14b_on_pascal_is_too_slow_for_tab_completion(lang, gpu, small):
    words = completion_words("qwen2.5-14b", "completion", _rec(gpu), lang)
    assert words is not None
    text, data = words
    assert data["meets"] is False and data["seconds"] > 0.3
    assert data["smaller"]["name"] == small and data["smaller"]["seconds"] <= 0.3
    assert small in text
    assert ("代码补全" in text) is (lang == "zh")
    assert ("Autocomplete" in text) is (lang == "en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_fast_card_meets_it(lang):
    text, data = completion_words("qwen2.5-coder-7b", "completion", _rec("rtx-4090"), lang) or ("", {})
    assert data["meets"] is True and data["smaller"] is None
    assert "300 ms" in text


@pytest.mark.parametrize("use", ["chat", "coding", None])
def test_other_uses_get_no_latency_paragraph(use):
    assert completion_words("qwen2.5-14b", use, _rec("gtx-1080-ti"), "en") is None


@pytest.mark.parametrize("text", [
    "can i run qwen2.5-coder-14b for autocomplete in vscode on my 1080 ti",
    "want tab completion in vscode with qwen2.5-coder-7b on my gtx 1080",
    "fill-in-the-middle code completion with qwen2.5-14b on a p40",
    "我有一张1080ti，想用qwen2.5-coder-14b在vscode里做代码补全",
    "想用p40跑qwen2.5-14b做自动补全",
])
def test_autocomplete_phrasings_read_as_completion(text):
    assert understand(text).updates.get("use_case") == "completion"


def test_smaller_models_are_faster_on_the_same_card():
    uc = use_case("completion")
    assert uc is not None
    times = [completion_seconds(m, "q4_k_m", "gtx-1080-ti", 1, "llama.cpp", uc)
             for m in ("qwen2.5-14b", "qwen2.5-coder-7b", "qwen2.5-3b", "qwen2.5-1.5b")]
    assert times == sorted(times, reverse=True)
