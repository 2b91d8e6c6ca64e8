"""The context a serving plan sizes follows the use said ("a coding assistant", "RAG over our contracts", "客服机器人",
"长文档总结"): the row of knowledge/data/use_cases.yaml when no context is said, with the reason among the
assumptions in either language; a context said always wins, before or after the use; a request rate takes the
use's prompt and output; fine-tuning is untouched (its sequence length is its own)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.slots import SLOTS
from gpu_advisor.knowledge.use_cases import use_cases
from tests.conversation import payload, run_conversation, run_states

# How people name each use, in both languages (any article, filler or position: the templates move them).
USES: dict[str, dict[str, list[str]]] = {
    "chat": {"en": ["an internal chatbot", "a chat assistant for the team"], "zh": ["聊天机器人", "内部智能助手"]},
    "support": {"en": ["a customer-support chatbot", "a help desk bot"], "zh": ["客服机器人", "售后客服"]},
    "coding": {"en": ["a coding assistant for our developers", "a code assistant in the IDE"],
               "zh": ["代码助手", "编程助手"]},
    "completion": {"en": ["code completion in the IDE", "autocomplete for our programmers"],
                   "zh": ["代码补全", "IDE里的自动补全"]},
    "rag": {"en": ["RAG over our contracts", "question answering over our internal documents"],
            "zh": ["知识库问答", "基于公司文档的问答"]},
    "summarise": {"en": ["summarising long reports", "a tool to summarize meeting transcripts"],
                  "zh": ["长文档总结", "会议纪要摘要"]},
    "translate": {"en": ["a translation service", "translating product manuals"], "zh": ["翻译", "文档翻译服务"]},
    "agent": {"en": ["agents with tool calling", "an agentic workflow"], "zh": ["智能体", "带工具调用的助手"]},
    "classify": {"en": ["classifying support tickets", "extracting fields from emails"], "zh": ["工单分类", "信息抽取"]},
}
TEMPLATES = {
    "en": ["{use} with llama-3.1-70b for 20 users at once, working hours",
           "we want to serve llama 3.1 70b as {use}, 20 people at once, busy in working hours",
           "20 users at the same time, working hours, model llama-3.1-70b, it's basically {use}"],
    "zh": ["{use}，用llama-3.1-70b，20人同时用，工作时间",
           "我们用llama-3.1-70b部署一个{use}，20人同时用，工作时间",
           "20人同时在用，工作时间，模型llama-3.1-70b，主要做{use}"],
}
READ = [(use, lang, phrase, template) for use, by_lang in USES.items() for lang, phrases in by_lang.items()
        for phrase in phrases for template in TEMPLATES[lang]]


def test_the_table_has_every_use_with_a_source_and_chat_at_the_slot_default():
    table = use_cases()
    assert set(USES) <= set(table)
    assert table["chat"].context == SLOTS["context"].default  # the general default is the chat row's
    assert table["coding"].context >= 16384 and table["rag"].context >= 16384
    assert table["support"].context <= 4096 < table["summarise"].context
    for row in table.values():
        assert len(row.source) > 40 and row.context >= row.prompt_tokens + row.output_tokens
        for lang in ("en", "zh"):
            assert say(lang, f"use_case.{row.id}")


@pytest.mark.parametrize(("use", "lang", "phrase", "template"), READ)
def test_the_use_is_read_in_any_position_and_either_language(use, lang, phrase, template):
    u = understand(template.format(use=phrase))
    assert u.lang == lang
    assert u.updates.get("use_case") == use
    assert u.updates.get("context") is None


@pytest.mark.parametrize("text", ["serve qwen2.5-coder-32b to 20 users", "部署 deepseek-coder-33b 给20个人用",
                                  "serve llama 3.1 70b for 20 users, not for coding", "serve llama 3.1 8b for 5 users"])
def test_a_model_name_or_a_negated_use_is_no_use(text):
    assert understand(text).updates.get("use_case") is None


PLANS = [(use, lang, USES[use][lang][n % 2], TEMPLATES[lang][n % 3]) for n, use in enumerate(USES)
         for lang in ("en", "zh")]


def _answer(turns: list[str]) -> tuple[str, dict]:
    reply = run_conversation(turns)[-1]
    data = payload(reply)
    assert data["kind"] == "answer", reply.content
    return reply.content, data["results"]["recommend"]["workload"]


@pytest.mark.parametrize(("use", "lang", "phrase", "template"), PLANS)
def test_the_plan_sizes_the_uses_context_and_says_why(use, lang, phrase, template):
    text, workload = _answer([template.format(use=phrase)])
    context = use_cases()[use].context
    assert workload["context"] == context
    assert workload["use_case"] == use
    assert say(lang, "slot.context.default_use_case", tokens=f"{context:,}", use=say(lang, f"use_case.{use}")) in text


STATED = [("coding", "en", "a coding assistant for 20 devs with llama-3.1-70b, 4k context, working hours", 4096),
          ("coding", "en", "4k context, llama-3.1-70b for 20 devs, working hours; it's a coding assistant", 4096),
          ("support", "en", "32k context per chat, llama 3.1 70b, 20 users at once, working hours, customer support bot",
           32768),
          ("support", "en", "customer support bot on llama 3.1 70b, 20 users at once, working hours, 32k context", 32768),
          ("rag", "zh", "知识库问答，llama-3.1-70b，20人同时用，上下文8k，工作时间", 8192),
          ("rag", "zh", "上下文8k，llama-3.1-70b，20人同时用，工作时间，做知识库问答", 8192),
          ("summarise", "zh", "长文档总结，llama-3.1-70b，上下文 64k，20人同时用，工作时间", 65536),
          ("summarise", "zh", "上下文64k，20人同时用，工作时间，llama-3.1-70b 做长文档总结", 65536)]


@pytest.mark.parametrize(("use", "lang", "text", "context"), STATED)
def test_a_stated_context_wins_before_or_after_the_use(use, lang, text, context):
    reply, workload = _answer([text])
    assert workload["context"] == context and workload["use_case"] == use
    assert say(lang, f"use_case.{use}") not in reply


@pytest.mark.parametrize(("turns", "contexts"), [
    (["serve llama 3.1 70b for 20 users, working hours", "it's a coding assistant", "make it 8k context",
      "actually it's for RAG over our docs"], [8192, 16384, 8192, 8192]),
    (["部署llama-3.1-70b，20人同时用，工作时间", "其实是做知识库问答的", "主要是长文档总结"], [8192, 16384, 32768]),
])
def test_a_use_said_later_resizes_an_assumed_context_never_a_stated_one(turns, contexts):
    states = run_states(turns)
    assert [s["results"]["recommend"]["workload"]["context"] for s in states] == contexts


@pytest.mark.parametrize(("text", "use", "lang"), [
    ("RAG over our contracts with llama-3.1-70b at 5 requests per second", "rag", "en"),
    ("5 QPS peak, llama 3.1 70b, a coding assistant", "coding", "en"),
    ("知识库问答，llama-3.1-70b，峰值QPS 5", "rag", "zh"),
    ("峰值 5 QPS 的客服机器人，llama-3.1-70b", "support", "zh"),
])
def test_a_request_rate_takes_the_uses_prompt_and_output(text, use, lang):
    reply, workload = _answer([text])
    row = use_cases()[use]
    assert (workload["prompt_tokens"], workload["output_tokens"]) == (row.prompt_tokens, row.output_tokens)
    assert say(lang, "answer.rate_prompt_use_case", prompt=f"{row.prompt_tokens:,}",
               use=say(lang, f"use_case.{use}")) in reply


def test_a_stated_rate_length_wins_over_the_use():
    _reply, workload = _answer(["RAG over our docs, llama-3.1-70b, 5 requests per second, 2000-token prompts"])
    assert workload["prompt_tokens"] == 2000 and workload["output_tokens"] == use_cases()["rag"].output_tokens


@pytest.mark.parametrize(("plain", "with_use"), [
    ("fine-tune llama 3.1 8b with qlora on 20k examples of 1k tokens",
     "fine-tune llama 3.1 8b with qlora on 20k examples of 1k tokens for a coding assistant"),
    ("用qlora微调qwen2.5-7b，2万条数据，每条1k token", "用qlora微调qwen2.5-7b做知识库问答，2万条数据，每条1k token"),
])
def test_fine_tuning_is_unchanged_by_the_use(plain, with_use):
    a, b = (payload(run_conversation([t])[-1]) for t in (plain, with_use))
    wa, wb = (d.get("results", {}).get("recommend", {}).get("workload", {}) for d in (a, b))
    assert wa.get("seq_len") == wb.get("seq_len") and wa.get("method") == wb.get("method")
    assert (a.get("results", {}).get("recommend", {}).get("best") or {}).get("gpu") == \
        (b.get("results", {}).get("recommend", {}).get("best") or {}).get("gpu")


def test_a_prompt_length_said_sizes_the_context_instead_of_the_use():
    states = run_states(["summarise 200k documents of 3k tokens each into 300-token summaries with qwen2.5 14b, "
                         "40 people will use the results", "it's interactive, not offline"])
    assert states[-1]["results"]["recommend"]["workload"]["context"] == 8192
    _reply, workload = _answer(["a coding assistant on llama-3.1-70b, 20 devs at once, 2k-token prompts, working hours"])
    assert workload["context"] == 8192 and workload["prompt_tokens"] == 2000
