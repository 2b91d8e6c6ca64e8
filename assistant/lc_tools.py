"""The sizing tools as LangChain tools, so that an LLM agent can call the same functions.

A bad call (an unknown model, a value out of range) comes back to the agent as the tool's answer,
with the closest names, instead of ending the agent's run: the agent can correct itself.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import StructuredTool, ToolException
from pydantic import BaseModel, Field, ValidationError, create_model

from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.registry import TOOLS, Tool, concise


def _arguments(tool: Tool) -> type[BaseModel]:
    """The tool's own input, plus `breakdown` (every term's formula and inputs, off by default)."""
    return create_model(f"{tool.input_model.__name__}Call", __base__=tool.input_model,
                        breakdown=(bool, Field(False, description="include every term's formula and inputs")))


def _runner(tool: Tool):
    def run(breakdown: bool = False, **arguments: Any) -> dict[str, Any]:
        try:
            return concise(tool.run(arguments), breakdown=breakdown)
        except (ToolError, LookupError, ValidationError, ValueError) as e:
            raise ToolException(f"{tool.name}: {e}") from e

    run.__name__ = tool.name
    return run


def langchain_tools() -> list[StructuredTool]:
    """One StructuredTool per registry entry; each returns the tool's figures as JSON-ready data."""
    return [
        StructuredTool.from_function(func=_runner(t), name=t.name, description=t.description,
                                     args_schema=_arguments(t), handle_tool_error=True)
        for t in TOOLS.values()
    ]
