"""The LangGraph advisor: understand the message -> route (a pure function of state) -> one reply.

Every turn ends with exactly one AIMessage. Clarifying questions are ordinary AI messages that end
the turn (no interrupt), so any chat front-end that only sends user messages works. Structured data
for rich front-ends rides in `additional_kwargs["gpu_advisor"]`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages
from pydantic import ValidationError

from assistant import advice
from assistant.nlu import Understanding, understand
from assistant.policy import DEFAULTS, QUESTIONS, SLOT_LABELS, Profile, Question, fill_defaults, next_question
from knowledge import find_model
from tools.common import ToolError

INTRO = ("Hi! I help you choose GPUs to fine-tune and serve language models. Every number I give comes "
         "from a sizing tool, and \"show the math\" shows how.")
Route = Literal["ask", "answer", "explain", "reply"]


class AdvisorState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    profile: dict[str, Any]
    defaulted: dict[str, str]
    asked: list[str]
    pending: str | None
    results: dict[str, Any]
    turn: dict[str, Any]
    oneshot: bool


def _text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def _payload(kind: str, **extra: Any) -> dict[str, Any]:
    return {"gpu_advisor": {"kind": kind, **extra}}


def _question_payload(q: Question) -> dict[str, Any]:
    return {"slot": q.slot, "choices": [{"label": label, "value": value} for label, value in q.choices]}


def _choices_text(q: Question) -> str:
    return "  ".join(f"[{label}]" for label, _ in q.choices)


# ---------------------------------------------------------------- nodes


def understand_node(state: AdvisorState) -> dict[str, Any]:
    messages = state.get("messages", [])
    last = messages[-1] if messages else None
    text = _text(last) if isinstance(last, HumanMessage) else ""
    pending = state.get("pending")
    u = understand(text, pending)
    if "reset" in u.intents:
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *([last] if last else [])],
                "profile": {}, "defaulted": {}, "asked": [], "pending": None, "results": {},
                "turn": {"intents": ["reset"], "understood": [], "problems": [], "changed": []}}
    profile = Profile.model_validate(state.get("profile") or {})
    defaulted = dict(state.get("defaulted") or {})
    updates = _checked_updates(u)
    if _keeps_broader_phase(profile.phase, updates.get("phase"), text):
        updates.pop("phase")
    before = profile.model_dump()
    if updates:
        try:
            profile = Profile.model_validate({**profile.model_dump(), **updates})
        except ValidationError as e:
            u.problems.append("; ".join(err["msg"] for err in e.errors()))
    for slot in updates:
        defaulted.pop(slot, None)
    if "not_sure" in u.intents and pending and getattr(profile, pending) is None:
        value, words = DEFAULTS[pending]
        profile = profile.model_copy(update={pending: value})
        defaulted[pending] = words
        u.understood.append(f"I'll assume {words}")
    after = profile.model_dump()
    changed = [SLOT_LABELS.get(k, k) for k in after if after[k] != before[k]]
    return {
        "profile": after, "defaulted": defaulted,
        "turn": {"intents": sorted(u.intents), "understood": u.understood, "problems": u.problems,
                 "changed": changed, "compare": u.compare_gpus,
                 "whatif": list(u.whatif_gpus) if u.whatif_gpus else None,
                 "text_chars": len(text)},
    }


def _keeps_broader_phase(old: str | None, new: str | None, text: str) -> bool:
    """'qlora' or '20 users' said while planning to train and serve narrows nothing, unless the
    user says so ("only serving", "just fine-tune")."""
    return (old in ("train-and-serve", "production") and new in ("fine-tune", "serve")
            and not re.search(r"\b(only|just|no longer|instead|not (train|fine|serv))", text.lower()))


def _checked_updates(u: Understanding) -> dict[str, Any]:
    updates = dict(u.updates)
    if "model" in updates:
        try:
            find_model(updates["model"])
        except (LookupError, ValueError) as e:
            u.problems.append(str(e))
            updates.pop("model")
    return updates


def route(state: AdvisorState) -> Route:
    """Which reply this turn gets: a pure function of the state."""
    turn = state.get("turn") or {}
    intents = set(turn.get("intents", []))
    has_answer = bool(state.get("results"))
    if "reset" in intents or "empty" in intents or turn.get("problems"):
        return "reply"
    if "math" in intents and has_answer and not turn.get("changed") and not (turn.get("compare") or turn.get("whatif")):
        return "explain"
    if "rent_buy" in intents and has_answer and not turn.get("changed"):
        return "explain"
    not_sure_counts = "not_sure" in intents and (bool(state.get("pending")) or not has_answer)
    acted = turn.get("changed") or turn.get("compare") or turn.get("whatif") or not_sure_counts
    if not acted:
        return "reply"
    if has_answer or state.get("oneshot"):
        return "answer"
    profile = Profile.model_validate(state.get("profile") or {})
    if next_question(profile, state.get("defaulted") or {}, state.get("asked") or []) is None:
        return "answer"
    return "ask"


def ask_node(state: AdvisorState) -> dict[str, Any]:
    profile = Profile.model_validate(state.get("profile") or {})
    asked = list(state.get("asked") or [])
    q = next_question(profile, state.get("defaulted") or {}, asked)
    assert q is not None  # route() only comes here when there is a question
    turn = state.get("turn") or {}
    preface = _acknowledge(turn)
    text = f"{preface}{q.text}\n\n{_choices_text(q)}"
    message = AIMessage(content=text, additional_kwargs=_payload("question", **_question_payload(q)))
    return {"messages": [message], "asked": [*asked, q.slot], "pending": q.slot}


def question_message(slot: str, preface: str = "") -> AIMessage:
    """The question for one slot as a reply message (used to ask an assumption again)."""
    q = QUESTIONS[slot]
    return AIMessage(content=f"{preface}{q.text}\n\n{_choices_text(q)}",
                     additional_kwargs=_payload("question", **_question_payload(q)))


def _acknowledge(turn: dict[str, Any]) -> str:
    understood = turn.get("understood") or []
    if "truncated" in (turn.get("intents") or []):
        understood = [*understood, "(I read the first 4,000 characters of that)"]
    if not understood:
        return ""
    said = "; ".join(understood)
    return f"Got it: {said}. " if not said.startswith("I'll") else f"{said[0].upper()}{said[1:]}. "


def _recorder(config: RunnableConfig | None):
    return ((config or {}).get("configurable") or {}).get("tool_recorder")


def answer_node(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    profile = Profile.model_validate(state.get("profile") or {})
    filled, defaulted = fill_defaults(profile, state.get("defaulted") or {})
    turn = state.get("turn") or {}
    previous = state.get("results") or {}
    whatif = tuple(turn["whatif"]) if turn.get("whatif") else None
    try:
        results = advice.compute(filled, previous, turn.get("compare") or [], whatif,  # type: ignore[arg-type]
                                 recorder=_recorder(config))
    except (ToolError, LookupError, ValueError) as e:
        text = f"I couldn't size that: {e}. Could you change it (another model, format or GPU)?"
        return {"messages": [AIMessage(content=text, additional_kwargs=_payload("error", problem=str(e)))],
                "pending": None}
    changed = turn.get("changed") if previous else []
    text = advice.write_answer(results, filled, defaulted, changed or [])
    message = AIMessage(content=text, additional_kwargs=_payload(
        "answer", results=results, profile=filled.model_dump(mode="json"), assumptions=defaulted))
    return {"messages": [message], "results": results, "pending": None, "profile": filled.model_dump(),
            "defaulted": defaulted}


def explain_node(state: AdvisorState, config: RunnableConfig) -> dict[str, Any]:
    """Follow-ups about an answer: "show the math" / "why?", and "rent or buy?"."""
    intents = set((state.get("turn") or {}).get("intents", []))
    if "rent_buy" in intents and "math" not in intents:
        text, payload = advice.write_rent_or_buy(state.get("results") or {})
        topic = "rent_or_buy"
    else:
        text, payload = advice.write_math(state.get("results") or {}, recorder=_recorder(config))
        topic = "math"
    return {"messages": [AIMessage(content=text, additional_kwargs=_payload("info", topic=topic, results=payload))]}


def reply_node(state: AdvisorState) -> dict[str, Any]:
    """Replies that size nothing: greetings, empty or unclear messages, bad values, off-topic requests."""
    turn = state.get("turn") or {}
    intents = set(turn.get("intents", []))
    pending = state.get("pending")
    has_answer = bool(state.get("results"))
    parts: list[str] = []
    kind = "info"
    if "reset" in intents:
        parts.append("Starting over. " + INTRO)
    elif "empty" in intents:
        parts.append("I didn't catch anything there.")
    elif turn.get("problems"):
        kind = "error"
        parts.append("I can't use that: " + "; ".join(turn["problems"]) + ".")
    elif "injection" in intents:
        parts.append("I only size GPUs for language models, and my instructions stay as they are. "
                     "Tell me about your model and workload and I'll work out the hardware.")
    elif "math" in intents or "rent_buy" in intents:
        parts.append("I'll show the math once there is an answer to explain.")
    elif "greet" in intents:
        parts.append(INTRO)
    elif "thanks" in intents:
        parts.append("You're welcome!")
    elif "not_sure" in intents and has_answer:
        parts.append("That's fine: the answer above already takes a stated default for anything you're not sure of.")
    elif "help" in intents:
        parts.append(INTRO + " Tell me what you plan (fine-tune, serve, or both), which model or how big, "
                     "how many people use it at once, and how busy the GPUs will be.")
    else:
        understood = turn.get("understood") or []
        if understood:
            parts.append(f"I understood {', '.join(understood)}, but nothing that changes the answer.")
        else:
            parts.append("Sorry, I didn't understand that.")
        if turn.get("text_chars", 0) > 4000:
            parts.append("(I read the first 4,000 characters.)")
    question = None
    if pending:
        question = QUESTIONS[pending]
    elif not has_answer and "reset" not in intents:
        profile = Profile.model_validate(state.get("profile") or {})
        question = next_question(profile, state.get("defaulted") or {}, state.get("asked") or [])
    elif "reset" in intents:
        question = QUESTIONS["phase"]
    if question:
        parts.append(f"{question.text}\n\n{_choices_text(question)}")
        extra = _question_payload(question)
        update: dict[str, Any] = {"pending": question.slot}
        if question.slot not in (state.get("asked") or []):
            update["asked"] = [*(state.get("asked") or []), question.slot]
    else:
        if has_answer:
            parts.append('You can change any assumption ("make it 32k context"), ask "what about int4?", '
                         '"compare L40S and A100", "rent or buy?", or "show the math".')
        extra, update = {}, {}
    message = AIMessage(content=" ".join(parts[:1]) + ("\n\n" + "\n\n".join(parts[1:]) if len(parts) > 1 else ""),
                        additional_kwargs=_payload(kind, **extra))
    return {"messages": [message], **update}


def build_graph() -> StateGraph:
    """The uncompiled graph: compile it with the checkpointer your front-end uses."""
    g = StateGraph(AdvisorState)
    g.add_node("understand", understand_node)
    g.add_node("ask", ask_node)
    g.add_node("answer", answer_node)
    g.add_node("explain", explain_node)
    g.add_node("reply", reply_node)
    g.add_edge(START, "understand")
    g.add_conditional_edges("understand", route, {"ask": "ask", "answer": "answer", "explain": "explain",
                                                  "reply": "reply"})
    for node in ("ask", "answer", "explain", "reply"):
        g.add_edge(node, END)
    return g


graph = build_graph().compile()
