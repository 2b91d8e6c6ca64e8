"""Numbers the user stated are used, never replaced by defaults (review T: T3-05, T3-06, T3-11, T3-14, T3-18, T2-16,
T1-19, T1-20): each item's length said after a few words or as a range, a prompt shared by every item, an output
length that raises the context, a bare size in a methods question, an own model said by its architecture, a batch
job with a fit question, a thinking-mode switch, and 'cheapest' with a deadline. Generated over templates, number
spellings, units, orders and both languages; each case asserts the slots read and the decision."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

# --- 1. each item's length, said after words about it, in the first turn or a follow-up -------------------------

COUNTS = [("10k", "1万", 10_000), ("20,000", "2万", 20_000)]
LENGTHS = [3000, 800]
EN_EACH = [
    "fine-tune qwen2.5 14b on {n} cot samples, each one is pretty long, around {L} tokens",
    "fine-tune qwen2.5 14b on {n} samples, {L} tokens each",
    "{n} samples to fine-tune qwen2.5 14b on, each is quite long: about {L} tokens",
]
ZH_EACH = [
    "想微调一下Qwen2.5-14B，数据大概{n}条cot数据，每条比较长，{L} token左右",
    "微调Qwen2.5-14B，{n}条数据，每条也就{L} token",
    "Qwen2.5-14B 微调，数据{n}条，每条都挺长的，{L} token左右",
]


@pytest.mark.parametrize(("template", "count", "length"), [
    *[(t, (c[0], c[2]), L) for t, c, L in itertools.product(EN_EACH, COUNTS, LENGTHS)],
    *[(t, (c[1], c[2]), L) for t, c, L in itertools.product(ZH_EACH, COUNTS, LENGTHS)],
])
def test_each_items_length_after_words_about_it(template: str, count: tuple[str, int], length: int) -> None:
    u = understand(template.format(n=count[0], L=length))
    assert u.updates["train_tokens"] == count[1] * length
    assert u.updates["seq_len"] == length
    assert not [n for n in u.notes if n[0] == "note.example_tokens"]  # no typical length assumed


@pytest.mark.parametrize(("follow", "examples", "tokens"), [
    ("大概3000条吧，每条也就两三百字", 3000, 3000 * 178),
    ("大概3000条，每条200到300个字", 3000, 3000 * 179),
    ("about 3000 chats, each 200-300 words", 3000, 3000 * 333),
    ("roughly 3k chats, each one pretty short, 250 tokens", 3000, 3000 * 250),
])
def test_items_and_length_said_after_a_fine_tuning_plan(follow: str, examples: int, tokens: int) -> None:
    first = "我就一张4060Ti 16G，能不能QLoRA一下Qwen2.5-14B啊，数据就几千条自己的聊天记录，想做个像我说话风格的bot"
    profile = run_states([first, follow])[-1]["profile"]
    assert profile["train_examples"] == examples
    assert abs(profile["train_tokens"] - tokens) <= examples  # one token an item of rounding


# --- ranges: one length, the middle for an item's, the top for a training sequence, output, prompt ---------------

@pytest.mark.parametrize(("text", "each", "top"), [
    ("fine-tune llama 3.1 8b on 20k samples of 1-2k tokens", 1500, 2000),
    ("fine-tune llama 3.1 8b on 20k samples of 1k-2k tokens", 1500, 2000),
    ("fine-tune llama 3.1 8b on 20k samples, each 1000 to 2000 tokens", 1500, 2000),
    ("fine-tune llama 3.1 8b on 20k samples, each 200-300 words", 333, 400),
    ("微调llama 3.1 8b，2万条数据，每条1000到2000 token", 1500, 2000),
    ("微调llama 3.1 8b，2万条数据，每条1000-2000 token", 1500, 2000),
    ("微调llama 3.1 8b，2万条数据，每条200到300个字", 179, 214),
])
def test_a_length_said_as_a_range(text: str, each: int, top: int) -> None:
    u = understand(text)
    assert u.updates["train_tokens"] == 20_000 * each
    assert u.updates["seq_len"] == top
    assert [n for n in u.notes if n[0] == "note.length_range_middle"]


def test_a_change_from_one_length_to_another_is_no_range() -> None:
    assert understand("make the context from 8k to 32k").updates.get("context") == 32768


# --- 2. a prompt shared by every item is added to each item's tokens ----------------------------------------------

SHARED_EN = [
    "classify {n} support tickets with llama 3.1 8b by friday. tickets are ~{a} tokens each plus a ~{b} token prompt "
    "with the label definitions, output is just a label, like 5 tokens",
    "classify {n} tickets with llama 3.1 8b, each ticket about {a} tokens, plus a {b} token instruction prompt, "
    "output 5 tokens",
]
SHARED_ZH = [
    "用llama 3.1 8b给{n}条工单分类，每条大概{a} token，另外加一个{b} token左右的提示词（标签定义），输出就5个token",
    "{n}条工单用llama 3.1 8b打标签，每条{a} token，外加{b} token的提示词，输出5个token",
]


@pytest.mark.parametrize(("template", "a", "b"), [
    *itertools.product(SHARED_EN + SHARED_ZH, [300, 1200], [400, 2000]),
])
def test_a_shared_prompt_is_added_to_each_item(template: str, a: int, b: int) -> None:
    n = "1000万" if "条" in template else "10 million"
    u = understand(template.format(n=n, a=a, b=b))
    assert u.updates["batch_items"] == 10_000_000
    assert u.updates["batch_input_tokens"] == a + b
    assert u.updates["batch_output_tokens"] == 5
    assert ("note.shared_prompt", {"each": f"{a:,}", "shared": f"{b:,}", "total": f"{a + b:,}"}) in u.notes


@pytest.mark.parametrize("text", [
    "serve qwen2.5 7b for 50 users, each question ~300 tokens plus a 2k token system prompt",
    "部署qwen2.5 7b给50个用户用，每个问题大概300 token，另外加一个2000 token的系统提示词",
])
def test_a_shared_system_prompt_when_serving(text: str) -> None:
    assert understand(text).updates["prompt_tokens"] == 2300


# --- 'cheapest' plans on the least paid option that meets the deadline ---------------------------------------------

@pytest.mark.parametrize(("job", "ask", "said"), [
    (job, ask, said) for job in ("label 1M docs with qwen2.5 7b by friday, 500 tokens in 50 out. ",
                                 "用qwen2.5 7b给100万条文档打标签，周五前完成，每条输入500 token输出50。")
    for ask, said in (("cheapest way to get it done?", True), ("as cheap as possible please", True),
                      ("最省钱的方案是什么", True), ("成本最低就行", True), ("what is the fastest way?", None),
                      ("能跑就行", None))
])
def test_cheapest_is_read_with_the_job(job: str, ask: str, said: bool | None) -> None:
    u = understand(job + ask)
    assert u.updates["batch_items"] == 1_000_000
    assert u.updates.get("cheapest") == said


@pytest.mark.parametrize("text", ["what's the cheapest way?", "最便宜的方案是哪个"])
def test_cheapest_asked_alone_is_a_question_about_the_plan(text: str) -> None:
    u = understand(text)
    assert "cheapest" in u.intents and "cheapest" not in u.updates


@pytest.mark.parametrize("text", [
    SHARED_EN[0].format(n="10 million", a=300, b=400) + ". cheapest way to get it done?",
    SHARED_ZH[0].format(n="1000万", a=300, b=400) + "，周五前要完成，最便宜的方案？",
])
def test_cheapest_meets_the_deadline_at_the_least_cost(text: str) -> None:
    state = run_states([text])[-1]
    rec = state["results"]["recommend"]
    best, deadline = rec["best"], state["profile"]["deadline_hours"]
    assert state["profile"]["cheapest"] is True
    assert best["job_hours"] <= deadline
    from gpu_advisor.tools.cost import few_offers

    rivals = [o for o in rec["options"] if o["ok"] and not o.get("owned") and o["job_usd"] is not None
              and not few_offers(o.get("price_offers"))]  # thinly priced cards are marked dearer on purpose
    assert best["job_usd"] <= min(o["job_usd"] for o in rivals) + 1e-6
    assert "stock" not in state["messages"][-1].content and "库存" not in state["messages"][-1].content


# --- 4. output lengths raise the context (prompt + output), a range at its top -----------------------------------

FIRST_R1 = {"en": "we want to self host deepseek r1 (the full 671b) for around 200 concurrent users internally",
            "zh": "我们想自建deepseek r1满血版，大概200人同时用"}
OUTPUTS = {"en": ["reasoning outputs are like {lo}-{hi} tokens, prompts short ~1k",
                  "outputs run {lo} to {hi} tokens of reasoning; prompts are about 1k"],
           "zh": ["推理输出一般{lo}到{hi} token，输入1000 token左右", "输出大概{lo}-{hi} token，输入1k左右"]}


@pytest.mark.parametrize(("lang", "template", "lo", "hi"), [
    (lang, t, lo, hi) for lang in ("en", "zh") for t in OUTPUTS[lang] for lo, hi in (("4k", "8k"), ("4000", "8000"))
])
def test_output_lengths_raise_the_context(lang: str, template: str, lo: str, hi: str) -> None:
    said = template.format(lo=lo, hi=hi)
    u = understand(said)
    assert (u.updates.get("output_tokens") or u.updates.get("batch_output_tokens")) == 8000
    assert u.updates["prompt_tokens"] == 1000
    assert [n for n in u.notes if n[0] == "note.length_range_top"]
    if template == OUTPUTS[lang][0] and lo == "4k":  # the whole conversation, once a language
        profile = run_states([FIRST_R1[lang], said])[-1]["profile"]
        assert profile["context"] == 9216


# --- 3. a bare size in a methods question is the example sized -----------------------------------------------------

@pytest.mark.parametrize(("text", "size"), [
    ("whats the actual difference between lora and qlora in terms of memory? like for a {s} model, would qlora let "
     "me do it on one card", s) for s in ("70b", "32B", "14b")
] + [
    ("lora和qlora显存差多少，比如{s}的模型，qlora一张卡能行吗", s) for s in ("70B", "32b")
] + [
    ("difference between lora and qlora in memory for a {s} model", s) for s in ("70b", "7b")
])
def test_a_bare_size_in_a_methods_question(text: str, size: str) -> None:
    u = understand(text.format(s=size))
    assert "method_compare" in u.intents
    assert u.updates["model"] == size.upper()


def test_the_size_is_sized_in_the_methods_reply_in_chinese_words() -> None:
    reply = run_states(["lora和qlora显存差多少，比如32B的模型，qlora一张卡能行吗"])[-1]["messages"][-1].content
    assert "32B 稠密模型" in reply and "dense model" not in reply and "Llama 3.1 8B" not in reply


# --- 5. an own model said by a line's architecture is that line's model of that size -------------------------------

@pytest.mark.parametrize("text", [
    "我们自己训了一个13B的模型，结构跟llama2差不多，想在L20上部署，一张卡够吗，并发大概30",
    "我们自研的13B模型，结构和llama 2一样，用L20部署，30并发",
    "we trained our own 13B model, llama 2 architecture, serve it on an L20 for 30 concurrent users",
    "our in-house 13b model has the llama2 architecture; can one L20 serve 30 users at once?",
])
def test_own_model_with_a_lines_layout(text: str) -> None:
    u = understand(text)
    assert u.updates["model"] == "llama-2-13b"
    keys = [k for k, _v in u.notes]
    assert "note.own_model_layout" in keys and "note.line_no_size" not in keys and "note.own_model_sized" not in keys


def test_own_model_of_a_size_the_line_lacks_stays_its_size() -> None:
    u = understand("we trained our own 20B model, llama 2 architecture, serve it for 30 users")
    assert u.updates["model"] == "20B"


def test_own_model_reply_in_chinese_at_the_models_own_context() -> None:
    state = run_states(["我们自己训了一个13B的模型，结构跟llama2差不多，想在L20上部署，一张卡够吗，并发大概30"])[-1]
    reply = state["messages"][-1].content
    assert "Llama 2 13B" in reply and "dense model" not in reply and "没说大小" not in reply
    assert state["results"]["inputs"]["context"] == 4096  # Llama 2 reads 4,096 tokens: no default beyond it


# --- 6. batch jobs read as batch jobs ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "items", "tokens_in", "tokens_out"), [
    ("有200万条数据要用deepseek-r1-distill-qwen-7b打标签，每条输入500 token输出200左右，周末之前要跑完（还有3天），"
     "手上4张A100 80G够不够", 2_000_000, 500, 200),
    ("200万条数据用deepseek-r1-distill-qwen-7b打标签，输入500输出200，还有3天，4张A100 80G够不够",
     2_000_000, 500, 200),
    ("label 2M rows with deepseek-r1-distill-qwen-7b, 500 tokens in and 200 out each, it has to finish within 3 days, "
     "are my 4 A100 80G enough?", 2_000_000, 500, 200),
    ("我们想用Qwen3-32B批量生成问答对来造训练数据，大概要处理200万个文本片段，每段输入800 token左右，每段生成大概600 token"
     "的问答，一周内要搞完。手上有一台8卡4090的机器，够不够？", 2_000_000, 800, 600),
    ("Qwen3-32B批量生成问答对，200万个文本片段，每段输入800 token，生成600 token，一周内，8卡4090够不够？",
     2_000_000, 800, 600),
])
def test_batch_job_with_a_fit_question(text: str, items: int, tokens_in: int, tokens_out: int) -> None:
    u = understand(text)
    assert u.updates["phase"] == "batch"
    assert u.second is None
    assert (u.updates["batch_items"], u.updates["batch_input_tokens"], u.updates["batch_output_tokens"]) == \
        (items, tokens_in, tokens_out)


@pytest.mark.parametrize(("text", "key"), [
    ("关掉thinking模式的", "note.thinking_off"), ("不开思考模式", "note.thinking_off"), ("with thinking off", "note.thinking_off"),
    ("enable_thinking=False", "note.thinking_off"), ("use /no_think", "note.thinking_off"),
    ("disable the thinking mode", "note.thinking_off"), ("开启思考模式", "note.thinking_on"),
    ("thinking mode on", "note.thinking_on"), ("enable thinking", "note.thinking_on"),
])
def test_thinking_mode_switch_is_acknowledged(text: str, key: str) -> None:
    assert (key, {}) in understand(text).notes


def test_thinking_word_alone_is_no_switch() -> None:
    assert not [n for n in understand("I'm thinking of an h100 for qwen 7b").notes if n[0].startswith("note.thinking")]


def test_thinking_off_after_a_batch_plan_is_no_reask() -> None:
    first = ("我们想用Qwen3-32B批量生成问答对来造训练数据，大概要处理200万个文本片段，每段输入800 token左右，"
             "每段生成大概600 token的问答，一周内要搞完。手上有一台8卡4090的机器，够不够？")
    states = run_states([first, "关掉thinking模式的"])
    assert states[0]["profile"]["batch_items"] == 2_000_000
    reply = states[-1]["messages"][-1].content
    assert "没看懂" not in reply and "思考模式" in reply and "多少条" not in reply
