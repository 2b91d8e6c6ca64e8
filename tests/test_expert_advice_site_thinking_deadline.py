"""Three classes of advice an expert would not sign as it was (review advice29), each crossed in English and Chinese:

1. Data that must stay on site (patient records / 病历, a bank's customer data, classified material, a government
   intranet, or the site said: '数据不出院', 'on-prem only', 'air-gapped'): the plan buys the cards, even when 'rent or
   buy?' is asked, and a note says why (reading/data_on_site.py). A cloud named, renting said or HIPAA alone keep
   their own reading.
2. A reasoning model (R1 and its distills, QwQ, Magistral) in an interactive use (chat, support/客服, questions over
   documents, coding): the wait for a typical thinking trace at the plan's per-user speed, against the use's limit,
   with the rows that reach it or the non-reasoning model of the same size (tools/thinking_wait.py).
3. A batch job with a hard deadline: the count ends the job by the deadline at the slow end of the speed's measured
   range, and the reply gives the first-hour check (tools/deadline_margin.py, assistant/deadline_margin.py).
Decisions and figures are asserted, not prose."""

from __future__ import annotations

import itertools
import math

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.use_cases import use_case
from gpu_advisor.tools.deadline_margin import copies_for_deadline
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import DEADLINE_MARGIN, MAX_BATCH_GPUS, Recommendation, Workload, recommend
from gpu_advisor.tools.thinking_wait import thinking_wait
from tests.conversation import payload, run_states

# --- 1. data that must stay on site -------------------------------------------------------------------------------

SITE_ZH = {"patient": ["做病历质控", "处理电子病历", "分析患者数据", "用病人资料做问答", "做病案首页质控"],
           "finance": ["处理银行客户数据", "分析客户交易流水", "用征信数据做风控问答"],
           "classified": ["处理涉密文件", "在保密单位内部用"],
           "government": ["部署在政务内网", "放在电子政务外网上"],
           "stated": ["数据不出院", "数据不能出机房", "必须本地部署"]}
SITE_EN = {"patient": ["on patient records", "over our EHR notes", "on protected health information",
                       "summarizing medical records", "with patient data"],
           "finance": ["on bank customer data", "over customers' transaction records", "on client financial data"],
           "classified": ["on classified documents", "for top-secret workloads"],
           "government": ["inside the government intranet"],
           "stated": ["and data can't leave our building", "on-prem only", "air-gapped"]}
JOBS_ZH = ["我们要部署 Qwen3-32B {said}，同时在线五十人，上下文 16k。{ask}",
           "{said}，用 llama 3.1 70b，二十个人同时用，{ask}"]
JOBS_EN = ["We want to serve Qwen3-32B {said} for 50 concurrent users at 16k context. {ask}",
           "{said}: llama 3.1 70b for twenty people at once, {ask}"]
ASKS_ZH = ["租还是买？", "用什么卡、几张？", "该租云还是自己采购服务器"]
ASKS_EN = ["Rent or buy?", "what GPUs and how many?", "should we rent cloud GPUs or buy our own?"]
RENT_OR_BUY = {"租还是买？", "该租云还是自己采购服务器", "Rent or buy?", "should we rent cloud GPUs or buy our own?"}


def _site_cases() -> list[tuple[str, str, bool]]:
    cases = []
    for table, jobs, asks in ((SITE_ZH, JOBS_ZH, ASKS_ZH), (SITE_EN, JOBS_EN, ASKS_EN)):
        for kind, phrases in table.items():
            for said, job, ask in itertools.product(phrases, jobs, asks):
                cases.append((kind, job.format(said=said, ask=ask), ask in RENT_OR_BUY))
    return cases


@pytest.mark.parametrize(("kind", "text", "asked"), _site_cases())
def test_data_kept_on_site_buys_the_cards_with_the_reason(kind: str, text: str, asked: bool) -> None:
    u = understand(text)
    assert u.updates.get("preference") == "buy", (text, u.updates)
    said = [code for code, _v in u.notes if code.startswith("note.on_site_")]
    if kind != "stated" or asked:
        assert said == [f"note.on_site_{kind}"], (text, u.notes)  # the reason, said once, for the kind of data


@pytest.mark.parametrize("text", [
    "we want to serve llama 3.1 70b on patient records for 50 users, aws only",  # a cloud named: renting there
    "serve qwen3-32b on patient records for 50 users, we'd rather rent",  # renting said
    "我们要用阿里云部署 qwen3-32b 做病历质控，五十人同时在线",  # a cloud named
    "serve llama 3.1 70b for 50 users, HIPAA applies. rent or buy?",  # a regime, no site: a provider's region is allowed
    "serve llama 3.1 70b for 50 users, no patient data involved, rent or buy?",  # negated
    # a Phi model is no protected health information (session 29 merge: 'serve phi-4 ... rent or buy?' bought)
    "serve phi-4 to 25 users. rent or buy?", "want to serve Phi 3.5 mini to 40 people, rent or buy",
    "给30个人部署 phi-4，租还是买？",
])
def test_renting_said_or_no_site_keeps_its_own_reading(text: str) -> None:
    u = understand(text)
    assert u.updates.get("preference") != "buy", (text, u.updates)
    assert not any(code.startswith("note.on_site_") for code, _v in u.notes)


REVIEW_ZH = ("我们是省级医院信息科，要求全国产化（信创），部署 Qwen3-32B 做病历质控。医生大概三百人，护士八百人，"
             "同时在线估计五十，上下文 16k。用什么卡、几张？")


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", REVIEW_ZH),
    ("zh", "我们医院要部署 Qwen3-32B 做病历质控，数据不出院，同时在线五十人，上下文 16k。租还是买？"),
    ("en", "We're a hospital. Patient records can't leave our premises. Serve Llama 3.1 70B for 50 concurrent users "
           "at 8k context. Rent or buy?"),
    ("en", "We're a bank. Serve Llama 3.1 70B on customer financial data for 50 concurrent users at 8k context. "
           "What GPUs?"),
])
def test_the_reply_buys_and_says_why_renting_is_out(lang: str, text: str) -> None:
    state = run_states([text])[-1]
    msg = state["messages"][-1]
    assert state["profile"]["preference"] == "buy"
    head = msg.content.split("\n\n")[0]
    assert not any(w in head for w in ("租用", "Rent ", "倾向于租")), head
    assert ("公有云" in msg.content) if lang == "zh" else ("public-cloud" in msg.content)
    assert "倾向于租" not in msg.content and "lean towards renting" not in msg.content
    if text == REVIEW_ZH:  # 信创 on Ascend: the Ascend serving stack is named
        assert payload(msg)["decision"]["gpu"].startswith("ascend-") and "vLLM-Ascend" in msg.content


# --- 2. a reasoning model in an interactive service ------------------------------------------------------------

REASONING = ["deepseek-r1-distill-llama-70b", "qwq-32b", "deepseek-r1-distill-qwen-32b", "magistral-small-24b"]
INTERACTIVE = ["support", "chat", "rag", "coding"]


@pytest.mark.parametrize(("model", "use", "users"), list(itertools.product(REASONING, INTERACTIVE, (8, 40))))
def test_the_thinking_wait_is_the_trace_at_the_plans_speed(model: str, use: str, users: int) -> None:
    rec = recommend(Workload(phase="serve", model=model, users=users, context=8192, use_case=use, candidates=["l40s"]))
    t = thinking_wait(rec)
    assert t is not None and rec.best is not None and rec.best.decode_tokens_per_s
    tokens = resolve_model(model).reasoning_output_tokens
    limit = use_case(use).thinking_wait_s
    assert tokens and limit and t.tokens == tokens and t.limit_s == limit
    assert t.seconds == pytest.approx(tokens / rec.best.decode_tokens_per_s)
    assert t.needed_tokens_per_s == pytest.approx(tokens / limit)
    assert t.code == ("thinking.within" if t.seconds <= limit else
                      "thinking.slow_rows" if t.reaching else "thinking.slow_none")
    assert all((o.decode_tokens_per_s or 0) >= t.needed_tokens_per_s for o in t.reaching)
    speeds = [o.decode_tokens_per_s or 0 for o in t.reaching]
    assert speeds == sorted(speeds, reverse=True)
    alt = resolve_model(t.alternative or "")
    assert not alt.reasoning_output_tokens and alt.total_params_b == pytest.approx(resolve_model(model).total_params_b,
                                                                                      rel=0.1)


@pytest.mark.parametrize(("model", "use"), [("llama-3.3-70b", "support"), ("qwen2.5-32b", "chat"),
                                            ("deepseek-r1-distill-llama-70b", "summarise"),
                                            ("qwq-32b", "classify"), ("deepseek-r1-distill-llama-70b", None)])
def test_no_wait_without_a_reasoning_model_in_an_interactive_use(model: str, use: str | None) -> None:
    rec = recommend(Workload(phase="serve", model=model, users=20, context=8192, use_case=use, candidates=["l40s"]))
    assert thinking_wait(rec) is None


THINK_ZH = ["我们团队6个人做 AI 客服 SaaS，打算上 {model}，上下文6k，峰值并发四十。是在 AutoDL 上租 A800 还是自己买 4 张 L20？预算 40 万",
            "用 {model} 做智能客服，三十个人同时在线，上下文 8k，用 L40S 部署，要几张？"]
THINK_EN = ["we want a customer support chatbot on {model}, 30 concurrent users, 8k context, rent on L40S",
            "chat assistant for our team on {model}: 40 people at once, 6k context, how many L20s?"]
THINK_MODELS = ["DeepSeek-R1-Distill-Llama-70B", "QwQ-32B", "R1 distill qwen 32b"]


@pytest.mark.parametrize(("lang", "text"), [("zh", t.format(model=m)) for t, m in itertools.product(THINK_ZH, THINK_MODELS)]
                         + [("en", t.format(model=m)) for t, m in itertools.product(THINK_EN, THINK_MODELS)])
def test_the_reply_states_the_thinking_wait(lang: str, text: str) -> None:
    msg = run_states([text])[-1]["messages"][-1]
    rec = Recommendation.model_validate(payload(msg)["results"]["recommend"])
    t = thinking_wait(rec)
    assert t is not None, text
    line = next(x for x in msg.content.splitlines() if x.startswith("**思考时间**" if lang == "zh" else "**Thinking time:**"))
    seconds = f"{t.seconds:,.0f}"
    assert (f"约 {seconds} 秒" in line) if lang == "zh" else (f"about {seconds} s" in line), line
    assert f"{t.limit_s:,.0f}" in line
    if t.code != "thinking.within":  # over the limit: the speed it needs and the non-reasoning model
        assert f"{t.needed_tokens_per_s:,.0f}" in line and resolve_model(t.alternative or "").name in line


# --- 3. a batch job with a hard deadline ---------------------------------------------------------------------

BATCH_MODELS = ["27B", "llama-3.1-8b", "qwen2.5-72b"]
BATCH_CARDS = ["h100-sxm", "a100-80gb-sxm", "l40s"]


@pytest.mark.parametrize(("model", "gpu", "deadline"),
                         list(itertools.product(BATCH_MODELS, BATCH_CARDS, (36.0, 48.0, 96.0, 120.0))))
def test_the_count_ends_the_job_in_time_at_the_slow_end(model: str, gpu: str, deadline: float) -> None:
    w = Workload(phase="batch", model=model, batch_items=3_500_000, batch_input_tokens=1200, batch_output_tokens=200,
                 deadline_hours=deadline, candidates=[gpu])
    best = recommend(w).best
    assert best is not None and best.job_hours is not None and best.job_hours_slow is not None
    assert best.job_hours_slow >= best.job_hours  # the slow end is slower
    if best.meets.get("deadline") and best.gpus + best.gpus // best.replicas > MAX_BATCH_GPUS:
        return  # at the most cards a batch job takes: the slow end may run late, and the reply says so
    if best.meets.get("deadline"):
        assert best.job_hours_slow <= deadline and best.job_hours <= deadline * (1 - DEADLINE_MARGIN)
        # the fewest copies that do it both ways: one fewer misses the planned share or, at the slow end, the deadline
        one = best.job_hours * best.replicas, best.job_hours_slow * best.replicas
        assert best.replicas == copies_for_deadline(*one, deadline * (1 - DEADLINE_MARGIN), deadline)


def test_the_review_job_is_sized_for_the_slow_end() -> None:
    w = Workload(phase="batch", model="27B", batch_items=3_500_000, batch_input_tokens=1200, batch_output_tokens=200,
                 deadline_hours=96, candidates=["h100-sxm"])
    best = recommend(w).best
    assert best is not None and best.job_hours_slow is not None and best.job_hours is not None
    # 58 h typical, about 78 h at the slow end of the measured range: two cards still end it within the 96 h
    assert best.gpus == 2 and best.job_hours == pytest.approx(58.3, abs=0.5)
    assert best.job_hours_slow == pytest.approx(77.6, abs=1.0) and best.job_hours_slow <= 96
    assert best.needed_tokens_per_s == pytest.approx(3_500_000 * 200 / (96 * 3600))


DEADLINE_EN = ["need to summarize {n} pdf pages w/ {model} by friday - {days} days from now. ~1.2k tokens in, 200 out "
               "per page. how many H100s should I rent?",
               "summarize {n} documents with {model} within {hours} hours, 1200 tokens in and 200 out each, on H100s",
               "we must classify {n} tickets with {model} in {days} days, ~1,200 tokens in, 200 out. how many A100s?"]
DEADLINE_ZH = ["{days}天内要用 {model} 总结{n}页PDF，每页输入1200 token，输出200，租几张 H100？",
               "要在{hours}小时内用 {model} 处理{n}条文本，每条输入1200 token、输出200，需要几张 A100？"]


def _deadline_cases() -> list[tuple[str, str, float]]:
    cases = []
    for (model, n, days) in [("Falconet-27B-Instruct", "3.5 million", 4), ("qwen2.5-72b", "800k", 3),
                             ("llama 3.1 8b", "2 million", 2)]:
        for t in DEADLINE_EN:
            cases.append(("en", t.format(n=n, model=model, days=days, hours=days * 24), days * 24.0))
    for (model, n, days) in [("Falconet-27B-Instruct", "350万", 4), ("qwen2.5-72b", "80万", 3)]:
        for t in DEADLINE_ZH:
            cases.append(("zh", t.format(n=n, model=model, days=days, hours=days * 24), days * 24.0))
    return cases


@pytest.mark.parametrize(("lang", "text", "deadline"), _deadline_cases())
def test_the_reply_gives_the_margin_and_the_first_hour_check(lang: str, text: str, deadline: float) -> None:
    msg = run_states([text])[-1]["messages"][-1]
    rec = payload(msg)["results"]["recommend"]
    best = rec["best"]
    assert rec["workload"]["deadline_hours"] == pytest.approx(deadline), text
    if not best["meets"].get("deadline"):
        return  # past the most cards a job takes: said so elsewhere
    assert best["job_hours_slow"] <= deadline, text
    check = next(x for x in msg.content.splitlines()
                 if x.startswith("**第一个小时内核对**" if lang == "zh" else "**Check in the first hour:**"))
    need = best["needed_tokens_per_s"]
    assert f"{need:,.0f}" in check and need == pytest.approx(rec["workload"]["batch_items"] * 200 / (deadline * 3600))
    slow = best["job_hours_slow"]
    shown = f"{slow:,.1f}" if slow < 100 else f"{slow:,.0f}"
    assert shown in msg.content
    assert math.isfinite(slow)
