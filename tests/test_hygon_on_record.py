"""Hygon DCU on record (review s27 #1: '昇腾还是海光？' got '海光 DCU：我这里没有记录'). The BW1000's figures are sourced
(Gitee AI's compute docs: 64 GB HBM2e, 1.6 TB/s, FP16 480 TFLOPS, about 300 W, no FP8), so it is sized as a card
described by them; the K100 AI keeps only its sourced 64 GB, the rest said missing, never guessed. A vendor named with
no model ('海光', 'Hygon DCU', '寒武纪') gets its models on record with their figures, not 'not on record'."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import unsized_cards
from tests.conversation import run_conversation


def _card(card_id: str):
    return next(c for c in unsized_cards() if c.id == card_id)


def test_bw1000_figures_are_the_sourced_ones() -> None:
    bw = _card("hygon-bw1000")
    assert (bw.memory_gb, bw.memory_bandwidth_gbps, bw.fp16_tflops, bw.tdp_w) == (64, 1600, 480, 300)
    assert bw.int8_tops is None  # no source gives it
    assert bw.domestic_china and bw.vendor == "Hygon"
    assert "ai.gitee.com/docs/compute/clusters_gpu/hygon_gpu" in bw.source
    assert "DTK" in bw.software and "DTK" in bw.software_zh and "FP8" in bw.software
    assert bw.spec == "custom:memory=64GB,bandwidth=1600GB/s,bf16=480,power=300W,domestic=yes"


def test_k100_ai_figures_not_sourced_stay_missing() -> None:
    k100 = _card("hygon-k100-ai")
    assert k100.memory_gb == 64
    assert k100.missing == ["memory_bandwidth_gbps", "fp16_tflops"]
    assert k100.spec is None


@pytest.mark.parametrize("name", ["海光BW1000", "海光 BW1000", "海光DCU BW1000", "BW1000", "hygon bw1000", "Hygon BW1000",
                                  "dcu bw1000"])
@pytest.mark.parametrize("template", ["我们有4张{c}，部署qwen2.5-7b，10个用户", "we have 4 {c} cards, serve qwen2.5-7b for 10 users"])
def test_bw1000_named_is_sized_from_its_figures(name: str, template: str) -> None:
    u = understand(template.format(c=name))
    owned = u.updates.get("owned") or []
    assert len(owned) == 1 and owned[0].startswith("4x custom:memory=64GB,bandwidth=1600GB/s"), owned
    assert any(key == "note.card_figures_only" for key, _v in u.notes)


VENDOR_ASKED = [
    ("我们是国企，要求信创国产化，想部署Qwen3-235B-A22B给内部两千人用，昇腾还是海光？", "zh", "海光 DCU"),
    ("必须国产化，部署qwen2.5-72b给200人用，海光的DCU行不行，要几张", "zh", "海光 DCU"),
    ("domestic chips only: serve Qwen3-235B-A22B to 2000 internal users. Ascend or Hygon?", "en", "Hygon DCU"),
]


@pytest.mark.parametrize(("text", "lang", "name"), VENDOR_ASKED)
def test_vendor_named_lists_its_models_on_record(text: str, lang: str, name: str) -> None:
    reply = str(run_conversation([text])[-1].content)
    head = reply.split("\n\n")[0]
    assert head.startswith(f"**{name}")
    assert "没有记录" not in head and "not on record" not in head
    bw, k100 = (("海光 DCU BW1000", "海光 DCU K100 AI") if lang == "zh" else ("Hygon DCU BW1000", "Hygon DCU K100 AI"))
    assert bw in head and "1600 GB/s" in head and ("FP16 480 TFLOPS") in head
    assert k100 in head and ("缺少：带宽、16 位算力" if lang == "zh" else "missing: memory bandwidth, 16-bit compute") in head
    assert head.index(bw) < head.index(k100)  # the model that can be sized first
    assert "Huawei Ascend 910B" in head  # the domestic plan on record, said as the alternative


def test_cambricon_named_lists_its_models_on_record() -> None:
    reply = str(run_conversation(["必须国产化，部署qwen2.5-72b给200人用，昇腾还是寒武纪？"])[-1].content)
    head = reply.split("\n\n")[0]
    assert "寒武纪 MLU370-X8（48 GB 显存、带宽 614.4 GB/s" in head
    assert "寒武纪 MLU590（没有可引用的公开参数）" in head
