"""Issue 26, attack M's failures kept as tests: MCP stdio answers every request read before stdin
closes; a safetensors header that contradicts the config is refused; the history guard follows the
file's identity, not its path; recovery waits for disk space; the damaged-copies notice is bounded; a
typed model size is shown as typed. In process, in the test's temporary folder; no network, no sleeping."""

from __future__ import annotations

import json
import os
import re

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


# ------------------------------------------------------------------ M1: one file through two paths

def _two_paths(tmp_path, monkeypatch):
    import shutil

    import gpu_advisor.assistant.history.store as store_module
    from gpu_advisor.assistant.history import HistoryStore

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    (tmp_path / "a").mkdir()
    (tmp_path / "c").mkdir()
    a, c = tmp_path / "a" / "h.db", tmp_path / "c" / "h.db"
    HistoryStore(a).close()
    shutil.copy(a, c)  # the OS reports both paths as one file (st_dev, st_ino), as a bind mount does
    monkeypatch.setattr(store_module, "_file_key", lambda path: "7-42" if os.path.exists(path) else None)
    return a, c


def test_a_second_path_to_an_open_database_is_refused_in_one_line(tmp_path, monkeypatch):
    from gpu_advisor.assistant.history import HistoryError, HistoryStore
    from gpu_advisor.assistant.session import Conversation

    a, c = _two_paths(tmp_path, monkeypatch)
    store = HistoryStore(a)
    Conversation(store).send("serve llama 3.1 8b to 5 users")  # a's log is there while a is open
    assert os.path.exists(f"{a}-wal")
    with pytest.raises(HistoryError) as caught:
        HistoryStore(c)
    assert "another path" in str(caught.value) and "\n" not in str(caught.value)
    assert not os.path.exists(f"{c}-wal")
    store.close()


def test_a_session_claimed_through_one_path_is_held_through_the_other(tmp_path, monkeypatch):
    import subprocess
    import sys

    from gpu_advisor.assistant.history import HistoryStore

    a, c = _two_paths(tmp_path, monkeypatch)
    store = HistoryStore(a)
    store.claim("SID-1")
    code = ("import sys, os; import gpu_advisor.assistant.history.store as s; "
            "s._file_key = lambda p: '7-42' if os.path.exists(p) else None; "
            "from gpu_advisor.assistant.history import HistoryError; "
            "st = s.HistoryStore.__new__(s.HistoryStore); st.path = s.Path(sys.argv[1]); st._claimed = set()\n"
            "try:\n    st.claim('SID-1'); print('claimed')\nexcept HistoryError as e:\n    print('refused', e)\n"
            "print('other', s._claim_session(s.Path(sys.argv[1]), 'SID-2'))")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", code, str(c)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": root, "XDG_RUNTIME_DIR": str(tmp_path)})
    assert "refused" in done.stdout and "another GPU Advisor" in done.stdout, done.stderr
    assert "other True" in done.stdout
    store.close()


# ------------------------------------------------------------------ M31: the damaged-copies note is bounded

@pytest.mark.parametrize("copies", [1, 5, 6, 200])
def test_the_damaged_copies_note_names_a_few_and_counts_the_rest(tmp_path, copies):
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(tmp_path / "h.db")
    for n in range(1, copies + 1):
        (tmp_path / f"h.db.damaged-{n}").write_bytes(b"")
    note = store.reminder
    assert note is not None and note.count("damaged-") == min(copies, 5)
    if copies > 5:
        assert f"and {copies - 5:,} more" in note
    assert len(note) < 2000
    store.close()


# ------------------------------------------------------------------ M29: a typed size shown as typed

@pytest.mark.parametrize("typed,shown", [("1234567890123456789b", "1,234,567,890,123,456,789B"),
                                         ("98765432109876543210B", "98,765,432,109,876,543,210B"),
                                         ("123456789.5b", "123,456,789.5B")])
def test_a_size_beyond_any_model_is_shown_as_typed(capsys, typed, shown):
    from gpu_advisor.tui.cli import main

    assert main(["size", "inference", "-m", typed, "--gpu", "h100"]) == 2
    err = capsys.readouterr().err
    assert shown in err and err.count("\n") == 1


# ------------------------------------------------------------------ M32/M33: recovery on a full disk

def _damaged(path) -> bytes:
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(path)
    for i in range(3):
        sid = store.create_session(f"session {i}")
        store.add_message(sid, "user", f"message {i}")
    store.close()
    data = bytearray(path.read_bytes())
    data[4096 * 2: 4096 * 3] = b"\xde\xad" * 2048
    path.write_bytes(bytes(data))
    for side in ("-wal", "-shm"):
        if os.path.exists(f"{path}{side}"):
            os.unlink(f"{path}{side}")
    return bytes(data)


@pytest.mark.parametrize("free", [0, 1000, 500_000])
def test_a_recovery_without_disk_space_leaves_the_original_and_is_retried(tmp_path, monkeypatch, free):
    import gpu_advisor.assistant.history.store as store_module
    from gpu_advisor.assistant.history import HistoryStore, StorageError

    path = tmp_path / "h.db"
    before = _damaged(path)
    monkeypatch.setattr(store_module, "_free_bytes", lambda folder: free)
    with pytest.raises(StorageError) as caught:
        HistoryStore(path)
    said = str(caught.value)
    assert "not enough disk space to recover" in said and "\n" not in said
    assert re.search(r"need \d+ MB", said)
    assert "read-only" not in said
    assert path.read_bytes() == before and not list(tmp_path.glob("h.db.damaged-*"))
    monkeypatch.setattr(store_module, "_free_bytes", lambda folder: 10 << 30)  # space freed: the next start
    store = HistoryStore(path)
    assert store.notice and "damaged-1" in store.notice
    assert len(list(tmp_path.glob("h.db.damaged-1"))) == 1
    store.close()
