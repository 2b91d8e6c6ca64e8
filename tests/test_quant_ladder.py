"""One person's own card that cannot hold a model in 4 bits: llama.cpp's smaller files are tried in order
of quality, and the highest-quality one that fits with the stated context is the one planned and said."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_precision
from gpu_advisor.tools.common import RANGE_FLOOR
from gpu_advisor.tools.recommend import HOME_FORMATS, Workload, _owned_card, evaluate, recommend
from tests.conversation import run_conversation


def _serve(model: str, owned: str, context: int) -> Workload:
    return Workload(phase="serve", model=model, owned=[owned], context=context, users=1, engine="llama.cpp",
                    flexible=["precision"])


def test_the_ladder_runs_from_most_bits_to_fewest():
    bits = [find_precision(f).bits_per_weight for f in HOME_FORMATS]
    assert bits == sorted(bits, reverse=True)
    assert HOME_FORMATS[:2] == ("q3_k_m", "q2_k") and HOME_FORMATS[-1] == "iq1_s"


# (model, owned card, stated context, the file the plan takes, GB used of the card's usable memory)
CASES = [
    # (DeepSeek's files sized by their real tensors, attention and shared experts at their own types: h-physics)
    # a 2-bit IQ2_S file fits a 256 GB Mac at 32k with 3% to spare: not the 1-bit files with 26-34% spare
    ("deepseek-r1", "1x apple-m3-ultra-256gb", 32768, "iq2_s", 199.7),
    # at 8k on a 192 GB Mac nothing with 2 bits fits (IQ2_XXS is 13% over): IQ1_M is the one
    ("deepseek-r1", "1x apple-m2-ultra-192gb", 8192, "iq1_m", 150.0),
    ("qwen3-235b-a22b", "1x apple-m4-max-128gb", 8192, "q2_k", 88.0),
    ("qwen2.5-72b", "2x rtx-3090", 16384, "q3_k_m", 22.4),
]


@pytest.mark.parametrize("model, owned, context, file, used_gb", CASES)
def test_the_highest_quality_file_that_fits_is_planned(model, owned, context, file, used_gb):
    rec = recommend(_serve(model, owned, context))
    assert rec.relaxed == file
    assert rec.best is not None and rec.best.owned and rec.best.precision == file
    assert rec.best.serve_per_gpu_bytes / 1e9 == pytest.approx(used_gb, abs=0.05)
    assert rec.workload.context == context  # the stated context is kept


@pytest.mark.parametrize("model, owned, context, file, _gb", CASES)
def test_no_file_with_more_bits_fits_where_a_smaller_one_is_planned(model, owned, context, file, _gb):
    w = _serve(model, owned, context)
    gpu, n = _owned_card(owned)
    for better in HOME_FORMATS[:HOME_FORMATS.index(file)]:
        o = evaluate(w.model_copy(update={"serve_precision": better}), gpu, n, owned=True)
        assert o is None or not o.ok or o.headroom_fraction < RANGE_FLOOR, better


def test_a_file_that_fits_with_nothing_to_spare_is_passed_over():
    """IQ1_M on the 192 GB Mac at 32k fits with 1.9% to spare, inside the memory estimate's own
    range: the next file down is planned."""
    w = _serve("deepseek-r1", "1x apple-m2-ultra-192gb", 32768)
    gpu, n = _owned_card("1x apple-m2-ultra-192gb")
    tight = evaluate(w.model_copy(update={"serve_precision": "iq1_m"}), gpu, n, owned=True)
    assert tight is not None and tight.ok and tight.headroom_fraction < RANGE_FLOOR
    assert recommend(w).relaxed == "iq1_s"


@pytest.mark.parametrize("message, says, not_says", [
    ("chat with deepseek-r1 on my mac studio m3 ultra 256gb with llama.cpp, 32k context, one user",
     ["with 2-bit importance-matrix weights (IQ2_S, a clear quality cost)", "serving in iq2_s (about 2.7 bits"],
     ["8-bit weights for serving", "IQ1_S"]),
    ("chat with deepseek-r1 on my mac studio m2 ultra 192gb with llama.cpp, 8k context, one user",
     ["with 1.75-bit weights (IQ1_M, a large quality cost: rarely usable", "1-bit files are rarely usable"],
     ["8-bit weights for serving"]),
    ("用llama.cpp在我的Mac Studio M3 Ultra 256GB上跑deepseek-r1，32k上下文，就我一个人用",
     ["IQ2_S，质量损失明显", "以 iq2_s 部署（每个权重约 2.7 bit）"], ["8-bit weights", "IQ1_S"]),
    ("用llama.cpp在我的Mac Studio M2 Ultra 192GB上跑deepseek-r1，8k上下文，就我一个人用",
     ["IQ1_M，质量损失大", "1-bit 文件很少能真正用好"], ["rarely usable"]),
])
def test_the_answer_says_the_file_and_its_quality_cost_in_the_users_language(message, says, not_says):
    text = str(run_conversation([message])[-1].content)
    for words in says:
        assert words in text
    for words in not_says:
        assert words not in text
