"""An OpenAI-compatible chat endpoint: `gpu-advisor serve`, for Open WebUI, LibreChat or any OpenAI client.

- `POST /v1/chat/completions` (streaming as server-sent events, or not) and `GET /v1/models`.
- No session is kept: the conversation is rebuilt from the user messages each request carries (the
  engine is deterministic, so the same messages reach the same state and the same reply). The
  state after each request is cached by its user messages, so the next turn replays only itself.
  At most assistant.replay.MAX_REPLAYED_TURNS turns are replayed for one request (the reply says how
  many were skipped); the replay stops between turns when the client disconnects or the server shuts
  down (SIGTERM: uvicorn's graceful shutdown, at most SHUTDOWN_GRACE_S).
- Binds 127.0.0.1 by default; bound to any other address it requires an API key
  (`Authorization: Bearer KEY`), given with `--api-key` or GPU_ADVISOR_API_KEY.
- `usage` holds token counts estimated from the characters (no tokenizer is loaded; see
  `estimate_tokens`), also as the last stream chunk when `stream_options.include_usage` is true.
- Parameters it cannot honour (`n` > 1, `tools`, a `response_format` other than text ...) are a 400
  naming them; unknown routes and wrong methods are JSON errors in OpenAI's shape.
- No CORS headers unless `--cors-origin ORIGIN` (repeatable) names the web pages that may call it.
"""

from __future__ import annotations

import contextlib
import copy
import hmac
import json
import math
import re
import threading
import time
import uuid
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # starlette loads with the server, not with the command line's parser
    import argparse
    from collections.abc import Mapping

    from starlette.applications import Starlette
    from starlette.responses import JSONResponse

MODEL_ID = "gpu-advisor"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_TURNS = 200  # user messages one request may carry (at most assistant.replay.MAX_REPLAYED_TURNS are replayed)
SHUTDOWN_GRACE_S = 5  # on SIGTERM, requests still running after this are cancelled
DISCONNECT_POLL_S = 0.25  # how often a running request checks that its client is still there
CACHED_CONVERSATIONS = 512
MAX_BODY_BYTES = 4_000_000
BODY_TIMEOUT_S = 30.0  # a body that has not arrived by then is a stalled (or hostile) upload


class BadRequest(ValueError):
    """A request this endpoint cannot answer: 400 with OpenAI's error shape (`param` names the
    parameter at fault when there is one, `code` says why)."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.param = param
        self.code = code


_CJK_TEXT = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def chars_per_token() -> tuple[float, float]:
    """Characters per token of English and of Chinese text: the ratios the reader converts lengths said
    in characters with (assistant/reading/words/units.yaml, `text_units`: about 4 and 1.4)."""
    from gpu_advisor.assistant.reading.text import vocab

    row = next(r for r in vocab()["text_units"] if "zh_per_token" in r)
    return float(row["per_token"]), float(row["zh_per_token"])


def estimate_tokens(text: str) -> int:
    """Tokens in `text`, estimated: Chinese (CJK) characters at about 1.4 a token, everything else at
    about 4 characters a token (the usual ratios of Llama 3, Qwen and GPT tokenizers), rounded up."""
    if not text:
        return 0
    english, chinese = chars_per_token()
    cjk = len(_CJK_TEXT.findall(text))
    return math.ceil(round(cjk / chinese + (len(text) - cjk) / english, 6))  # (21 / 1.4 is 15.000000000000002)


def usage(messages: list[Any], reply: str) -> dict[str, int]:
    """OpenAI's `usage` for a request and its reply, estimated (estimate_tokens): the prompt is the
    text of every message the request carried, whatever its role."""
    prompt = sum(estimate_tokens(_lenient_text(m.get("content"))) for m in messages if isinstance(m, dict))
    completion = estimate_tokens(reply)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


# What this endpoint cannot do, by parameter: a request that asks for it gets a 400 naming every one.
def unsupported(data: dict[str, Any]) -> list[str]:
    """The parameters of a request this endpoint cannot honour, each with why (empty: none)."""
    found = []
    n = data.get("n")
    if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
        found.append("n (must be a positive integer)")
    elif isinstance(n, int) and n > 1:
        found.append(f"n={n} (one choice per request)")
    for name in ("tools", "functions"):
        if data.get(name):
            found.append(f"{name} (the advisor calls its own sizing tools; it does not call yours)")
    for name in ("tool_choice", "function_call"):
        choice = data.get(name)
        if choice is not None and choice not in ("none", "auto"):
            found.append(f"{name} (no tools to choose from)")
    response_format = data.get("response_format")
    if response_format is not None and not (isinstance(response_format, dict)
                                            and response_format.get("type") == "text"):
        kind = response_format.get("type") if isinstance(response_format, dict) else response_format
        found.append(f"response_format={kind} (replies are Markdown text; the structured data is in "
                     "message.gpu_advisor)")
    if data.get("logprobs") or data.get("top_logprobs"):
        found.append("logprobs (the replies are not sampled from token probabilities)")
    modalities = data.get("modalities")
    if data.get("audio") or (isinstance(modalities, list) and any(m != "text" for m in modalities)):
        found.append("audio (text only)")
    return found


def stream_settings(data: dict[str, Any]) -> tuple[bool, bool]:
    """(stream, include_usage) of a request, checked."""
    stream = data.get("stream")
    if stream is not None and not isinstance(stream, bool):
        raise BadRequest(f"stream: must be true or false (a JSON boolean, not {json.dumps(stream)[:40]})", "stream")
    options = data.get("stream_options")
    if options is None:
        return bool(stream), False
    if not stream:
        raise BadRequest("stream_options: only allowed when stream is true", "stream_options")
    if not isinstance(options, dict):
        raise BadRequest("stream_options: must be an object", "stream_options")
    include = options.get("include_usage", False)
    if not isinstance(include, bool):
        raise BadRequest("stream_options.include_usage: must be true or false", "stream_options.include_usage")
    return True, include


def binding_problem(host: str, api_key: str | None) -> str | None:
    """Why the server must not start with these settings, or None. A key that is blank or has spaces
    around it is refused: a client's token is read without them, so it could never match."""
    if api_key is not None and api_key and (not api_key.strip() or api_key != api_key.strip()):
        return ("--api-key: the key is blank or has spaces around it, so no client could send it; "
                "give the key itself (or set GPU_ADVISOR_API_KEY)")
    if host not in LOOPBACK and not api_key:
        return (f"serving on {host} needs an API key: --api-key KEY (or GPU_ADVISOR_API_KEY); "
                "clients send it as 'Authorization: Bearer KEY'")
    return None


def _host_name(value: str) -> str:
    """The host name of a Host header or an Origin ("127.0.0.1:8000", "http://[::1]:8000" -> "::1")."""
    value = value.strip().lower()
    if "://" in value:
        value = value.split("://", 1)[1].split("/", 1)[0]
    if value.startswith("["):  # [::1] or [::1]:8000; anything after it ('[::1]:80@evil.com') is no address of ours
        name, _, rest = value[1:].partition("]")
        return name if not rest or (rest[:1] == ":" and rest[1:].isdigit()) else value
    if value.count(":") == 1:  # host:port, the port digits only ('127.0.0.1:80@evil.com' is returned whole)
        name, port = value.split(":")
        return name if port.isdigit() else value
    return value


def guarded(app: Any, host: str, api_key: str | None, origins: tuple[str, ...] = ()) -> Any:
    """`app` (ASGI) behind the checks both servers share: with an API key, every HTTP request but
    /health must carry it (`Authorization: Bearer KEY`, else 401); bound to a loopback address, the
    Host header and any Origin must name a loopback address too (else 403), so a web page cannot
    reach the server through DNS rebinding. `origins` (`--cors-origin`; "*" for any) are web pages
    allowed besides: their Origin passes (the Host must still be a loopback name)."""
    import json as _json

    loopback = host in LOOPBACK
    any_origin = "*" in origins

    async def refuse(send: Any, status: int, message: str, code: str) -> None:
        body = _json.dumps({"error": {"message": message, "type": "invalid_request_error", "param": None,
                                      "code": code}}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def guard(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        if sum(1 for k, _v in scope.get("headers", []) if k.lower() == b"host") > 1:
            # Only one Host is allowed (RFC 9112): of two, this guard would check one and a proxy route by the other
            await refuse(send, 400, "a request may carry one Host header, not several", "bad_request")
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if loopback:
            origin = headers.get("origin")
            if _host_name(headers.get("host", "")) not in LOOPBACK or (
                    origin is not None and _host_name(origin) not in LOOPBACK
                    and not (any_origin or origin in origins)):  # "null": a sandboxed frame or file:// page
                await refuse(send, 403, "this server answers only requests addressed to this computer "
                                        "(Host and Origin must be a loopback address)", "forbidden_host")
                return
        if api_key and scope.get("path") != "/health":
            scheme, _, token = headers.get("authorization", "").partition(" ")
            if not (scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), api_key.encode())):
                await refuse(send, 401, "missing or wrong API key (send 'Authorization: Bearer KEY')",
                             "invalid_api_key")
                return
        await app(scope, receive, send)

    return guard


def _error(status: int, message: str, kind: str = "invalid_request_error", code: str | None = None,
           param: str | None = None, headers: Mapping[str, str] | None = None) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": {"message": message, "type": kind, "param": param, "code": code}},
                        status_code=status, headers=headers)


def _lenient_text(content: Any) -> str:
    """A message's text for counting: what `_text` reads, nothing for content it refuses."""
    try:
        return _text(content)
    except BadRequest:
        return ""


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") in ("text", "input_text") and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    raise BadRequest("messages: content must be a string or a list of content parts")


def user_messages(messages: Any) -> list[str]:
    """The user messages of a request, in order: the conversation the advisor replays."""
    if not isinstance(messages, list) or not messages:
        raise BadRequest("messages: a non-empty list is required")
    texts = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise BadRequest(f"messages[{i}]: an object with a role is required")
        if m["role"] == "user":
            texts.append(_text(m.get("content")))
    if not texts:
        raise BadRequest("messages: there is no user message to answer")
    if len(texts) > MAX_TURNS:
        raise BadRequest(f"messages: at most {MAX_TURNS} user messages per conversation")
    return texts


class Conversations:
    """The engine state reached by a sequence of user messages, cached (least recently used dropped)."""

    def __init__(self, limit: int = CACHED_CONVERSATIONS):
        self.limit = limit
        self._cache: OrderedDict[tuple[str, ...], tuple[list[Any], dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.replayed = 0  # user turns run through the engine, all requests together (tests count them)

    def _start(self, texts: tuple[str, ...]):
        from gpu_advisor.assistant.session import Conversation

        conv = Conversation()
        with self._lock:
            for n in range(len(texts), 0, -1):  # the longest cached beginning of this conversation
                hit = self._cache.get(texts[:n])
                if hit is not None:
                    self._cache.move_to_end(texts[:n])
                    conv.messages, conv.state = list(hit[0]), copy.deepcopy(hit[1])
                    return conv, n
        return conv, 0

    def _keep(self, texts: tuple[str, ...], conv) -> None:
        with self._lock:
            self._cache[texts] = (list(conv.messages), copy.deepcopy(conv.state))
            self._cache.move_to_end(texts)
            while len(self._cache) > self.limit:
                self._cache.popitem(last=False)

    def reply(self, texts: list[str], cancel: threading.Event | None = None):
        """The advisor's reply to the last of these user messages, after the ones before (at most
        MAX_REPLAYED_TURNS replayed; the reply says how many were skipped). `cancel` set stops the
        replay between turns (assistant.replay.Cancelled)."""
        from gpu_advisor.assistant.replay import bounded, check, noted
        from gpu_advisor.assistant.session import MessageTooLong

        key = tuple(texts)
        conv, done = self._start(key[:-1])
        todo, skipped = bounded(key[done:])
        try:
            for text in todo[:-1]:
                check(cancel)
                conv.send(text)
                self.replayed += 1
            check(cancel)
            reply = conv.send(todo[-1])
            self.replayed += 1
        except MessageTooLong as e:
            raise BadRequest(f"messages: {e}") from e
        self._keep(key, conv)
        return noted(reply, skipped, conv.state.get("lang"))


async def _replied(request: Any, run_in_threadpool: Any, conversations: Conversations, texts: list[str],
                   stopping: threading.Event):
    """The reply, worked out in a thread; None when the client disconnected first or the server is stopping.
    The work stops between turns once the client has left, the server stops, or the request is cancelled."""
    import asyncio

    from gpu_advisor.assistant.replay import Cancelled

    cancel = threading.Event()
    task = asyncio.ensure_future(run_in_threadpool(conversations.reply, texts, cancel))
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL_S)
            if done:
                return task.result()
            if stopping.is_set() or await request.is_disconnected():
                cancel.set()
                with contextlib.suppress(Cancelled):
                    await task
                return None
    except Cancelled:
        return None
    finally:
        cancel.set()  # a cancelled request (shutdown) stops its thread at the next turn


def _payload(reply) -> dict[str, Any]:
    data = dict(reply.additional_kwargs.get("gpu_advisor") or {})
    data.pop("results", None)  # the figures are in the text; the sizing tools give them as data
    data.pop("table", None)
    return data


def _pieces(text: str) -> list[str]:
    """The reply in stream chunks: a line at a time (Markdown renders well as it grows)."""
    return [p for p in re.findall(r"[^\n]*\n|[^\n]+$", text) if p]


def parse_body(body: bytes) -> dict[str, Any]:
    """The JSON object of a request body; anything else (not UTF-8, not JSON, NaN or Infinity, nested past the
    parser's depth, a number past int()'s digit limit, not an object) is BadRequest."""
    def not_json(word: str) -> Any:  # NaN, Infinity, -Infinity: Python reads them, JSON has no such number
        raise BadRequest(f"the body is not JSON: {word} is not a JSON number")

    def finite(text: str) -> float:  # 1e400 would be read as infinity
        value = float(text)
        if math.isinf(value):
            raise BadRequest(f"the body holds a number past what a JSON number can be ({text[:40]})")
        return value

    try:
        data = json.loads(body.decode("utf-8"), parse_constant=not_json, parse_float=finite)
    except BadRequest:
        raise
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise BadRequest(f"the body is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise BadRequest("the body is nested too deeply") from None
    except ValueError:
        raise BadRequest("the body holds a number too long to read") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    try:  # '\\udc80' escapes decode to a lone surrogate: no text, and it cannot be written back
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest("the body holds an escaped lone surrogate (such as \\udc80), which is not text") from None
    return data


async def read_body(request: Any) -> bytes | JSONResponse:
    """The request body, read as it arrives: refused (413) as soon as it passes MAX_BODY_BYTES (by its
    Content-Length before any byte is read, else while streaming, so a huge chunked upload never sits
    in memory), and answered 408 when it does not arrive within BODY_TIMEOUT_S."""
    import asyncio

    too_big = _error(413, f"the request is over {MAX_BODY_BYTES:,} bytes", code="request_too_large")
    declared = request.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > MAX_BODY_BYTES:
        return too_big
    chunks: list[bytes] = []
    size = 0

    async def read() -> bool:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                return False
            chunks.append(chunk)
        return True

    from starlette.requests import ClientDisconnect

    try:
        whole = await asyncio.wait_for(read(), BODY_TIMEOUT_S)
    except TimeoutError:
        return _error(408, f"the request body did not arrive within {BODY_TIMEOUT_S:g} s", code="request_timeout")
    except ClientDisconnect:  # gone before its body was complete: nothing to answer, no traceback in the console
        return _error(400, "the client disconnected before its request body was complete", code="client_disconnected")
    return b"".join(chunks) if whole else too_big


ROUTES = "POST /v1/chat/completions, GET /v1/models, GET /v1/models/{model}, GET /health"


def create_app(  # noqa: C901 - the count is the route handlers defined inside, each a few lines
    api_key: str | None = None, conversations: Conversations | None = None, host: str = "127.0.0.1",
    cors_origins: tuple[str, ...] | list[str] = (), stopping: threading.Event | None = None,
) -> Starlette:
    """The ASGI app; with api_key, every /v1 request must carry it as a bearer token; bound to a
    loopback `host`, requests must be addressed to a loopback name (see `guarded`). `cors_origins`
    (none by default) are the web pages allowed to call it from a browser ("*" for any). `stopping`,
    once set (the server is shutting down), stops every running replay at its next turn."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.cors import CORSMiddleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse, StreamingResponse
    from starlette.routing import Route

    conversations = conversations or Conversations()
    stopping = stopping or threading.Event()

    def authorised(request: Request) -> bool:
        if not api_key:
            return True
        given = request.headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), api_key.encode())

    def unauthorised() -> JSONResponse:
        return _error(401, "missing or wrong API key (send 'Authorization: Bearer KEY')", code="invalid_api_key")

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    def model_card() -> dict[str, Any]:
        return {"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "gpu-advisor"}

    async def list_models(request: Request) -> JSONResponse:
        if not authorised(request):
            return unauthorised()
        return JSONResponse({"object": "list", "data": [model_card()]})

    async def get_model(request: Request) -> JSONResponse:
        if not authorised(request):
            return unauthorised()
        if request.path_params["model"] != MODEL_ID:
            return _error(404, f"the model '{request.path_params['model']}' does not exist; this server has "
                               f"'{MODEL_ID}'", code="model_not_found")
        return JSONResponse(model_card())

    async def chat_completions(request: Request):
        if not authorised(request):
            return unauthorised()
        body = await read_body(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            data = parse_body(body)
            texts = user_messages(data.get("messages"))
            stream, include_usage = stream_settings(data)
            refused = unsupported(data)
            if refused:
                raise BadRequest("unsupported parameters: " + "; ".join(refused),
                                 refused[0].split(" ", 1)[0].split("=", 1)[0], "unsupported_parameter")
            reply = await _replied(request, run_in_threadpool, conversations, texts, stopping)
            if reply is None:  # the client left, or the server is stopping
                if stopping.is_set():
                    return _error(503, "the server is shutting down; send the request again once it is back",
                                  "server_error", code="shutting_down")
                return _error(400, "the client disconnected before its reply was ready", code="client_disconnected")
        except BadRequest as e:
            return _error(400, str(e), code=e.code, param=e.param)
        model = data.get("model") if isinstance(data.get("model"), str) and data.get("model") else MODEL_ID
        completion_id = f"chatcmpl-{uuid.uuid4().hex}"
        created = int(time.time())
        text = str(reply.content)
        counted = usage(data["messages"], text)
        if not stream:
            return JSONResponse({
                "id": completion_id, "object": "chat.completion", "created": created, "model": model,
                "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                             "message": {"role": "assistant", "content": text, "refusal": None,
                                         "gpu_advisor": _payload(reply)}}],
                "usage": counted, "system_fingerprint": None})

        def event(choices: list[dict[str, Any]], used: dict[str, int] | None = None) -> str:
            body = {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
                    "choices": choices}
            if include_usage:  # as OpenAI: null on every chunk but the last, which has no choices
                body["usage"] = used
            return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            return event([{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}])

        async def events():
            yield chunk({"role": "assistant", "content": ""})
            for piece in _pieces(text):
                yield chunk({"content": piece})
            yield chunk({}, "stop")
            if include_usage:
                yield event([], counted)
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        """Starlette's own errors (an unknown route, a wrong method) in OpenAI's shape."""
        assert isinstance(exc, HTTPException)
        where = f"{request.method} {request.url.path}"
        if exc.status_code == 404:
            return _error(404, f"{where}: no such route; this server has {ROUTES}", code="not_found")
        if exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            return _error(405, f"{where}: method not allowed" + (f"; use {allowed}" if allowed else ""),
                          code="method_not_allowed", headers=exc.headers)
        return _error(exc.status_code, f"{where}: {exc.detail}", code=None, headers=exc.headers)

    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, "the advisor failed on this request; the server keeps running",
                      kind="server_error", code="internal_error")

    origins = tuple(cors_origins)
    middleware = [Middleware(CORSMiddleware, allow_origins=list(origins), allow_methods=["GET", "POST"],
                             allow_headers=["*"], max_age=600)] if origins else []
    app = Starlette(routes=[
        Route("/health", health),
        Route("/v1/models", list_models),
        Route("/v1/models/{model:path}", get_model),
        Route("/v1/chat/completions", chat_completions, methods=["POST"]),
    ], exception_handlers={HTTPException: http_error, Exception: server_error}, middleware=middleware)
    # (the key is checked per route above, in OpenAI's error shape; a browser's CORS preflight carries
    # none, and CORSMiddleware answers it inside the Host check)
    return guarded(app, host, None, origins)


def origin_problem(origin: str) -> str | None:
    """Why `origin` is no web origin a browser sends (scheme://host[:port], no path), or None."""
    if origin == "*":
        return None
    m = re.fullmatch(r"(https?)://([^/\s?#]+)", origin)
    if not m:
        return (f"'{origin}' is not an origin: write scheme://host[:port] with no path, "
                "e.g. http://localhost:3000 (or '*' for any)")
    return None


class PortInUse(Exception):
    """The address cannot be listened on (the port is taken): one line, exit 2, never another port."""


def base_url(host: str, port: int) -> str:
    """http://HOST:PORT as a client writes it: an IPv6 address in brackets (http://[::1]:8000)."""
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def listening_socket(host: str, port: int) -> Any:
    """A socket bound to host:port for uvicorn to serve on, bound before anything is printed, so that a
    port in use is said in one line (PortInUse) instead of uvicorn's error after the start-up line."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(f"port {port} on {host} is in use; choose another with --port") from None
        raise PortInUse(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, api_key: str | None = None,
          cors_origins: tuple[str, ...] = ()) -> int:
    """`gpu-advisor serve`: run the endpoint until interrupted."""
    import sys

    import uvicorn

    problem = binding_problem(host, api_key)
    if problem:
        raise BadRequest(problem)
    sock = listening_socket(host, port)
    print(f"gpu-advisor: OpenAI-compatible endpoint at {base_url(host, port)}/v1 (model '{MODEL_ID}')"
          + ("; API key required" if api_key else "")
          + (f"; CORS for {', '.join(cors_origins)}" if cors_origins else ""), file=sys.stderr)
    stopping = threading.Event()

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:  # SIGTERM, Ctrl-C: running replays stop at once
            stopping.set()
            super().handle_exit(sig, frame)

    app = create_app(api_key, host=host, cors_origins=cors_origins, stopping=stopping)
    from gpu_advisor.tui.http_deadline import protocol

    Server(uvicorn.Config(app, host=host, port=port, log_level="warning", http=protocol(),
                          timeout_graceful_shutdown=SHUTDOWN_GRACE_S)).run(sockets=[sock])
    return 0


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `gpu-advisor serve` on the command line's subparsers."""
    import argparse
    import os

    p = sub.add_parser("serve", help="an OpenAI-compatible chat endpoint (/v1/chat/completions) for "
                                     "Open WebUI, LibreChat or any OpenAI client")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s)")
    p.add_argument("--port", type=int, default=8000, help="(default: %(default)s)")
    p.add_argument("--api-key", default=os.environ.get("GPU_ADVISOR_API_KEY") or None, metavar="KEY",
                   help="require 'Authorization: Bearer KEY' (needed off loopback; default: $GPU_ADVISOR_API_KEY)")
    p.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN", dest="cors_origins",
                   help="let web pages from ORIGIN (scheme://host[:port], or '*' for any) call the endpoint "
                        "from a browser; repeat for more (default: none, no CORS headers)")
    p.epilog = "examples:\n" + "\n".join(f"  {e}" for e in [
        'gpu-advisor serve', 'gpu-advisor serve --host 0.0.0.0 --port 8000 --api-key KEY',
        'gpu-advisor serve --cors-origin http://localhost:3000'])
    p.formatter_class = type("RawHelp", (p.formatter_class, argparse.RawDescriptionHelpFormatter), {})

    def run(args: argparse.Namespace) -> int:
        problem = binding_problem(args.host, args.api_key)
        if problem:
            p.error(problem)
        if not 0 < args.port < 65536:
            p.error(f"--port: {args.port} is not a port number")
        for origin in args.cors_origins:
            problem = origin_problem(origin)
            if problem:
                p.error(f"--cors-origin: {problem}")
        try:
            return serve(args.host, args.port, args.api_key, tuple(args.cors_origins))
        except PortInUse as exc:
            from gpu_advisor.tui.cli.base import UsageError

            raise UsageError(str(exc)) from None

    p.set_defaults(func=run)
