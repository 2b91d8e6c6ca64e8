"""Compound follow-ups after a plan (assistant/reading/compound.py finds them): "how many gpu hours is that and
why not deepspeed" gets one reply per question, in the order asked, each the reply that question gets alone
(from the plan's tool results), joined into one message. A piece that changes the plan ("and B200?") re-plans,
and the pieces after it are answered about the new plan."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, HumanMessage

from gpu_advisor.assistant.catalog import detect, say
from gpu_advisor.assistant.reading import readable, understand
from gpu_advisor.assistant.reading.compound import QUESTION_CODES, asks, pieces

if TYPE_CHECKING:  # a type only: langchain_core.runnables loads its tracers and langsmith
    from langchain_core.runnables import RunnableConfig

# Intents of a piece that carries nothing of its own ('ok', 'hmm'): it goes with the piece after it.
FILLER = {"greet", "thanks", "empty", "not_sure"}
# The most pieces of one message read and answered one by one; the pieces after them are not read, and the reply
# says so (parts.unread). Each piece read costs one understand() call, so a crafted message of 1,000 comma-joined
# pieces costs at most MAX_PIECES + 1 calls.
MAX_PIECES = 12
# The longest filler carried into the next piece ('ok so', 'hmm, thanks'); a longer run of pieces that say
# nothing of their own is not a compound question, and the message is read whole.
MAX_CARRY = 80


def _text(state: Any) -> str:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    return last.content if isinstance(last, HumanMessage) and isinstance(last.content, str) else ""


# Questions the re-sized plan itself answers ("are 4 3090s enough?", "跑3个epoch要多久" after "数据3000条，每条500字"):
# no part of their own, so the data said in the other pieces is read together (3000 examples of 500 characters).
PLAN_ANSWERS = frozenset({"own_enough", "fit_check", "how_long"})


def questions(state: Any) -> list[str] | None:
    """The pieces of a compound follow-up to a plan, each a question or a change read alone, at least one a
    question; None for any other message."""
    if not state.get("results") or state.get("pending"):
        return None
    text = _text(state)
    cut = pieces(text)[:MAX_PIECES]
    if len(cut) < 2:
        return None
    whole = understand(text, None)
    if whole.ask.get("memory_doubt") or whole.ask.get("model_switched"):
        return None  # "为啥不能，7B 不是才 14G 吗": one why, asked twice; "go with 72b, 14b is not good enough": one switch
    if whole.prices or whole.quotes:
        return None  # "租每卡每小时7块5，买一台8卡H20一百二十万，租还是买？": the prices go with the question they price
    out: list[str] = []
    carry = ""
    last: tuple[frozenset[str], str | None] | None = None  # what the last asking piece asked
    asked = 0  # pieces that ask; the others change the plan first ('make it 32k context and how many gpu hours')
    changed = False  # a piece that changes the plan
    asks_only: set[str] = set()  # what the asking pieces ask
    last_asked = False  # the last piece kept asks (else it changes the plan)
    for piece in cut:
        piece = f"{carry} {piece}".strip() if carry else piece
        u = understand(piece, None)
        if not u.updates and not u.topic and not u.compare_gpus and u.intents <= FILLER:
            if len(piece) > MAX_CARRY:
                return None  # "2x t4, 2x t4, …": no run of fillers this long is one question; read whole
            carry = piece
            continue
        if asks(piece, u):
            key = (frozenset(u.intents & QUESTION_CODES), u.topic)
            if out and key == last:  # "how did you get the training time, whats the formula": one question, said twice
                out[-1] = f"{out[-1]}, {piece}"
                continue
            asked, last = asked + 1, key
            asks_only |= set(u.intents & QUESTION_CODES) | ({u.topic} if u.topic else set())
            changed = changed or (not key[0] and not u.topic)  # "那跑 12B 的呢": another model asked is a change too
        elif not u.updates or u.compare_gpus or u.whatif_gpus:
            return None  # neither a question nor a change of its own ('a100' in 'compare l40s and a100')
        else:
            if changed and out and not last_asked:
                # "输入一般 1500 token 左右，输出 300 以内": changes said one after another are one change, the plan
                # re-sized once with all of them (never a part sized without the second)
                out[-1] = f"{out[-1]} {piece}"
                carry = ""
                continue
            changed = True
        last_asked = asks(piece, u)
        out.append(piece)
        carry = ""
    if asked and changed and asks_only <= PLAN_ANSWERS:
        return None  # "what about full fine-tuning? are 4 3090s enough?": the new plan is the answer to both
    return out if len(out) >= 2 and asked and not carry else None


def unread(text: str) -> list[str]:
    """The pieces of a compound follow-up past the first MAX_PIECES: not read, said in the reply."""
    return pieces(text)[MAX_PIECES:]


def understood(state: Any, found: list[str]) -> dict[str, Any]:
    lang = detect(readable(_text(state)), state.get("lang"))
    return {"parts": found, "lang": lang, "turn": {"intents": ["parts"]}}


def _short(piece: str, most: int = 40) -> str:
    return piece if len(piece) <= most else piece[:most].rstrip() + "…"


def said_again(before: str, body: str) -> str:
    """`before` without the ending the next part's `body` ends with too, from one of body's paragraphs on (the
    job question asked again after a concept, the invitation to describe a job): said once, in the later part."""
    cut = body.find("\n\n")
    while cut >= 0:
        tail = body[cut + 2:]
        kept = before[: -len(tail)].rstrip() if tail and before.endswith(tail) else ""
        if kept and before[-len(tail) - 1].isspace() and "\n\n" in kept:
            return kept
        cut = body.find("\n\n", cut + 2)
    return before


def answer_parts(state: Any, config: RunnableConfig, nodes: dict[str, Any], read: Any, route: Any) -> dict[str, Any]:
    """Each piece through the engine as its own turn (read, route, reply), the state carried from one to the next;
    the replies joined in order under the piece each answers."""
    lang = state.get("lang") or "en"
    found = list(state.get("parts") or [])
    sub: dict[str, Any] = {**state, "parts": None}
    update: dict[str, Any] = {}
    texts: list[str] = []
    shown: list[dict[str, Any]] = []
    last_answer: dict[str, Any] | None = None
    tail = say(lang, "reply.followups")
    for n, piece in enumerate(found, start=1):
        sub["messages"] = [*(state.get("messages") or [])[:-1], HumanMessage(piece)]
        read_update = read(sub)
        sub.update({**read_update, "lang": lang})
        node = route(sub)
        out = nodes[node](sub, config)
        message = out["messages"][-1]
        rest = {k: v for k, v in out.items() if k != "messages"}
        sub.update(rest)
        update.update({k: v for k, v in read_update.items() if k not in ("messages", "turn")}, **rest)
        body = str(message.content).strip()
        if body.endswith(tail):
            body = body[: -len(tail)].strip()
        if texts:  # the question still open, asked again after the next part: asked once, at the end
            texts[-1] = said_again(texts[-1], body)
        texts.append(say(lang, "parts.heading", n=n, piece=piece) + "\n\n" + body)
        p = dict(message.additional_kwargs.get("gpu_advisor") or {})
        shown.append({"piece": piece, "kind": p.get("kind"), "topic": p.get("topic"), "results": p.get("results")})
        if p.get("kind") == "answer":
            last_answer = p
    left = unread(_text(state))
    if left:  # "…, and a 13th question": the pieces past MAX_PIECES, counted and quoted from the first
        texts.append(say(lang, "parts.unread", n=MAX_PIECES, rest=len(left), first=_short(left[0])))
    if sub.get("results"):  # what can be asked of a plan: only when one was made
        texts.append(tail)
    asked = {k: p[k] for k in ("slot", "choices") if k in p} if found and sub.get("pending") else {}
    base = last_answer or {"kind": "question" if asked else "info", "topic": "parts"}
    payload = {**base, **asked, "parts": shown,
               **({"unread": len(left)} if left else {})}
    update["turn"] = sub.get("turn")
    return {**update, "lang": lang, "parts": None,
            "messages": [AIMessage(content="\n\n".join(texts), additional_kwargs={"gpu_advisor": payload})]}
