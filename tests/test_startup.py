"""Start-up: each command imports only what it needs (no timings here: `make bench SECTIONS=speed` has them).

A fresh interpreter runs the command, then prints which heavy modules it loaded. `gpu-advisor size` must load
neither the conversation graph's libraries nor the app's nor the history store; the app's first screen needs no
record schemas, no pydantic, no PyYAML (the catalogs come from the parsed-file cache) and no sizing tool. The
parsed-file cache gives back exactly what YAML gives, so an answer is the same byte for byte with it or without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the conversation graph and its tracing stack, the app, and the history store
GRAPH = ("langgraph", "langchain_core", "langsmith")
APP = ("textual",)
HISTORY = ("sqlite_utils", "filelock", "gpu_advisor.assistant.history", "gpu_advisor.assistant.session")
READER = ("gpu_advisor.assistant.reading", "gpu_advisor.assistant.engine")


def _loaded(code: str, tmp_path: Path, watch: tuple[str, ...], runs: int = 1) -> list[str]:
    """The modules of `watch` (packages or modules) loaded after `code` ran in a fresh interpreter; the
    code runs `runs` times in turn, each in its own interpreter, so the parsed-file cache is warm for the last."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_CACHE_DIR": str(tmp_path / "cache"),
           "GPU_ADVISOR_DB": str(tmp_path / "history.db"), "GPU_ADVISOR_CONFIG_DIR": str(tmp_path / "config"),
           "HF_HUB_OFFLINE": "1"}
    report = (f"\nimport json as _j, sys as _s\n"
              f"_w = {list(watch)!r}\n"
              "print(_j.dumps(sorted(m for m in _s.modules if any(m == w or m.startswith(w + '.') for w in _w))))\n")
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", code + report], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=180)
        assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


SIZE = ("import contextlib, io\n"
        "from gpu_advisor.tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    status = main({argv!r})\n"
        "assert status == 0 and out.getvalue().strip(), (status, out.getvalue())\n")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["size", "inference", "--model", "llama-3-8b", "--gpu", "h100"],
    ["size", "inference", "-m", "llama-3.1-70b", "-p", "int4", "--gpu", "h100", "--batch", "8", "--json"],
    ["size", "training", "--model", "llama-3-8b", "--method", "qlora", "--gpus", "2"],
])
def test_size_loads_no_graph_app_history_or_reader(tmp_path, argv):
    loaded = _loaded(SIZE.format(argv=argv), tmp_path, GRAPH + APP + HISTORY + READER + ("yaml",), runs=2)
    assert loaded == [], f"gpu-advisor {' '.join(argv)} loaded {loaded}"


@pytest.mark.slow
def test_the_command_line_module_loads_no_graph_app_or_history(tmp_path):
    """What every command pays before its own work: parsing the arguments."""
    code = "from gpu_advisor.tui.cli import build_parser\nbuild_parser()\n"
    assert _loaded(code, tmp_path, GRAPH + APP + HISTORY + READER) == []


@pytest.mark.slow
def test_the_apps_first_screen_needs_no_records_tools_pydantic_or_yaml(tmp_path):
    """Everything the app imports before its first screen, with the catalogs' parsed copies cached."""
    code = ("from gpu_advisor.tui.app import GPUAdvisorApp\n"
            "from gpu_advisor.tui.screens import ChatScreen\n"
            "from gpu_advisor.tui.bindings import APP_BINDINGS\n"
            "assert APP_BINDINGS[0].description\n")
    watch = GRAPH + ("pydantic", "yaml", "sqlite_utils", "filelock", "gpu_advisor.knowledge.schema",
                     "gpu_advisor.knowledge.loader", "gpu_advisor.tools.common", "gpu_advisor.tools.detect",
                     "gpu_advisor.tools.cost") + READER
    assert _loaded(code, tmp_path, watch, runs=2) == []


@pytest.mark.slow
def test_reading_a_catalog_builds_no_record_schema(tmp_path):
    code = "from gpu_advisor.assistant.catalog import say\nassert say('zh', 'key.quit') and say('en', 'key.quit')\n"
    assert _loaded(code, tmp_path, ("pydantic", "gpu_advisor.knowledge.loader", "gpu_advisor.knowledge.schema")) == []


def test_a_knowledge_name_is_the_same_object_however_it_is_reached():
    """The package loads its names on first use; `engines` stays the loader's function even once the
    submodule of the same name (knowledge/engines.py) has been imported."""
    import gpu_advisor.knowledge as knowledge
    import gpu_advisor.knowledge.engines as engines_module  # noqa: F401 - the submodule, imported on purpose
    from gpu_advisor.knowledge import engines, find_gpu, gpus, loader, resolve

    assert engines is loader.engines is knowledge.engines
    assert callable(engines) and engines()
    assert find_gpu is resolve.find_gpu and gpus is loader.gpus
    assert set(knowledge.__all__) <= set(dir(knowledge)) | set(knowledge._EXPORTS)
    for name in knowledge.__all__:
        assert getattr(knowledge, name) is not None
    with pytest.raises(AttributeError):
        knowledge.no_such_name  # noqa: B018 - the attribute access is the test


def _same(a, b) -> bool:
    """Equal and of the same types all the way down (1 == 1.0 == True would pass a plain ==)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


CATALOGS = sorted((ROOT / "assistant" / "catalog").glob("*.yaml"))
WORDS = sorted((ROOT / "assistant" / "reading" / "words").glob("*.yaml"))


@pytest.mark.parametrize("path", CATALOGS + WORDS[::10], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_cached_copy_gives_back_exactly_what_yaml_gives(tmp_path, monkeypatch, path):
    from gpu_advisor.knowledge.yaml_files import load_yaml, load_yaml_file

    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    parsed = load_yaml(path.read_text(encoding="utf-8"))
    first, second = load_yaml_file(path), load_yaml_file(path)  # the second from the cached copy when there is one
    assert _same(first, parsed) and _same(second, parsed)


def test_a_file_json_cannot_give_back_is_never_cached(tmp_path, monkeypatch):
    from datetime import date

    from gpu_advisor.knowledge.yaml_files import load_yaml_file

    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words" / "odd.yaml"
    path.parent.mkdir()
    path.write_text("1: one\nwhen: 2026-01-02\n显存: [80, 1.5, true, null]\n", encoding="utf-8")
    for _ in range(2):
        assert _same(load_yaml_file(path), {1: "one", "when": date(2026, 1, 2), "显存": [80, 1.5, True, None]})
    assert not list((tmp_path / "cache").glob("*.json"))


@pytest.mark.parametrize("damage", ["{ truncated", "", "[1, 2"])
def test_a_damaged_cached_copy_is_read_past_and_written_again(tmp_path, monkeypatch, damage):
    from gpu_advisor.knowledge.yaml_files import load_yaml_file

    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "catalog" / "zh.yaml"
    path.parent.mkdir()
    path.write_text("greeting: 你好\ncount: 3\n", encoding="utf-8")
    assert load_yaml_file(path) == {"greeting": "你好", "count": 3}
    (cached,) = (tmp_path / "cache").glob("catalog.zh-*.json")
    cached.write_text(damage, encoding="utf-8")
    assert load_yaml_file(path) == {"greeting": "你好", "count": 3}
    assert json.loads(cached.read_text(encoding="utf-8")) == {"greeting": "你好", "count": 3}


@pytest.mark.slow
@pytest.mark.parametrize("question", [
    "serve llama 3.1 8b to 20 users",
    "fine-tune a 27B model and serve it to 20 users",
    "给20个人部署llama 3.1 8b",
    "用QLoRA微调一个70B模型，然后给50个人用",
])
def test_an_answer_is_the_same_with_the_parsed_file_cache_cold_or_warm(tmp_path, question):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_CACHE_DIR": str(tmp_path / "cache"),
           "GPU_ADVISOR_CONFIG_DIR": str(tmp_path / "config"), "HF_HUB_OFFLINE": "1"}
    replies = []
    for _ in range(2):  # the first run parses every file and writes the copies; the second reads them
        r = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "ask", "--no-save", "--json", question],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, r.stderr[-3000:]
        replies.append(r.stdout)
    assert list((tmp_path / "cache").glob("catalog.*.json")) and list((tmp_path / "cache").glob("words.*.json"))
    assert replies[0] == replies[1]
    assert json.loads(replies[0])["gpu_advisor"]["kind"] == "answer"
