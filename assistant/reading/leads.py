"""Which question leads when a message both names a workload and asks something: a choice between serving
engines for a model with no workload figure ("difference between sglang and vllm for serving deepseek v3?
which for small team") is answered first, the model kept for a sizing offered after it; with a figure of the
workload (users, context, cards owned) the sizing leads and the engine question follows it (intents._also)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# Values a question names as its subject without describing a workload to size.
SUBJECT_SLOTS = {"model", "phase", "precision", "engine", "engine_app", "region", "preference"}
# The cards the engines are weighed on ('on 8xH200', '8卡H200'): named, no load to size on them.
CARD_SLOTS = {"only", "owned"}
# Roles of quantities that are part of a model's name or size, not of a workload.
NAME_ROLES = {"model", "model_total", "model_active", ""}


def engine_question_leads(m: Message, u: Understanding) -> None:
    if u.also != "engine_choice" or len(u.engines) < 2:
        return
    if set(u.updates) - SUBJECT_SLOTS - CARD_SLOTS or any(q.role not in NAME_ROLES for q in m.qty):
        return  # (the cards it runs on are its subject too: 'for deepseek v3 on 8xH200, which engine', review AF E5)
    u.intents.add("engine_choice")  # answered now; kept in `also` too, so the plan that follows says it again for its card
    u.updates.pop("engine", None)  # the engines are weighed, none chosen yet


def engine_asks(m: Message, u: Understanding) -> None:
    """The engine question's lead, then the card family it is asked on ('昇腾上用啥推理框架')."""
    from gpu_advisor.assistant.reading.engine_family import read_engine_family

    engine_question_leads(m, u)
    read_engine_family(m, u)
    if ("engine_choice" in u.intents or u.also == "engine_choice") and word_pattern("shared_prefix_said").search(m.raw.lower()):
        u.ask["shared_prefix"] = True  # 'vllm or sglang for a chatbot with a long shared system prompt': prefix caching weighs
