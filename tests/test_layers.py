"""Architecture: tui -> assistant -> tools -> knowledge, and the sizing layers load no graph or UI library."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
FORBIDDEN = ("langgraph", "langchain", "langchain_core", "textual")


def _lint(repo_root: Path, *args: str) -> subprocess.CompletedProcess:
    assert LINT_IMPORTS.exists(), f"import-linter is not installed in {LINT_IMPORTS.parent}"
    return subprocess.run([str(LINT_IMPORTS), *args], cwd=repo_root, capture_output=True, text=True, timeout=120)


def _contracts(repo_root: Path) -> dict:
    with (repo_root / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)


def test_pyproject_declares_the_layer_contracts(repo_root):
    cfg = _contracts(repo_root)
    layers = next(c for c in cfg["contracts"] if c["type"] == "layers")
    assert cfg["root_packages"] == ["gpu_advisor"]
    assert layers["layers"] == ["gpu_advisor.tui", "gpu_advisor.assistant", "gpu_advisor.tools", "gpu_advisor.knowledge"]
    forbidden = next(c for c in cfg["contracts"]
                     if c["type"] == "forbidden" and "gpu_advisor.tools" in c["source_modules"])
    assert {"gpu_advisor.knowledge", "gpu_advisor.tools"} <= set(forbidden["source_modules"])
    assert {"langgraph", "langchain_core", "textual"} <= set(forbidden["forbidden_modules"])


def test_import_contracts_hold_with_the_project_configuration(repo_root):
    r = _lint(repo_root)
    output = r.stdout + r.stderr
    assert r.returncode == 0, output
    assert "0 broken" in output


def test_sizing_layers_load_no_graph_or_ui_library(repo_root):
    code = (
        "import json, sys\n"
        "from gpu_advisor import knowledge; from gpu_advisor import tools; import gpu_advisor.tools.registry\n"
        "r = tools.registry.TOOLS['inference_memory'].run({'model': 'llama-3-8b', 'gpu': 'h100'})\n"
        "assert r.fits is True\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {list(FORBIDDEN)!r})))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    loaded = json.loads(r.stdout.strip().splitlines()[-1])
    assert loaded == []
