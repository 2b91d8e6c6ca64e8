"""A generated corpus for the reader: clauses for each slot, in English and Chinese, with every number
spelling, crossed in pairs in both orders with fillers around them. Each utterance carries the slots
it must be read as. Built deterministically (no random values): the same corpus on every run.

Used by tests/test_reading_corpus.py; `python -m tests.reading_corpus` prints a sample and the size.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gpu_advisor.assistant.reading.headcount import TEAM_FROM
from gpu_advisor.assistant.reading.text import INSTRUCTION_TOKENS

USD_PER_CNY = None  # filled lazily from knowledge.rules() so that the expected budget is the reader's own rate


@dataclass(frozen=True)
class Clause:
    text: str
    expect: dict[str, Any] = field(default_factory=dict)
    at_once: bool = False  # a count of people said at once ('并发12个用户'): it stays people at once anywhere
    rough: bool = False  # a count of users said roughly ('about 200 users', '大概200用户'): a user base with part-day use


# ---------------------------------------------------------------- number spellings

EN_WORDS = {3: "three", 8: "eight", 12: "twelve", 15: "fifteen", 20: "twenty", 25: "twenty-five", 30: "thirty",
            40: "forty", 50: "fifty", 60: "sixty", 80: "eighty", 100: "a hundred", 120: "one hundred and twenty",
            200: "two hundred", 300: "three hundred", 500: "five hundred"}
ZH_WORDS = {3: "三", 8: "八", 12: "十二", 15: "十五", 20: "二十", 25: "二十五", 30: "三十", 40: "四十", 50: "五十",
            60: "六十", 80: "八十", 100: "一百", 120: "一百二十", 200: "两百", 300: "三百", 500: "五百"}


def en_numbers(n: int) -> list[str]:
    """How English speakers write a count: digits, words, approximations."""
    out = [str(n), f"~{n}", f"about {n}", f"around {n}", f"roughly {n}"]
    if n in EN_WORDS:
        out.append(EN_WORDS[n])
    if n >= 1000:
        out.append(f"{n:,}")
    return out


def zh_numbers(n: int) -> list[str]:
    """How Chinese speakers write a count: digits, numerals, 大概/约."""
    out = [str(n), f"大概{n}", f"约{n}", f"差不多{n}", f"将近{n}"]
    if n in ZH_WORDS:
        out.append(ZH_WORDS[n])
    return out


# ---------------------------------------------------------------- clauses per slot

EN_PEOPLE = ["users", "people", "nurses", "support agents", "lawyers", "developers", "students", "analysts",
             "customers", "concurrent users", "call-centre agents", "teachers", "engineers",
             "usres", "peopel", "concurent users", "Users", "paralegals", "radiologists"]
ZH_PEOPLE = ["用户", "人", "个运营", "个客服", "名医生", "位老师", "个同事", "名学生", "个销售", "个工程师",
             "个users", " users", "个标注员", "位律师", "名护士", "个分析师", "个研究员", "个开发", "个坐席"]


# Members of an organisation: a hundred or more of them are everyone who uses the service, some at once
# ("for about 300 doctors"); fewer size the cards as they are ("for 40 nurses").
STAFF = {"nurses", "lawyers", "developers", "students", "teachers", "engineers", "paralegals", "support agents",
         "analysts", "call-centre agents", "radiologists",
         "名医生", "位老师", "名学生", "个工程师", "位律师", "名护士", "个研究员", "个运营", "个客服", "个销售", "个分析师",
         "个标注员", "个开发"}
# Staffed seats ('60个坐席') are people at once during the shift, not staff of whom a share is at once (review CH #11).
SEATS = {"个坐席"}


def _people(n: int, noun: str) -> dict[str, int]:
    """A count of an organisation's staff ('40 nurses', '12个客服') is who uses the service, some of them at once;
    a count of users, people or customers is people at once."""
    return {"population": n} if n >= 5 and noun.strip() in STAFF else {"users": n}


def users(lang: str) -> Iterator[Clause]:
    counts = (3, 12, 25, 40, 100, 200, 500)
    if lang == "en":
        for n, noun in itertools.product(counts, EN_PEOPLE):
            for said in en_numbers(n):
                rough = said.startswith(("~", "about", "around", "roughly")) and "concur" not in noun
                yield Clause(f"for {said} {noun}", _people(n, noun), rough=rough)
                yield Clause(f"{said} {noun}", _people(n, noun), rough=rough)
        for n in counts:
            for total in (n * 4, n * 10):  # a total beside the number at once: the number at once sizes the cards
                yield Clause(f"{total} users, ~{n} concurrent", {"users": n})
                yield Clause(f"{total} people but only {n} at the same time", {"users": n})
                yield Clause(f"{n} concurrent out of {total} users", {"users": n})
            yield Clause(f"concurrency {n}", {"users": n})
            # a team of TEAM_FROM (20) or more is its members, some at once (review CT: 'team of 60'); a smaller one
            # works together and is sized as all at once
            yield Clause(f"a team of {n}", {"population": n} if n >= TEAM_FROM else {"users": n})
            yield Clause(f"{n} people at once", {"users": n})
            yield Clause(f"used by {n} {EN_PEOPLE[n % len(EN_PEOPLE)]}", _people(n, EN_PEOPLE[n % len(EN_PEOPLE)]))
    else:
        for n, noun in itertools.product(counts, ZH_PEOPLE):
            for said in zh_numbers(n):
                rough = said.startswith(("大概", "约", "差不多", "将近"))
                yield Clause(f"{said}{noun}", _people(n, noun), rough=rough and noun not in SEATS, at_once=noun in SEATS)
                yield Clause(f"给{said}{noun}用", _people(n, noun), rough=rough and noun not in SEATS, at_once=noun in SEATS)
        for n in counts:
            yield Clause(f"{n}人同时在线", {"users": n}, at_once=True)
            yield Clause(f"并发{n}个用户", {"users": n}, at_once=True)
            yield Clause(f"并发大概{n}", {"users": n}, at_once=True)
            yield Clause(f"{n * 10}个用户，同时在线大概{n}个", {"users": n}, at_once=True)
            yield Clause(f"总共{n * 4}人，并发量{n}左右", {"users": n}, at_once=True)


# The people who use a service (staff, accounts, a whole organisation), not the people at once: the
# number at once is sized from it (tools.traffic) unless said beside it.
EN_POPULATION = ["{n} employees", "{n} internal users", "{n} staff", "a staff of {n}", "{n} registered users",
                 "{n} users in total", "{n} people in the company", "company-wide for {n} people", "our {n} employees",
                 "{n} seats", "{n} total users", "about {n} employees", "{n} people across the whole org"]
ZH_POPULATION = ["{n}名员工", "{n}个员工", "全院{n}人", "给全公司{n}人用", "全校{n}个老师", "用户量{n}", "员工{n}人",
                 "注册用户{n}", "全集团大概{n}人", "公司有{n}名员工", "全员{n}人用"]


def population(lang: str) -> Iterator[Clause]:
    forms = EN_POPULATION if lang == "en" else ZH_POPULATION
    for n, form in itertools.product((40, 300, 1200, 3000, 50_000), forms):
        said = form.format(n=f"{n:,}" if lang == "en" and n >= 10_000 else n)
        yield Clause(said, {"population": n})
    for n, at in ((800, 60), (3000, 200), (500, 40)):
        if lang == "en":
            yield Clause(f"{n} employees, about {at} at once", {"population": n, "users": at})
            yield Clause(f"{at} concurrent out of {n} staff", {"population": n, "users": at})
        else:
            yield Clause(f"全院{n}人，高峰同时{at}人", {"population": n, "users": at})
            yield Clause(f"{n}名员工，并发{at}", {"population": n, "users": at})


def context(lang: str) -> Iterator[Clause]:
    sizes = (4, 8, 16, 32, 64, 128)
    for k in sizes:
        expect = {"context": k * 1024}
        if lang == "en":
            for form in (f"{k}k context", f"context of {k}k", f"with roughly {k}k of context", f"context needs to be {k}k",
                         f"a {k}k-token context", f"{k}k context window", f"context window of {k}k tokens",
                         f"context length {k}k", f"max context {k}k", f"{k}k tokens of context", f"{k}K contxt",
                         f"conetxt of {k}k", f"{k}k ctx"):
                yield Clause(form, expect)
        else:
            for form in (f"上下文{k}k", f"上下文得有{k}k", f"context开到{k}k", f"上下文长度{k}k", f"上下文要{k}k",
                         f"上下文至少{k}k", f"{k}k上下文", f"上下文窗口{k}k", f"上下文 {k}K", f"context {k}k",
                         f"{k}k的上下文"):
                yield Clause(form, expect)


def latency(lang: str) -> Iterator[Clause]:
    for ms in (200, 300, 500, 800):
        if lang == "en":
            for form in (f"first token under {ms} ms", f"ttft below {ms}ms", f"time to first token < {ms} ms",
                         f"first token within {ms} milliseconds"):
                yield Clause(form, {"ttft_ms": float(ms)})
        else:
            for form in (f"首token {ms}毫秒以内", f"首字延迟不超过{ms}ms", f"首token延迟{ms}ms以内"):
                yield Clause(form, {"ttft_ms": float(ms)})
    for s in (1, 2, 3):
        if lang == "en":
            yield Clause(f"first token in under {s} seconds", {"ttft_ms": float(s * 1000)})
        else:
            yield Clause(f"首token不超过{s}秒", {"ttft_ms": float(s * 1000)})


def speed(lang: str) -> Iterator[Clause]:
    for t in (20, 30, 50):
        if lang == "en":
            for form in (f"at least {t} tokens/s per user", f"{t} tok/s each", f"{t} tokens per second per user"):
                yield Clause(form, {"min_tokens_per_s": float(t)})
        else:
            for form in (f"每个用户至少{t} token/s", f"每秒{t}个token"):
                yield Clause(form, {"min_tokens_per_s": float(t)})


def budget(lang: str) -> Iterator[Clause]:
    for n in (500, 2000, 4000, 10000):
        if lang == "en":
            for form in (f"budget ${n:,} a month", f"at most ${n} per month", f"we can spend ${n}/month",
                         f"monthly budget of {n} dollars"):
                yield Clause(form, {"budget_usd_per_month": float(n)})
        else:
            for form in (f"每月预算{n}元", f"一个月最多花{n}块"):
                yield Clause(form, {"budget_usd_per_month": ("cny", n)})


def utilisation(lang: str) -> Iterator[Clause]:
    if lang == "en":
        for form in ("24/7", "around the clock", "running 24/7"):
            yield Clause(form, {"utilisation": 1.0})
        for form in ("working hours only", "during working hours"):
            yield Clause(form, {"utilisation": 0.24})
        yield Clause("8 hours a day", {"utilisation": 0.3333})
    else:
        for form in ("7x24小时", "7*24小时运行", "24小时不停"):
            yield Clause(form, {"utilisation": 1.0})
        yield Clause("只在工作时间用", {"utilisation": 0.24})
        yield Clause("每天8小时", {"utilisation": 0.3333})


SLOT_CLAUSES = {"users": users, "population": population, "context": context, "latency": latency, "speed": speed, "budget": budget,
                "utilisation": utilisation}

EN_MODELS = [("llama 3.1 8b", "llama-3.1-8b"), ("Qwen2.5-14B", "qwen2.5-14b"), ("qwen2.5 72b", "qwen2.5-72b"),
             ("Mistral Small 3.1 24B", "mistral-small-3.1-24b"), ("gemma 3 27b", "gemma-3-27b")]
EN_SERVE = ["serve {model}", "deploy {model}", "host {model}", "we want to run {model}", "need to serve {model}"]
ZH_SERVE = ["部署{model}", "上线{model}", "想部署一个{model}", "用{model}做内部问答"]
EN_FILLERS = [("", ""), ("hi, ", ""), ("", " pls"), ("hey so ", ", thanks!"), ("", ". what gpus do i need?")]
ZH_FILLERS = [("", ""), ("你好，", ""), ("", "，需要什么卡？"), ("我们公司", "，谢谢"), ("", "，怎么配置？")]


def _cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff"


def _sep(lang: str) -> str:
    return ", " if lang == "en" else "，"


# Between two clauses: punctuation, a conjunction, or nothing but a space (people type all of them).
EN_JOINS = [", ", " and ", " with ", " ", "; ", " - "]
ZH_JOINS = ["，", "、", "，而且", " ", "；", ""]


def _internal(clause: Clause, verb: str) -> dict[str, Any]:
    """An internal tool ('用…做内部问答') makes a count of five or more people its staff: a population, unless the
    count was said at once (assistant/reading/headcount.py)."""
    n = clause.expect.get("users")
    if "内部" in verb and n is not None and n >= 5 and not clause.at_once and "population" not in clause.expect:
        return {**{k: v for k, v in clause.expect.items() if k != "users"}, "population": n}
    return clause.expect


COUNT_FIRST = re.compile(r"(?:大概|大约|约|有|共|一共|差不多|将近|接近)?\s*[\d一二两三四五六七八九十百千万几]")


def _staff_of(clause: Clause, pre: str) -> dict[str, Any]:
    """A count of people right after the organisation ('我们公司' + '大概500个同事') is its staff: a population, unless
    said at once (assistant/reading/headcount.py, words/headcount.yaml headcount_before)."""
    n = clause.expect.get("users")
    if pre.endswith("公司") and COUNT_FIRST.match(clause.text) and n is not None and n >= 5 and not clause.at_once and "population" not in clause.expect:
        return {"users": None, "population": n}
    return {}


def _company_users(clause: Clause, pre: str) -> dict[str, Any]:
    """A count of 100 or more people in a message that names the company ('我们公司部署…，大概200人'): its staff, a
    population, unless said at once (assistant/reading/user_population.py, words/user_population.yaml; review CQ Z2)."""
    n = clause.expect.get("users")
    if "公司" in pre and n is not None and n >= 100 and not clause.at_once and "population" not in clause.expect:
        return {"users": None, "population": n}
    return {}


def _user_base(x: Clause, y: Clause) -> dict[str, Any]:
    """A rough count of 100 or more users beside part-day use ('for roughly 200 users, 8 hours a day', '大概500用户，只在
    工作时间用') is the people who use it, some at once (review BZ #9, assistant/reading/user_base.py)."""
    for people, use in ((x, y), (y, x)):
        n = people.expect.get("users")
        if people.rough and n is not None and n >= 100 and 0 < use.expect.get("utilisation", 1.0) < 1:
            return {"users": None, "population": n}
    return {}


def serving_pairs(lang: str) -> Iterator[Clause]:
    """A serving request with two quantity clauses, in both orders, before or after the model."""
    models = EN_MODELS
    verbs = EN_SERVE if lang == "en" else ZH_SERVE
    fillers = EN_FILLERS if lang == "en" else ZH_FILLERS
    pools = {name: list(gen(lang)) for name, gen in SLOT_CLAUSES.items()}
    sep = _sep(lang)
    counter = 0
    for a, b in itertools.permutations(pools, 2):
        if {a, b} == {"users", "population"}:
            continue  # two counts of the same people: paired inside population()
        first, second = pools[a], pools[b]
        # every clause of each slot appears, paired round-robin with the other slot's clauses; a pair whose two
        # clauses both came in this order already adds none (the users pools, multiples of 7 long, repeat a
        # seventh of their clauses after a short slot's 7 times over): skipped, the next pair written as before
        seen_x: set[int] = set()
        seen_y: set[int] = set()
        for i in range(max(len(first), len(second))):
            ix, iy = i % len(first), (i * 7 + 3) % len(second)
            if ix in seen_x and iy in seen_y:
                counter += 1
                continue
            seen_x.add(ix)
            seen_y.add(iy)
            x, y = first[ix], second[iy]
            name, model_id = models[counter % len(models)]
            verb = verbs[counter % len(verbs)].format(model=name)
            pre, post = fillers[counter % len(fillers)]
            counter += 1
            expect = {"model": model_id, **_internal(x, verb), **_internal(y, verb), **_user_base(x, y),
                      **_company_users(x, pre), **_company_users(y, pre)}
            joins = EN_JOINS if lang == "en" else ZH_JOINS
            join = joins[(counter // 2) % len(joins)]
            if not join and not (_cjk(x.text[-1]) and _cjk(y.text[0])):
                join = " "  # nobody glues latin letters or digits together; Chinese runs on
            if counter % 2:
                text = f"{pre}{verb}{sep}{x.text}{join}{y.text}{post}"
            else:
                text = f"{pre}{x.text}{join}{y.text}{sep}{verb}{post}"
                expect = {**expect, **_staff_of(x, pre)}
            yield Clause(text, expect)


def batch_jobs(lang: str) -> Iterator[Clause]:
    """Offline jobs: items, length of each (tokens or characters), output, deadline, in both orders."""
    for items, each, out, hours in itertools.product((10_000, 200_000, 1_000_000), (500, 2000, 3000), (100, 200),
                                                     (6, 12, 48)):
        if lang == "en":
            parts = [Clause(f"{items:,} documents", {"batch_items": items}),
                     Clause(f"about {each} tokens each", {"batch_input_tokens": each}),
                     Clause(f"{out}-token summaries", {"batch_output_tokens": out}),
                     Clause(f"within {hours} hours", {"deadline_hours": float(hours)})]
            verb = "summarise with llama 3.1 8b"
        else:
            wan = f"{items // 10_000}万"
            parts = [Clause(f"{wan}篇文章", {"batch_items": items}),
                     # each article's text in tokens, read with the task's instruction prompt
                     Clause(f"每篇大概{each}字", {"batch_input_tokens": round(each / 1.4) + INSTRUCTION_TOKENS}),
                     Clause(f"摘要{out}字", {"batch_output_tokens": round(out / 1.4)}),  # rounded, as the note says (was truncated: 142 for about 143)
                     Clause(f"{hours}小时内跑完", {"deadline_hours": float(hours)})]
            verb = "用qwen2.5-14b做摘要"
        for order in ((0, 1, 2, 3), (3, 0, 1, 2), (0, 3, 2, 1)):
            text = _sep(lang).join(parts[i].text for i in order)
            expect = {k: v for p in parts for k, v in p.expect.items()}
            yield Clause(f"{verb}{_sep(lang)}{text}", {"phase": "batch", **expect})


def fine_tuning(lang: str) -> Iterator[Clause]:
    """Fine-tuning runs: method, examples and their length, epochs, deadline, in several orders."""
    methods = {"en": [("LoRA", "lora"), ("QLoRA", "qlora"), ("full fine-tune", "full")],
               "zh": [("LoRA微调", "lora"), ("QLoRA微调", "qlora"), ("全参微调", "full")]}[lang]
    for (said, method), examples, each, epochs, hours in itertools.product(
            methods, (20_000, 50_000, 100_000), (512, 1024, 2048), (1, 2, 3), (12, 24, 72)):
        if lang == "en":
            parts = [Clause(f"{examples // 1000}k examples", {}),
                     Clause(f"about {each} tokens each", {"train_tokens": float(examples * each)}),
                     Clause(f"{epochs} epochs", {"epochs": float(epochs)}),
                     Clause(f"done within {hours} hours", {"deadline_hours": float(hours)})]
            verb = f"{said} qwen2.5 7b"
        else:
            parts = [Clause(f"{examples // 10_000}万条样本", {}),
                     Clause(f"每条大概{each} token", {"train_tokens": float(examples * each)}),
                     Clause(f"训练{epochs}轮", {"epochs": float(epochs)}),
                     Clause(f"{hours}小时内训完", {"deadline_hours": float(hours)})]
            verb = f"用{said}qwen2.5 7b"
        for order in ((0, 1, 2, 3), (2, 0, 1, 3), (3, 2, 0, 1)):
            text = _sep(lang).join(parts[i].text for i in order)
            expect = {k: v for part in parts for k, v in part.expect.items()}
            yield Clause(f"{verb}{_sep(lang)}{text}", {"method": method, "model": "qwen2.5-7b", **expect})


def clock_deadlines(lang: str) -> Iterator[Clause]:
    """A batch job due at a clock time, with the time it is now: hours between them."""
    for now, due in itertools.product((8, 14, 17, 20, 22), (7, 9, 12)):
        hours = float((due - now) % 24 or 24)
        now_en = f"{now % 12 or 12}{'pm' if now >= 12 else 'am'}"
        due_en = f"{due % 12 or 12}{'pm' if due >= 12 else 'am'}"
        if lang == "en":
            for form in (f"it's {now_en} now, due by {due_en}", f"due by {due_en} and it's {now_en} now",
                         f"now is {now_en}, deadline is {due_en}"):
                yield Clause(f"summarise 100k docs with llama 3.1 8b, {form}",
                             {"phase": "batch", "batch_items": 100_000, "deadline_hours": hours})
        else:
            now_zh = f"{'晚上' if now >= 18 else '下午' if now >= 12 else '早上'}{now - 12 if now > 12 else now}点"
            due_zh = f"{'中午' if due == 12 else '早上'}{due}点"
            for form in (f"现在{now_zh}，{due_zh}前要跑完", f"{due_zh}前要跑完，现在是{now_zh}"):
                yield Clause(f"用qwen2.5-14b给10万篇文章做摘要，{form}",
                             {"phase": "batch", "batch_items": 100_000, "deadline_hours": hours})


EN_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ZH_DAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
PARTS = {"morning": (9, "早上"), "afternoon": (15, "下午"), "evening": (18, "晚上")}


def weekday_deadlines(lang: str) -> Iterator[Clause]:
    """A fine-tuning run started on one weekday and due on a later one (or the same day next week), the
    start said before or after the due day: hours between the two."""
    for (start, due), (start_part, due_clock) in itertools.product(
            ((0, 4), (1, 3), (2, 2), (3, 0), (4, 5)), (("morning", 17), ("afternoon", 9), ("evening", 18))):
        start_h = PARTS[start_part][0]
        hours = float(((due - start) % 7 or 7) * 24 + due_clock - start_h)
        expect = {"phase": "fine-tune", "model": "qwen2.5-7b", "deadline_hours": hours}
        if lang == "en":
            due_en = f"{due_clock % 12 or 12}{'pm' if due_clock >= 12 else 'am'}"
            for begin, end in ((f"if we start {EN_DAYS[start]} {start_part}", f"it must be done by {EN_DAYS[due]} {due_en}"),
                               (f"starting {EN_DAYS[start]} {start_part}", f"due by {EN_DAYS[due]} {due_en}")):
                yield Clause(f"fine-tune qwen2.5 7b, {begin}, {end}", expect)
                yield Clause(f"{end}: fine-tune qwen2.5 7b {begin}", expect)
        else:
            due_zh = f"{'晚上' if due_clock >= 18 else '下午' if due_clock >= 12 else '早上'}{due_clock - 12 if due_clock > 12 else due_clock}点"
            begin = f"{ZH_DAYS[start]}{PARTS[start_part][1]}开始"
            for end in (f"{ZH_DAYS[due]}{due_zh}前要跑完", f"{ZH_DAYS[due]}{due_zh}之前完成"):
                yield Clause(f"微调qwen2.5 7b，{begin}，{end}", expect)
                yield Clause(f"{end}，{begin}微调qwen2.5 7b", expect)


def corpus() -> list[Clause]:
    out: list[Clause] = []
    for lang in ("en", "zh"):
        out += list(serving_pairs(lang))
        out += list(batch_jobs(lang))
        out += list(fine_tuning(lang))
        out += list(clock_deadlines(lang))
        out += list(weekday_deadlines(lang))
    return out


if __name__ == "__main__":
    every = corpus()
    print(len(every))
    for c in every[:: max(1, len(every) // 20)]:
        print(c.text, "->", c.expect)
