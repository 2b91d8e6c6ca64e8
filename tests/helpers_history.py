"""Worker processes for the history and session tests, run as `python tests/helpers_history.py MODE ...`.

Each mode is a separate program so that the tests exercise what really happens across processes:
two writers at once, a process killed in the middle of a turn, a conversation resumed by another
process. Output is line-based so the test can wait on it (no sleeps).

  writer DB SESSION N TAG   print "ready", wait for a line on stdin, add N messages, print "done N"
  crash-turn DB TEXT        Conversation(store).send(TEXT) with an engine that prints "saved SESSION"
                            and then blocks on stdin: the test kills the process mid-turn
  converse DB ID|- TEXT...  send the texts (resuming session ID, or a new one with -), print JSON
  hold-transaction DB N     commit N messages, then write more inside an open transaction, print
                            "holding SESSION" and block on stdin: the test kills the process
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def writer(path: str, session_id: str, n: str, tag: str) -> None:
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(path)
    print("ready", flush=True)
    sys.stdin.readline()  # the test starts both writers, then releases them together
    for i in range(int(n)):
        store.add_message(session_id, "user", f"message {i} from writer {tag}")
    store.close()
    print(f"done {n}", flush=True)


def crash_turn(path: str, text: str) -> None:
    from gpu_advisor.assistant import session
    from gpu_advisor.assistant.history import HistoryStore

    conv = session.Conversation(HistoryStore(path))

    class BlockingEngine:
        def invoke(self, state, config=None):
            # The user's message must already be committed when the engine starts working.
            print(f"saved {conv.session_id}", flush=True)
            sys.stdin.readline()  # blocks until the test kills this process
            raise SystemExit(3)

    session._graph = lambda: BlockingEngine()
    conv.send(text)


def converse(path: str, session_id: str, *texts: str) -> None:
    from gpu_advisor.assistant.history import HistoryStore
    from gpu_advisor.assistant.session import Conversation

    store = HistoryStore(path)
    conv = Conversation(store) if session_id == "-" else Conversation.resume(store, session_id)
    replies = []
    for text in texts:
        reply = conv.send(text)
        replies.append({"content": reply.content, "additional_kwargs": reply.additional_kwargs})
    print(json.dumps({"session_id": conv.session_id, "replies": replies}))


def hold_transaction(path: str, n: str) -> None:
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(path)
    session_id = store.create_session("held")
    for i in range(int(n)):
        store.add_message(session_id, "user", f"kept {i}")
    with store._write():
        for i in range(200):
            store.db["messages"].insert({"id": f"uncommitted-{i}", "session_id": session_id, "seq": 1000 + i,
                                         "role": "user", "text": "never committed " * 100, "created": "x"})
        print(f"holding {session_id}", flush=True)
        sys.stdin.readline()  # blocks until the test kills this process


if __name__ == "__main__":
    mode, *rest = sys.argv[1:]
    {"writer": writer, "crash-turn": crash_turn, "converse": converse, "hold-transaction": hold_transaction}[mode](*rest)
