"""Issue 26, attack M's failures kept as tests: MCP stdio answers every request read before stdin
closes; a safetensors header that contradicts the config is refused; the history guard follows the
file's identity, not its path; recovery waits for disk space; the damaged-copies notice is bounded; a
typed model size is shown as typed. In process, in the test's temporary folder; no network, no sleeping."""

from __future__ import annotations

import json

import pytest
from mcp_stdio import INIT, mcp_stdio

# ------------------------------------------------------------------ M26: replies queued at EOF


def _call(rid: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                       "params": {"name": "advise", "arguments": {"message": message}}})


@pytest.mark.parametrize("message", ["serve llama 8b to 5 users", "给5个人部署llama 8b"])
async def test_every_request_read_before_stdin_closes_is_answered(message):
    lines = [json.dumps(INIT), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
             json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), _call(3, message),
             json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}), _call(5, message)]
    out = await mcp_stdio(lines)
    answered = sorted(m["id"] for m in out if "id" in m)
    assert answered == [1, 2, 3, 4, 5]
    advice = [m for m in out if m.get("id") in (3, 5)]
    assert all("result" in m and not m["result"].get("isError") for m in advice)


# ------------------------------------------------------------------ M20: a header that contradicts the config

LLAMA_8B = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
            "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
            "torch_dtype": "bfloat16"}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    from tests.hf_cache import offline

    hf = tmp_path / "hf"
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf


def _st(tensors: dict) -> bytes:
    import struct

    raw = json.dumps(tensors).encode()
    return struct.pack("<Q", len(raw)) + raw


@pytest.mark.parametrize("tensors", [
    {"w": {"dtype": "BF16", "shape": [4, 4]}},
    {"w": {"dtype": "BF16", "shape": [4, 4], "data_offsets": [0, 32]}},
    {"a": {"dtype": "BF16", "shape": [4096, 4096]}, "b": {"dtype": "F32", "shape": [7]}},
])
def test_a_header_far_below_the_configs_shape_yields_to_the_shape(cache, tensors):
    from gpu_advisor.knowledge import resolve_model
    from tests.hf_cache import place

    place(cache, "atk/partial", {"config.json": LLAMA_8B, "model.safetensors": _st(tensors)})
    m = resolve_model("atk/partial")
    assert 7.5 < m.total_params_b < 8.5 and m.active_params_b <= m.total_params_b
    assert "far below" in m.notes and "partial download" in m.notes


def test_a_full_header_still_counts(cache):
    from gpu_advisor.knowledge import resolve_model
    from tests.hf_cache import place

    # about 8.0B in the header: the header's count is kept, active never above total
    tensors = {f"w{i}": {"dtype": "BF16", "shape": [1 << 16, 1 << 15]} for i in range(4)}
    place(cache, "acme/whole", {"config.json": LLAMA_8B, "model.safetensors": _st(tensors)})
    m = resolve_model("acme/whole")
    assert m.total_params_b == pytest.approx(4 * (1 << 31) / 1e9)
    assert 0 < m.active_params_b <= m.total_params_b


@pytest.mark.parametrize("argv", [["models", "show", "atk/offnull"],
                                  ["size", "inference", "-m", "atk/offnull", "-p", "fp16", "--gpu", "h100"]])
def test_null_data_offsets_are_refused_in_one_line_exit_2(cache, capsys, argv):
    from gpu_advisor.tui.cli import main
    from tests.hf_cache import place

    place(cache, "atk/offnull", {"config.json": LLAMA_8B, "model.safetensors":
                                 _st({"w": {"dtype": "BF16", "shape": [4, 4], "data_offsets": None}})})
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "null data offsets" in err and "Traceback" not in err


def test_the_size_of_a_partial_header_is_the_configs(cache, capsys):
    from gpu_advisor.tui.cli import main
    from tests.hf_cache import place

    place(cache, "atk/partial", {"config.json": LLAMA_8B, "model.safetensors":
                                 _st({"w": {"dtype": "BF16", "shape": [4, 4], "data_offsets": [0, 32]}})})
    assert main(["size", "inference", "-m", "atk/partial", "-p", "fp16", "--gpu", "h100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["weights_bytes"] > 14e9
