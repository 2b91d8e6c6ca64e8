"""Bounded work on crafted conversations. A follow-up of hundreds of comma-joined pieces reads at most
MAX_PIECES of them one by one (assistant/parts.py), each with one understand() call, and the reply says what
was not read; a conversation rebuilt from its user turns (the OpenAI-compatible endpoint's request, a saved
session whose state is unusable) replays at most MAX_REPLAYED_TURNS of them (assistant/replay.py) and says how
many it skipped; the endpoint stops a replay between turns once its client has gone. Work is counted (calls,
turns), never timed."""

from __future__ import annotations

import itertools
import json
import socket
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage

from gpu_advisor.assistant import parts
from gpu_advisor.assistant.engine import engine_graph
from gpu_advisor.assistant.replay import (
    HEAD_TURNS,
    MAX_REPLAYED_CHARS,
    MAX_REPLAYED_TURNS,
    Cancelled,
    bounded,
)

PLAN = {"en": "serve qwen3 32b for 50 users, around the clock", "zh": "部署qwen3 32b给50个人用，全天"}
# Follow-up questions whose replies have these topics, per language (as tests/test_compound_followups.py).
KINDS = {
    "en": [("gpu_hours", "how many gpu hours is that"), ("engine_choice", "why not sglang"),
           ("total_cost", "what's the monthly cost"), ("kv_cache", "how big is the kv cache per user"),
           ("math", "show the math"), ("rent_or_buy", "rent or buy")],
    "zh": [("gpu_hours", "一共多少卡时"), ("engine_choice", "为什么不用sglang"), ("total_cost", "每个月花多少"),
           ("kv_cache", "kv cache多大"), ("math", "展示计算过程"), ("rent_or_buy", "租还是买")],
}
JOINERS = {"en": [", ", " and also ", "; by the way "], "zh": ["，还有", "，另外", "；"]}
# Pieces that say little alone, joined by the hundred: each was read with all the fillers before it.
CRAFTED = {"en": ["2x t4", "ok", "hmm", "int4", "2x t4 ok"], "zh": ["两张t4", "好的", "嗯", "int4"]}


def _go(state, text):
    return engine_graph.invoke({**state, "messages": [*state.get("messages", []), HumanMessage(text)]})


@pytest.fixture(scope="module")
def plans():
    return {lang: _go({}, text) for lang, text in PLAN.items()}


@pytest.fixture
def counted(monkeypatch):
    """The understand() calls parts.questions makes, with the characters each read."""
    seen: list[int] = []
    real = parts.understand

    def counting(text, *a, **k):
        seen.append(len(text))
        return real(text, *a, **k)

    monkeypatch.setattr(parts, "understand", counting)
    return seen


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("n", [30, 300, 1100])
def test_a_follow_up_of_many_pieces_reads_a_bounded_number_of_them(plans, counted, lang, n):
    for piece, joiner in itertools.product(CRAFTED[lang], JOINERS[lang]):
        counted.clear()
        text = joiner.join([piece] * n)[:7999]
        state = parts.questions({**plans[lang], "messages": [*plans[lang]["messages"], HumanMessage(text)]})
        assert len(counted) <= parts.MAX_PIECES + 1, (piece, joiner, n, len(counted))
        # the whole message once, then each piece with at most MAX_CARRY characters of filler before it
        assert sum(counted) <= len(text) + parts.MAX_PIECES * (len(piece) + len(joiner) + parts.MAX_CARRY + 1), text
        assert state is None or len(state) <= parts.MAX_PIECES


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("extra", [1, 5, 40])
def test_questions_past_the_cap_are_said_unread(plans, counted, lang, extra):
    """MAX_PIECES questions answered one by one, in order; the rest counted and quoted from the first one."""
    asked = list(itertools.islice(itertools.cycle(KINDS[lang]), parts.MAX_PIECES + extra))
    joiners = itertools.cycle(JOINERS[lang])
    text = asked[0][1] + "".join(f"{next(joiners)}{q}" for _, q in asked[1:])
    out = _go(plans[lang], text)
    message = out["messages"][-1]
    p = message.additional_kwargs["gpu_advisor"]
    assert [x["topic"] for x in p["parts"]] == [t for t, _ in asked[: parts.MAX_PIECES]]
    assert p["unread"] == extra
    body = str(message.content)
    first = asked[parts.MAX_PIECES][1]
    if lang == "en":
        assert f"I read the first {parts.MAX_PIECES} parts of your message one by one; the other {extra} " \
               f"(from “{first}”) were not read." in body, body[-400:]
    else:
        assert f"你的消息我只逐条读了前 {parts.MAX_PIECES} 个部分；其余 {extra} 个部分（从“{first}”起）没有读" in body
    assert f"**{parts.MAX_PIECES}. “" in body and f"**{parts.MAX_PIECES + 1}. “" not in body
    assert len(counted) <= parts.MAX_PIECES + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_questions_under_the_cap_say_nothing_unread(plans, lang):
    asked = KINDS[lang][:3]
    text = JOINERS[lang][0].join(q for _, q in asked)
    message = _go(plans[lang], text)["messages"][-1]
    p = message.additional_kwargs["gpu_advisor"]
    assert [x["topic"] for x in p["parts"]] == [t for t, _ in asked]
    assert "unread" not in p
    assert "one by one" not in str(message.content) and "逐条" not in str(message.content)


@pytest.mark.parametrize("n,kept,skipped", [(1, 1, 0), (MAX_REPLAYED_TURNS, MAX_REPLAYED_TURNS, 0),
                                            (MAX_REPLAYED_TURNS + 1, MAX_REPLAYED_TURNS, 1),
                                            (200, MAX_REPLAYED_TURNS, 200 - MAX_REPLAYED_TURNS),
                                            (5000, MAX_REPLAYED_TURNS, 5000 - MAX_REPLAYED_TURNS)])
def test_bounded_keeps_the_first_and_the_latest_turns(n, kept, skipped):
    texts = [f"t{i}" for i in range(n)]
    todo, gone = bounded(texts)
    assert (len(todo), gone) == (kept, skipped)
    assert todo[-1] == texts[-1] and todo[0] == texts[0]
    if skipped:
        assert todo[:HEAD_TURNS] == texts[:HEAD_TURNS]
        assert todo[HEAD_TURNS:] == texts[-(MAX_REPLAYED_TURNS - HEAD_TURNS):]


TURNS = {"en": ["serve llama 3 8b to {n} users", "make it {n}k context"],
         "zh": ["部署llama 3 8b给{n}个人用", "上下文改成{n}k"]}


def _turns(lang: str, count: int) -> list[str]:
    return [TURNS[lang][i % 2].format(n=i % 60 + 2) for i in range(count)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_endpoint_replays_a_bounded_number_of_turns_and_says_so(lang):
    from gpu_advisor.tui.openai_api import Conversations

    conversations = Conversations()
    texts = _turns(lang, 200)
    reply = conversations.reply(texts)
    assert conversations.replayed == MAX_REPLAYED_TURNS
    assert reply.additional_kwargs["gpu_advisor"]["skipped_turns"] == 200 - MAX_REPLAYED_TURNS
    body = str(reply.content)
    if lang == "en":
        assert f"The {200 - MAX_REPLAYED_TURNS} in between were not read" in body
        assert f"at most {MAX_REPLAYED_TURNS} of your messages and {MAX_REPLAYED_CHARS:,} characters of them: " \
               f"the first {HEAD_TURNS}" in body
    else:
        assert f"中间的 {200 - MAX_REPLAYED_TURNS} 条没有读" in body and f"最前面的 {HEAD_TURNS} 条" in body
    # the next turn replays only itself (the state is cached), and says nothing skipped
    again = conversations.reply([*texts, TURNS[lang][1].format(n=16)])
    assert conversations.replayed == MAX_REPLAYED_TURNS + 1
    assert "skipped_turns" not in again.additional_kwargs["gpu_advisor"]


def test_a_short_request_is_replayed_whole():
    from gpu_advisor.tui.openai_api import Conversations

    conversations = Conversations()
    reply = conversations.reply(_turns("en", 5))
    assert conversations.replayed == 5
    assert "skipped_turns" not in reply.additional_kwargs["gpu_advisor"]


@pytest.mark.parametrize("stop_after", [0, 1, 3])
def test_a_cancelled_replay_stops_between_turns(stop_after):
    from gpu_advisor.assistant import session
    from gpu_advisor.tui.openai_api import Conversations

    cancel = threading.Event()
    conversations = Conversations()
    sent = []
    real = session.Conversation.send

    def send(self, text):
        sent.append(text)
        if len(sent) >= stop_after:
            cancel.set()
        return real(self, text)

    if stop_after == 0:
        cancel.set()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(session.Conversation, "send", send)
        with pytest.raises(Cancelled):
            conversations.reply(_turns("en", 50), cancel)
    assert len(sent) == stop_after == conversations.replayed


class _Waiting:
    """Conversations whose reply waits until it is cancelled (the client leaving must cancel it)."""

    def __init__(self):
        self.started, self.cancelled = threading.Event(), threading.Event()

    def reply(self, texts, cancel=None):
        self.started.set()
        if cancel is not None and cancel.wait(timeout=60):
            self.cancelled.set()
            raise Cancelled("stopped")
        raise AssertionError("never cancelled")


def test_a_client_that_disconnects_cancels_its_replay():
    from asgi_server import serving

    from gpu_advisor.tui.openai_api import create_app

    waiting = _Waiting()
    with serving(create_app(conversations=waiting)) as port:
        sock = _post(port, _turns("en", 3))
        assert waiting.started.wait(timeout=60)
        sock.close()
        assert waiting.cancelled.wait(timeout=60)


def test_serve_shuts_down_gracefully_within_a_bound(monkeypatch):
    """SIGTERM (uvicorn's handle_exit) sets the app's stopping flag, and the graceful shutdown has a bound."""
    import uvicorn
    from sse_starlette.sse import AppStatus

    from gpu_advisor.tui import openai_api

    # sse-starlette patches Server.handle_exit to set its process-wide AppStatus.should_exit, which nothing
    # resets: every SSE stream later in this worker (mcp --http tests) would end before its answer
    monkeypatch.setattr(AppStatus, "should_exit", False)
    seen = {}

    def run(server, *a, **k):
        seen["grace"] = server.config.timeout_graceful_shutdown
        server.handle_exit(15, None)
        seen["exit"] = server.should_exit

    made = {}
    real_create = openai_api.create_app

    def create_app(*a, **k):
        made["stopping"] = k.get("stopping")
        return real_create(*a, **k)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(openai_api, "create_app", create_app)
    assert openai_api.serve() == 0
    assert seen == {"grace": openai_api.SHUTDOWN_GRACE_S, "exit": True} and openai_api.SHUTDOWN_GRACE_S > 0
    assert made["stopping"].is_set()


def _post(port: int, texts: list[str]) -> socket.socket:
    body = json.dumps({"model": "gpu-advisor", "messages": [{"role": "user", "content": t} for t in texts]})
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall((f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                  f"application/json\r\nContent-Length: {len(body.encode())}\r\n\r\n{body}").encode())
    return sock


def test_a_stopping_server_cancels_the_replay_and_answers_503():
    from asgi_server import serving

    from gpu_advisor.tui.openai_api import create_app

    waiting, stopping = _Waiting(), threading.Event()
    with serving(create_app(conversations=waiting, stopping=stopping)) as port:
        sock = _post(port, _turns("zh", 3))
        assert waiting.started.wait(timeout=60)
        stopping.set()
        assert waiting.cancelled.wait(timeout=60)
        sock.settimeout(60)
        answer = b""
        while b"}}" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        sock.close()
    assert answer.startswith(b"HTTP/1.1 503"), answer[:200]
    assert b'"code":"shutting_down"' in answer


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_resumed_session_rebuilds_from_a_bounded_number_of_turns(tmp_path, lang):
    from gpu_advisor.assistant import session
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(tmp_path / "h.db")
    conv = session.Conversation(store)
    for text in _turns(lang, 3):
        conv.send(text)
    sid = conv.session_id
    # 300 user turns with their replies written straight to the store, the saved state unusable
    for i, text in enumerate(_turns(lang, 300)):
        store.add_message(sid, "user", text)
        store.save_reply(sid, f"reply {i}", {}, {"lang": "xx", "profile": 5}, [])
    replayed = []
    real = session.Conversation.respond

    def respond(self, text, keep=None):
        replayed.append(text)
        return real(self, text, keep)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(session.Conversation, "respond", respond)
        again = session.Conversation.resume(store, sid)
        reply = again.send(TURNS[lang][1].format(n=16))
    assert len(replayed) <= MAX_REPLAYED_TURNS + 2  # the bounded rebuild, then the turn itself
    skipped = 303 - MAX_REPLAYED_TURNS
    body = str(reply.content)
    assert (f"The {skipped} in between were not read" in body) if lang == "en" else (f"中间的 {skipped} 条没有读" in body)


@pytest.mark.parametrize("usable_state", [True, False])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stored_message_longer_than_a_new_one_may_be_never_blocks_its_session(tmp_path, lang, usable_state):
    """An import may carry a user message of 140,000 characters (new messages stop at 8,000): continuing that
    session replays it as the reader would read it, and answers the new turn."""
    from gpu_advisor.assistant import session
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(tmp_path / "h.db")
    conv = session.Conversation(store)
    conv.send(TURNS[lang][0].format(n=5))
    sid = conv.session_id
    long = TURNS[lang][0].format(n=7) + " " + "x" * 140_000
    store.add_message(sid, "user", long)
    state = dict(conv.state) if usable_state else {"lang": "xx", "profile": 5}
    store.save_reply(sid, "reply", {}, state, [])
    again = session.Conversation.resume(store, sid)
    reply = again.send(TURNS[lang][1].format(n=16))
    body = str(reply.content)
    assert "a message can be at most" not in body and "16" in body
    assert [m["role"] for m in store.messages(sid)][-2:] == ["user", "assistant"]


@given(st.lists(st.integers(min_value=0, max_value=8_000), min_size=1, max_size=60))
def test_bounded_replays_a_bounded_number_of_characters_and_always_the_last_turn(lengths):
    """Attack 5: 24 turns of 8,000 characters each cost 16 s to replay. At most MAX_REPLAYED_CHARS characters are
    replayed beside the last turn, which is always kept; turns keep their order; the count skipped adds up; and a
    conversation under both limits is replayed whole."""
    texts = [f"{i}:" + "x" * n for i, n in enumerate(lengths)]
    todo, skipped = bounded(texts)
    assert todo[-1] == texts[-1] and len(todo) + skipped == len(texts) and len(todo) <= MAX_REPLAYED_TURNS
    assert sum(map(len, todo[:-1])) <= MAX_REPLAYED_CHARS
    assert [texts.index(t) for t in todo] == sorted(texts.index(t) for t in todo)
    if len(texts) <= MAX_REPLAYED_TURNS and sum(map(len, texts)) <= MAX_REPLAYED_CHARS:
        assert todo == texts and skipped == 0


def test_long_turns_keep_the_first_turn_before_the_latest_ones():
    texts = ["serve llama 3 8b to 5 users", *["x" * 7_000 for _ in range(10)], "make it 20 users"]
    todo, skipped = bounded(texts)
    assert todo[0] == texts[0] and todo[-1] == texts[-1] and skipped == len(texts) - len(todo) >= 8
