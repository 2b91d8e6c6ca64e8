"""Training over one's own servers joined by ordinary Ethernet: sharded training moves the weights twice and
the gradients once per micro-batch across the link, and when that takes longer than the compute the run
waits on the network. The answer says so, with LoRA on one server as the way around it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.knowledge import find_model
from gpu_advisor.tools.training import lora_params
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time
from tests.conversation import payload, run_conversation


def _run(**kw) -> object:
    base = {"model": "llama-3.1-70b", "gpu": "a100-80gb-sxm", "gpus": 16, "method": "full", "tokens": 200e6,
            "seq_len": 2048}
    return training_time(TrainingTimeInput(**{**base, **kw}))


def test_ten_gigabit_ethernet_bounds_a_70b_full_fine_tune_by_hand():
    fast = _run()
    slow = _run(servers=2, network_gbit_per_s=10)
    net = next(t for t in slow.terms if t.key == "network_seconds")
    # 200M tokens / (16 GPUs x 2,048) = 6,103.5 micro-batches; each moves (2 x 2 + 2) bytes x 70.55B
    # parameters x 1/2 across the link at 10 Gb/s x 0.8 = 1 GB/s
    params = find_model("llama-3.1-70b").total_params_b * 1e9
    expected = 200e6 / (16 * 2048) * (2 * params * 2 + params * 2) * 0.5 / 1e9
    assert net.value == pytest.approx(expected, rel=1e-6)
    assert slow.hours == pytest.approx(expected / 3600, rel=1e-6)
    assert 350 < slow.hours < 370 and fast.hours < 15
    assert any("limits this run" in w for w in slow.warnings)


def test_lora_sends_only_its_adapters_gradients_between_the_servers():
    # LoRA runs data parallel across the servers (HSDP): no weight crosses them, only one ring all-reduce of the
    # adapters' FP32 gradients a micro-batch, 2 x (2 - 1) / 2 of their bytes through each link at 1 GB/s
    full = next(t for t in _run(servers=2, network_gbit_per_s=10).terms if t.key == "network_seconds")
    lora = next(t for t in _run(servers=2, network_gbit_per_s=10, method="lora").terms if t.key == "network_seconds")
    qlora = next(t for t in _run(servers=2, network_gbit_per_s=10, method="qlora").terms
                 if t.key == "network_seconds")
    adapters = lora_params(find_model("llama-3.1-70b"), 16) * 4
    assert lora.value == pytest.approx(200e6 / (16 * 2048) * 2 * 0.5 * adapters / 1e9, rel=1e-9)
    assert qlora.value == pytest.approx(lora.value, rel=1e-9)
    assert lora.value < full.value / 100


def test_a_fast_fabric_or_one_server_adds_no_network_term():
    assert not any(t.key == "network_seconds" for t in _run().terms)
    assert not any(t.key == "network_seconds" for t in _run(gpus=8, servers=1, network_gbit_per_s=10).terms)


@settings(max_examples=40, deadline=None)
@given(gbit=st.floats(1, 400), faster=st.floats(1.01, 10), servers=st.integers(2, 8))
def test_a_faster_network_never_makes_the_run_longer(gbit, faster, servers):
    slow = _run(gpus=8 * servers, servers=servers, network_gbit_per_s=gbit)
    quick = _run(gpus=8 * servers, servers=servers, network_gbit_per_s=gbit * faster)
    compute = _run(gpus=8 * servers)
    assert quick.hours <= slow.hours * (1 + 1e-9)
    assert slow.hours >= compute.hours * (1 - 1e-9)


def test_the_answer_says_the_run_waits_on_the_network_and_offers_lora_on_one_server():
    en, = run_conversation(["we have 2 servers with 8 A100 80GB each, plain 10GbE between them. "
                            "full fine-tune llama 3.1 70b on 200M tokens"])
    best = payload(en)["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] == 16
    finding = next(f for f in best["findings"] if f["code"] == "slow_network_training")
    assert finding["values"]["servers"] == "2" and finding["values"]["gbit"] == "10"
    assert float(finding["values"]["network_hours"].replace(",", "")) == pytest.approx(best["job_hours"], rel=0.01)
    assert "Over the 10 Gb/s Ethernet between your 2 servers, the run waits on the network" in en.content
    assert f"LoRA on one server's cards needs no network and takes about {finding['values']['lora_hours']} h" \
        in en.content
    assert "the time assumes a fast network" not in en.content
    zh, = run_conversation(["我们有两台8卡A100 80G服务器，之间只有万兆网络，想全参微调llama 3.1 70b，数据2亿token"])
    assert "你的 2 台服务器之间是 10 Gb/s 以太网，训练要等网络" in zh.content


@pytest.mark.parametrize(("text", "gbit"), [("connected over 100G ethernet (no infiniband)", 100.0),
                                           ("plain 25GbE between the boxes", 25.0), ("10 gig ethernet", 10.0),
                                           ("两台8卡A800，万兆网络", 10.0), ("千兆以太网", 1.0),
                                           ("just ethernet between them", None)])
def test_the_ethernets_speed_is_read_when_said(text, gbit):
    from gpu_advisor.assistant.reading import understand

    u = understand(text, None)
    assert u.updates.get("network") == "slow", (text, u.updates)
    assert u.updates.get("network_gbit") == gbit, (text, u.updates)


def test_the_stated_speed_sizes_the_run_and_can_we_do_it_says_it_waits_on_the_network():
    first, second = run_conversation(["we have 4 servers of 8 A100 40GB connected over 100G ethernet (no infiniband), "
                                      "full finetune qwen2.5 72b on 2B tokens", "can we do it on what we have?"])
    best = payload(first)["results"]["recommend"]["best"]
    finding = next(f for f in best["findings"] if f["code"] == "slow_network_training")
    assert finding["values"]["gbit"] == "100"
    assert "Over the 100 Gb/s Ethernet between your 4 servers" in first.content
    assert second.content.startswith("Your 32 × NVIDIA A100 SXM4 40GB hold it (")
    assert f"about {finding['values']['network_hours']} h against {finding['values']['compute_hours']} h" \
        in second.content
