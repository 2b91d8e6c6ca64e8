"""A conversation with the advisor, saved turn by turn: the driver front-ends use.

The graph runs without a checkpointer; the conversation passes the whole state in each turn and
keeps it (and a readable transcript) in the history store. Resuming rebuilds that state from the
store, so a reopened session continues as if it had never been closed.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpu_advisor.assistant.history import HistoryStore, SessionGone

if TYPE_CHECKING:  # langchain_core loads with the first turn, not with the first screen
    from langchain_core.messages import AIMessage, AnyMessage

# The engine state a conversation carries from turn to turn: every key of assistant.engine.AdvisorState but
# the messages (kept here whole), the turn's own reading and the one-shot flag (tests check they match).
STATE_KEYS = ("profile", "defaulted", "asked", "pending", "results", "lang", "cards", "settings", "unknown_card",
              "deferred", "tool_turns", "quotes", "rent_quotes", "also", "owned_untyped", "family")
PER_TURN_KEYS = ("messages", "turn", "oneshot", "parts")
TITLE_CHARS = 60
ONESHOT_MARK = "oneshot"  # in a saved reply's payload: the turn was answered at once (`ask`), as replay must answer it
MAX_MESSAGE_CHARS = 8000  # longer messages are refused before the reader sees them


class MessageTooLong(ValueError):
    """A message over MAX_MESSAGE_CHARS: bad input, refused before it is saved or parsed."""


def check_message(text: str) -> str:
    if len(text) > MAX_MESSAGE_CHARS:
        raise MessageTooLong(f"a message can be at most {MAX_MESSAGE_CHARS:,} characters "
                             f"(this one has {len(text):,}); nothing was sent or saved")
    return text


def clean_state(saved: Any) -> dict[str, Any] | None:
    """The engine state of a saved session when every key has the shape the engine expects, else
    None (the caller rebuilds the state from the messages). Stored or imported state is data."""
    from pydantic import ValidationError

    from gpu_advisor.assistant.catalog import LANGS
    from gpu_advisor.assistant.engine import settings_ok
    from gpu_advisor.assistant.policy import Profile
    from gpu_advisor.assistant.slots import ASKED

    if not isinstance(saved, dict):
        return None
    state = {k: v for k, v in saved.items() if k in STATE_KEYS}
    try:
        Profile.model_validate(state.get("profile") or {})
    except ValidationError:
        return None
    shapes_ok = (
        isinstance(state.get("profile", {}), dict)
        and isinstance(state.get("defaulted", {}), dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in state.get("defaulted", {}).items())
        and isinstance(state.get("asked", []), list) and all(a in ASKED for a in state.get("asked", []))
        and (state.get("pending") is None or state.get("pending") in ASKED)
        and state.get("lang", "en") in LANGS
        and isinstance(state.get("results", {}), dict) and isinstance(state.get("cards", {}), dict)
        and settings_ok(state.get("settings")))
    return state if shapes_ok else None


def _graph():
    """What runs a turn: the whole state in and out, no tool-call messages; in process, without langgraph."""
    from gpu_advisor.assistant.driver import engine_driver

    return engine_driver


def title_for(text: str) -> str:
    words = " ".join(text.split())
    return words if len(words) <= TITLE_CHARS else words[: TITLE_CHARS - 1].rstrip() + "…"


class Conversation:
    def __init__(self, store: HistoryStore | None = None, session_id: str | None = None,
                 settings: dict[str, Any] | None = None):
        """`settings`: the user's defaults for the SETTABLE slots ({"region": "china"}), stated as theirs
        in the answers; a resumed session keeps the settings it was held under."""
        self.store = store
        self.session_id = session_id
        self.messages: list[AnyMessage] = []
        self.state: dict[str, Any] = {"settings": dict(settings)} if settings else {}
        self.tool_calls: list[dict[str, Any]] = []  # the calls of the latest turn
        # Reads the cards of the machine the user types on (tools.detect): set by local front-ends only
        self.machine: Callable[[], Any] | None = None
        self.state_checked = True  # False while the state is a saved one no turn has run on yet
        self.skipped_turns = 0  # user turns the last rebuilt state skipped (said in the next reply)
        self._lock = threading.Lock()  # a reply is committed, or its turn withdrawn, never both
        self._unanswered: str | bool | None = None  # the recorded user message awaiting its reply
        self._withdrawn = False
        self.gone: str | None = None  # the id of this conversation's session, once it was deleted elsewhere
        self.oneshot = False  # every turn answers at once, each missing value a stated assumption (`ask`)

    def _deleted_elsewhere(self) -> None:
        """The session was deleted while this conversation held it (its sessions screen, or another
        process): the deletion stands, so the conversation goes on unsaved; front-ends say so once."""
        self.gone, self.store, self.session_id = self.session_id, None, None

    @classmethod
    def resume(cls, store: HistoryStore, session_id: str) -> Conversation:
        resolved = store.resolve_id(session_id)
        store.claim(resolved)  # one writer per session: another process continuing it is told so
        conv = cls(store, resolved)
        saved = store.session(resolved)
        from langchain_core.messages import AIMessage, HumanMessage

        for m in store.messages(resolved):
            if m["role"] == "user":
                conv.messages.append(HumanMessage(m["text"]))
            else:
                conv.messages.append(AIMessage(m["text"], additional_kwargs=m["payload"]))
        state = clean_state(saved["state"])
        conv.state = state if state is not None else conv.rebuilt_state()
        conv.state_checked = False
        return conv

    def rebuilt_state(self) -> dict[str, Any]:
        """The state today's engine reaches from this conversation's user messages (deterministic), at most
        MAX_REPLAYED_TURNS of them (assistant/replay.py); the next reply says how many were skipped."""
        from gpu_advisor.assistant.engine import settings_ok
        from gpu_advisor.assistant.replay import bounded

        fresh = Conversation(settings=self.state.get("settings") if settings_ok(self.state.get("settings")) else None)
        todo, self.skipped_turns = bounded([str(m.content) for m in answered(self.messages) if m.type == "human"])
        for text in todo:
            # A stored message longer than a new one may be (an import allows more) is replayed as its first
            # MAX_MESSAGE_CHARS characters: the reader reads fewer than that of any message, so nothing it
            # would have read is lost, and an old long message never blocks the session it belongs to.
            fresh.respond(text[:MAX_MESSAGE_CHARS])
        return fresh.state

    def send(self, text: str) -> AIMessage:
        """One turn: the user's message is committed first, then the reply with its tool calls."""
        self.record_user(text)
        return self.respond(text)

    def record_user(self, text: str) -> None:
        """Commit the user's message (a front-end shows it once this returns)."""
        check_message(text)
        message_id: str | bool = True
        if self.store is not None:
            if self.session_id is None:
                self.session_id = self.store.create_session(title_for(text) or "New conversation")
            try:
                message_id = self.store.add_message(self.session_id, "user", text)
            except SessionGone:
                self._deleted_elsewhere()
        with self._lock:
            self._unanswered, self._withdrawn = message_id, False

    def withdraw(self) -> bool:
        """Take back the recorded user message of a turn that is still running (Esc): it is removed
        from the store (with its session, if that was the first message) and the reply, when it
        comes, is dropped. False when the reply was already committed: nothing is withdrawn."""
        with self._lock:
            if self._unanswered is None:
                return False
            if (self.store is not None and isinstance(self._unanswered, str) and self.session_id is not None
                    and self.store.withdraw_message(self._unanswered)):
                self.session_id = None
            self._unanswered, self._withdrawn = None, True
            return True

    def respond(self, text: str, keep: Callable[[], bool] | None = None) -> AIMessage:
        """Run the engine on a recorded message and commit the reply, unless `keep()` says the turn
        was cancelled meanwhile (then nothing changes)."""
        from langchain_core.messages import HumanMessage

        calls: list[dict[str, Any]] = []

        def record(tool: str, arguments: dict[str, Any], result: dict[str, Any], ms: float) -> None:
            calls.append({"tool": tool, "arguments": arguments, "result": result, "duration_ms": round(ms, 3)})

        from gpu_advisor.assistant.engine import window_of

        check_message(text)
        config = {"configurable": {"tool_recorder": record, **({"local_machine": self.machine} if self.machine else {})}}
        sent = HumanMessage(text)
        once = {"oneshot": True} if self.oneshot else {}
        seen = answered(self.messages)  # a message never answered (a killed turn) is no part of what follows
        try:  # the engine sees the last turns only (its window); the transcript stays whole here
            out = _graph().invoke({**self.state, **once, "messages": [*window_of(seen), sent]}, config)
        except Exception:
            if self.state_checked:
                raise
            # A saved state the engine cannot continue from (damaged or crafted): rebuild it from
            # the messages and run the turn again.
            calls.clear()
            self.state = self.rebuilt_state()
            out = _graph().invoke({**self.state, **once, "messages": [*window_of(seen), sent]}, config)
        self.state_checked = True
        reply: AIMessage = out["messages"][-1]
        if self.skipped_turns:  # the state was rebuilt from some of the turns only: said once
            from gpu_advisor.assistant.replay import noted

            reply, self.skipped_turns = noted(reply, self.skipped_turns, out.get("lang")), 0
        with self._lock:
            if self._withdrawn or (keep is not None and not keep()):
                self._withdrawn = False
                return reply
            restarted = "reset" in ((out.get("turn") or {}).get("intents") or [])
            self.messages = [*([] if restarted else self.messages), sent, reply]
            self.state = {k: out[k] for k in STATE_KEYS if k in out}
            self.tool_calls = calls
            if self.store is not None and self.session_id is not None:
                from gpu_advisor.assistant.writers import session_title

                title = session_title(self.state.get("profile") or {}, self.state.get("defaulted") or {},
                                      self.state.get("lang") or "en")
                # A one-shot turn (`ask`) is marked in what is saved, so that `sessions replay` answers it the same way.
                payload = {**reply.additional_kwargs, ONESHOT_MARK: True} if self.oneshot else reply.additional_kwargs
                try:
                    self.store.save_reply(self.session_id, str(reply.content), payload, self.state,
                                          calls, title=title)
                except SessionGone:
                    self._deleted_elsewhere()
            self._unanswered = None
        return reply


    def ask_again(self, slot: str) -> AIMessage:
        """Ask the question behind an assumption again; the next message answers it."""
        from gpu_advisor.assistant.catalog import say
        from gpu_advisor.assistant.engine import question_message
        from gpu_advisor.assistant.slots import ASKED

        if slot not in ASKED:
            raise ValueError(f"there is no question for '{slot}'")
        lang = self.state.get("lang") or "en"
        reply = question_message(slot, lang, say(lang, "reply.revisit") + " ")
        defaulted = dict(self.state.get("defaulted") or {})
        defaulted.pop(slot, None)
        self.state = {**self.state, "pending": slot, "defaulted": defaulted}
        self.messages.append(reply)
        if self.store is not None and self.session_id is not None:
            try:
                self.store.save_reply(self.session_id, str(reply.content), reply.additional_kwargs, self.state, [])
            except SessionGone:
                self._deleted_elsewhere()
        return reply


def answered(messages: list[AnyMessage]) -> list[AnyMessage]:
    """The messages without the user ones never answered (a turn killed after its message was saved): the live
    continuation and `sessions replay` both leave such a message out of what follows, so the two agree."""
    return [m for i, m in enumerate(messages)
            if m.type != "human" or (i + 1 < len(messages) and messages[i + 1].type == "ai")]


@dataclass
class ReplayDifference:
    turn: int
    user: str
    saved: str
    now: str
    unanswered: bool = False  # no reply was ever saved (the app was closed or killed mid-turn): no regression

    def unified(self) -> str:
        return "\n".join(difflib.unified_diff(self.saved.splitlines(), self.now.splitlines(),
                                              f"saved (turn {self.turn})", f"today (turn {self.turn})", lineterm=""))


_BULLET = re.compile(r"^\s*[-*] ")


def comparable(text: str) -> str:
    """A reply as replay compares it: each run of bullet lines in a stable (sorted) order, since the
    order in which assumptions were made (say, one re-asked from the panel) changes no figure."""
    out: list[str] = []
    run: list[str] = []
    for line in [*text.rstrip().splitlines(), ""]:
        if _BULLET.match(line):
            run.append(line.rstrip())
            continue
        out += sorted(run)
        run = []
        out.append(line.rstrip())
    return "\n".join(out).rstrip()


def _revisited_slot(message: dict[str, Any], previous: dict[str, Any] | None) -> str | None:
    """The slot of a question asked again from the assumptions panel (an assistant message that
    follows another assistant message, not a user one)."""
    data = (message.get("payload") or {}).get("gpu_advisor")
    if previous is None or previous["role"] != "assistant" or not isinstance(data, dict):
        return None
    slot = data.get("slot")
    return slot if data.get("kind") == "question" and isinstance(slot, str) else None


class Rerun(list):
    """The differences `rerun` found; `skipped`: the last user turns it did not re-run (assistant/replay.py
    bounds the work: MAX_RERUN_TURNS turns and MAX_REPLAYED_CHARS characters), `turns`: the user turns saved."""

    skipped = 0
    turns = 0


def rerun(store: HistoryStore, session_id: str) -> Rerun:
    """Send a saved session's user messages through today's engine, and ask again what was asked
    again from the panel; list the replies that differ in what they say (see `comparable`). At most
    replay.first_turns of them are re-run (a 1,500-turn import once ran for minutes); `.skipped` says how many not."""
    from gpu_advisor.assistant.engine import settings_ok
    from gpu_advisor.assistant.replay import first_turns
    from gpu_advisor.assistant.slots import ASKED

    saved = store.messages(session_id)
    users = [m["text"] for m in saved if m["role"] == "user"]
    todo = first_turns(users)
    state = store.session(session_id).get("state")
    held = state.get("settings") if isinstance(state, dict) else None
    fresh = Conversation(settings=held if isinstance(held, dict) and settings_ok(held) else None)  # as it was held
    differences = Rerun()
    differences.turns, differences.skipped = len(users), len(users) - todo
    turn = 0
    for i, m in enumerate(saved):
        if m["role"] != "user":
            slot = _revisited_slot(m, saved[i - 1] if i else None)
            if slot in ASKED:
                fresh.ask_again(slot)
            continue
        if turn == todo:
            break
        turn += 1
        if not (i + 1 < len(saved) and saved[i + 1]["role"] == "assistant"):
            # never answered (a killed turn): no part of what followed, here as when the conversation went on
            differences.append(ReplayDifference(turn, m["text"], "", "", unanswered=True))
            continue
        fresh.oneshot = (saved[i + 1].get("payload") or {}).get(ONESHOT_MARK) is True  # as `ask` did
        reply = fresh.send(m["text"][:MAX_MESSAGE_CHARS])  # (an import allows longer messages than a new one)
        if comparable(str(reply.content)) != comparable(saved[i + 1]["text"]):
            differences.append(ReplayDifference(turn, m["text"], saved[i + 1]["text"], str(reply.content)))
    return differences
