"""The tool registry: every tool is named, described, schema'd, and runs from a minimal argument dict."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from gpu_advisor.tools.common import Explained
from gpu_advisor.tools.registry import TOOLS, Tool

# The smallest valid argument dict per tool: exactly its schema's required fields.
MINIMAL = {
    "inference_memory": {"model": "llama-3-8b"},
    "training_memory": {"model": "llama-3-8b"},
    "speed": {"model": "llama-3-8b", "gpu": "h100"},
    "training_time": {"model": "llama-3-8b", "gpu": "h100", "tokens": 1e7},
    "fit": {"model": "llama-3-8b", "gpu": "4090"},
    "cost": {"gpu": "h100"},
    "rent_vs_buy": {"gpu": "h100"},
    "recommend": {"model": "llama-3-8b"},
    "size_by_rate": {"model": "llama-3-8b", "gpu": "h100", "requests_per_s": 5, "prompt_tokens": 500,
                     "output_tokens": 100},
    "encoder_serving": {"model": "bge-m3", "gpu": "l4", "requests_per_s": 50},
    "multi_lora": {"model": "llama-3-8b", "loras": 20},
    "cpu_offload": {"model": "qwen3-30b-a3b", "gpu": "rtx-3060"},
    "vllm_offload": {"model": "llama-3-8b", "gpu": "h100"},
    "prefix_cache": {"model": "llama-3-8b", "prompt_tokens": 4000, "shared_prefix_tokens": 3000},
    "speculative": {"model": "llama-3.1-8b", "method": "eagle3", "gpu": "h100"},
}
# Tools whose result is a table of options rather than a list of explained figures.
OPTION_TOOLS = {"fit", "recommend"}


def test_registry_holds_the_expected_tools():
    assert set(TOOLS) == set(MINIMAL)


@pytest.mark.parametrize("name", sorted(MINIMAL))
def test_tool_has_name_description_and_schema(name):
    tool = TOOLS[name]
    assert isinstance(tool, Tool)
    assert tool.name == name
    assert len(tool.description) > 30
    schema = tool.json_schema()
    assert isinstance(schema, dict)
    assert isinstance(schema["properties"], dict) and schema["properties"]
    assert set(schema.get("required", [])) == set(MINIMAL[name])
    for field in MINIMAL[name]:
        assert field in schema["properties"]


@pytest.mark.parametrize("name", sorted(MINIMAL))
def test_tool_runs_with_minimal_arguments_and_explains_its_terms(name):
    result = TOOLS[name].run(dict(MINIMAL[name]))
    assert isinstance(result, Explained)
    if name not in OPTION_TOOLS:
        assert result.terms, name
    for t in result.terms:
        assert t.formula.strip(), t.key
        assert t.label.strip(), t.key
        assert t.unit.strip(), t.key
    assert all(isinstance(a, str) and a for a in result.assumptions)


def test_fit_and_recommend_return_options():
    f = TOOLS["fit"].run(MINIMAL["fit"])
    assert [o.gpus for o in f.options] == [1, 2, 4, 8]
    assert f.smallest_fit == 1  # Llama-3-8B BF16 fits one 24 GB card at 4k context
    rec = TOOLS["recommend"].run(MINIMAL["recommend"])
    assert rec.options
    assert rec.best is not None and rec.best.ok


def test_run_accepts_a_validated_input_model():
    tool = TOOLS["inference_memory"]
    args = tool.input_model.model_validate(MINIMAL["inference_memory"])
    assert isinstance(args, BaseModel)
    assert tool.run(args).weights_bytes == tool.run(MINIMAL["inference_memory"]).weights_bytes


def test_run_rejects_arguments_that_break_the_schema():
    with pytest.raises(ValidationError):
        TOOLS["inference_memory"].run({"model": "llama-3-8b", "context": 0})
    with pytest.raises(ValidationError):
        TOOLS["speed"].run({"model": "llama-3-8b"})  # gpu is required
