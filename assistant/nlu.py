"""Deterministic text understanding: what a message says about the workload.

No model download, no randomness: regular expressions and the catalog's names. `understand(text,
pending)` returns the slot values the message gives, the intents it carries ("show the math",
"start over", "not sure" ...) and a description of what was understood, so that a reply can say
what was and was not. `pending` is the slot of the question just asked; a bare answer ("15",
"working hours") fills it.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from knowledge import find_precision, gpus, models, rules
from knowledge.resolve import BadValue, NotFound, check_size, normalise

MAX_MESSAGE_CHARS = 4000  # longer pastes are read up to here

# Mixed Chinese/English domain words, mapped to the English the rules below read.
CHINESE = {
    "每周用几个小时": " a few hours a week ", "7x24小时": " 24/7 ", "7x24": " 24/7 ", "7×24": " 24/7 ",
    "试用": " try it out ", "条": " items ",
    "工作时间": " working hours ", "上班时间": " working hours ", "全天": " 24/7 ", "一直": " 24/7 ",
    "周末": " weekends ", "购买": " buy ", "租用": " rent ", "比较": " compare ",
    "全参数": " full fine-tune ", "全参": " full fine-tune ", "微调": " fine-tune ", "训练": " train ",
    "推理": " serve ", "部署": " deploy ", "服务": " serve ", "显存": " vram ", "用户": " users ",
    "并发": " concurrent ", "个人": " individual ", "中国": " china ", "国内": " china ", "预算": " budget ",
    "每月": " per month ", "一个月": " a month ", "月": " month ", "租": " rent ", "买": " buy ",
    "不确定": " not sure ", "不知道": " not sure ", "随便": " you pick ", "小时": " hours ", "上下文": " context ",
    "量化": " quantized ", "人": " people ", "元": " yuan ", "块": " yuan ", "万": "0000 ", "千": "000 ",
    "实验": " experiment ", "生产": " production ", "一个": " a ", "我们": " we ", "我": " i ", "有": " have ", "两个": " two ", "两张": " two ", "个": " ", "张": " ",
}
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "hundred": 100, "a hundred": 100, "a dozen": 12, "a couple of": 2, "a pair of": 2, "a single": 1,
    "single": 1, "dual": 2, "a": 1, "an": 1,
}
NOT_SURE = re.compile(r"\b(not sure|unsure|no idea|don'?t know|dunno|you (pick|choose|decide)|whatever|"
                      r"either is fine|any(thing)? (is )?fine|idk|skip|no preference|default)\b")
RESET = re.compile(r"\b(start (over|again|afresh)|reset|new (conversation|session|chat)|clear)\b")
MATH = re.compile(r"\b(why|show (me )?(the )?(math|maths|working|calculation)|explain|how (did|do) you|"
                  r"break ?down|formula|where does .* come from)\b")
RENT_BUY = re.compile(r"\b(rent or buy|buy or rent|should (i|we) (buy|rent)|rent vs\.? buy|rent versus buy|"
                      r"worth buying|break.?even)\b")
GREET = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|你好|hola|bonjour)\b")
THANKS = re.compile(r"\b(thanks|thank you|cheers|thx|谢谢)\b")
HELP = re.compile(r"^\s*(help|\?|what can you do)\s*\??\s*$")
INJECTION = re.compile(r"(ignore (all |the )?(previous|prior|above) (instructions|prompts?)|system prompt|"
                       r"you are now|jailbreak|pretend to be|disregard (your|all) )")
NEGATION = re.compile(r"\b(not|no|isn'?t|instead of|rather than|never)\s*$")


@dataclass
class Understanding:
    updates: dict[str, Any] = field(default_factory=dict)
    intents: set[str] = field(default_factory=set)
    understood: list[str] = field(default_factory=list)
    compare_gpus: list[str] = field(default_factory=list)
    whatif_gpus: tuple[int, str] | None = None
    problems: list[str] = field(default_factory=list)
    topic: str | None = None
    unknown_model: str | None = None
    lang: str = "en"
    choice: int | None = None

    @property
    def empty(self) -> bool:
        return not (self.updates or self.intents or self.compare_gpus or self.whatif_gpus)


# ---------------------------------------------------------------- helpers


_CJK_EDGE = re.compile(r"(?<=[\u3400-\u9fff])(?=[A-Za-z0-9$¥])|(?<=[A-Za-z0-9%])(?=[\u3400-\u9fff])")


def clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)[:MAX_MESSAGE_CHARS]
    text = re.sub(r"(\d{1,9}(?:\.\d{1,3})?)\s*([万千])", lambda m: f"{float(m.group(1)) * (1e4 if m.group(2) == '万' else 1e3):.0f}", text)
    text = _CJK_EDGE.sub(" ", text)
    for zh, en in CHINESE.items():
        text = text.replace(zh, en)
    text = text.replace("’", "'").replace("–", "-").replace("—", "-").replace("×", "x")
    return re.sub(r"\s+", " ", text.lower()).strip()


def _number(token: str) -> float | None:
    token = token.strip().replace(",", "")
    if token in NUMBER_WORDS:
        return float(NUMBER_WORDS[token])
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(thousand|million|k|m)", token)
    if m:
        return float(m.group(1)) * {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6}[m.group(2)]
    try:
        return float(token)
    except ValueError:
        return None


def _an(number: str) -> str:
    """'an 8B', 'an 11B', 'an 80B', but 'a 7B'."""
    return "an" if re.match(r"(8|11|18)(\D|$)|8\d(\D|$)|8\d\d(\D|$)", number) else "a"


def _negated(text: str, start: int) -> bool:
    return bool(NEGATION.search(text[max(0, start - 14):start]))


@cache
def _model_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for m in models():
        for key in (m.id, m.name, *m.aliases, *m.hf_ids, *(h.split("/")[-1] for h in m.hf_ids)):
            k = normalise(key)
            if len(k) >= 3 and not re.fullmatch(r"[\d.]+b?", k):
                index.setdefault(k, m.id)
    return index


@cache
def _gpu_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for g in gpus():
        for key in (g.id, g.name, *g.aliases):
            k = normalise(key)
            if len(k) >= 2:
                index.setdefault(k, g.id)
    return index


_TOKEN = re.compile(r"[a-z0-9][a-z0-9.\-_/]*")


def _ngrams(text: str, max_n: int = 5):
    tokens = [(m.start(), m.end(), m.group().rstrip(".-_/")) for m in _TOKEN.finditer(text)]
    for n in range(max_n, 0, -1):
        for i in range(len(tokens) - n + 1):
            span = tokens[i:i + n]
            yield span[0][0], span[-1][1], " ".join(t[2] for t in span)


@cache
def _keys_by_digits() -> dict[str, list[str]]:
    """Catalog name keys grouped by their digits: typos are looked for among names with the same
    numbers only ("lama 3 70b" among the *370* names), which keeps fuzzy matching fast and sane."""
    groups: dict[str, list[str]] = {}
    for key in _model_index():
        groups.setdefault(re.sub(r"\D", "", key), []).append(key)
    return groups


def find_models(text: str) -> list[tuple[int, int, str]]:
    """Catalog models named in the text: (start, end, id), longest names first, no overlaps."""
    index = _model_index()
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for start, end, gram in _ngrams(text):
        if any(s < end and start < e for s, e in taken):
            continue
        key = normalise(gram)
        model_id = index.get(key)
        if model_id is None and len(key) >= 6 and re.search(r"[a-z]", key) and re.search(r"\d", key):
            same_digits = _keys_by_digits().get(re.sub(r"\D", "", key), [])
            close = difflib.get_close_matches(key, same_digits, n=1, cutoff=0.88)
            model_id = index[close[0]] if close else None
        if model_id:
            found.append((start, end, model_id))
            taken.append((start, end))
    return sorted(found)


def find_gpus(text: str) -> list[tuple[int, int, str, int]]:
    """GPUs named in the text with a count when one precedes them ("two 4090s", "8x H100")."""
    index = _gpu_index()
    found: list[tuple[int, int, str, int]] = []
    taken: list[tuple[int, int]] = []
    for start, end, gram in _ngrams(text, 4):
        if any(s < end and start < e for s, e in taken):
            continue
        key = normalise(gram)
        gpu_id = index.get(key) or (index.get(key[:-1]) if key.endswith("s") else None)
        if not gpu_id or key.isdigit() and len(key) < 4:
            continue
        before = text[max(0, start - 14):start]
        m = re.search(r"(\d+|one|two|three|four|five|six|seven|eight|a pair of|a couple of|a single|single|dual|an|a)"
                      r"\s*(x|×|\*)?\s*(nvidia\s+|geforce\s+|rtx\s+)?$", before)
        count = int(_number(m.group(1)) or 1) if m else 1
        found.append((start, end, gpu_id, count))
        taken.append((start, end))
    return sorted(found)


# ---------------------------------------------------------------- slot readers


SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)\s*(b|bn|billion|m|million)(?![a-z0-9])(?!\s*(tokens?|context|ctx|users?|people|customers|requests|dollars|usd|yuan|rmb|a month|per month|items?|documents?|docs|records|rows|files|samples))")
MOE = re.compile(
    r"(\d+(?:\.\d+)?)\s*b\b[^.;\d]{0,30}?(?:total)?[^.;\d]{0,20}?(\d+(?:\.\d+)?)\s*b\s*(?:active|activated)"
    r"|(\d+(?:\.\d+)?)\s*b\s*-?\s*a(\d+(?:\.\d+)?)\s*b\b")


def read_model(text: str, u: Understanding) -> str:
    """Fill 'model' from a catalog name or a bare size; returns the text with names removed."""
    names = [m for m in find_models(text) if not _negated(text, m[0])]
    rest = text
    for start, end, _ in reversed(find_models(text)):
        rest = rest[:start] + " " * (end - start) + rest[end:]
    moe = None
    for m in MOE.finditer(rest):
        if _negated(rest, m.start()):
            continue
        total, active = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        moe = (float(total), float(active), m.start())
    sizes = []
    for m in SIZE.finditer(rest):
        if _negated(rest, m.start()):
            continue
        if re.search(r"(\$|usd|dollars?|yuan|rmb|¥|tokens?)\s*$", rest[max(0, m.start() - 8):m.start()]):
            continue
        value = float(m.group(1)) * (1e-3 if m.group(2).startswith("m") else 1)
        sizes.append((value, m.start()))
    candidates: list[tuple[int, str, str]] = []  # (position, spec, description)
    for start, _end, model_id in names:
        candidates.append((start, model_id, next(x.name for x in models() if x.id == model_id)))
    if moe:
        total, active, pos = moe
        candidates.append((pos, f"{total:g}B-A{active:g}B", f"{_an(f'{total:g}')} {total:g}B-total, {active:g}B-active MoE model"))
    elif sizes:
        value, pos = sizes[-1]
        candidates.append((pos, f"{value:g}B", f"{_an(f'{value:g}')} {value:g}B model"))
    if candidates:
        _pos, spec, label = max(candidates)
        try:
            if spec[0].isdigit():
                total = float(spec.split("B")[0])
                active = float(spec.split("-A")[1].rstrip("B")) if "-A" in spec else total
                check_size(total, active)
        except BadValue as e:
            u.problems.append(str(e))
            return rest
        u.updates["model"] = spec
        u.understood.append(label)
    return rest


PRECISION_WORDS = [
    (r"\bq8_0\b|\bq8\b", "q8_0"), (r"\bq6_k\b", "q6_k"), (r"\bq5_k(_m)?\b", "q5_k_m"), (r"\bq4_k(_m)?\b", "q4_k_m"),
    (r"\bq4_0\b", "q4_0"), (r"\bq3_k(_m)?\b", "q3_k_m"), (r"\bq2_k\b", "q2_k"), (r"\bgguf\b", "q4_k_m"),
    (r"\bawq\b", "awq"), (r"\bgptq[- ]?(int)?8\b", "gptq-int8"), (r"\bgptq\b", "gptq-int4"), (r"\bnf4\b", "nf4"),
    (r"\bfp8\b|\bfloat8\b", "fp8"), (r"\bint8\b|\b8[- ]?bits?\b", "int8"), (r"\bint4\b|\b4[- ]?bits?\b", "int4"),
    (r"\bbf16\b|\bbfloat16\b|\b16[- ]?bits?\b|\bfull precision\b|\bunquantized\b", "bf16"), (r"\bfp16\b", "fp16"),
]


def read_precision(text: str, u: Understanding) -> None:
    # "QLoRA (4-bit)" speaks of the fine-tuning method, not the serving format
    scan = re.sub(r"q-?lora\s*\(?\s*4[- ]?bits?\)?", " qlora ", text)
    scan = re.sub(r"4[- ]?bits?\s+(q-?lora|base|fine-?tun\w*)", r" \1", scan)
    hits = []
    for pattern, pid in PRECISION_WORDS:
        for m in re.finditer(pattern, scan):
            if not _negated(scan, m.start()):
                hits.append((m.start(), pid))
    if hits:
        pid = max(hits)[1]
        u.updates["precision"] = pid
        u.understood.append(f"{find_precision(pid).name} weights")


def read_phase(text: str, u: Understanding) -> None:
    train = re.search(r"\b(fine-?tun\w*|finetun\w*|train\w*|sft|dpo|rlhf|orpo|q?-?lora|adapt\w*|full fine)\b", text)
    serve = re.search(r"\b(serv\w*|deploy\w*|host\w*|inference|chat(bot)?s?( with)?|users?|customers?|api|"
                      r"run(ning)? (it|them|locally|the model|models?|an? [\w.-]+ model)|"
                      r"production|let (my|our) (team|users|customers))\b", text)
    experiment = re.search(r"\b(experiment\w*|try(ing)? (it |a model |models |things |one )?out|play(ing)? with|prototyp\w*|"
                           r"prove the pipeline|get(ting)? started|test(ing)? (it|things|the pipeline)|poc)\b", text)
    production = re.search(r"\b(production|at scale|scale up|high[- ]qps|thousands of users|many users)\b", text)
    batch = re.search(r"\b(batch( job)?|offline|summari[sz]\w* .{0,40}(documents?|items?|records|files)|"
                      r"(process|classify|label|translate)\w* .{0,30}(documents?|items?|records|files))\b", text)
    pretrain = re.search(r"\b(pre-?train\w*|from scratch)\b", text)
    phase = None
    if pretrain:
        phase = "pretrain"
    elif batch and not train:
        phase = "batch"
    elif production:
        phase = "production"
    elif experiment and not serve:
        phase = "experiment"
    elif train and serve and not re.fullmatch(r"users?", serve.group()):
        phase = "train-and-serve"
    elif train and serve:
        phase = "train-and-serve"
    elif train:
        phase = "fine-tune"
    elif serve and serve.group() not in ("users", "user", "customers", "customer"):
        phase = "serve"
    if phase:
        u.updates["phase"] = phase
        u.understood.append({"experiment": "trying things out", "fine-tune": "fine-tuning", "serve": "serving",
                             "train-and-serve": "fine-tuning, then serving", "production": "production",
                             "batch": "a batch job", "pretrain": "pretraining"}[phase])
    method = None
    if re.search(r"\bq-?lora\b", text):
        method = "qlora"
    elif re.search(r"\blora\b|\bpeft\b|\badapters?\b", text):
        method = "lora"
    elif re.search(r"\bfull(-| )?(parameter|param|fine-?tun\w*|training|ft|weights)?\b", text) and train:
        method = "full"
    if method:
        u.updates["method"] = method
        u.understood.append({"qlora": "QLoRA", "lora": "LoRA", "full": "full fine-tuning"}[method])


USERS = re.compile(r"(\d[\d,]*(?:\.\d+)?\s*(?:thousand|million|k|m)?|one|two|three|four|five|six|seven|eight|nine|"
                   r"ten|twelve|fifteen|twenty|thirty|forty|fifty|a hundred|hundred|a dozen|a couple of)\s*(\+|plus)?\s*"
                   r"(concurrent |simultaneous |active |internal |)?(users?|people|persons?|colleagues|employees|"
                   r"customers|engineers|developers|researchers|students|analysts|at once|at the same time|"
                   r"simultaneously|concurrently|sessions|chats|requests at once)\b")
TEAM = re.compile(r"\bteam of (\d+|\w+)\b")


def read_users(text: str, u: Understanding, pending: str | None) -> None:
    value = None
    m = None
    for m in USERS.finditer(text):
        if not _negated(text, m.start()):
            value = _number(m.group(1))
    if value is None:
        t = TEAM.search(text)
        if t:
            value = _number(t.group(1))
    if value is None and pending == "users":
        r = re.search(r"(\d+)\s*(?:-|to)\s*(\d+)", text)
        if r:
            value = float(r.group(2))  # size for the top of a range
        else:
            m2 = re.search(r"\b(\d[\d,]*)\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|a hundred|"
                           r"just me|only me|myself|me)\b", text)
            if m2:
                value = 1.0 if m2.group(2) in ("just me", "only me", "myself", "me") else _number(m2.group(1) or m2.group(2))
    if re.search(r"\b(just me|only me|myself|single user|by myself|personal use)\b", text):
        value = 1.0
    if value is not None:
        if value < 1:
            u.problems.append("the number of users must be at least 1")
            return
        if value > 1_000_000:
            u.problems.append(f"{value:,.0f} concurrent users is beyond what one deployment plan can size")
            return
        u.updates["users"] = int(value)
        u.understood.append(f"{int(value)} concurrent user{'s' if value != 1 else ''}")


CONTEXT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\s*(?:-| )?(tokens?|context|ctx|token context|context window)\b"
                     r"|(?:context|ctx|context window|context length)\s*(?:of|=|:)?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\b")


def read_context(text: str, u: Understanding, pending: str | None) -> None:
    value = None
    for m in CONTEXT.finditer(text):
        if _negated(text, m.start()) or re.search(r"(tokens?)\s+(per|a|each)\s+(second|s)\b", text[m.start():m.end() + 12]):
            continue
        number = m.group(1) or m.group(4)
        unit = m.group(2) or m.group(5)
        if re.search(r"(million|m)\s+tokens\s+(of|per|for)?\s*(data|training|dataset)", text[m.start():m.end() + 20]):
            continue
        value = float(number.replace(",", "")) * {"k": 1024, "m": 1024 * 1024, None: 1}[unit]
    if value is None and pending == "context":
        m = re.search(r"\b(\d+(?:\.\d+)?)\s*(k)?\b", text)
        if m:
            value = float(m.group(1)) * (1024 if m.group(2) else 1)
    if value is not None:
        if value < 128:
            u.problems.append(f"a context of {value:,.0f} tokens is too short to size; try 2k-128k")
            return
        if value > 10_000_000:
            u.problems.append(f"{value:,.0f} tokens of context is beyond any model")
            return
        u.updates["context"] = int(value)
        u.understood.append(f"{int(value):,}-token context")


def read_utilisation(text: str, u: Understanding, pending: str | None) -> None:
    value = None
    label = ""
    m = re.search(r"(\d+(?:\.\d+)?)\s*%", text)
    if m and not re.search(r"(discount|off|cheaper|faster|headroom)", text[m.end():m.end() + 12]):
        value = float(m.group(1)) / 100
        label = f"{m.group(1)}% utilisation"
    h = re.search(r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*(?:a|per|each|/)\s*(day|week|month)", text)
    if h:
        per = {"day": 24, "week": 168, "month": 730}[h.group(2)]
        value, label = float(h.group(1)) / per, f"{h.group(1)} hours a {h.group(2)}"
    for pattern, v, lab in (
        (r"24/7|24x7|around the clock|all the time|always on|non-?stop|constantly|continuous(ly)?|all day every day", 1.0, "around the clock"),
        (r"working hours|office hours|business hours|9 ?(to|-) ?5|during the (work ?)?day|weekdays", 0.24, "working hours"),
        (r"\bweekends?\b", 0.29, "weekends"),
        (r"few hours a week|occasional(ly)?|rarely|now and then|sporadic\w*|once a week", 0.05, "a few hours a week"),
        (r"\b(half the time)\b", 0.5, "half the time"),
    ):
        if re.search(pattern, text) and value is None:
            value, label = v, lab
    if value is None and pending == "utilisation":
        n = re.fullmatch(r"\s*(0?\.\d+|\d+(?:\.\d+)?)\s*", text)
        if n:
            x = float(n.group(1))
            value = x / 100 if x > 1 else x
            label = f"{value:.0%} utilisation"
    if value is not None:
        if not 0 < value <= 1:
            u.problems.append("utilisation must be between 0% and 100%")
            return
        u.updates["utilisation"] = round(value, 4)
        u.understood.append(label)


BUDGET = re.compile(r"(\$|usd\s*|us\$|¥|￥|rmb\s*|cny\s*)?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\s*"
                    r"(usd|dollars?|bucks|yuan|rmb|cny)?\s*(a|per|/|each)?\s*(month|mo|year|yr)?")


def read_budget(text: str, u: Understanding, pending: str | None) -> None:
    if not re.search(r"\$|usd|dollar|bucks|¥|￥|yuan|rmb|cny|budget", text):
        return
    best = None
    for m in BUDGET.finditer(text):
        prefix, number, scale, suffix, _per, period = m.groups()
        if not (prefix or suffix) and "budget" not in text[max(0, m.start() - 20):m.start()]:
            continue
        amount = float(number.replace(",", "")) * {"k": 1e3, "m": 1e6, None: 1}[scale]
        currency = "CNY" if ((prefix or "") + (suffix or "")).strip() in ("¥", "￥", "rmb", "cny", "yuan") else "USD"
        best = (amount, currency, period)
    if best:
        amount, currency, period = best
        usd = amount * (rules().usd_per_cny if currency == "CNY" else 1.0)
        monthly = period in ("month", "mo") or (period is None and re.search(r"monthly|a month|per month", text))
        if period in ("year", "yr"):
            usd, monthly = usd / 12, True
        if usd <= 0:
            u.problems.append("a budget must be positive")
            return
        key = "budget_usd_per_month" if monthly else "budget_usd"
        u.updates[key] = round(usd, 2)
        shown = f"¥{amount:,.0f}" if currency == "CNY" else f"${amount:,.0f}"
        u.understood.append(f"a budget of {shown}{' a month' if monthly else ''}")


ITEMS = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|k|m)?\s*(items?|documents?|docs|records|rows|files|samples)\b")


def read_batch_items(text: str, u: Understanding) -> None:
    """Items of an offline batch job ("1 million documents", "10万条")."""
    m = ITEMS.search(text)
    if m:
        scale = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, None: 1}[m.group(2)]
        u.updates["batch_items"] = int(float(m.group(1).replace(",", "")) * scale)
        u.understood.append(f"{u.updates['batch_items']:,} items")


def read_region(text: str, u: Understanding) -> None:
    region = None
    if re.search(r"\b(china|chinese|beijing|shanghai|shenzhen|hangzhou|mainland|autodl|aliyun|alibaba cloud)\b", text):
        region = "china"
    elif re.search(r"\b(europe|european|eu|germany|france|uk|netherlands|sweden|finland|gdpr)\b", text):
        region = "eu"
    elif re.search(r"\b(usa|u\.s\.|united states|america|in the us|us-based|us based|california|texas)\b", text):
        region = "us"
    if region and not re.search(r"\bnot (in )?(china|europe|the us)\b", text):
        u.updates["region"] = region
        u.understood.append({"china": "China", "eu": "Europe", "us": "the US"}[region])


def read_gpus(text: str, u: Understanding) -> None:
    found = find_gpus(text)
    if not found:
        return
    owned = re.search(r"\b(i|we)\b.{0,24}\b(have|own|got|bought)\b|\bmy\b|\bour\b|already (have|own)", text)
    if owned:
        u.updates["owned"] = [f"{count}x {gpu_id}" for _s, _e, gpu_id, count in found]
        u.understood.append("you own " + " and ".join(f"{c} x {g}" for _s, _e, g, c in found))
        return
    if re.search(r"\b(compare|versus|vs\.?|or)\b", text) and len(found) >= 2:
        u.compare_gpus = [g for _s, _e, g, _c in found]
        u.understood.append("compare " + " and ".join(u.compare_gpus))
        return
    _s, _e, gpu_id, count = found[-1]
    u.whatif_gpus = (count, gpu_id)
    u.understood.append(f"{count} x {gpu_id}")


def read_preference(text: str, u: Understanding) -> None:
    if RENT_BUY.search(text):
        u.intents.add("rent_buy")
        return
    if re.search(r"\b(want|prefer|plan|going|like) to buy\b|\bbuy(ing)? (our|my) own\b|\bon-?prem", text):
        u.updates["preference"] = "buy"
        u.understood.append("buying")
    elif re.search(r"\b(want|prefer|plan|going|like) to rent\b|\bcloud\b|\brent(ing)?\b", text):
        u.updates["preference"] = "rent"
        u.understood.append("renting")


# ---------------------------------------------------------------- entry point


def understand(raw: str, pending: str | None = None) -> Understanding:
    u = Understanding()
    text = clean(raw or "")
    if not text:
        u.intents.add("empty")
        return u
    if len(raw) > MAX_MESSAGE_CHARS:
        u.intents.add("truncated")
    if INJECTION.search(text):
        u.intents.add("injection")
    if RESET.search(text):
        u.intents.add("reset")
        return u
    if HELP.match(text):
        u.intents.add("help")
        return u
    if MATH.search(text):
        u.intents.add("math")
    if GREET.match(text):
        u.intents.add("greet")
    if THANKS.search(text):
        u.intents.add("thanks")
    if NOT_SURE.search(text):
        u.intents.add("not_sure")
    rest = read_model(text, u)
    read_precision(rest, u)
    read_phase(rest, u)
    read_users(rest, u, pending)
    read_context(rest, u, pending)
    read_utilisation(rest, u, pending)
    read_budget(rest, u, pending)
    read_batch_items(rest, u)
    read_region(rest, u)
    read_gpus(rest, u)
    read_preference(rest, u)
    if pending and pending not in u.updates and "not_sure" not in u.intents:
        _read_choice_value(text, pending, u)
    return u


CHOICE_WORDS = {
    "phase": {"try a model out": "experiment", "try": "experiment", "fine-tune": "fine-tune", "fine tune": "fine-tune",
              "serve users": "serve", "serve": "serve", "both": "train-and-serve", "fine-tune, then serve": "train-and-serve",
              "production": "production"},
    "method": {"qlora": "qlora", "lora": "lora", "full": "full", "cheapest": "qlora"},
    "preference": {"rent": "rent", "buy": "buy", "either": "either"},
}


def _read_choice_value(text: str, pending: str, u: Understanding) -> None:
    """Bare quick-reply values ("qlora", "serve_users") for the pending question."""
    key = text.strip(" .!").replace("_", " ")
    table = CHOICE_WORDS.get(pending, {})
    if key in table:
        u.updates[pending] = table[key]
        u.understood.append(key)
        return
    if pending == "model":
        try:
            from knowledge import find_model

            m = find_model(key)
            u.updates["model"] = m.id if m.family != "generic" else key.upper()
            u.understood.append(m.name)
        except (NotFound, BadValue, ValueError):
            pass

