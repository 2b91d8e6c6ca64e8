"""One import name: installed, the four packages live under `gpu_advisor`, which re-exports the public
API; a checkout resolves `gpu_advisor.<package>` to the folder at the top of the repository; nothing
imports the old top-level names; and the installed wheel works from a project with its own `tools/`
and `assistant/` packages."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import typing
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("assistant", "tools", "knowledge", "tui")
SCANNED = (*PACKAGES, "tests", "bench")
OLD = "|".join(PACKAGES)
OLD_IMPORT = re.compile(rf"^(?:{OLD})(?:\.|$)")
# a statement of code in a string (run with python -c), or a module run with -m
CODE_IN_STRING = re.compile(rf"(?:(?:^|;)[ \t]*(?:from (?:{OLD})(?:\.\w+)* import |import (?:[\w.]+, *)*(?:{OLD})\b)"
                            rf"|(?:^|(?<=\s))-m (?:{OLD})\.)", re.M)

# each sizing function with its input and output model, as gpu_advisor re-exports them
SIZING = [
    ("inference_memory", "InferenceMemoryInput", "InferenceMemoryResult"),
    ("training_memory", "TrainingMemoryInput", "TrainingMemoryResult"),
    ("speed", "SpeedInput", "SpeedResult"),
    ("training_time", "TrainingTimeInput", "TrainingTimeResult"),
    ("fit", "FitInput", "FitResult"),
    ("cost", "CostInput", "CostResult"),
    ("rent_vs_buy", "RentBuyInput", "RentBuyResult"),
    ("size_by_rate", "RateInput", "RateResult"),
    ("recommend", "Workload", "Recommendation"),
]


def _package_folders() -> set[str]:
    """Every package of the source folders, as its installed name."""
    out = {"gpu_advisor"}
    for package in PACKAGES:
        for init in (ROOT / package).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT).as_posix()
            out.add("gpu_advisor." + rel.replace("/", "."))
    return out


def test_pyproject_lists_every_package_under_the_one_import_name():
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(tool["packages"]) == _package_folders()
    assert tool["package-dir"] == {"gpu_advisor": "gpu_advisor", **{f"gpu_advisor.{p}": p for p in PACKAGES}}
    assert set(tool["package-data"]) == {"gpu_advisor", *(f"gpu_advisor.{p}" for p in PACKAGES)}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"gpu-advisor": "gpu_advisor.tui.cli:main"}
    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    assert graphs == {"gpu_advisor": "gpu_advisor.assistant.graph_builder:graph"}


@pytest.mark.parametrize("name", sorted(_package_folders() - {"gpu_advisor"}))
def test_the_checkout_resolves_each_package_to_its_source_folder(name):
    import importlib

    module = importlib.import_module(name)
    folder = name.removeprefix("gpu_advisor.").replace(".", "/")
    assert Path(module.__file__).resolve() == ROOT / folder / "__init__.py"


def _old_names(path: Path) -> list[str]:
    """Imports and module-path strings of a file that use a top-level name instead of gpu_advisor's."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and OLD_IMPORT.match(node.module):
            found.append(f"{path.name}:{node.lineno} from {node.module} import")
        elif isinstance(node, ast.Import):
            found += [f"{path.name}:{node.lineno} import {a.name}" for a in node.names if OLD_IMPORT.match(a.name)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            # a string that is a module path of the project ("tools.inference.resolve_model", "tui.cli")
            first = text.split(".")
            if re.fullmatch(r"[a-z_]+(\.\w+)+", text) and first[0] in PACKAGES and (
                    (ROOT / first[0] / f"{first[1]}.py").exists() or (ROOT / first[0] / first[1]).is_dir()):
                found.append(f"{path.name}:{node.lineno} {text!r}")
            # code run in a subprocess, or a module run with -m
            found += [f"{path.name}:{node.lineno} {m.group(0)!r}" for m in CODE_IN_STRING.finditer(text)]
    return found


@pytest.mark.parametrize("folder", SCANNED)
def test_nothing_imports_the_old_top_level_names(folder):
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "__pycache__" not in path.parts and path.name != "test_import_name.py":  # its samples are old names
            found += _old_names(path)
    assert not found, found


def test_the_scan_finds_each_old_form(tmp_path):
    """The scan above can fail: each form of an old name is found, and gpu_advisor's are not."""
    sample = tmp_path / "sample.py"
    # written with placeholders, so that a rewrite of the old names leaves the samples as they are
    old = [line.format(k="knowledge", t="tools", a="assistant", u="tui") for line in (
        "from {t}.registry import TOOLS", "import {k}", "import {a}.history as h",
        "monkeypatch.setattr('{t}.inference.resolve_model', f)", "argv = ['-m', '{u}.cli']",
        "code = 'import sys, {k}, {t}.inference; print(1)'", "code = 'x = 1\\nfrom {u}.cli import main'")]
    new = ["from gpu_advisor.tools.registry import TOOLS", "from gpu_advisor import knowledge",
           "import gpu_advisor.assistant.history as h", "x = 'see tools.rl)'",
           "monkeypatch.setattr('gpu_advisor.tools.inference.resolve_model', f)", "argv = ['-m', 'gpu_advisor.tui.cli']"]
    for line in old:
        sample.write_text(line + "\n")
        assert _old_names(sample), line
    for line in new:
        sample.write_text(line + "\n")
        assert not _old_names(sample), line


def _run(code: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=180,
                          env=env)


@pytest.mark.slow
def test_no_module_loads_under_an_old_top_level_name():
    """Every module of the package imported, a sizing command and an answer: from the repository root,
    where `import tools` would still find the folder, nothing is loaded twice under its old name."""
    code = (
        "import io, contextlib, pkgutil, importlib, sys, json\n"
        "import gpu_advisor\n"
        "for m in pkgutil.walk_packages(gpu_advisor.__path__, 'gpu_advisor.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "from gpu_advisor.tui.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    main(['size', 'inference', '--model', 'llama-3.1-8b', '--json'])\n"
        "assert json.loads(out.getvalue())['weights_bytes'] > 15e9\n"
        "from langchain_core.messages import HumanMessage\n"
        "from gpu_advisor import graph\n"
        "for text in ('serve llama 3.1 8b to 20 people', '给20个人部署llama 3.1 8b'):\n"
        "    reply = graph.invoke({'messages': [HumanMessage(text)], 'oneshot': True})['messages'][-1]\n"
        "    assert reply.additional_kwargs['gpu_advisor']['kind'] == 'answer', reply.content\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {list(PACKAGES)!r})))\n"
    )
    r = _run(code, ROOT, {**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == []


def test_the_public_api_is_reexported_with_each_function_s_models():
    import gpu_advisor
    import gpu_advisor.tui.cli.base  # (the version check below; not loaded by the re-exports themselves)
    from gpu_advisor.tools.registry import TOOLS

    assert gpu_advisor.TOOLS is TOOLS
    for name in gpu_advisor.__all__:
        assert getattr(gpu_advisor, name) is not None, name
    for function, input_model, output_model in SIZING:
        fn = getattr(gpu_advisor, function)
        hints = typing.get_type_hints(fn)
        assert hints["return"] is getattr(gpu_advisor, output_model), function
        assert next(iter(hints.values())) is getattr(gpu_advisor, input_model), function
        tool = next(t for t in TOOLS.values() if t.function is fn)
        assert tool.input_model is getattr(gpu_advisor, input_model)
    assert gpu_advisor.__version__ == gpu_advisor.tui.cli.base.version()
    with pytest.raises(AttributeError):
        _ = gpu_advisor.no_such_name


def test_the_graph_and_its_builder_are_the_engine_s():
    from langgraph.graph.state import CompiledStateGraph

    import gpu_advisor
    from gpu_advisor.assistant import engine

    assert gpu_advisor.graph is engine.graph and isinstance(gpu_advisor.graph, CompiledStateGraph)
    assert gpu_advisor.build_graph is engine.build_graph


@pytest.mark.slow
def test_importing_gpu_advisor_loads_no_library():
    code = ("import sys, json, gpu_advisor\n"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'langgraph', 'langchain_core', 'textual', 'pydantic', 'yaml', 'mcp'})))\n")
    r = _run(code, ROOT)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == []


def _build_wheel(tmp: Path) -> Path:
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in", "gpu_advisor", *PACKAGES):
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, src / name)
    code = "from setuptools import build_meta as b\nprint('BUILT', b.build_wheel('dist'))\n"
    r = subprocess.run([sys.executable, "-c", code], cwd=src, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return src / "dist" / r.stdout.rsplit("BUILT ", 1)[1].strip()


@pytest.mark.slow
def test_the_installed_wheel_works_from_a_project_with_its_own_tools_and_assistant(tmp_path):
    wheel = _build_wheel(tmp_path)
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:  # a pure wheel installs by unpacking it
        z.extractall(site)
    assert not {"assistant", "tools", "knowledge", "tui"} & {p.name for p in site.iterdir()}
    project = tmp_path / "project"
    for own in ("tools", "assistant"):
        (project / own).mkdir(parents=True)
        (project / own / "__init__.py").write_text("OWNER = 'the user'\n")
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(site), "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_CACHE_HOME": str(home / "cache"), "HF_HUB_OFFLINE": "1", "NO_COLOR": "1"}
    own = "import {t}, {a}\n".format(t="tools", a="assistant")  # the user's own: left alone by a rewrite
    code = own + (
        "import json\n"
        "from gpu_advisor import graph, TOOLS, InferenceMemoryInput, inference_memory\n"
        "import gpu_advisor, gpu_advisor.tools.registry as registry\n"
        "print(json.dumps([tools.OWNER, assistant.OWNER, gpu_advisor.__file__, registry.__file__,\n"
        "                  type(graph).__name__, sorted(TOOLS),\n"
        "                  inference_memory(InferenceMemoryInput(model='llama-3.1-8b', gpu='h100')).fits]))\n"
    )
    r = _run(code, project, env)
    assert r.returncode == 0, r.stderr[-3000:]
    owner_t, owner_a, init, registry, graph_type, tools, fits = json.loads(r.stdout.strip().splitlines()[-1])
    assert owner_t == owner_a == "the user"
    assert Path(init).is_relative_to(site) and Path(registry).is_relative_to(site)
    assert graph_type == "CompiledStateGraph" and "inference_memory" in tools and fits is True

    def cli(*argv: str) -> str:
        done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *argv], cwd=project, env=env,
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    assert json.loads(cli("size", "inference", "--model", "llama-3.1-8b", "--json"))["weights_bytes"] > 15e9
    for question, said in (("serve llama 3.1 8b to 20 people in bf16", "Serving"),
                           ("给20个人部署llama 3.1 8b，bf16", "推理服务")):
        assert said in cli("ask", "--no-save", question)
    assert not (project / "tools" / "registry.py").exists()


@pytest.mark.slow
def test_a_checkout_without_symbolic_links_finds_the_folders_through_path(tmp_path):
    """Where links are not checked out (Windows without core.symlinks, an unpacked sdist),
    gpu_advisor/__init__.py adds the repository root to its __path__."""
    (tmp_path / "gpu_advisor").mkdir()
    shutil.copy2(ROOT / "gpu_advisor" / "__init__.py", tmp_path / "gpu_advisor" / "__init__.py")
    (tmp_path / "gpu_advisor" / "tools").write_text("../tools")  # a link checked out as a text file
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import json, gpu_advisor.tools.registry as r, gpu_advisor.tui.cli.base as b\n"
            "print(json.dumps([r.__file__, b.__file__, r.TOOLS['fit'].name, b.version()]))\n")
    r = _run(code, tmp_path, {**os.environ, "PYTHONPATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr[-3000:]
    registry, base, fit, version = json.loads(r.stdout.strip().splitlines()[-1])
    assert Path(registry) == tmp_path / "tools" / "registry.py" and Path(base) == tmp_path / "tui" / "cli" / "base.py"
    assert fit == "fit" and re.fullmatch(r"\d+\.\d+\.\d+", version)
