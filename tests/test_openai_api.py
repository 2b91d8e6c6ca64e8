"""The OpenAI-compatible endpoint through the `openai` Python client, against a real uvicorn server on
a free loopback port (in a background thread)."""

from __future__ import annotations

import socket
import threading

import pytest

TURNS = ["fine-tune a 27B model and then let my team chat with it", "qlora", "15 users", "working hours"]
KEY = "test-key-123"


@pytest.fixture(scope="module")
def base_url():
    import uvicorn

    from tui.openai_api import create_app

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
    from assistant.session import Conversation

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
    from tui.openai_api import binding_problem

    assert binding_problem("127.0.0.1", None) is None
    assert "needs an API key" in binding_problem("0.0.0.0", None)
    assert binding_problem("0.0.0.0", "k") is None


def test_gpu_advisor_serve_refuses_another_address_without_a_key(monkeypatch, capsys):
    from tui.cli import main

    monkeypatch.delenv("GPU_ADVISOR_API_KEY", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--host", "0.0.0.0", "--port", "8765"])
    assert exit_.value.code == 2
    assert "needs an API key" in capsys.readouterr().err
