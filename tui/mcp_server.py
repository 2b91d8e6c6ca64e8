"""The MCP server: the sizing tools, the catalogs and the guided conversation for MCP clients
(Claude Desktop, Cursor, agents).

- Every tool of the registry (tools/registry.py) with its own JSON schema, plus `breakdown`
  (every term's formula and inputs; off by default). A result is the figures first (`concise`).
- A bad call (an unknown model or GPU, a value out of range) is a tool error (`isError`) whose
  text, one line, names the closest catalog entries, so the agent can correct itself.
- Every input property carries a description (the tools' pydantic fields); byte counts in the
  structured results are integers.
- The GPU and model catalogs as resources, each record as its own (`gpu-advisor://gpus/{id}`,
  `gpu-advisor://models/{id}`), and `search_catalog`, which finds the ids the tools take; every sizing
  tool has an output schema (tui/mcp_catalog.py).
- `advise(message, session_id)`: the guided conversation, one turn per call. Sessions live in
  memory, one `assistant.session.Conversation` per session id (the engine is deterministic).
- Ready-made prompts (PROMPTS): "size my deployment" and "plan a fine-tune", which tell the
  client's model which tools to call with the user's figures.

Built on the low-level server of the official `mcp` SDK (2.x) because the registry already has
each tool's schema. stdio by default; streamable HTTP with `--http PORT`.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

    from mcp.server.lowlevel import Server

SERVER_NAME = "gpu-advisor"
MAX_SESSIONS = 256  # conversations kept in memory; the least recently used one goes first
# HTTP sessions held at once, and how long an idle one is kept: many clients never close theirs (each holds
# about 37 KB; 3,000 unclosed ones took 115 MB), so past the cap a new one is refused (503) until one ends.
MAX_HTTP_SESSIONS = 256
HTTP_IDLE_S = 600.0
CATALOG_URIS = {"gpu-advisor://catalog/gpus": "gpus", "gpu-advisor://catalog/models": "models"}
BREAKDOWN = {"type": "boolean", "default": False,
             "description": "include every term's formula and inputs (long); off: the figures, assumptions and warnings"}
ADVISE_DESCRIPTION = (
    "The GPU advisor's guided conversation, one turn per call: describe the job in plain words "
    "(\"fine-tune a 27B model and serve it to 20 users\"); it asks the few questions that change the "
    "answer, one at a time with quick-reply choices (answer with the words or 'not sure'), then "
    "recommends GPUs (rent or buy) with every assumption listed. Follow-ups: 'show the math', "
    "'rent or buy?', 'what about int4?', 'start over'. Pass the session_id of the previous result to "
    "continue a conversation; without one a new conversation starts.")
ADVISE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {"type": "string", "description": "the user's message"},
        "session_id": {"type": "string", "description": "from the previous result; omit to start a conversation"},
    },
    "required": ["message"],
    "additionalProperties": False,
}


def tool_schema(name: str) -> dict[str, Any]:
    """A registry tool's input schema with the `breakdown` switch added."""
    from gpu_advisor.tools.registry import TOOLS

    schema = json.loads(json.dumps(TOOLS[name].json_schema()))
    schema.setdefault("properties", {})["breakdown"] = BREAKDOWN
    return schema


def error_text(exc: BaseException) -> str:
    """One readable line for a bad call: pydantic's errors as 'field: problem', lookups with the
    closest names (the catalog's NotFound says them)."""
    from pydantic import ValidationError

    from gpu_advisor.tools.common import validation_message

    return validation_message(exc) if isinstance(exc, ValidationError) else str(exc)


def run_tool(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Run a registry tool; the concise result, byte counts as integers. Raises on a bad call (see
    `call_tool`)."""
    from gpu_advisor.tools.registry import TOOLS, concise

    arguments = dict(arguments)
    breakdown = arguments.pop("breakdown", False)
    if not isinstance(breakdown, bool):
        raise ValueError("breakdown: must be true or false")
    return whole_bytes(concise(TOOLS[name].run(arguments), breakdown=breakdown))


def _byte_count(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return round(value)
    if isinstance(value, list):
        return [_byte_count(v) for v in value]
    return whole_bytes(value)


def whole_bytes(data: Any) -> Any:
    """`data` with every byte count a whole number: the values of keys ending in `_bytes` (a range
    too), and a breakdown term's value, low and high when its unit is bytes. (The tools compute
    bytes as floats: bits per weight are fractional.)"""
    if isinstance(data, dict):
        in_bytes = data.get("unit") == "bytes"
        return {k: _byte_count(v) if k.endswith("_bytes") or (in_bytes and k in ("value", "low", "high"))
                else whole_bytes(v) for k, v in data.items()}
    if isinstance(data, list):
        return [whole_bytes(v) for v in data]
    return data


def one_line(text: str) -> str:
    """An error for an agent: one line (a value quoted back with a newline in it stays on it)."""
    return " ".join(text.split())


class Sessions:
    """Conversations by session id, in memory (least recently used dropped past MAX_SESSIONS)."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._conversations: OrderedDict[str, Any] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _get(self, session_id: str) -> tuple[Any, threading.Lock]:
        from gpu_advisor.assistant.session import Conversation

        with self._guard:
            conv = self._conversations.get(session_id)
            if conv is None:
                conv = Conversation()
                self._conversations[session_id] = conv
                self._locks[session_id] = threading.Lock()
                while len(self._conversations) > self.limit:
                    old, _ = self._conversations.popitem(last=False)
                    self._locks.pop(old, None)
            self._conversations.move_to_end(session_id)
            return conv, self._locks[session_id]

    def advise(self, message: str, session_id: str | None = None) -> dict[str, Any]:
        """One turn: the reply's Markdown and its structured payload (kind, quick replies, assumptions)."""
        import uuid

        session_id = session_id or uuid.uuid4().hex
        conv, lock = self._get(session_id)
        with lock:  # one turn at a time per conversation
            reply = conv.send(message)
        data = dict(reply.additional_kwargs.get("gpu_advisor") or {})
        data.pop("results", None)  # the figures are in the text; the tools give them as data
        data.pop("table", None)
        return {"session_id": session_id, "reply": str(reply.content), **data}


# Ready-made prompts. A client shows them as commands ("/size-my-deployment"); the text tells its
# model which tools to call with the user's figures. Each argument: (name, description, required,
# the words it adds to the request when given, the words when not).
PROMPTS: dict[str, dict[str, Any]] = {
    "size-my-deployment": {
        "title": "Size my deployment",
        "description": "Choose GPUs to serve a model to your users: the cards, how many, rent or buy, memory "
                       "and speed, with every figure from the sizing tools.",
        "arguments": [
            ("model", "the model to serve: a catalog name, a Hugging Face repo id, or a size like 70B", True,
             "{}", ""),
            ("users", "people generating at the same time, e.g. 20", False,
             " to {} people at the same time", " (ask me how many people use it at the same time first)"),
            ("context", "tokens per conversation (prompt + reply), e.g. 8192", False,
             " with {} tokens of context", ""),
            ("hardware", "cards you already own, e.g. '2x rtx-4090' (else: rent or buy)", False,
             " on cards I own: {}", ""),
            ("budget", "what you can spend, e.g. '$2,000 a month' or '$15,000 one-off'", False,
             " within a budget of {}", ""),
        ],
        "text": ("Size a deployment that serves {model}{users}{context}{hardware}{budget}. Use the gpu-advisor "
                 "tools: call `recommend` (phase \"serve\") with these figures to rank the options, then "
                 "`inference_memory` and `speed` for the top option's GPU, count and precision. Answer with "
                 "the cards to use (count; rent or buy; price), memory per GPU against the card's memory, "
                 "tokens per second per user, and the assumptions the tools list. Every number must come "
                 "from a tool result; say which figures were the tools' defaults."),
    },
    "plan-a-fine-tune": {
        "title": "Plan a fine-tune",
        "description": "Choose GPUs to fine-tune a model (full, LoRA or QLoRA): memory, hours and cost of the "
                       "run, with every figure from the sizing tools.",
        "arguments": [
            ("model", "the model to fine-tune: a catalog name, a Hugging Face repo id, or a size like 8B", True,
             "{}", ""),
            ("method", "full, lora or qlora (default: the tools' qlora)", False, " with {}", ""),
            ("tokens", "training tokens per epoch, e.g. 20M", False, " on {} training tokens per epoch", ""),
            ("deadline", "when the run must be done, e.g. '12 hours'", False, ", done within {}", ""),
        ],
        "text": ("Plan a fine-tune of {model}{method}{tokens}{deadline}. Use the gpu-advisor tools: call "
                 "`recommend` (phase \"fine-tune\") to rank the GPU options, then `training_memory` and "
                 "`training_time` for the top option. Answer with the cards to use (count; rent or buy; "
                 "price), memory per GPU against the card's memory, hours and cost of the run, and the "
                 "assumptions the tools list. Every number must come from a tool result; say which figures "
                 "were the tools' defaults."),
    },
}
MAX_PROMPT_ARGUMENT_CHARS = 500


def prompt_text(name: str, arguments: dict[str, Any]) -> str:
    """The request a prompt sends, written from its arguments. Raises ValueError for a missing
    required argument, an unknown one or one too long."""
    spec = PROMPTS[name]
    known = [a[0] for a in spec["arguments"]]
    unknown = sorted(set(arguments) - set(known))
    if unknown:
        raise ValueError(f"{name}: unknown argument {', '.join(unknown)}; it takes {', '.join(known)}")
    words = {}
    for key, _, required, given, absent in spec["arguments"]:
        value = arguments.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{name}: {key} must be a string")
        if value is not None and len(value) > MAX_PROMPT_ARGUMENT_CHARS:
            raise ValueError(f"{name}: {key} is over {MAX_PROMPT_ARGUMENT_CHARS} characters")
        value = one_line(value or "")
        if required and not value:
            raise ValueError(f"{name}: {key} is required")
        words[key] = given.format(value) if value else absent
    return spec["text"].format(**words)


def _tool_list():
    import mcp_types as types

    from gpu_advisor.tools.registry import TOOLS
    from gpu_advisor.tui.mcp_catalog import SEARCH_DESCRIPTION, SEARCH_OUTPUT, SEARCH_SCHEMA, output_schema

    read_only = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                      open_world_hint=False)
    tools = [types.Tool(name=t.name, description=t.description + " Returns the figures first; "
                        "breakdown=true adds each term's formula and inputs.",
                        input_schema=tool_schema(t.name), output_schema=output_schema(t.name),
                        annotations=read_only) for t in TOOLS.values()]
    tools.append(types.Tool(name="search_catalog", description=SEARCH_DESCRIPTION, input_schema=SEARCH_SCHEMA,
                            output_schema=SEARCH_OUTPUT, annotations=read_only))
    tools.append(types.Tool(name="advise", description=ADVISE_DESCRIPTION, input_schema=ADVISE_SCHEMA,
                            annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                                              idempotent_hint=False, open_world_hint=False)))
    return tools


def catalog_json(which: str) -> str:
    from gpu_advisor.knowledge import gpus, models

    records = gpus() if which == "gpus" else models()
    return json.dumps([r.model_dump(mode="json") for r in records], indent=1)


def _local_path(value: Any) -> bool:
    """Whether a model argument names a file or folder on this machine (a config.json path), not a catalog name or
    a Hugging Face repo id ('org/name')."""
    if not isinstance(value, str):
        return False
    text = value.strip()
    return text.startswith(("/", ".", "~", "\\")) or text.lower().endswith(".json") or text[1:3] in (":\\", ":/") \
        or os.path.lexists(text)


def call_tool(name: str, arguments: dict[str, Any], sessions: Sessions, remote: bool = False):
    """A tools/call: the result, or a tool error (isError) that says what was wrong. remote (streamable HTTP): a
    client elsewhere never has this machine's files read, nor learns whether one exists."""
    import mcp_types as types
    from pydantic import ValidationError

    from gpu_advisor.assistant.session import MessageTooLong
    from gpu_advisor.tools.common import ToolError

    def error(text: str) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text=one_line(text))], is_error=True)

    if remote and _local_path(arguments.get("model")):
        return error(f"{name}: model: files on the server are not read over HTTP; give a model name or a "
                     "Hugging Face repo id (org/name)")
    try:
        if name == "advise":
            message = arguments.get("message")
            session_id = arguments.get("session_id")
            if not isinstance(message, str):
                return error("advise: message: a string is required")
            if session_id is not None and not isinstance(session_id, str):
                return error("advise: session_id: must be a string")
            out = sessions.advise(message, session_id)
            note = f"(session_id: {out['session_id']}; pass it to continue this conversation)"
            return types.CallToolResult(content=[types.TextContent(type="text", text=out["reply"]),
                                                 types.TextContent(type="text", text=note)],
                                        structured_content=out)
        if name == "search_catalog":
            from gpu_advisor.tui.mcp_catalog import search

            unknown = sorted(set(arguments) - {"query", "kind", "limit"})
            if unknown:
                return error(f"search_catalog: unknown argument {', '.join(unknown)}; it takes query, kind, limit")
            data = search(arguments.get("query"), arguments.get("kind", "all"), arguments.get("limit", 10))
        else:
            data = run_tool(name, arguments)
        text = json.dumps(data, allow_nan=False)  # valid JSON only: never Infinity or NaN
    except (ToolError, LookupError, ValidationError, ValueError, MessageTooLong) as e:
        if isinstance(e, ValueError) and "JSON compliant" in str(e):
            return error(f"{name}: these arguments give a figure too large to compute (infinite); check the values")
        return error(f"{name}: {error_text(e)}")
    except Exception as e:  # noqa: BLE001 - the last line of defence: the agent gets one line, the server runs on
        return error(f"{name}: failed on these arguments ({type(e).__name__}: {e})")
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=data)


def build_server(sessions: Sessions | None = None, remote: bool = False) -> Server:
    """The MCP server (low-level `mcp.server.lowlevel.Server` with our handlers)."""
    import difflib

    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    from gpu_advisor import __version__
    from gpu_advisor.tools.registry import TOOLS
    from gpu_advisor.tui.mcp_catalog import ITEM_TEMPLATES, SEARCH_SCHEMA, item_json, item_kind

    sessions = sessions or Sessions()
    tools = _tool_list()
    names = [t.name for t in tools]

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx, params) -> types.CallToolResult:
        if params.name not in names:
            close = difflib.get_close_matches(params.name, names, n=3, cutoff=0.4)
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool '{params.name}'"
                           + (f"; closest: {', '.join(close)}" if close else f"; tools: {', '.join(names)}"))
        return await anyio.to_thread.run_sync(call_tool, params.name, dict(params.arguments or {}), sessions, remote)

    async def list_prompts(ctx, params) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[
            types.Prompt(name=name, title=spec["title"], description=spec["description"],
                         arguments=[types.PromptArgument(name=a, description=d, required=r)
                                    for a, d, r, _, _ in spec["arguments"]])
            for name, spec in PROMPTS.items()])

    async def get_prompt(ctx, params) -> types.GetPromptResult:
        if params.name not in PROMPTS:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown prompt '{params.name}'; "
                           f"prompts: {', '.join(PROMPTS)}")
        try:
            text = prompt_text(params.name, dict(params.arguments or {}))
        except ValueError as e:
            raise MCPError(code=types.INVALID_PARAMS, message=str(e)) from None
        return types.GetPromptResult(description=PROMPTS[params.name]["description"], messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))])

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(name="gpus", uri="gpu-advisor://catalog/gpus", mime_type="application/json",
                           description="The GPU catalog: memory, bandwidth, dense TFLOPS, interconnect, TDP, "
                                       "market notes, buy prices and rental $/GPU-hour, each with source and date."),
            types.Resource(name="models", uri="gpu-advisor://catalog/models", mime_type="application/json",
                           description="The model catalog: parameters (total and active), layers, heads, KV heads, "
                                       "attention kind, MoE experts, context, with sources."),
        ])

    async def list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[
            types.ResourceTemplate(name="gpu", uri_template=ITEM_TEMPLATES["gpus"], mime_type="application/json",
                                   description="One GPU of the catalog by its id (search_catalog finds the ids): "
                                               "memory, bandwidth, TFLOPS, interconnect, prices, with source and date."),
            types.ResourceTemplate(name="model", uri_template=ITEM_TEMPLATES["models"], mime_type="application/json",
                                   description="One model of the catalog by its id (search_catalog finds the ids): "
                                               "parameters, layers, heads, attention, experts, context, with sources."),
        ])

    async def read_resource(ctx, params) -> types.ReadResourceResult:
        uri = str(params.uri)
        which = CATALOG_URIS.get(uri)
        item = item_kind(uri)
        if which is not None:
            text = catalog_json(which)
        elif item is not None:
            try:
                text = await anyio.to_thread.run_sync(item_json, *item)
            except LookupError as e:
                raise MCPError(code=types.INVALID_PARAMS, message=one_line(f"unknown resource '{uri}': {e}")) from None
        else:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown resource '{params.uri}'; "
                           f"resources: {', '.join([*CATALOG_URIS, *ITEM_TEMPLATES.values()])}")
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="application/json", text=text)])

    return Server(SERVER_NAME, version=__version__, title="GPU Advisor",
                  instructions="Sizing tools for choosing GPUs to fine-tune and serve LLMs (memory, speed, "
                               "fit, cost, rent vs buy, recommend), and `advise`, a guided conversation. "
                               "Every figure comes from a deterministic tool; results list their assumptions. "
                               "search_catalog finds the GPU and model ids the tools take. "
                               "Prompts: size-my-deployment, plan-a-fine-tune.",
                  get_tool_input_schema=lambda name: tool_schema(name) if name in TOOLS
                  else ADVISE_SCHEMA if name == "advise" else SEARCH_SCHEMA if name == "search_catalog" else None,
                  on_list_tools=list_tools, on_call_tool=on_call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource,
                  on_list_resource_templates=list_resource_templates,
                  on_list_prompts=list_prompts, on_get_prompt=get_prompt)


INVALID_REQUEST = -32600  # JSON-RPC 2.0: valid JSON, but not a request, response or notification
MAX_LINE_CHARS = 8_000_000  # one JSON-RPC message on stdio; a longer line is answered, not parsed


def rpc_error(line: str) -> dict[str, Any]:
    """The JSON-RPC error answering a line that is no JSON-RPC message: Parse error (-32700, id null)
    when it is not JSON, else Invalid Request (-32600) with the id it carries when one can be read, so
    the client waiting on that id is answered instead of waiting forever."""
    import mcp_types as types

    try:
        data = json.loads(line) if len(line) <= MAX_LINE_CHARS else None
    except (ValueError, RecursionError):
        data = None
    if data is None:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": types.PARSE_ERROR, "message": "Parse error"}}
    rid = data.get("id") if isinstance(data, dict) else None
    rid = rid if (isinstance(rid, str) and _sendable(rid)) or (isinstance(rid, int) and not isinstance(rid, bool)) \
        else None
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": INVALID_REQUEST,
                                                   "message": "Invalid Request: not a JSON-RPC 2.0 message"}}


def _sendable(text: str) -> bool:
    """Text that can be written back as UTF-8 (a lone surrogate such as '\\udc80' cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unsendable_id(line: str) -> bool:
    """A request whose id is a string that cannot be written back (a lone surrogate): answered with Invalid
    Request and a null id, since echoing the id would stop the server."""
    try:
        data = json.loads(line) if len(line) <= MAX_LINE_CHARS else None
    except (ValueError, RecursionError):
        return False
    rid = data.get("id") if isinstance(data, dict) else None
    return isinstance(rid, str) and not _sendable(rid)


def _odd_id(item: Any, line: str) -> bool:
    """A request whose id is neither a string nor a whole number ({"a": 1}, [1], 1.5, true): the SDK reads
    it as a notification and would answer nothing, so the client waiting on it would wait forever."""
    import mcp_types as types

    message = getattr(item, "message", None)
    if not isinstance(getattr(message, "root", message), types.JSONRPCNotification):
        return False
    try:
        data = json.loads(line) if len(line) <= MAX_LINE_CHARS else None
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "id" in data


class _Lines:
    """stdin as the transport reads it, one line at a time, remembering each line until its message
    (or the error parsing it) is taken: every line gives the transport exactly one item."""

    def __init__(self, source: Any):
        from collections import deque

        self.source = source
        self.pending: deque[str] = deque()

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        async for line in self.source:
            self.pending.append(line)
            yield line


async def serve_stdio(server: Server | None = None, stdin: Any = None, stdout: Any = None) -> None:
    """MCP over stdio. A line that is no JSON-RPC message is answered with the protocol's error (the
    SDK's transport would pass it on as an exception the server only logs, and the client would wait
    for ever); every other message goes to the server unchanged."""
    import anyio
    import mcp_types as types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    server = server or build_server()
    if stdin is None:
        from io import TextIOWrapper

        stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    lines = _Lines(stdin)
    async with stdio_server(stdin=lines, stdout=stdout) as (read, write):  # type: ignore[arg-type]
        to_server, from_transport = anyio.create_memory_object_stream[Any](0)
        to_client, from_server = anyio.create_memory_object_stream[Any](0)
        waiting: set[Any] = set()  # ids of requests passed on and not yet answered
        answered = anyio.Event()

        async def sort() -> None:
            async with to_server:
                async for item in read:
                    line = lines.pending.popleft() if lines.pending else ""
                    if isinstance(item, Exception) or _odd_id(item, line) or _unsendable_id(line):
                        error = types.jsonrpc_message_adapter.validate_python(rpc_error(line))
                        await write.send(SessionMessage(error))
                    else:
                        if isinstance(item.message, types.JSONRPCRequest):
                            waiting.add(item.message.id)
                        await to_server.send(item)
                # stdin closed: every request read before it is answered before the server stops
                while waiting:
                    await answered.wait()

        async def relay() -> None:
            nonlocal answered
            async with from_server, write:  # the transport's writer stops when this closes
                async for item in from_server:
                    await write.send(item)
                    if isinstance(item.message, types.JSONRPCResponse | types.JSONRPCError):
                        waiting.discard(item.message.id)
                        answered.set()
                        answered = anyio.Event()

        async with anyio.create_task_group() as tg:
            tg.start_soon(sort)
            tg.start_soon(relay)
            async with to_client:
                await server.run(from_transport, to_client, server.create_initialization_options())


def http_app(server: Server | None = None, host: str = "127.0.0.1", api_key: str | None = None):
    """The streamable HTTP ASGI app, at /mcp: with `api_key`, every request must carry it as a bearer
    token; bound to loopback, Host and Origin must be loopback names (as `gpu-advisor serve`)."""
    from gpu_advisor.tui.openai_api import guarded

    server = server or build_server(remote=True)
    app = server.streamable_http_app(host=host, max_sessions=MAX_HTTP_SESSIONS, session_idle_timeout=HTTP_IDLE_S)
    return guarded(_answer_odd_ids(app), host, api_key)


def _has_odd_id(body: bytes) -> bool:
    """A JSON-RPC message whose id is there but neither a string nor a whole number."""
    try:
        data = json.loads(body) if len(body) <= MAX_LINE_CHARS else None
    except (ValueError, RecursionError):
        return False
    if not isinstance(data, dict) or "id" not in data:
        return False
    rid = data["id"]
    return not (isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)))


def _answer_odd_ids(app: Any) -> Any:
    """Over HTTP as over stdio: a request whose id is an object, a list, a fraction or a truth value gets
    the protocol's Invalid Request error (HTTP 400), not the SDK's silent 202 for a notification."""
    import asyncio  # (here, not at the top: the module is loaded by every command's parser)

    async def check(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await app(scope, receive, send)
            return
        chunks, more, size = [], True, 0
        deadline = asyncio.get_running_loop().time() + BODY_TIMEOUT_S
        while more and size <= MAX_LINE_CHARS:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - asyncio.get_running_loop().time(), 0))
            except TimeoutError:  # a stalled (or hostile) upload is answered, not held for ever
                await _answer(send, 408, {"jsonrpc": "2.0", "id": None, "error": {
                    "code": INVALID_REQUEST, "message": f"the request body did not arrive within {BODY_TIMEOUT_S:g} s"}})
                return
            if message["type"] != "http.request":
                await app(scope, _replay([message]), send)
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
        body = b"".join(chunks)
        key = None if more else _request_key(scope, body)
        if not more and (_has_odd_id(body) or key in in_flight):
            await _answer(send, 400, rpc_error(body.decode("utf-8", "replace")) if key not in in_flight
                          else _id_in_use(body))
            return
        if key is not None:
            in_flight.add(key)
        try:
            rest = _until(receive, deadline) if more else receive  # (the rest of a long body: the same deadline)
            await app(scope, _replay([{"type": "http.request", "body": body, "more_body": more}], rest), send)
        finally:
            in_flight.discard(key)

    from gpu_advisor.tui.openai_api import BODY_TIMEOUT_S

    in_flight: set[Any] = set()  # (session, request id) of the requests not yet answered
    return check


def _until(receive: Any, deadline: float) -> Any:
    """An ASGI receive that ends a request body still arriving at `deadline` (a disconnect, so the SDK stops
    waiting for it); after the body, messages pass through unbounded (a client listening for the answer)."""
    import asyncio  # (here, not at the top: the module is loaded by every command's parser)

    whole = False

    async def timed() -> dict[str, Any]:
        nonlocal whole
        if whole:
            return await receive()
        try:
            message = await asyncio.wait_for(receive(), max(deadline - asyncio.get_running_loop().time(), 0))
        except TimeoutError:
            return {"type": "http.disconnect"}
        whole = message.get("type") != "http.request" or not message.get("more_body", False)
        return message

    return timed


async def _answer(send: Any, status: int, message: dict[str, Any]) -> None:
    """Answer an HTTP request with one JSON-RPC message."""
    answer = json.dumps(message).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]})
    await send({"type": "http.response.body", "body": answer})


def _request_key(scope: dict[str, Any], body: bytes) -> tuple[str, str, Any] | None:
    """A request's session (the Mcp-Session-Id header) and id: one that is in flight there may not be sent again
    until it is answered (the SDK would send the answer to the second request's stream only, and the first
    would wait for ever). None for a notification, a response, a body that is not one JSON-RPC request, or a
    request outside any session: concurrent clients initializing (all with id 0) are different sessions."""
    try:
        data = json.loads(body) if len(body) <= MAX_LINE_CHARS else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or "method" not in data or "id" not in data:
        return None
    rid = data["id"]
    if not (isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))):
        return None
    session = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"mcp-session-id"), "")
    if not session:
        return None  # no session yet (initialize): each such request starts a session of its own
    return session, type(rid).__name__, rid


def _id_in_use(body: bytes) -> dict[str, Any]:
    """The JSON-RPC error answering a request whose id a request still running in the same session holds."""
    rid = json.loads(body)["id"]
    return {"jsonrpc": "2.0", "id": rid if _sendable(str(rid)) else None,
            "error": {"code": INVALID_REQUEST, "message": f"Invalid Request: the id {json.dumps(rid)[:80]} is held by "
                      "a request of this session not answered yet; give each request its own id"}}


def _replay(messages: list[dict[str, Any]], then: Any = None) -> Any:
    """An ASGI receive that gives back what was already read, then the rest from `then`."""
    pending = list(messages)

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        return await then()

    return receive


def main(http_port: int | None = None, host: str = "127.0.0.1", api_key: str | None = None) -> int:
    """`gpu-advisor mcp`: stdio, or streamable HTTP at http://HOST:PORT/mcp (off loopback only with
    an API key, as `gpu-advisor serve`)."""
    import anyio

    if http_port is None:
        anyio.run(serve_stdio)
        return 0
    import uvicorn

    from gpu_advisor.tui.openai_api import BadRequest, base_url, binding_problem, listening_socket

    problem = binding_problem(host, api_key)
    if problem:
        raise BadRequest(problem)
    sock = listening_socket(host, http_port)
    print(f"gpu-advisor: MCP (streamable HTTP) at {base_url(host, http_port)}/mcp"
          + ("; API key required" if api_key else ""), file=sys.stderr)
    from gpu_advisor.tui.http_deadline import protocol

    uvicorn.Server(uvicorn.Config(http_app(host=host, api_key=api_key), host=host, port=http_port,
                                  log_level="warning", http=protocol())).run(sockets=[sock])
    return 0


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `gpu-advisor mcp` on the command line's subparsers."""
    import argparse
    import os

    p = sub.add_parser("mcp", help="serve the sizing tools, the catalogs and the conversation to MCP clients "
                                   "(stdio; --http PORT for streamable HTTP)")
    p.add_argument("--http", type=int, default=None, metavar="PORT",
                   help="streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="address for --http (default: %(default)s)")
    p.add_argument("--api-key", default=os.environ.get("GPU_ADVISOR_API_KEY") or None, metavar="KEY",
                   help="with --http, require 'Authorization: Bearer KEY' (needed off loopback; "
                        "default: $GPU_ADVISOR_API_KEY)")
    p.epilog = "examples:\n" + "\n".join(f"  {e}" for e in ['gpu-advisor mcp', 'gpu-advisor mcp --http 8808'])
    p.formatter_class = type("RawHelp", (p.formatter_class, argparse.RawDescriptionHelpFormatter), {})

    def run(args: argparse.Namespace) -> int:
        if args.http is not None and not 0 < args.http < 65536:
            p.error(f"--http: {args.http} is not a port number")
        from gpu_advisor.tui.openai_api import binding_problem

        problem = binding_problem(args.host, args.api_key) if args.http is not None else None
        if problem:
            p.error(problem.replace("serving on", "serving MCP on"))
        from gpu_advisor.tui.openai_api import PortInUse

        try:
            return main(args.http, args.host, args.api_key)
        except PortInUse as exc:
            from gpu_advisor.tui.cli.base import UsageError

            raise UsageError(str(exc)) from None

    p.set_defaults(func=run)
