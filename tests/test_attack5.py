"""Attack 5's low findings, kept as tests: a piped chat goes on after a message that is too long, and MCP over HTTP
never reads (or reveals) files on the server through a model argument."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.tui.mcp_server import Sessions, _local_path, call_tool

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_piped_chat_answers_the_line_after_one_too_long(tmp_path):
    lines = "serve llama 3 8b to 5 users\n" + "a" * 9000 + "\naround the clock\n"
    env = {**os.environ, "GPU_ADVISOR_CONFIG": str(tmp_path / "settings.toml"), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "chat", "--plain", "--no-save"], cwd=ROOT, env=env,
                          input=lines, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("a message can be at most 8,000 characters (this one has 9,000)") == 1
    assert "tokens/s per user" in done.stdout  # the third line was read: the plan


@pytest.mark.parametrize("model", ["/etc/passwd", "/etc/shadow", "./config.json", "../x", "~/models/x", "C:\\x\\config.json",
                                   "configs/llama.json", str(ROOT / "README.md")])
@pytest.mark.parametrize("tool", ["inference_memory", "fit"])
def test_over_http_a_model_that_is_a_path_is_refused_the_same_way_whether_it_exists_or_not(model, tool):
    assert _local_path(model)
    out = call_tool(tool, {"model": model, "gpu": "h100-sxm"}, Sessions(), remote=True)
    assert out.is_error
    assert "files on the server are not read over HTTP" in out.content[0].text


@pytest.mark.parametrize("model", ["llama-3.1-8b", "Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-70B"])
def test_names_and_repo_ids_are_not_paths(model):
    assert not _local_path(model)
    out = call_tool("inference_memory", {"model": "llama-3.1-8b"}, Sessions(), remote=True)
    assert not out.is_error
