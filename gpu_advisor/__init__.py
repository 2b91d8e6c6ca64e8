"""GPU Advisor: sizes the GPUs to rent or buy to fine-tune or serve a large language model.

Installed, everything lives under this one import name: `gpu_advisor.knowledge` (facts as data),
`gpu_advisor.tools` (the sizing functions), `gpu_advisor.assistant` (the conversation graph) and
`gpu_advisor.tui` (the app, the command line and the servers). This module re-exports the public API,
loaded on first use so that `import gpu_advisor` (and `gpu-advisor size`) stays cheap:

    from gpu_advisor import graph                     # the compiled LangGraph graph (LangGraph Server)
    from gpu_advisor import build_graph               # the uncompiled StateGraph, to compile your own way
    from gpu_advisor import InferenceMemoryInput, inference_memory
    inference_memory(InferenceMemoryInput(model="llama-3.1-8b", gpu="h100")).fits

In a source checkout the four packages stay at the top of the repository (`assistant/`, `tools/`,
`knowledge/`, `tui/`); `gpu_advisor/` holds this file and one symbolic link to each, so
`gpu_advisor.assistant` is `./assistant` for Python, mypy and import-linter alike. Where a checkout has
no symbolic links (Windows without `core.symlinks`, an unpacked sdist), the repository root is added
to this package's `__path__` below, which finds the same folders.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name the same way)

# The one place the version is written: pyproject.toml reads it from here (setuptools' dynamic version,
# from the file's text), `gpu-advisor --version` and the MCP server print it. Each release also gets
# its section in CHANGELOG.md (tests/test_packaging.py checks the two agree).
__version__ = "0.2.0"

# (os.path, not pathlib: importing this package stays as cheap as the interpreter's start)
_HERE = os.path.dirname(os.path.abspath(__file__))
if not os.path.isdir(os.path.join(_HERE, "tui")) and os.path.isfile(os.path.join(_HERE, os.pardir, "tui", "__init__.py")):
    __path__.append(os.path.dirname(_HERE))  # a checkout without symbolic links: see the docstring

# name -> the module that defines it (relative to this package)
_EXPORTS = {
    "graph": "assistant.graph_builder",
    "build_graph": "assistant.graph_builder",
    "AdvisorState": "assistant.engine",
    "Conversation": "assistant.session",
    "TOOLS": "tools.registry",
    "inference_memory": "tools.inference",
    "InferenceMemoryInput": "tools.inference",
    "InferenceMemoryResult": "tools.inference",
    "training_memory": "tools.training",
    "TrainingMemoryInput": "tools.training",
    "TrainingMemoryResult": "tools.training",
    "speed": "tools.throughput",
    "SpeedInput": "tools.throughput",
    "SpeedResult": "tools.throughput",
    "training_time": "tools.training_time",
    "TrainingTimeInput": "tools.training_time",
    "TrainingTimeResult": "tools.training_time",
    "fit": "tools.fit",
    "FitInput": "tools.fit",
    "FitResult": "tools.fit",
    "cost": "tools.cost",
    "CostInput": "tools.cost",
    "CostResult": "tools.cost",
    "rent_vs_buy": "tools.cost",
    "RentBuyInput": "tools.cost",
    "RentBuyResult": "tools.cost",
    "size_by_rate": "tools.queueing",
    "RateInput": "tools.queueing",
    "RateResult": "tools.queueing",
    "recommend": "tools.recommend",
    "Workload": "tools.recommend",
    "Recommendation": "tools.recommend",
}

__all__ = [  # the names above, and the version
    "TOOLS",
    "AdvisorState",
    "Conversation",
    "CostInput",
    "CostResult",
    "FitInput",
    "FitResult",
    "InferenceMemoryInput",
    "InferenceMemoryResult",
    "RateInput",
    "RateResult",
    "Recommendation",
    "RentBuyInput",
    "RentBuyResult",
    "SpeedInput",
    "SpeedResult",
    "TrainingMemoryInput",
    "TrainingMemoryResult",
    "TrainingTimeInput",
    "TrainingTimeResult",
    "Workload",
    "__version__",
    "build_graph",
    "cost",
    "fit",
    "graph",
    "inference_memory",
    "recommend",
    "rent_vs_buy",
    "size_by_rate",
    "speed",
    "training_memory",
    "training_time",
]


def __getattr__(name: str) -> Any:
    import importlib

    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gpu_advisor' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"gpu_advisor.{module}"), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from typing import Any

    from gpu_advisor.assistant.engine import AdvisorState
    from gpu_advisor.assistant.graph_builder import build_graph, graph
    from gpu_advisor.assistant.session import Conversation
    from gpu_advisor.tools.cost import CostInput, CostResult, RentBuyInput, RentBuyResult, cost, rent_vs_buy
    from gpu_advisor.tools.fit import FitInput, FitResult, fit
    from gpu_advisor.tools.inference import InferenceMemoryInput, InferenceMemoryResult, inference_memory
    from gpu_advisor.tools.queueing import RateInput, RateResult, size_by_rate
    from gpu_advisor.tools.recommend import Recommendation, Workload, recommend
    from gpu_advisor.tools.registry import TOOLS
    from gpu_advisor.tools.throughput import SpeedInput, SpeedResult, speed
    from gpu_advisor.tools.training import TrainingMemoryInput, TrainingMemoryResult, training_memory
    from gpu_advisor.tools.training_time import TrainingTimeInput, TrainingTimeResult, training_time
