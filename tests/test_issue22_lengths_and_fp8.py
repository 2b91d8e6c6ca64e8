"""Issue 22's last gaps. (1) A request rate's prompt and output lengths said as a distribution, in English and
Chinese ('prompts average 2k tokens, p99 8k', 'outputs 200-800 tokens', 'most prompts ~1k but up to 16k',
'输入平均2k token，p99 8k', '输出一般200到800 token', '提示词大多1k左右，最长16k') fill the slots the CLI's
--prompt-p99 / --output-p99 fill, and the plan is sized with them. (2) FP8 weights on cards without FP8 units:
Ampere (A800, A100) sized weight-only with 16-bit compute and said; Volta (V100) refused in one line."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.throughput import SpeedInput, speed
from gpu_advisor.tui.cli.program import main
from tests.conversation import run_states

RATE = {"en": "serve llama 3.1 8b at 20 requests per second, ", "zh": "用llama 3.1 8b做推理，每秒20个请求，"}

# --- 1. a mean and its tail, crossed over phrasings and number spellings ---------------------------------------

MEAN_TAIL = {
    "en": ["prompts average {m} tokens, p99 {t}", "prompts are {m} tokens on average, 99th percentile {t}",
           "most prompts ~{m} but up to {t}", "prompts mostly around {m} tokens, the longest {t}",
           "prompt length: mean {m}, p99 {t}"],
    "zh": ["输入平均{m} token，p99 {t}", "提示词大多{m}左右，最长{t}", "输入一般{m} token，最长{t}",
           "提示词平均{m}个token，p99是{t}"],
}
NUMBERS = {"en": [("2k", "8k"), ("2000", "8000"), ("two thousand", "eight thousand"), ("2,000", "8,000")],
           "zh": [("2k", "8k"), ("2000", "8000"), ("两千", "八千"), ("2千", "8千")]}


@pytest.mark.parametrize(("lang", "template", "mean", "tail"), [
    (lang, t, m, tl) for lang in ("en", "zh") for t in MEAN_TAIL[lang] for m, tl in NUMBERS[lang]])
def test_a_prompt_mean_and_its_p99_are_read(lang: str, template: str, mean: str, tail: str) -> None:
    u = understand(RATE[lang] + template.format(m=mean, t=tail))
    assert u.updates["requests_per_s"] == 20
    assert u.updates["prompt_tokens"] == 2000
    assert u.updates["prompt_tokens_p99"] == 8000
    assert "context" not in u.updates  # the tail is the prompt's, never a context said


RANGES = {"en": ["outputs {a}-{b} tokens", "outputs {a} to {b} tokens", "answers run {a}-{b} tokens"],
          "zh": ["输出一般{a}到{b} token", "输出{a}-{b} token", "回答大概{a}到{b}个token"]}
RANGE_NUMBERS = {"en": [("200", "800"), ("two hundred", "eight hundred")], "zh": [("200", "800"), ("两百", "八百")]}


@pytest.mark.parametrize(("lang", "template", "low", "high"), [
    (lang, t, a, b) for lang in ("en", "zh") for t in RANGES[lang] for a, b in RANGE_NUMBERS[lang]
    if not (a == "two hundred" and "-" in t)])  # 'two hundred-eight hundred' is no way to write a range
def test_a_range_is_its_middle_as_the_mean_and_its_top_as_the_p99_said_as_an_assumption(
        lang: str, template: str, low: str, high: str) -> None:
    u = understand(RATE[lang] + template.format(a=low, b=high))
    assert u.updates["output_tokens"] == 500
    assert u.updates["output_tokens_p99"] == 800
    spread = [values for key, values in u.notes if key == "note.length_range_spread"]
    assert spread and spread[0]["tokens"] == "500" and spread[0]["top"] == "800"


@pytest.mark.parametrize("said", [
    "prompts 2k-8k tokens", "prompts 2000 to 8000 tokens", "输入2k到8k token", "提示词2000-8000 token"])
def test_a_prompt_range_is_a_spread_too(said: str) -> None:
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in said) else "en"
    u = understand(RATE[lang] + said)
    assert (u.updates["prompt_tokens"], u.updates["prompt_tokens_p99"]) == (5000, 8000)


@pytest.mark.parametrize("said", [
    "prompts average 8k tokens, up to 2k",  # a 'tail' below the mean is no tail
    "prompts ~1k tokens, context up to 32k",  # the context's, not the prompt's
    "输入平均1k token，上下文最长32k",
    "prompts around 2k tokens",  # a mean alone: the measured spread stands
])
def test_no_tail_is_read_where_none_was_said(said: str) -> None:
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in said) else "en"
    u = understand(RATE[lang] + said)
    assert "prompt_tokens_p99" not in u.updates
    assert u.updates["prompt_tokens"] in (1000, 2000, 8000)


def test_the_output_tail_is_the_outputs_when_a_label_comes_between() -> None:
    u = understand(RATE["en"] + "prompts average 2k tokens, outputs average 300 tokens, p99 1200")
    assert (u.updates["prompt_tokens"], u.updates.get("prompt_tokens_p99")) == (2000, None)
    assert (u.updates["output_tokens"], u.updates["output_tokens_p99"]) == (300, 1200)


# --- 2. the plan is sized with them --------------------------------------------------------------------------


def _plan(**tails: int):
    return recommend(Workload(phase="serve", model="llama-3.1-8b", requests_per_s=20, prompt_tokens=2000,
                              output_tokens=500, candidates=["h100-sxm"], flexible=["context"], **tails))


def test_a_prompt_tail_lengthens_the_first_token_tail_and_the_context_held() -> None:
    plain, tailed = _plan(), _plan(prompt_tokens_p99=8000)
    assert plain.workload is not None and tailed.workload is not None
    assert (plain.workload.context, tailed.workload.context) == (2500, 8500)  # the longest prompt + the output
    assert plain.traffic is not None and tailed.traffic is not None
    assert tailed.traffic.ttft_p99_s > plain.traffic.ttft_p99_s  # p99 prompts of 8k, not ~2.7x the mean
    assert tailed.best is not None and plain.best is not None and tailed.best.gpus >= plain.best.gpus


def test_an_output_tail_raises_the_context_held() -> None:
    tailed = _plan(output_tokens_p99=2000)
    assert tailed.workload is not None and tailed.workload.context == 4000


def test_a_tail_at_or_below_its_mean_changes_nothing() -> None:
    plain, same = _plan(), _plan(prompt_tokens_p99=2000, output_tokens_p99=400)
    assert plain.traffic is not None and same.traffic is not None
    assert same.traffic.ttft_p99_s == plain.traffic.ttft_p99_s
    assert same.workload is not None and same.workload.context == 2500


@pytest.mark.parametrize(("lang", "said", "back"), [
    ("en", "prompts average 2k tokens, p99 8k, outputs 200-800 tokens",
     ["prompts of 8,000 tokens at p99", "outputs of 800 tokens at p99", "a mean of 500 tokens",
      "8,000 + 800 tokens"]),
    ("zh", "输入平均2k token，p99 8k，输出一般200到800 token",
     ["p99 为 8,000 token 的提示词", "每个请求的输出 p99 为 800 token", "均值取范围中间约 500 token",
      "8,000 + 800 token"]),
])
def test_the_conversation_says_back_what_it_read_and_sizes_with_it(lang: str, said: str, back: list[str]) -> None:
    state = run_states([RATE[lang] + said])[-1]
    profile = state["profile"]
    assert (profile["prompt_tokens"], profile["prompt_tokens_p99"]) == (2000, 8000)
    assert (profile["output_tokens"], profile["output_tokens_p99"]) == (500, 800)
    assert profile["context"] == 9216  # 8,000 + 800, rounded up to a whole 1,024
    reply = state["messages"][-1].content
    for words in back:
        assert words in reply
    if lang == "en":
        assert not any("\u4e00" <= c <= "\u9fff" for c in reply)


# --- 3. FP8 on cards without FP8 units -----------------------------------------------------------------------


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("GPU_ADVISOR_DB", str(tmp_path / "h.db"))
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(tmp_path / "settings.toml"))

    def run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err
    return run


@pytest.mark.parametrize(("model", "owned", "card"), [
    ("deepseek-v3", "16x a800-80gb-sxm", "NVIDIA A800 SXM4 80GB"),
    ("llama-3.1-70b", "2x a100-80gb-sxm", "NVIDIA A100 SXM4 80GB"),
    ("llama-3.1-8b", "1x a800-80gb-sxm", "NVIDIA A800 SXM4 80GB"),
])
def test_fp8_on_ampere_is_sized_weight_only_with_16_bit_compute_and_said(cli, model: str, owned: str, card: str) -> None:
    status, out, _err = cli("recommend", "-m", model, "-p", "fp8", "--owned", owned)
    assert status == 0
    basis = [line for line in out.splitlines() if line.startswith(f"  - {card} has no FP8 tensor cores")]
    assert len(basis) == 1
    assert "weight-only" in basis[0] and "Marlin" in basis[0] and "16-bit" in basis[0]
    assert "never its FP8 throughput" in basis[0] and "docs.vllm.ai" in basis[0] and "w8a8-int8" in basis[0]


def test_fp8_on_volta_is_refused_in_one_line_with_what_runs_instead(cli) -> None:
    status, out, err = cli("recommend", "-m", "llama-3.1-8b", "-p", "fp8", "--owned", "2x v100-sxm2-32gb")
    assert status == 2 and not out
    said = err.strip().splitlines()
    assert len(said) == 1
    assert "V100" in said[0] and "no FP8 kernel in vLLM" in said[0] and "FP16" in said[0] and "AWQ" in said[0]


@pytest.mark.parametrize("argv", [
    ("-p", "fp8", "--owned", "8x h100-sxm"),  # FP8 tensor cores: nothing to say
    ("-p", "bf16", "--owned", "2x a800-80gb-sxm"),  # no FP8 asked
    ("-p", "w8a8-int8", "--owned", "2x a100-80gb-sxm"),
])
def test_no_fp8_basis_is_said_where_the_card_computes_the_format(cli, argv: tuple[str, ...]) -> None:
    status, out, _err = cli("recommend", "-m", "llama-3.1-70b", *argv)
    assert status == 0
    assert "no FP8 tensor cores" not in out


@pytest.mark.parametrize("card", ["a800-80gb-sxm", "a100-80gb-sxm"])
def test_the_ampere_speed_never_uses_fp8_throughput(card: str) -> None:
    eight = speed(SpeedInput(model="llama-3.1-70b", gpu=card, gpus=2, precision="fp8"))
    sixteen = speed(SpeedInput(model="llama-3.1-70b", gpu=card, gpus=2, precision="bf16"))
    assert eight.prefill_tokens_per_s <= sixteen.prefill_tokens_per_s  # 16-bit math, plus the unpacking
    assert eight.decode_tokens_per_s > sixteen.decode_tokens_per_s  # half the bytes read per token
    hopper = [speed(SpeedInput(model="llama-3.1-70b", gpu="h100-sxm", gpus=2, precision=p)) for p in ("fp8", "bf16")]
    assert hopper[0].prefill_tokens_per_s > hopper[1].prefill_tokens_per_s  # FP8 tensor cores do compute faster
