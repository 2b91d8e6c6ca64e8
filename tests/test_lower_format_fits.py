"""A format said that does not fit the card asked about ('5090 32g 跑qwen3 32b fp8 … 32k'): the highest format below it
that does fit is said, sized as an explicit request for it is (tools.lower_format), never 'no format of 4 bits or more
fits' while Q4_K_M does (review BK #16)."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.lower_format import lower_fits
from gpu_advisor.tools.recommend import Workload, evaluate
from tests.conversation import run_states


@pytest.mark.parametrize(("model", "said", "gpu", "count", "fmt", "gb"), [
    ("qwen3-32b", "fp8", "rtx-5090", 1, "Q4_K_M", 29.2),
    ("qwen3-32b", "q8_0", "rtx-5090", 1, "Q4_K_M", 29.2),
    ("qwen3-30b-a3b", "fp8", "rtx-5090", 1, "Q6_K", 29.0),
])
def test_the_format_below_that_fits_is_the_explicit_requests_sizing(model: str, said: str, gpu: str, count: int,
                                                                    fmt: str, gb: float) -> None:
    w = Workload(phase="serve", model=model, context=32768, users=1, serve_precision=said, region="china")
    o = lower_fits(w, gpu, count)
    assert o is not None and (o.precision or "").upper() == fmt and o.ok
    assert o.serve_per_gpu_bytes / 1e9 == pytest.approx(gb, abs=0.05)
    explicit = evaluate(w.model_copy(update={"serve_precision": fmt.lower()}), find_gpu(gpu), count)
    assert explicit is not None and explicit.serve_per_gpu_bytes == pytest.approx(o.serve_per_gpu_bytes)


def test_nothing_below_when_no_format_fits() -> None:
    w = Workload(phase="serve", model="llama-3.1-70b", context=32768, users=1, serve_precision="fp8")
    assert lower_fits(w, "rtx-4090", 1) is None


@pytest.mark.parametrize(("turns", "first", "second"), [
    (["5090 32g 跑qwen3 32b fp8能行吗 上下文想开到32k", "换成qwen3 30b-a3b呢"],
     ["**FP8 不行**", "换成 Q4_K_M 就放得下", "每卡 29.2 GB"], ["换成 Q6_K，你说的 1 张就够一个人用（每卡 29.0 GB"]),
    (["will qwen3 32b in fp8 fit on one 5090 with 32k context?", "what about qwen3 30b-a3b?"],
     ["**Not in FP8**", "in Q4_K_M it does", "29.2 GB of 34.0 GB"], ["in Q6_K the 1 card(s) you said hold it"]),
])
def test_review_bk16_both_languages(turns: list[str], first: list[str], second: list[str]) -> None:
    a, b = (s["messages"][-1].content for s in run_states(turns))
    assert all(x in a for x in first), a[:900]
    assert "4-bit 及以上都放不下" not in a and "not in 4-bit or more" not in a
    assert all(x in b for x in second), b[:900]
