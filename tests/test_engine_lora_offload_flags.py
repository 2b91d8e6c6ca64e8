"""The LoRA and offload flags a launch command writes, as the engines' own sources at the assumed versions spell
and count them (knowledge/data/engine_flags.yaml notes what was read): SGLang's --max-loras-per-batch counts
requests to the base model as one of its adapters; vLLM 0.11's --max-lora-rank takes only its listed values and
its KV offloading reads num_cpu_blocks."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.tools.launch import check_flags, launch_for
from gpu_advisor.tools.multi_lora import VLLM_RANKS
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.vllm_offload import VllmOffloadInput, vllm_offload


@pytest.mark.parametrize(("loras", "users", "rank"), [(50, 50, 16), (20, 10, 64), (8, 100, 24)])
def test_sglang_keeps_one_slot_more_than_vllm_for_base_only_requests(loras, users, rank):
    rec = recommend(Workload(model="llama-3.1-8b", phase="serve", users=users, loras=loras, lora_rank=rank))
    assert rec.multi_lora is not None
    vllm, sglang = launch_for(rec, "vllm"), launch_for(rec, "sglang")
    assert check_flags(vllm) == [] and check_flags(sglang) == []
    v, s = vllm.argv, sglang.argv
    assert int(s[s.index("--max-loras-per-batch") + 1]) == int(v[v.index("--max-loras") + 1]) + 1
    assert int(v[v.index("--max-lora-rank") + 1]) in VLLM_RANKS
    assert int(v[v.index("--max-lora-rank") + 1]) >= rank
    assert s[s.index("--max-lora-rank") + 1] == v[v.index("--max-lora-rank") + 1]


def test_vllm_kv_offloading_names_num_cpu_blocks_in_the_connector_config():
    r = vllm_offload(VllmOffloadInput(model="llama-3.1-8b", gpu="rtx-4090", precision="fp8", context=8192,
                                      users=4, kv_offload_conversations=100))
    config = json.loads(r.flags[r.flags.index("--kv-transfer-config") + 1])
    assert config["kv_connector"] == "OffloadingConnector" and config["kv_role"] == "kv_both"
    assert config["kv_connector_extra_config"] == {"num_cpu_blocks": 100 * 8192 // 16}
