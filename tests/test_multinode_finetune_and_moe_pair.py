"""Session 29's review of fine-tuning on your own servers and of MoE against dense (review T29):

- times are never shown as '0 h' ('all 32 would take about 0 h'): one figure rule for every duration (tools.durations);
- on servers joined by Ethernet, what crosses between them a step decides whether the run spreads over all of them
  (tools.train_servers): LoRA's adapters' gradients (~257 MB a step for Qwen3-14B) hide behind the compute, so all the
  servers train it, data parallel; ZeRO-3's weights and gradients (tens of GB a step) do so only on fast links;
- 'can we do full FT? if not, LoRA?' plans the full fine-tune when it fits as asked, LoRA when not
  (assistant.method_fallback);
- with no NVLink the reply never says the training state is sharded over NVLink (PCIe, as the user said);
- MoE against dense: memory and the cards follow the total parameters, speed per token the active ones; the reply
  never says MoE saves memory, and no generic VRAM paragraph is added to the comparison (assistant.moe_pair)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.writers import finding_sentence, hours, seconds
from gpu_advisor.knowledge import find_gpu, find_model
from gpu_advisor.tools.durations import figure
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.train_servers import SHARE_MAX, crossing
from gpu_advisor.tools.training import lora_params
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- durations


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.floats(min_value=1e-9, max_value=1e6, allow_nan=False, allow_infinity=False))
def test_a_duration_above_zero_is_never_shown_as_zero(x: float) -> None:
    shown = figure(x)
    assert float(shown.replace(",", "")) > 0, (x, shown)
    assert not re.search(r"(?<![\d.])0(?:\.0+)? (?:h|s|ms)\b", f"about {hours(x)} h, {seconds(x)}"), (x, shown)
    assert "e" not in shown  # never 1e-05


@pytest.mark.parametrize(("x", "shown"), [(0.004, "0.0040"), (0.05, "0.05"), (0.3, "0.3"), (1.5, "1.5"),
                                         (150.4, "150"), (1234.5, "1,234"), (0.00049, "0.00049")])
def test_duration_figures_by_hand(x: float, shown: str) -> None:
    assert figure(x) == shown


# ---------------------------------------------------------------- servers over Ethernet

def _workload(method: str, nodes: int, gbit: float, card: str, model: str = "qwen3-14b") -> Workload:
    return Workload.model_validate({"phase": "fine-tune", "model": model, "method": method, "objective": "sft",
                                    "seq_len": 8000, "owned": [f"{nodes * 8}x {card}"], "network": "slow",
                                    "network_gbit": gbit, "server_gpus": 8})


CARDS = ["l40s", "h100-sxm", "a100-80gb-sxm"]  # no NVLink; NVLink; NVLink


@settings(max_examples=30, deadline=None, derandomize=True)
@given(nodes=st.integers(2, 8), gbit=st.sampled_from([25.0, 100.0, 400.0]), card=st.sampled_from(CARDS))
def test_lora_over_ethernet_uses_every_server_when_its_adapters_exchange_is_small(nodes: int, gbit: float,
                                                                                   card: str) -> None:
    w = _workload("lora", nodes, gbit, card)
    gpu = find_gpu(card)
    x = crossing(w, gpu, nodes * 8)
    assert x is not None and x["layout"] == "data_parallel"
    # only the adapters' FP32 gradients cross: 64M x 4 bytes = 257 MB a step for Qwen3-14B at rank 16
    assert x["bytes"] == pytest.approx(lora_params(find_model("qwen3-14b"), 16) * 4)
    assert 250e6 < x["bytes"] < 265e6
    assert x["net_s"] == pytest.approx(2 * (nodes - 1) / nodes * x["bytes"] / (gbit * 1e9 / 8 * 0.8))
    best = recommend(w).best
    assert best is not None and best.owned
    if x["net_s"] <= SHARE_MAX * x["step_s"]:  # small against the step: data parallel over all the servers
        assert best.gpus == nodes * 8
        finding = next(f for f in best.findings if f.code == "across_servers_training")
        assert finding.values["layout"] == "data_parallel" and finding.values["servers"] == str(nodes)
        assert finding.values["link"] == ("nvlink" if gpu.has_nvlink else "pcie")
        assert finding.values["mb"] == f"{x['bytes'] / 1e6:,.0f}"
        for lang in ("en", "zh"):
            said = finding_sentence(finding, lang)
            assert ("NVLink" in said.replace("no NVLink", "").replace("没有 NVLink", "")) == gpu.has_nvlink, said
            assert finding.values["mb"] in said and f"{gbit:g} Gb/s" in said
    assert not any(f.code == "one_server_training" for f in best.findings) or best.gpus == 8


@pytest.mark.parametrize("card", CARDS)
def test_lora_over_one_gigabit_stays_on_one_server_and_says_what_would_cross(card: str) -> None:
    best = recommend(_workload("lora", 2, 1.0, card)).best
    assert best is not None and best.owned and best.gpus == 8
    finding = next(f for f in best.findings if f.code == "one_server_training")
    assert finding.values["layout"] == "data_parallel"
    en, zh = finding_sentence(finding, "en"), finding_sentence(finding, "zh")
    assert "adapters' gradients" in en and "ZeRO-3" not in en
    assert "适配器的梯度" in zh and " 0 " not in en


@pytest.mark.parametrize(("nodes", "gbit", "card"), [(n, g, c) for n in (2, 4, 8) for g in (25.0, 100.0, 400.0)
                                                     for c in ("l40s", "h100-sxm")])
def test_full_fine_tune_spreads_only_when_zero3_traffic_hides_behind_the_compute(nodes: int, gbit: float,
                                                                                 card: str) -> None:
    w = _workload("full", nodes, gbit, card)
    x = crossing(w, find_gpu(card), nodes * 8)
    assert x is not None and x["layout"] == "zero3"
    params = find_model("qwen3-14b").total_params_b * 1e9  # gathered twice in BF16, gradients once, (S-1)/S of it
    assert x["bytes"] == pytest.approx((2 * 2 + 2) * params * (nodes - 1) / nodes)
    best = recommend(w).best
    assert best is not None and best.owned
    codes = {f.code: f for f in best.findings}
    if best.gpus == nodes * 8:
        assert x["net_s"] <= SHARE_MAX * x["step_s"]
        assert codes["across_servers_training"].values["layout"] == "zero3"
    else:
        assert best.gpus == 8 and codes["one_server_training"].values["layout"] == "zero3"
        said = finding_sentence(codes["one_server_training"], "en")
        assert f"{x['bytes'] / 1e9:,.1f} GB" in said and "about 0 h" not in said


# ---------------------------------------------------------------- 'full FT? if not, LoRA?'

FALLBACK_EN = ["can we do full-param SFT of {m}? if not, LoRA?", "full fine-tune {m} possible? otherwise lora",
               "can we full finetune {m}, or else lora?", "full FT of {m}? failing that, LoRA",
               "is a full fine tune of {m} doable? if it doesn't fit, lora"]
FALLBACK_ZH = ["{m} 能全参微调吗？不行的话用 LoRA", "能不能全参微调 {m}，否则 LoRA", "{m} 全参放不下的话用 LoRA 微调",
               "{m} 全量微调可以吗？实在不行就 lora", "想全参微调 {m}，不然就 LoRA"]


@pytest.mark.parametrize("template", FALLBACK_EN + FALLBACK_ZH)
@pytest.mark.parametrize("model", ["Qwen3-14B", "qwen3 8b", "llama 3.1 8b"])
def test_a_fallback_method_is_read_as_the_fallback_not_a_comparison(template: str, model: str) -> None:
    u = understand(template.format(m=model))
    assert u.updates.get("method") == "full", (template, u.updates, u.ask)
    assert u.ask.get("method_fallback") == "lora" and u.ask.get("methods_weighed") == ["full", "lora"]
    assert "method_compare" not in u.intents


@pytest.mark.parametrize("text", ["lora vs full finetune for qwen3 8b, which one?", "LoRA和全参微调差多少显存？qwen3 8b",
                                  "full fine-tuning (not lora) of qwen3 8b on 8 h100"])
def test_a_comparison_or_a_refusal_is_no_fallback(text: str) -> None:
    assert "method_fallback" not in understand(text).ask


@pytest.mark.parametrize(("text", "method", "gpus"), [
    ("our lab owns 4 nodes of 8x L40S (48GB each, no nvlink, 100GbE between nodes). can we do full-param SFT of "
     "Qwen3-14B at 8k seq len? if not, LoRA?", "full", 8),
    ("we have 2 servers of 8x H100 80GB. full fine-tune qwen3 8b possible? otherwise lora", "full", None),
    ("we own one RTX 4090 24GB. can we full fine-tune qwen3 8b? if not, lora?", "lora", 1),
    ("我们有一张 4090 24G，Qwen3-8B 能全参微调吗？不行的话用 LoRA", "lora", 1),
    ("我们有 4 台 8 卡 L40S 服务器，没有 nvlink，100G 以太网。Qwen3-14B 序列长度 8k，能全参微调吗？不行的话用 LoRA", "full", 8),
])
def test_full_fine_tune_is_the_plan_when_it_fits_lora_when_not(text: str, method: str, gpus: int | None) -> None:
    reply, = run_conversation([text])
    rec = payload(reply)["results"]["recommend"]
    assert rec["workload"]["method"] == method, reply.content[:400]
    assert gpus is None or rec["best"]["gpus"] == gpus
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    verdict = {"full": ("it is the plan, as you asked", "按你问的就用它"),
               "lora": ("so the plan is LoRA, as you said", "所以按你说的改用LoRA")}[method][zh]
    assert verdict in reply.content
    assert not re.search(r"(?<![\d.])0(?:\.0+)? (?:h\b|小时|s\b|秒)", reply.content)


# ---------------------------------------------------------------- no NVLink said

NO_NVLINK = ["our lab owns 4 nodes of 8x L40S (48GB each, no nvlink, 100GbE between nodes). LoRA SFT of Qwen3-14B "
             "at 8k seq len",
             "we have 2 servers with 8x L40S each, no NVLink, plain 100G ethernet between them. lora finetune qwen3 "
             "14b, 8k context",
             "我们有 4 台 8 卡 L40S 服务器（没有 nvlink，节点之间 100G 以太网），LoRA 微调 Qwen3-14B，序列长度 8k"]


@pytest.mark.parametrize("text", NO_NVLINK)
def test_no_nvlink_said_no_nvlink_wording(text: str) -> None:
    first, second = run_conversation([text, "然后再用 GRPO 做 8 个 rollout，同样的集群？" if "我们" in text
                                      else "ok and after that GRPO with 8 rollouts per prompt, same cluster?"])
    for reply in (first, second):
        best = payload(reply)["results"]["recommend"]["best"]
        assert best["gpus"] > 8, reply.content[:300]  # all the servers: only the gradients cross
        spoken = reply.content.replace("no NVLink", "").replace("没有 NVLink", "")
        assert not re.search(r"(?:by|over|through) NVLink|经 NVLink", spoken), reply.content
        assert "PCIe" in reply.content
    assert "257 MB" in first.content


# ---------------------------------------------------------------- MoE against dense

MOE_PAIRS = [("Qwen3-235B-A22B", "Qwen3-32B"), ("Mixtral 8x7B", "Llama 2 70B"), ("Qwen3-30B-A3B", "Qwen3-32B"),
             ("DeepSeek-V3", "Llama 3.1 70B")]
MOE_EN = ["why does a MoE model use lots of VRAM but run fast? to deploy {a} or {b}, which needs fewer GPUs?",
          "does moe need less vram than dense?? like {a} vs {b}, which is cheaper to host"]
MOE_ZH = ["MoE 模型为啥显存占用大但速度快？部署 {a} 和 {b} 哪个更省卡？", "混合专家模型是不是更省显存，拿 {b} 和 {a} 比一下"]


@pytest.mark.parametrize(("a", "b"), MOE_PAIRS)
@pytest.mark.parametrize("template", MOE_EN + MOE_ZH)
def test_moe_against_dense_memory_follows_total_speed_follows_active(template: str, a: str, b: str) -> None:
    reply, = run_conversation([template.format(a=a, b=b)])
    pair = payload(reply).get("moe_pair") or reply.additional_kwargs["gpu_advisor"].get("moe_pair")
    assert pair, reply.content[:300]
    moe_id, dense_id = (m for m in pair["models"] if find_model(m).num_experts), \
        (m for m in pair["models"] if not find_model(m).num_experts)
    moe, dense = find_model(next(moe_id)), find_model(next(dense_id))
    found = pair["conclusion"]
    assert found["memory"] == ("more" if moe.total_params_b > dense.total_params_b * 1.05 else
                               "less" if moe.total_params_b < dense.total_params_b * 0.95 else "alike")
    assert (moe.active_params_b or 0) < dense.total_params_b * 0.95 and found["speed"] == "moe_faster"
    cards = {m: pair["models"][m]["cards"] for m in pair["models"]}
    if found["fewer_cards"]:
        other = next(m for m in cards if m != found["fewer_cards"])
        smaller = find_model(found["fewer_cards"]).total_params_b
        assert smaller <= find_model(other).total_params_b  # fewer cards <- smaller total
        assert cards[other] is None or cards[found["fewer_cards"]] < cards[other]
    text = reply.content
    assert not re.search(r"MoE (?:only )?saves memory|MoE 省显存|MoE 更省显存", text, re.I)
    assert "**VRAM**" not in text and "**显存**" not in text  # no unasked generic paragraph
    zh = bool(re.search(r"[\u4e00-\u9fff]", template))
    assert (("显存看总参数" in text and "速度看激活参数" in text) if zh else
            ("memory follows the total parameters" in text and "speed follows the active parameters" in text))
