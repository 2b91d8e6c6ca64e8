"""A real LangGraph Server (`langgraph dev`) holds a whole conversation through the langgraph-sdk client."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGGRAPH = Path(sys.executable).parent / "langgraph"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url():
    if not LANGGRAPH.exists() and not shutil.which("langgraph"):
        pytest.fail("langgraph-cli is not installed (make test installs the dev extras)")
    env = {**os.environ, "NO_COLOR": "1", "LANGSMITH_TRACING": "false", "LANGCHAIN_TRACING_V2": "false",
           "LANGGRAPH_CLI_NO_ANALYTICS": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [str(LANGGRAPH), "dev", "--host", "127.0.0.1", "--port", str(free_port()), "--no-browser", "--no-reload",
         "--config", "langgraph.json"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    log: list[str] = []
    url = None
    try:
        assert proc.stdout is not None
        # The server moves to another port when its port is taken: read the one it chose from its log.
        for line in proc.stdout:
            log.append(line)
            m = re.search(r"API: \S*?(http://127\.0\.0\.1:\d+)", line)
            if m:
                url = m.group(1)
            if "Application started up" in line or "Application startup complete" in line:
                break
        if url is None:
            pytest.fail("langgraph dev did not start:\n" + "".join(log[-40:]))
        drain = threading.Thread(target=lambda: [log.append(x) for x in proc.stdout], daemon=True)
        drain.start()
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_a_whole_conversation_through_the_sdk(server_url):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server_url)
    thread = client.threads.create()

    def say(text: str) -> dict:
        state = client.runs.wait(thread["thread_id"], "gpu_advisor",
                                 input={"messages": [{"role": "user", "content": text}]})
        reply = state["messages"][-1]
        assert reply["type"] == "ai"
        return reply

    first = say("hi")
    assert first["additional_kwargs"]["gpu_advisor"]["slot"] == "phase"
    q = say("fine-tune a 27B model and then let my team chat with it")
    assert q["additional_kwargs"]["gpu_advisor"] == {
        "kind": "question", "slot": "method",
        "choices": [{"label": "QLoRA (4-bit)", "value": "qlora"}, {"label": "LoRA (16-bit)", "value": "lora"},
                    {"label": "Full", "value": "full"}, {"label": "Not sure", "value": "not sure"}]}
    assert say("qlora")["additional_kwargs"]["gpu_advisor"]["slot"] == "users"
    assert say("15 users")["additional_kwargs"]["gpu_advisor"]["slot"] == "utilisation"
    answer = say("working hours")
    assert answer["additional_kwargs"]["gpu_advisor"]["kind"] == "answer"
    assert answer["content"].startswith("## Rent 1 × NVIDIA A100 SXM4 80GB for both jobs")
    follow_up = say("what about int4?")
    assert follow_up["additional_kwargs"]["gpu_advisor"]["kind"] == "answer"
    assert "_Updated for: precision._" in follow_up["content"]
    assert ", int4, 15 users" in follow_up["content"]


def test_the_graph_takes_messages_and_gives_messages_and_the_advisor_payload(server_url):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server_url)
    assistant = client.assistants.search(graph_id="gpu_advisor")[0]
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    assert set(schemas["input_schema"]["properties"]) == {"messages", "oneshot", "settings"}
    assert set(schemas["output_schema"]["properties"]) == {"messages", "profile", "defaulted", "pending",
                                                           "results", "lang"}
    thread = client.threads.create()
    out = client.runs.wait(thread["thread_id"], "gpu_advisor",
                           input={"messages": [{"role": "user", "content": "hi"}]})
    assert set(out) <= set(schemas["output_schema"]["properties"])
    assert "turn" not in out and "asked" not in out


def test_the_tool_calls_behind_an_answer_come_before_it_in_the_standard_form(server_url):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server_url)
    thread = client.threads.create()

    def turn(text: str) -> list[dict]:
        out = client.runs.wait(thread["thread_id"], "gpu_advisor",
                               input={"messages": [{"role": "user", "content": text}]})
        messages = out["messages"]
        last_human = max(i for i, m in enumerate(messages) if m["type"] == "human")
        assert messages[last_human]["content"] == text
        return messages[last_human + 1:]

    question = turn("serve llama 3.1 8b to 20 users")
    assert [m["type"] for m in question] == ["ai"] and not question[0].get("tool_calls")  # a question calls nothing
    answer = turn("working hours")
    request, *results, reply = answer
    assert request["type"] == "ai" and request["content"] == ""
    calls = request["tool_calls"]
    assert [c["name"] for c in calls] == ["recommend", "inference_memory"]
    assert [m["type"] for m in results] == ["tool"] * len(calls)
    assert [m["tool_call_id"] for m in results] == [c["id"] for c in calls]
    import json

    ranking = json.loads(results[0]["content"])
    assert len(ranking["options"]) <= 5 and "workload" not in ranking  # concise: the top of the ranking
    assert "terms" not in json.loads(results[1]["content"])
    # the reply stays the last message, as plain chat views show it
    assert reply["type"] == "ai" and not reply.get("tool_calls") and reply["content"].startswith("## ")
    assert reply["additional_kwargs"]["gpu_advisor"]["kind"] == "answer"
    math = turn("show the math")
    assert math[0]["tool_calls"] and math[-1]["additional_kwargs"]["gpu_advisor"]["topic"] == "math"


@pytest.mark.parametrize("message", [
    {"role": "user"},                              # no content
    {"role": "user", "content": {"text": "hi"}},   # an object
    {"role": "user", "content": [1, 2]},           # a list of numbers
])
def test_a_malformed_message_gets_a_polite_reply_not_a_stack_trace(server_url, message):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server_url)
    thread = client.threads.create()
    out = client.runs.wait(thread["thread_id"], "gpu_advisor", input={"messages": [message]})
    reply = out["messages"][-1]
    assert reply["type"] == "ai" and reply["additional_kwargs"]["gpu_advisor"]["kind"] == "error"
    assert reply["content"].startswith("I can't use that: the message held ")
    assert "Traceback" not in reply["content"]
