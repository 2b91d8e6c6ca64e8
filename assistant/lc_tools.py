"""The sizing tools as LangChain tools, so that an LLM agent can call the same functions."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import StructuredTool

from tools.registry import TOOLS, Tool


def _runner(tool: Tool):
    def run(**arguments: Any) -> dict[str, Any]:
        return tool.run(arguments).model_dump(mode="json")

    run.__name__ = tool.name
    return run


def langchain_tools() -> list[StructuredTool]:
    """One StructuredTool per registry entry; each returns the tool's result as JSON-ready data."""
    return [
        StructuredTool.from_function(func=_runner(t), name=t.name, description=t.description,
                                     args_schema=t.input_model)
        for t in TOOLS.values()
    ]
