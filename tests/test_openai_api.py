"""The OpenAI-compatible endpoint through the `openai` Python client, against a real uvicorn server on
a free loopback port (in a background thread)."""

from __future__ import annotations

import socket
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

TURNS = ["fine-tune a 27B model and then let my team chat with it", "qlora", "15 users", "working hours"]
KEY = "test-key-123"


@pytest.fixture(scope="module")
def base_url():
    import uvicorn

    from gpu_advisor.tui.openai_api import create_app

    # The socket is bound and listening before the server thread starts: a request made at once
    # waits in the backlog until the server accepts it (no readiness polling, no sleeping).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(api_key=KEY), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture
def client(base_url):
    from openai import OpenAI

    return OpenAI(base_url=base_url, api_key=KEY, max_retries=0, timeout=60)


def _engine_replies(turns: list[str]) -> list[str]:
    from gpu_advisor.assistant.session import Conversation

    conv = Conversation()
    return [str(conv.send(t).content) for t in turns]


def test_models(client):
    assert [m.id for m in client.models.list().data] == ["gpu-advisor"]
    assert client.models.retrieve("gpu-advisor").id == "gpu-advisor"


def test_a_conversation_rebuilt_from_the_messages_each_request_carries(client):
    expected = _engine_replies(TURNS)
    messages: list[dict] = [{"role": "system", "content": "You are a helpful assistant."}]
    for text, want in zip(TURNS, expected, strict=True):
        messages.append({"role": "user", "content": text})
        completion = client.chat.completions.create(model="gpu-advisor", messages=messages)
        choice = completion.choices[0]
        assert choice.finish_reason == "stop" and choice.message.role == "assistant"
        assert choice.message.content == want
        messages.append({"role": "assistant", "content": choice.message.content})
    assert expected[-1].startswith("## ")
    assert choice.message.model_extra["gpu_advisor"]["kind"] == "answer"
    # the same messages sent again: the same reply, byte for byte
    again = client.chat.completions.create(model="gpu-advisor", messages=messages[:-1])
    assert again.choices[0].message.content == expected[-1]


def test_streaming_gives_the_same_text_in_chunks(client):
    expected = _engine_replies(TURNS[:1] + ["not sure", "about 15", "24/7"])
    messages = [{"role": "user", "content": t} for t in TURNS[:1] + ["not sure", "about 15", "24/7"]]
    stream = client.chat.completions.create(model="gpu-advisor", messages=messages, stream=True)
    chunks = list(stream)
    assert len(chunks) > 3
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == expected[-1]


def test_content_parts_are_read_as_text(client):
    parts = [{"type": "text", "text": "serve llama 3.1 8b"}, {"type": "text", "text": "to 20 users"}]
    completion = client.chat.completions.create(model="gpu-advisor", messages=[{"role": "user", "content": parts}])
    assert completion.choices[0].message.content == _engine_replies(["serve llama 3.1 8b\nto 20 users"])[0]


def test_bad_requests_get_openai_errors(client, base_url):
    import openai

    with pytest.raises(openai.BadRequestError, match="no user message"):
        client.chat.completions.create(model="gpu-advisor", messages=[{"role": "system", "content": "hi"}])
    with pytest.raises(openai.BadRequestError, match="at most 8,000 characters"):
        client.chat.completions.create(model="gpu-advisor", messages=[{"role": "user", "content": "x" * 9000}])
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("gpt-4")
    wrong = openai.OpenAI(base_url=base_url, api_key="wrong", max_retries=0, timeout=60)
    with pytest.raises(openai.AuthenticationError):
        wrong.models.list()


def test_another_address_needs_an_api_key():
    from gpu_advisor.tui.openai_api import binding_problem

    assert binding_problem("127.0.0.1", None) is None
    assert "needs an API key" in binding_problem("0.0.0.0", None)
    assert binding_problem("0.0.0.0", "k") is None


def test_gpu_advisor_serve_refuses_another_address_without_a_key(monkeypatch, capsys):
    from gpu_advisor.tui.cli import main

    monkeypatch.delenv("GPU_ADVISOR_API_KEY", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--host", "0.0.0.0", "--port", "8765"])
    assert exit_.value.code == 2
    assert "needs an API key" in capsys.readouterr().err


# ------------------------------------------------------------ in process: usage, refusals, routes, CORS
# The official client over Starlette's TestClient (an httpx.Client that calls the ASGI app in this
# process): no socket, no network.

ONE = [{"role": "user", "content": "serve llama 3.1 8b to 20 users"}]


def _in_process(**kw):
    from starlette.testclient import TestClient

    from gpu_advisor.tui.openai_api import create_app

    return TestClient(create_app(**kw), base_url="http://127.0.0.1")


@pytest.fixture(scope="module")
def local():
    from openai import OpenAI

    http = _in_process()
    yield OpenAI(base_url="http://127.0.0.1/v1", api_key="unused-on-loopback", http_client=http, max_retries=0)
    http.close()


def test_token_estimates_follow_the_readers_ratios():
    from gpu_advisor.tui.openai_api import chars_per_token, estimate_tokens

    assert chars_per_token() == (4.0, 1.4)
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd" * 25) == 25  # 100 characters of English: 25 tokens
    assert estimate_tokens("微调" * 7) == 10  # 14 Chinese characters: 10 tokens
    assert estimate_tokens("用4090微调") == 4  # 3 Chinese characters at 1.4 and 4 digits at 4: 2.14 + 1, rounded up
    assert estimate_tokens("微" * 21) == 15  # 21 / 1.4 is 15.000000000000002 in floating point: still 15


@given(st.text(max_size=300))
def test_a_token_estimate_grows_with_the_text(text):
    from gpu_advisor.tui.openai_api import estimate_tokens

    n = estimate_tokens(text)
    assert (n == 0) == (text == "")
    assert n <= estimate_tokens(text + "x") <= n + 1
    assert len(text) / 4 <= n <= len(text) / 1.4 + 1


def test_usage_is_filled_with_estimates(local):
    from gpu_advisor.tui.openai_api import estimate_tokens

    messages = [{"role": "system", "content": "You are a helpful assistant."}, *ONE]
    completion = local.chat.completions.create(model="gpu-advisor", messages=messages)
    text = completion.choices[0].message.content
    u = completion.usage
    assert u.prompt_tokens == estimate_tokens("You are a helpful assistant.") + estimate_tokens(ONE[0]["content"]) == 15
    assert u.completion_tokens == estimate_tokens(text) > 0
    assert u.total_tokens == u.prompt_tokens + u.completion_tokens


def test_streaming_with_include_usage_ends_with_a_usage_chunk(local):
    plain = local.chat.completions.create(model="gpu-advisor", messages=ONE)
    chunks = list(local.chat.completions.create(model="gpu-advisor", messages=ONE, stream=True,
                                                stream_options={"include_usage": True}))
    *text_chunks, last = chunks
    assert last.choices == [] and last.usage == plain.usage
    assert all(c.usage is None for c in text_chunks) and text_chunks[-1].choices[0].finish_reason == "stop"
    assert "".join(c.choices[0].delta.content or "" for c in text_chunks) == plain.choices[0].message.content
    without = list(local.chat.completions.create(model="gpu-advisor", messages=ONE, stream=True))
    assert all(c.usage is None and c.choices for c in without)  # no usage chunk unless asked for


@pytest.mark.parametrize(("extra", "named"), [
    ({"n": 2}, ["n=2"]),
    ({"n": 0}, ["n (must be a positive integer)"]),
    ({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]}, ["tools"]),
    ({"tool_choice": "required"}, ["tool_choice"]),
    ({"response_format": {"type": "json_object"}}, ["response_format=json_object"]),
    ({"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}},
     ["response_format=json_schema"]),
    ({"logprobs": True}, ["logprobs"]),
    ({"n": 3, "tools": [{"type": "function", "function": {"name": "f"}}], "response_format": {"type": "json_object"}},
     ["n=3", "tools", "response_format=json_object"]),
])
def test_unsupported_parameters_are_a_400_naming_them(local, extra, named):
    import openai

    with pytest.raises(openai.BadRequestError) as refused:
        local.chat.completions.create(model="gpu-advisor", messages=ONE, **extra)
    error = refused.value.body
    assert refused.value.status_code == 400 and error["code"] == "unsupported_parameter"
    assert error["message"].startswith("unsupported parameters: ")
    for name in named:
        assert name in error["message"]
    assert error["param"] == named[0].split("=")[0].split(" ")[0]


def test_what_it_can_honour_or_ignore_is_accepted(local):
    ok = local.chat.completions.create(model="gpu-advisor", messages=ONE, n=1, tools=[], tool_choice="auto",
                                       response_format={"type": "text"}, temperature=0.2, max_tokens=50)
    assert ok.choices[0].message.content


def test_stream_options_need_a_stream(local):
    import openai

    with pytest.raises(openai.BadRequestError, match="only allowed when stream is true"):
        local.chat.completions.create(model="gpu-advisor", messages=ONE, stream_options={"include_usage": True})


def test_unknown_routes_and_wrong_methods_are_json_errors():
    with _in_process() as http:
        for method, path, status, code in [("GET", "/v1/completions", 404, "not_found"),
                                           ("POST", "/v1/embeddings", 404, "not_found"),
                                           ("GET", "/v1/chat/completions", 405, "method_not_allowed"),
                                           ("DELETE", "/v1/models", 405, "method_not_allowed")]:
            r = http.request(method, path)
            assert r.status_code == status and r.headers["content-type"] == "application/json"
            error = r.json()["error"]
            assert error["code"] == code and error["type"] == "invalid_request_error"
            assert error["message"].startswith(f"{method} {path}: ")
        assert "POST /v1/chat/completions" in http.get("/v1/completions").json()["error"]["message"]
        assert http.get("/v1/chat/completions").headers["allow"] == "POST"


def test_unknown_routes_through_the_client(local):
    import openai

    with pytest.raises(openai.NotFoundError, match="no such route"):
        local.embeddings.create(model="gpu-advisor", input="hi")


PAGE = "http://localhost:3000"
PREFLIGHT = {"Origin": PAGE, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}


def test_cors_is_off_by_default():
    with _in_process() as http:
        assert "access-control-allow-origin" not in http.get("/v1/models", headers={"Origin": PAGE}).headers
        assert http.options("/v1/chat/completions", headers=PREFLIGHT).status_code == 405
        page = http.get("/v1/models", headers={"Origin": "https://evil.example"})
        assert page.status_code == 403 and page.json()["error"]["code"] == "forbidden_host"


def test_cors_for_the_origins_named():
    with _in_process(cors_origins=[PAGE, "https://app.example"], api_key=KEY) as http:
        pre = http.options("/v1/chat/completions", headers=PREFLIGHT)  # a preflight carries no key
        assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == PAGE
        assert "POST" in pre.headers["access-control-allow-methods"]
        assert "authorization" in pre.headers["access-control-allow-headers"].lower()
        r = http.post("/v1/chat/completions", json={"messages": ONE},
                      headers={"Origin": "https://app.example", "Authorization": f"Bearer {KEY}"})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://app.example"
        refused = http.get("/v1/models", headers={"Origin": PAGE})  # no key: refused, readable by the page
        assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == PAGE
        other = http.get("/v1/models", headers={"Origin": "https://evil.example", "Authorization": f"Bearer {KEY}"})
        assert other.status_code == 403 and "access-control-allow-origin" not in other.headers
    with _in_process(cors_origins=["*"]) as http:
        r = http.get("/v1/models", headers={"Origin": "https://any.example"})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"


def test_gpu_advisor_serve_takes_cors_origins(monkeypatch, capsys):
    import uvicorn
    from starlette.testclient import TestClient

    from gpu_advisor.tui.cli import main

    started = {}
    # (serve runs a uvicorn.Server of its own, so that SIGTERM stops running replays: its run is intercepted)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **kw: started.update(app=self.config.app))
    monkeypatch.delenv("GPU_ADVISOR_API_KEY", raising=False)
    assert main(["serve", "--cors-origin", PAGE, "--cors-origin", "https://app.example"]) == 0
    assert "CORS for http://localhost:3000, https://app.example" in capsys.readouterr().err
    with TestClient(started["app"], base_url="http://127.0.0.1") as http:
        pre = http.options("/v1/chat/completions", headers=PREFLIGHT)
        assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == PAGE
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--cors-origin", "localhost:3000/app"])
    assert exit_.value.code == 2 and "--cors-origin: 'localhost:3000/app' is not an origin" in capsys.readouterr().err
