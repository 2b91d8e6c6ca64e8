"""Crafted files (issue 26): a settings file nested deep, a FIFO, a link to /dev/zero or a huge file
never stops --help, --version or config and costs no time (refused by type and size before reading);
a Hugging Face cache or config.json that no model could have is one line and exit 2, never a
traceback, a loop over 10**18 layers or a negative parameter count."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.knowledge import ConfigError, hub, resolve_model
from gpu_advisor.knowledge.hf_config import model_from_config
from gpu_advisor.tui import settings
from tests.hf_cache import empty_offline_cache, offline, place, safetensors_bytes  # noqa: F401 (the cache fixture)

ROOT = Path(__file__).resolve().parent.parent
TINY = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 256, "max_position_embeddings": 2048}


def _crafted_settings(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "settings.toml"
    if kind == "deep":
        path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    elif kind == "deep-table":
        path.write_text("a = " + "{b = " * 20_000 + "1" + "}" * 20_000 + "\n")
    elif kind == "fifo":
        os.mkfifo(path)  # nobody ever writes to it: reading it would wait forever
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with path.open("wb") as f:
            f.truncate(100 << 20)  # 100 MB (sparse)
    elif kind == "folder":
        path.mkdir()
    return path


KINDS = ["deep", "deep-table", "fifo", "dev-zero", "huge", "folder"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_crafted_settings_file_is_reported_and_ignored(tmp_path, kind):
    path = _crafted_settings(tmp_path, kind)
    loaded = settings.load(path)  # a FIFO or a device is refused by its type, never opened: no wait
    assert loaded.problem and str(path) in loaded.problem and "\n" not in loaded.problem
    assert loaded.as_dict() == settings.Settings().as_dict()


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_help_version_and_config_work_with_a_crafted_settings_file(tmp_path, kind):
    path = _crafted_settings(tmp_path, kind)
    env = {**os.environ, "GPU_ADVISOR_CONFIG": str(path)}
    for argv, status in ((["--help"], 0), (["--version"], 0), (["config", "show"], 0), (["config", "path"], 0),
                         (["gpus", "--json"], 0)):
        done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *argv], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == status, (argv, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 1, done.stderr
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "config", "set", "region", "china"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- config.json


@pytest.mark.parametrize(("field", "value"), [
    ("num_hidden_layers", 10**9), ("num_hidden_layers", 10**18), ("hidden_size", -64), ("sliding_window", "big"),
    pytest.param("num_hidden_layers", 10**5000, id="5000-digits"), ("num_key_value_heads", 2.5), ("intermediate_size", True),
    ("vocab_size", [256]), ("attn_layer_period", 10**12)])
def test_config_fields_past_any_model_are_one_line(field, value):
    with pytest.raises(ConfigError, match=field) as caught:
        model_from_config({**TINY, field: value}, name="x", source="test")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


def test_layer_lists_past_any_model_are_refused():
    with pytest.raises(ConfigError, match="layer_types"):
        model_from_config({**TINY, "layer_types": ["full_attention"] * 100_000}, name="x", source="test")


# ---------------------------------------------------------------- the Hugging Face cache


def _header(obj) -> bytes:
    raw = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return struct.pack("<Q", len(raw)) + raw


def _tensor(**kw):
    return {"t": {"dtype": "BF16", "shape": [4, 4], "data_offsets": [0, 32], **kw}}


CRAFTED = {
    "deep-header": _header(b'{"t": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    "shape-int": _header(_tensor(shape=4)),
    "shape-null": _header(_tensor(shape=[4, None])),
    "shape-negative": _header(_tensor(shape=[-35, 1])),
    "shape-text": _header(_tensor(shape=["4"])),
    "offsets-null": _header(_tensor(data_offsets=[None, None])),
    "offsets-backwards": _header(_tensor(data_offsets=[32, 0])),
    "tensor-list": _header({"t": [1, 2]}),
    "header-list": _header([1, 2]),
}


@pytest.mark.parametrize("kind", sorted(CRAFTED))
def test_a_crafted_safetensors_header_is_a_config_error(cache, kind):
    place(cache, f"acme/{kind}", {"config.json": TINY, "model.safetensors": CRAFTED[kind]})
    with pytest.raises(ConfigError) as caught:
        resolve_model(f"acme/{kind}")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("index", [[1, 2], {"metadata": [1]}, {"metadata": {"total_size": -1}},
                                   {"metadata": {"total_size": "big"}}])
def test_a_crafted_safetensors_index_is_a_config_error(cache, index):
    place(cache, "acme/index", {"config.json": TINY, "model.safetensors.index.json": json.dumps(index)})
    with pytest.raises(ConfigError, match="index"):
        resolve_model("acme/index")


def test_a_config_json_that_is_a_fifo_in_the_cache_is_not_read(cache):
    snap = place(cache, "acme/fifo", {"model.safetensors": safetensors_bytes({"w": ("BF16", [4, 4])})})
    os.mkfifo(snap / "config.json")
    with pytest.raises(ConfigError, match="not a regular file"):
        resolve_model("acme/fifo")


@pytest.mark.parametrize("ref", ["../../../../../../../../../..", "../usr", "/", "main", "0" * 39, "g" * 40,
                                 "a" * 40 + "/..", "\x00" * 40])
def test_a_ref_that_is_no_commit_hash_is_refused_without_reading_outside_the_cache(cache, ref):
    # a crafted refs/main once sent the reader over the whole disk (attack 4): it must name a snapshot by its hash
    snap = place(cache, "evil/a", {"config.json": TINY})
    (snap.parent.parent / "refs" / "main").write_text(ref)
    with pytest.raises(ConfigError, match="commit hash") as caught:
        hub.from_hf_cache("evil/a")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("revision", ["../../..", "main/../../x", "", "a//b"])
def test_a_revision_that_leaves_the_repository_is_refused(cache, revision):
    place(cache, "acme/rev", {"config.json": TINY})
    with pytest.raises(ConfigError, match="not a revision"):
        hub.from_hf_cache("acme/rev", revision=revision)


def test_a_sound_checkpoint_still_counts(cache):
    place(cache, "acme/ok", {"config.json": TINY, "model.safetensors": safetensors_bytes({"w": ("BF16", [4, 4])}),
                             "model.safetensors.index.json": {"metadata": {"total_size": 32}, "weight_map": {}}})
    m = hub.from_hf_cache("acme/ok")
    assert m is not None and m.params_by_dtype == {"BF16": 16} and m.total_size == 32


@pytest.mark.slow
def test_cli_sizing_a_crafted_cache_is_one_line_and_exit_2(tmp_path):
    hf = tmp_path / "hf"
    place(hf, "acme/negative", {"config.json": TINY, "model.safetensors": CRAFTED["shape-negative"]})
    place(hf, "acme/layers", {"config.json": {**TINY, "num_hidden_layers": 10**18}})
    env = {**os.environ, "HF_HUB_CACHE": str(hf), "HF_HUB_OFFLINE": "1", "GPU_ADVISOR_CACHE_DIR": str(tmp_path / "o")}
    for repo in ("acme/negative", "acme/layers"):
        done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "size", "inference", "-m", repo], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, \
            done.stderr


# ---------------------------------------------------------------- odd database paths


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs Linux's /proc")
def test_a_proc_file_as_the_database_is_one_line_at_once(capsys):
    from gpu_advisor.tui.cli import main

    assert main(["sessions", "list", "--db", "/proc/version"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "not a GPU Advisor history database" in err
    assert "another GPU Advisor" not in err


@pytest.mark.parametrize("blank", [" ", "\t", "  \n"])
def test_a_blank_database_path_in_the_environment_is_one_line_and_no_file(tmp_path, monkeypatch, capsys, blank):
    from gpu_advisor.tui.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GPU_ADVISOR_DB", blank)
    assert main(["sessions", "list"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "GPU_ADVISOR_DB" in err
    assert list(tmp_path.iterdir()) == []
