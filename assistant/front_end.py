"""What a LangGraph front-end may set for a run besides its messages: the runtime context.

LangGraph Server and `graph.invoke(..., context=...)` pass a run's settings as its runtime context
(`context_schema=AdvisorContext`), apart from the input, which stays the messages:

- `settings`: the user's defaults for the settable slots (`{"region": "china", "currency": "CNY"}`), stated
  as theirs in the answers (what the input's `settings` did, which still works);
- `oneshot`: answer at once, every missing value a stated assumption;
- `interrupts`: ask each clarifying question as a LangGraph interrupt whose value carries the question and
  its quick-reply choices (agent-chat-ui's HumanInterrupt shape); the run resumes with the answer
  (`Command(resume=...)`: the words, a choice, or agent-chat-ui's response) and goes on with it as the user's
  next message. Off by default: a question is then a plain AI message that ends the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from typing_extensions import TypedDict


class AdvisorContext(TypedDict, total=False):
    """A run's runtime context (LangGraph's context_schema): see the module's docstring."""

    settings: dict[str, Any]
    oneshot: bool
    interrupts: bool


def run_context() -> dict[str, Any]:
    """The current run's runtime context as a dict (empty outside a run or without one)."""
    from langgraph.runtime import get_runtime

    try:
        context = get_runtime().context
    except (RuntimeError, KeyError, AttributeError):
        return {}
    if isinstance(context, dict):
        return context
    return dict(vars(context)) if context is not None and hasattr(context, "__dict__") else {}


def from_context(context: dict[str, Any]) -> dict[str, Any]:
    """The state values a runtime context sets: `settings` (checked by the node as the input's are) and
    `oneshot` (only a real boolean)."""
    out: dict[str, Any] = {}
    if "settings" in context:
        out["settings"] = context["settings"]
    if isinstance(context.get("oneshot"), bool):
        out["oneshot"] = context["oneshot"]
    return out


def with_context(node: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """The first node, reading the run's context into the state before it reads the message."""

    def run(state: dict[str, Any]) -> dict[str, Any]:
        given = from_context(run_context())
        if not given:
            return node(state)
        return {**given, **node({**state, **given})}  # the node's own check of the settings has the last word

    run.__name__ = node.__name__
    return run


def interrupt_value(message: AIMessage) -> dict[str, Any]:
    """What an interrupt shows for a clarifying question: agent-chat-ui's HumanInterrupt (the question as the
    description, a text answer allowed) with the slot and the quick-reply choices."""
    payload = message.additional_kwargs.get("gpu_advisor") or {}
    choices = payload.get("choices") or []
    return {
        "action_request": {"action": payload.get("slot") or "question", "args": {"choices": choices}},
        "config": {"allow_ignore": False, "allow_respond": True, "allow_edit": False, "allow_accept": False},
        "description": str(message.content),
        "gpu_advisor": {"kind": "question", "slot": payload.get("slot"), "choices": choices},
    }


def answer_text(value: Any) -> str:
    """The user's answer in a resume value: the words, a choice ({"value"} or {"label"}), or agent-chat-ui's
    response ([{"type": "response", "args": "..."}])."""
    if isinstance(value, list | tuple) and value:
        return answer_text(value[0])
    if isinstance(value, dict):
        for key in ("args", "value", "label", "content", "text"):
            if key in value:
                return answer_text(value[key])
        return ""
    return value if isinstance(value, str) else "" if value is None else str(value)


def _is_question(message: Any) -> bool:
    return isinstance(message, AIMessage) and (message.additional_kwargs.get("gpu_advisor") or {}).get("kind") == "question"


def asking_by_interrupt(node: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """A reply node that, when the run's context asks for interrupts, asks its clarifying question as one and
    adds the answer as the user's next message (the graph then reads it: see `after_reply`)."""

    import inspect

    takes_config = len(inspect.signature(node).parameters) > 1

    def run(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        update = node(state, config) if takes_config else node(state)
        messages = update.get("messages") or []
        if not (messages and _is_question(messages[-1]) and run_context().get("interrupts") is True):
            return update
        from langgraph.types import interrupt

        answer = answer_text(interrupt(interrupt_value(messages[-1])))
        return {**update, "messages": [*messages, HumanMessage(answer)]}

    run.__name__ = node.__name__
    return run


def after_reply(state: dict[str, Any]) -> str:
    """After a reply node: read the answer an interrupt gave, else end the turn."""
    messages: list[AnyMessage] = state.get("messages") or []
    return "understand" if messages and isinstance(messages[-1], HumanMessage) else "end"
