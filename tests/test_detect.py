"""`gpu-advisor detect` and "what can I run on this machine?": the local cards read from recorded outputs of
nvidia-smi, rocm-smi and macOS's sysctl / system_profiler, matched to the catalog by name and memory, and
offered (never used unasked) in the conversation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.session import Conversation
from gpu_advisor.tools import detect as d
from tests.conversation import run_conversation

# Recorded outputs (the formats of nvidia-smi 550, rocm-smi 6.x, macOS 14).
NVIDIA_TWO_H100 = "NVIDIA H100 80GB HBM3, 81559\nNVIDIA H100 80GB HBM3, 81559\n"
NVIDIA_MIXED = "NVIDIA GeForce RTX 3090, 24576\nNVIDIA GeForce RTX 4090, 24564\nNVIDIA GeForce RTX 3090, 24576\n"
NVIDIA_UNKNOWN = "NVIDIA GeForce RTX 9090 Ti, 40960\n"
NVIDIA_NOISE = "name, memory.total [MiB]\n[N/A], [N/A]\nNVIDIA L40S, 46068\n"
ROCM_MI300X = json.dumps({f"card{i}": {"Card Series": "AMD Instinct MI300X", "VRAM Total Memory (B)": "206141652992"}
                          for i in range(8)})
ROCM_OLD_KEYS = json.dumps({"card0": {"Card series": "Radeon RX 7900 XTX", "vram Total Memory (B)": "25753026560"},
                            "system": {"Driver version": "6.3"}})
MAC_SYSCTL = "Apple M2 Max\n103079215104\n"
MAC_PROFILER = json.dumps({"SPDisplaysDataType": [{"sppci_cores": "38", "sppci_model": "Apple M2 Max"}]})
MEMINFO = "MemTotal:       131891804 kB\nMemFree:         1000 kB\n"


def runner(outputs: dict[str, str]):
    """A command runner answering from recorded outputs by program name; the others are not installed."""
    return lambda command: outputs.get(command[0])


@pytest.fixture
def meminfo(tmp_path: Path) -> Path:
    path = tmp_path / "meminfo"
    path.write_text(MEMINFO)
    return path


def test_two_h100_from_nvidia_smi(meminfo):
    m = d.detect(runner({"nvidia-smi": NVIDIA_TWO_H100}), meminfo)
    assert [(c.count, c.gpu_id, c.memory_gb) for c in m.cards] == [(2, "h100-sxm", 79.6)]
    assert m.ram_gb == 125.8
    assert m.sources == ["nvidia-smi", str(meminfo)]
    assert d.as_owned(m) == {"h100-sxm": 2}


def test_mixed_cards_are_grouped_by_kind(meminfo):
    m = d.detect(runner({"nvidia-smi": NVIDIA_MIXED}), meminfo)
    assert sorted((c.gpu_id, c.count) for c in m.cards) == [("rtx-3090", 2), ("rtx-4090", 1)]


def test_headers_and_missing_values_are_skipped():
    assert d.parse_nvidia_smi(NVIDIA_NOISE) == [("NVIDIA L40S", 45.0)]


def test_l40s_with_ecc_memory_is_still_an_l40s(meminfo):
    m = d.detect(runner({"nvidia-smi": NVIDIA_NOISE}), meminfo)
    assert [(c.gpu_id, c.memory_gb) for c in m.cards] == [("l40s", 45.0)]


def test_a_card_the_catalog_lacks_is_listed_never_replaced(meminfo):
    m = d.detect(runner({"nvidia-smi": NVIDIA_UNKNOWN}), meminfo)
    assert [(c.name, c.gpu_id, c.memory_gb) for c in m.cards] == [("NVIDIA GeForce RTX 9090 Ti", None, 40.0)]
    assert d.as_owned(m) == {}


@pytest.mark.parametrize(("name", "memory", "expected"), [
    ("NVIDIA H100 PCIe", 79.6, "h100-pcie"),
    ("NVIDIA A100-SXM4-40GB", 39.5, "a100-40gb-sxm"),
    ("NVIDIA A100 80GB PCIe", 79.2, "a100-80gb-pcie"),
    ("NVIDIA RTX 6000 Ada Generation", 48.0, "rtx-6000-ada"),
    ("NVIDIA GeForce RTX 4090 D", 24.0, "rtx-4090d"),
    ("NVIDIA GeForce RTX 4060 Ti", 16.0, "rtx-4060-ti-16gb"),
    ("NVIDIA GeForce RTX 4060 Ti", 8.0, "rtx-4060-ti-8gb"),
    ("Tesla V100-SXM2-32GB", 32.0, "v100-sxm2-32gb"),
    ("Tesla V100-PCIE-16GB", 15.8, "v100-pcie-16gb"),
])
def test_vendor_names_match_the_catalog(name, memory, expected):
    assert d.match_card(name, memory)[0] == expected


def test_a_close_name_of_another_model_is_not_taken():
    """difflib finds the 4090 laptop close to a 3080 Ti laptop with the same memory: the model number differs."""
    gpu_id, _ = d.match_card("NVIDIA GeForce RTX 3080 Ti Laptop GPU", 16.0)
    assert gpu_id is None or "3080" in gpu_id


def test_memory_far_from_the_catalog_card_is_not_that_card():
    assert d.match_card("NVIDIA GeForce RTX 4090", 48.0)[0] != "rtx-4090"


def test_eight_mi300x_from_rocm_smi(meminfo):
    m = d.detect(runner({"rocm-smi": ROCM_MI300X}), meminfo)
    assert [(c.count, c.gpu_id, c.memory_gb) for c in m.cards] == [(8, "mi300x", 192.0)]


def test_older_rocm_smi_keys(meminfo):
    m = d.detect(runner({"rocm-smi": ROCM_OLD_KEYS}), meminfo)
    assert [(c.gpu_id, c.memory_gb) for c in m.cards] == [("rx-7900-xtx", 24.0)]


def test_a_mac_by_chip_cores_and_memory(meminfo):
    m = d.detect(runner({"sysctl": MAC_SYSCTL, "system_profiler": MAC_PROFILER}), meminfo)
    assert [(c.gpu_id, c.memory_gb) for c in m.cards] == [("apple-m2-max-96gb", 96.0)]
    assert m.ram_gb == 96  # unified memory, not /proc/meminfo
    assert "sysctl" in m.sources


def test_nothing_installed(tmp_path):
    m = d.detect(runner({}), tmp_path / "absent")
    assert (m.cards, m.ram_gb, m.sources) == ([], None, [])


@given(st.text(max_size=300))
def test_parsers_never_raise_on_garbage(text):
    d.parse_nvidia_smi(text)
    d.parse_rocm_smi(text)
    d.parse_mac(text, text)
    d.parse_meminfo(text)


# ---------------------------------------------------------------- the command


def test_cli_lists_the_cards_and_how_to_use_them(monkeypatch, capsys, meminfo):
    from gpu_advisor.tui.cli import main

    machine = d.detect(runner({"nvidia-smi": NVIDIA_MIXED}), meminfo)
    monkeypatch.setattr(d, "detect", lambda: machine)
    assert main(["detect"]) == 0
    out = capsys.readouterr().out
    assert "2 × NVIDIA GeForce RTX 3090, 24 GB each (catalog: rtx-3090)" in out
    assert "system memory: 125.8 GB" in out
    assert "I have 2 × NVIDIA GeForce RTX 3090 24GB and 1 × NVIDIA GeForce RTX 4090 24GB" in out


def test_cli_json(monkeypatch, capsys, meminfo):
    from gpu_advisor.tui.cli import main

    machine = d.detect(runner({"nvidia-smi": NVIDIA_UNKNOWN}), meminfo)
    monkeypatch.setattr(d, "detect", lambda: machine)
    assert main(["detect", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"][0]["gpu_id"] is None and data["owned"] == {}


# ---------------------------------------------------------------- the conversation

ASKS = {
    "en": ["what can I run on this machine?", "What models can I run on my laptop", "which models could we run locally",
           "what can my PC run?", "check my gpus", "what gpus do I have"],
    "zh": ["我这台电脑能跑什么模型？", "本机能跑啥", "这台机器上能跑什么", "检测一下我的显卡", "我的笔记本能跑什么"],
}


@pytest.mark.parametrize("text", [t for ts in ASKS.values() for t in ts])
def test_the_question_is_read(text):
    assert "this_machine" in understand(text).intents


@pytest.mark.parametrize("text", ["can my 4090 run llama 3 8b?", "my machine has 2 A100s, serve llama 3.1 70b",
                                  "我这台电脑有两张3090，想跑qwen2.5-32b", "serve qwen2.5 7b on this machine's A10"])
def test_a_named_card_is_a_sizing_not_this_question(text):
    assert "this_machine" not in understand(text).intents


def _local(machine):
    conv = Conversation()
    conv.machine = lambda: machine
    return conv


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cards_are_offered_then_used_when_picked(lang, meminfo):
    machine = d.detect(runner({"nvidia-smi": NVIDIA_MIXED}), meminfo)
    conv = _local(machine)
    reply = conv.send(ASKS[lang][0])
    payload = reply.additional_kwargs["gpu_advisor"]
    assert "2 × NVIDIA GeForce RTX 3090 24GB" in reply.content
    assert not (conv.state.get("profile") or {}).get("owned")  # nothing used unasked
    models, _plan = payload["choices"]
    reply = conv.send(models["value"])
    assert sorted(conv.state["profile"]["owned"]) == ["1x rtx-4090", "2x rtx-3090"]
    assert ("Qwen3" in reply.content) and (("能跑的模型" in reply.content) == (lang == "zh"))


def test_an_unknown_card_is_said_and_nothing_offered(meminfo):
    conv = _local(d.detect(runner({"nvidia-smi": NVIDIA_UNKNOWN}), meminfo))
    reply = conv.send("我这台电脑能跑什么模型？")
    assert "NVIDIA GeForce RTX 9090 Ti，每张 40 GB：我的目录里没有这张卡" in reply.content
    assert "choices" not in reply.additional_kwargs["gpu_advisor"]


def test_a_server_says_it_cannot_see_the_users_machine():
    en, = run_conversation(["what can I run on this machine?"])
    assert "`gpu-advisor detect`" in en.content and "server" in en.content
    zh, = run_conversation(["本机能跑啥"], thread="zh")
    assert "看不到你正在用的机器" in zh.content
