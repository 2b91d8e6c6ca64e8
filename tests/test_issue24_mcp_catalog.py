"""Issue 24, MCP: the ids a tool takes are discoverable (the `search_catalog` tool and a resource per catalog
record), and every sizing tool declares an output schema its structured results meet (byte counts integers),
all through the official MCP client in memory."""

from __future__ import annotations

import json

import anyio
import jsonschema
import pytest


def _run(check) -> None:
    from mcp import Client

    from gpu_advisor.tui.mcp_server import build_server

    async def main():
        with anyio.fail_after(120):
            async with Client(build_server()) as client:
                await check(client)

    anyio.run(main)


CALLS = [
    ("inference_memory", {"model": "llama-3.1-8b", "precision": "bf16"}),
    ("inference_memory", {"model": "qwen3-30b-a3b", "precision": "q4_k_m", "gpu": "rtx-4090", "breakdown": True}),
    ("training_memory", {"model": "llama-3.1-8b", "method": "qlora"}),
    ("speed", {"model": "llama-3.1-8b", "gpu": "h100-sxm"}),
    ("fit", {"model": "llama-3.1-70b", "gpu": "h100-sxm"}),
    ("cost", {"gpu": "h100-sxm", "gpus": 2}),
    ("recommend", {"model": "llama-3.1-70b", "users": 50}),
]


def test_every_sizing_tool_declares_an_output_schema_with_integer_bytes():
    from gpu_advisor.tools.registry import TOOLS

    async def check(client):
        listed = {t.name: t for t in (await client.list_tools()).tools}
        for name in TOOLS:
            schema = listed[name].output_schema
            assert schema and schema["type"] == "object", name
            jsonschema.Draft202012Validator.check_schema(schema)
        props = listed["inference_memory"].output_schema["properties"]
        assert props["weights_bytes"]["type"] == "integer"
        assert "terms" in props and "terms" not in listed["inference_memory"].output_schema.get("required", [])
        assert listed["search_catalog"].output_schema["required"] == ["query", "gpus", "models", "closest"]

    _run(check)


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
def test_structured_results_meet_their_output_schema(name, args):
    async def check(client):
        schema = {t.name: t for t in (await client.list_tools()).tools}[name].output_schema
        result = await client.call_tool(name, args)
        assert not result.is_error, result.content[0].text
        jsonschema.validate(result.structured_content, schema)
        # a byte count given as a fraction would not meet the schema
        spoiled = {k: (v + 0.5 if k.endswith("_bytes") and isinstance(v, int) else v)
                   for k, v in result.structured_content.items()}
        if spoiled != result.structured_content:
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(spoiled, schema)

    _run(check)


@pytest.mark.parametrize(("query", "kind", "gpu", "model"), [
    ("h100", "all", "h100-sxm", None),
    ("H100 SXM", "gpus", "h100-sxm", None),
    ("rtx 4090", "all", "rtx-4090", None),
    ("910b", "gpus", "ascend-910b", None),
    ("llama 3.1 8b", "all", None, "llama-3.1-8b"),
    ("Qwen3 30B", "models", None, "qwen3-30b-a3b"),
    ("meta-llama/Llama-3.1-70B-Instruct", "models", None, "llama-3.1-70b"),
    ("lama 3.1", "models", None, "llama-3.1-8b"),  # a typo: substring of the keys still
])
def test_search_catalog_finds_the_ids_the_tools_take(query, kind, gpu, model):
    async def check(client):
        result = await client.call_tool("search_catalog", {"query": query, "kind": kind})
        assert not result.is_error, result.content[0].text
        data = result.structured_content
        assert json.loads(result.content[0].text) == data
        if gpu:
            assert gpu in [h["id"] for h in data["gpus"]]
            hit = next(h for h in data["gpus"] if h["id"] == gpu)
            assert hit["uri"] == f"gpu-advisor://gpus/{gpu}" and hit["memory_gb"] > 0
            sized = await client.call_tool("speed", {"model": "llama-3.1-8b", "gpu": gpu})
            assert not sized.is_error  # the id found is one the tools take
        if model:
            assert model in [h["id"] for h in data["models"]]
            sized = await client.call_tool("inference_memory", {"model": model})
            assert not sized.is_error
        if kind == "gpus":
            assert data["models"] == []
        if kind == "models":
            assert data["gpus"] == []

    _run(check)


def test_search_with_no_name_holding_every_word_gives_the_closest():
    async def check(client):
        data = (await client.call_tool("search_catalog", {"query": "lamma3.1-8b", "kind": "models"})).structured_content
        assert data["closest"] is True and "llama-3.1-8b" in [h["id"] for h in data["models"]][:3]
        few = (await client.call_tool("search_catalog", {"query": "nvidia", "limit": 2})).structured_content
        assert len(few["gpus"]) == 2 and few["closest"] is False

    _run(check)


@pytest.mark.parametrize(("args", "named"), [
    ({"query": ""}, "query"),
    ({"query": "h100", "kind": "cards"}, "kind"),
    ({"query": "h100", "limit": 0}, "limit"),
    ({"query": "h100", "limit": True}, "limit"),
    ({"query": 7}, "query"),
    ({"query": "h100", "gpu": "x"}, "unknown argument gpu"),
])
def test_a_bad_search_is_one_line_tool_error(args, named):
    async def check(client):
        result = await client.call_tool("search_catalog", args)
        assert result.is_error and len(result.content) == 1
        text = result.content[0].text
        assert text.startswith("search_catalog: ") and named in text and "\n" not in text

    _run(check)


@pytest.mark.parametrize(("uri", "record"), [
    ("gpu-advisor://gpus/h100-sxm", "h100-sxm"),
    ("gpu-advisor://gpus/rtx-4090", "rtx-4090"),
    ("gpu-advisor://gpus/H100%20SXM", "h100-sxm"),  # a name the lookups take reads the record it names
    ("gpu-advisor://models/llama-3.1-8b", "llama-3.1-8b"),
    ("gpu-advisor://models/qwen3-30b-a3b", "qwen3-30b-a3b"),
])
def test_each_catalog_record_is_a_resource(uri, record):
    async def check(client):
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert templates == {"gpu-advisor://gpus/{id}", "gpu-advisor://models/{id}"}
        data = json.loads((await client.read_resource(uri)).contents[0].text)
        assert data["id"] == record and data["source"]

    _run(check)


@pytest.mark.parametrize("uri", ["gpu-advisor://gpus/h1000-sxm", "gpu-advisor://models/llama-9-8b",
                                 "gpu-advisor://gpus/M4%20Pro%2024GB"])
def test_an_unknown_record_is_an_error_that_says_where_to_look(uri):
    from mcp import MCPError

    async def check(client):
        with pytest.raises(MCPError, match="unknown resource") as raised:
            await client.read_resource(uri)
        assert "\n" not in str(raised.value)

    _run(check)
