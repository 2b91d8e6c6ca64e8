"""Issue 24, the integration guide: the README's copy-paste set-ups are what the surfaces take. Each client's
config names the installed command with `mcp`; LibreChat's endpoint is `serve`'s address and model; the notebook
snippet runs as written; agent-chat-ui's graph id is langgraph.json's. (The protocols themselves are tested with
the official clients: tests/test_mcp_server.py, tests/test_openai_api.py, tests/test_langgraph_server.py.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _section(title: str) -> str:
    start = README.index(title)
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def test_every_mcp_client_config_starts_gpu_advisor_mcp():
    configs = [json.loads(b) for b in _blocks("json")]
    servers = [c.get("mcpServers", c.get("servers")) for c in configs]
    servers = [s["gpu-advisor"] for s in servers if s and "gpu-advisor" in s]
    assert len(servers) >= 2  # Claude Desktop / Cursor, VS Code
    for server in servers:
        assert server["command"].endswith("/bin/gpu-advisor") and server["args"] == ["mcp"]
    vscode = next(c for c in configs if "servers" in c)
    assert vscode["servers"]["gpu-advisor"]["type"] == "stdio"


@pytest.mark.parametrize("client", ["Claude Desktop", "Cursor", "Claude Code", "VS Code", "Open WebUI", "LibreChat",
                                    "agent-chat-ui", "notebook", "langgraph dev"])
def test_the_guide_has_a_set_up_for_each_client(client):
    assert client in README


def test_claude_code_adds_the_installed_command_with_mcp():
    line = re.search(r"`claude mcp add gpu-advisor -- (\S+) mcp`", README)
    assert line and line[1].endswith("/bin/gpu-advisor")


def test_librechat_points_at_what_serve_serves():
    from gpu_advisor.tui.openai_api import MODEL_ID

    (block,) = [b for b in _blocks("yaml") if "librechat" in b.lower() or "custom:" in b]
    (endpoint,) = yaml.safe_load(block)["endpoints"]["custom"]
    assert endpoint["baseURL"] == "http://127.0.0.1:8000/v1"
    assert endpoint["models"]["default"] == [MODEL_ID] and endpoint["titleConvo"] is False
    assert "gpu-advisor serve" in _section("### OpenAI-compatible chat")


def test_agent_chat_ui_uses_the_graph_id_langgraph_json_serves():
    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    assert list(graphs) == ["gpu_advisor"] and graphs["gpu_advisor"].startswith("gpu_advisor.")
    assert "graph id\n`gpu_advisor`" in README or "graph id `gpu_advisor`" in README


def test_the_notebook_snippet_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path))
    (snippet,) = [b for b in _blocks("python") if "Conversation()" in b]
    exec(compile(snippet, "README-notebook", "exec"), {})  # the README's own example
    first, *rest = capsys.readouterr().out.splitlines()
    total_gb, fits = first.split()
    assert 70 < float(total_gb) < 110 and fits in ("True", "False")
    assert any(line.startswith("## ") for line in rest)  # the conversation answered with a plan
