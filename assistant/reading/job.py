"""Readers of the job: phase, precision, fine-tuning method and data, batch items (the model: reading/model.py)."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.growth import a_quarter
from gpu_advisor.assistant.reading.history import past_training
from gpu_advisor.assistant.reading.item_volume import volume_said
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.pair_tokens import pair_note
from gpu_advisor.assistant.reading.roles import daily_batch
from gpu_advisor.assistant.reading.shared_prompt import shared_prompt, with_shared_prompt
from gpu_advisor.assistant.reading.short_chat import short_chat
from gpu_advisor.assistant.reading.stated_lengths import one_label
from gpu_advisor.assistant.reading.text import (
    EXAMPLE_TOKENS,
    INSTRUCTION_TOKENS,
    MASK,
    SHORT_OUTPUT_TOKENS,
    pattern_rows,
    vocab,
    word_pattern,
)
from gpu_advisor.knowledge import engines, find_model

SERVING = ("serve", "production", "train-and-serve")  # phases whose requests have prompts, not items


def read_phase(m: Message) -> str | None:
    """The project phase from its verbs: pretraining ('from scratch'), an offline batch job
    ('summarise 1M documents'), production, trying things out, fine-tuning, serving, or both."""
    t = m.masked
    live = m.live
    pretrain = [x for x in live("phase.pretrain") if not past_training(t, x)]  # "we pretrained our own": history
    train = train_words(m)
    strong = [x for x in live("phase.serve_strong") if not word_pattern("phase.online_training").match(t, x.start())]
    weak = live("phase.serve_weak")
    experiment = live("phase.experiment") or re.search(rf"{vocab()['try_before_name']}{MASK}", t)
    if not experiment:
        strong += live("phase.serve_product")  # "for our chatbot": serving ("prototype a chatbot" is trying out)
    production = live("phase.production")
    users = m.role("users", "population") + [q for q in m.role("daily_users") if q.extra != "month"]
    # "for about 300 doctors", "200 DAU": people who use it, some at once (monthly users size nothing)
    items = m.role("items", "per_item_tokens", "output_tokens")
    no_users = list(word_pattern("no_users").finditer(t))
    counted = m.role("items")
    verbs = [x for x in live("phase.batch_verbs")
             if (re.search(rf"\b{vocab()['item_nouns']}\b", t[x.end():x.end() + 60])
                 and (counted or not strong)) or items]
    due = m.role("deadline") or any(p.search(t) for p, _hours in pattern_rows("deadline_words")) or daily_batch(m)
    if (users or m.role("request_rate") or word_pattern("local_use").search(t)) and not counted and not due:
        verbs = []  # "12 paralegals will use it to summarise ...", "500 rps ... (basically classification)": requests live
    counted_job = counted and (m.role("output_tokens") or due) and not users and (not strong or (due and volume_said(m)))
    # ('部署…每天两万张图片，8小时内跑完': a day's items with a window are a batch, whatever the verb; reading.item_volume)
    encoder_items = (counted or m.role("examples")) and _encoder_named(m) and not train
    batch = live("phase.batch") or verbs or (no_users and items) or counted_job or encoder_items
    if pretrain and live("phase.continued_pretrain"):
        return "continued-pretrain"  # from a released checkpoint: every weight trained, the same 6·N·D
    if pretrain:
        return "pretrain"
    if batch and not train:
        if _training_data(m):  # "summarise 2M docs ... to build a training set": the training comes later
            m.notes.append(("note.batch_for_training", {}))
        return "batch"
    if production and not train and (m.role("request_rate") or m.role("ttft_ms", "ttft_s", "e2e_ms") or users):
        return "serve"  # "llama 3.1 405b in production, p95 ttft 3s, 5 rps": a service running, nothing to train
    if production:
        return "production"
    has_model = bool(m.names or m.role("model", "model_total") or m.unknown)
    targets = m.role("ttft_ms", "ttft_s", "e2e_ms", "tokens_per_s", "ms_per_token", "s_per_token", "prompt_tokens")
    runs = live("phase.run_it")
    if experiment and not strong and not (runs and not train and has_model):
        return "experiment"  # ("try out llama 8b locally", "本地跑个glm4玩玩": running it is serving, no training)
    rollouts = strong and not users and m.live("objective.rl")  # '训练和推理的卡怎么分' in an RL run: rollout inference
    if train and ((strong and not rollouts) or any(q.value > 1 for q in users)):
        return "train-and-serve"
    if train:
        return "fine-tune"
    if strong:
        return "serve"
    latency = m.role("ttft_ms", "ttft_s", "e2e_ms", "tokens_per_s", "ms_per_token", "s_per_token")
    if m.role("request_rate") and (latency or has_model):
        return "serve"  # "300 req/s peak, p99 under 400ms": requests arriving live, answered within a time
    private = live("phase.serve_private")  # '私有化部署…五十个人同时用': a deployment people use is serving
    if (weak and (has_model or targets or m.gpus)) or (users and (has_model or targets or private)) \
            or (weak and m.pending == "phase") \
            or m.role("e2e_ms") \
            or volume_said(m):  # "p95 end to end under 8s for 400 token responses": answers, each back in a time;
        # '~20k invoices a day' with no window: a rate over the day (reading.item_volume)
        m.weak.add("phase")  # "what if we use the A6000s?": no reason to drop a phase already known
        return "serve"  # ("just me, chatting and coding" at the phase question)
    return None


def train_words(m: Message) -> list[re.Match[str]]:
    """Words that say the job trains: not a training set named as a thing ("to build a training set", "训练数据"),
    not a description of a model, not training done in the past."""
    t = m.masked
    return [x for x in m.live("phase.train")
            if not word_pattern("train_as_noun").match(t[x.start():x.end() + 16])
            and not _descriptive(t, x) and not past_training(t, x)]


def _training_data(m: Message) -> bool:
    return any(word_pattern("train_as_noun").match(m.masked[x.start():x.end() + 16]) for x in m.live("phase.train"))


def _encoder_named(m: Message) -> bool:
    """An embedding or reranking model named: counted items go through it as a batch job (it serves no chat)."""
    for _start, _end, model_id in m.names:
        try:
            if find_model(model_id).encoder:
                return True
        except Exception:  # noqa: BLE001 - a name the catalog cannot resolve is reported elsewhere
            continue
    return False


def _descriptive(text: str, x: re.Match[str]) -> bool:
    """'a fine-tuned llama', 'we already fine-tuned it', 'our own finetune': words that describe the model, no job."""
    before = text[max(0, x.start() - 32):x.start()]
    if word_pattern("finetune_noun").match(x.group()):  # 'our own finetune', 'serve a fine-tune of mistral'
        return bool(word_pattern("finetune_noun_owner").search(before) and not word_pattern("finetune_noun_job").match(text, x.end()))
    if not x.group().endswith("ed"):
        return False
    return bool(word_pattern("participle_before").search(before[-16:]))


def read_precision(m: Message) -> str | None:
    """The weight precision: 'in int4', '4-bit', 'AWQ', 'Q4_K_M', 'unquantised (bf16)'. Not the
    KV cache's ('FP8 KV cache') nor QLoRA's 4-bit base."""
    hits = []
    t = m.masked
    if word_pattern("precision_choice").search(t):
        return None  # "q4 or q8?": a choice asked about, answered by the sizing, not made by the user
    for pattern, pid in pattern_rows("precision"):
        for x in pattern.finditer(t):
            if negated(t, x.start()) or word_pattern("precision_unsupported_before").search(t[max(0, x.start() - 24):x.start()]):
                continue  # "V100不支持bf16": a format the card lacks, not the one chosen
            if word_pattern("precision_not_weights").match(t[x.end():x.end() + 20]) \
                    or word_pattern("precision_checkpoint_after").match(t[x.end():x.end() + 20]) \
                    or word_pattern("precision_checkpoint_before").search(t[max(0, x.start() - 30):x.start()]):
                continue  # 'bf16 by default', 'ships in bf16': the checkpoint described, no format asked for
            if word_pattern("precision_not_weights_before").search(t[max(0, x.start() - 20):x.start()]) \
                    or a_quarter(t, x.start(), x.end()):  # "by Q3": a date
                continue
            hits.append((x.start(), x.end(), x.group().lower() if pid == "=" else pid))
    inner = [h for h in hits if any(o is not h and o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0]
                                    for o in hits)]
    hits = [h for h in hits if h not in inner]
    if any(h[2] != "native" for h in hits):
        hits = [h for h in hits if h[2] != "native"]  # "按 FP8 原精度": the format named is the native one meant
    return _named_format(hits, t)


# A generic bit width said beside a named format ('awq int4', 'int4 awq', 'gptq 4bit'): the named one (its engine, its file).
GENERIC_BITS = frozenset({"int4", "int8"})


def _named_format(hits: list[tuple[int, int, str]], t: str) -> str | None:
    if not hits:
        return None
    last = max(hits)
    if last[2] in GENERIC_BITS:
        near = [h for h in hits if h[2] not in GENERIC_BITS and h[2] != "native"
                and not t[min(h[1], last[1]):max(h[0], last[0])].strip(" -_/")]
        if near:
            return near[-1][2]
    return last[2]


def read_method(m: Message) -> str | None:
    """How to fine-tune: 'qlora', 'lora' or 'full' ('fully fine-tune', 'all weights', 'rather than
    QLoRA, full')."""
    hits = []
    qlora_spans = [x.span() for x in word_pattern("method.qlora").finditer(m.masked)]
    for name in ("qlora", "lora", "full"):
        for x in word_pattern(f"method.{name}").finditer(m.masked):
            if name == "lora" and any(s <= x.start() < e for s, e in qlora_spans):
                continue
            if name == "full" and word_pattern("method.full_alone").fullmatch(x.group().strip()) \
                    and not (word_pattern("method.named").search(m.masked) or m.pending == "method"):
                continue
            if not negated(m.masked, x.start()) and not word_pattern("method_turned_down").match(m.masked[x.end():x.end() + 30]):
                hits.append((x.start(), name))  # "LoRA吧，全参太贵了": the full fine-tune judged, not chosen
            elif m.pending == "method":
                m.notes.append((f"note.not_{name}", {}))  # "not qlora" at the question: said back, asked again
    if len({name for _s, name in hits}) > 1:
        # "can i full finetune X or is it qlora only": the method asked about, not its fallback
        fallback = {h for h in hits if word_pattern("method_fallback_before").search(m.masked[max(0, h[0] - 24):h[0]])}
        if fallback and len(fallback) < len(hits):
            hits = [h for h in hits if h not in fallback]
    return max(hits)[1] if hits else None


def read_objective(m: Message) -> str | None:
    """The training objective: 'rl' for online RL (GRPO, PPO, rollouts, 强化学习), 'dpo' for DPO, ORPO, KTO, SimPO,
    preference pairs; 'sft' when said."""
    for name in ("rl", "dpo", "sft"):
        if m.live(f"objective.{name}"):
            return name
    return None


def _first_said(text: str, rules: str) -> Any:
    """The value of the first row of a vocabulary rule list whose pattern the text says, not negated."""
    for pattern, value in pattern_rows(rules):
        x = pattern.search(text)
        if x and not negated(text, x.start()):
            return value
    return None


def read_qlora_base(m: Message) -> int | None:
    """Bits of QLoRA's frozen base ('qlora with an 8-bit base', '2-bit base')."""
    bits = _first_said(m.masked, "qlora_base_bits")
    return int(bits) if bits else None


def read_seq_len(m: Message) -> int | None:
    """The training sequence length: 'examples of 1k tokens', 'seq len 8192', '序列长度4096'."""
    if m.phase in ("serve", "production", "batch"):
        return None  # "每份大概32k token": a prompt's or an item's length, no training sequence
    for i in range(len(vocab()["seq_len_patterns"])):
        x = word_pattern(f"seq_len_patterns.{i}").search(m.text)
        if x and not negated(m.text, x.start()):
            value = float(x.group("n").replace(",", "")) * (1000 if x.group("k") else 1)
            if 16 <= value <= 1_048_576:
                return round(value)
            m.problems.append(("seq_len_range", {"value": f"{value:,.0f}"}))
            return None
    each = [q for q in m.role("per_item_tokens") if 16 <= q.value <= 1_048_576]
    if each and m.role("examples", "items"):
        if each[-1].extra.startswith("range|"):  # "1-2k tokens each": the longest example sizes the sequence
            return round(float(each[-1].extra.split("|")[-1]))
        return round(each[-1].value)  # "45k chat examples (avg maybe 3k tokens)", "50万条 平均长度2k": one example's length
    return None


def read_kv_cache(m: Message) -> int | None:
    """Bits of the KV cache asked for ('fp8 kv cache', 'kv cache in 8-bit', 'q4 kv'), not negated."""
    bits = _first_said(m.text, "kv_cache_bits")
    return int(bits) if bits else None


def read_engine_app(m: Message) -> str | None:
    """An app named that runs llama.cpp ('with ollama', '用LM Studio'): said back by its name, sized as llama.cpp."""
    if read_engine(m) != "llama.cpp":
        return None
    return _first_said(m.masked, "engine_apps")


def read_framework(m: Message) -> str | None:
    """The fine-tuning framework named ('with unsloth', 'torchtune with FSDP', '用LLaMA-Factory'), not negated."""
    return _first_said(m.masked, "frameworks")


def read_mixed_precision(m: Message) -> bool | None:
    """Full fine-tuning's state precision asked for: 'pure bf16' (no FP32 master copy) is False, 'mixed
    precision' / 'fp32 master weights' is True; not negated."""
    said = _first_said(m.masked, "training_state_precision")
    return None if said is None else said == "mixed"


def read_engine(m: Message) -> str | None:
    """The serving engine named ('with sglang', 'on llama.cpp', '用ollama'), not negated. An engine the
    tools have no model of ('with TGI', '用lmdeploy') is said to be sized as the nearest one."""
    said = _first_said(m.masked, "engines")
    if said is None:
        for start, _end, engine_id in m.engines:
            by_id = {e.id: e for e in engines()}
            engine = by_id[engine_id]
            if engine.sized_as != engine.id and not negated(m.text, start):
                m.notes.append(("note.engine_sized_as", {"name": engine.name, "other": by_id[engine.sized_as].name}))
                break
    return said


def read_train_tokens(m: Message) -> float | None:
    """Training tokens per epoch: '500M training tokens', 'on 300M tokens', '2T tokens', or
    examples x tokens each ('50k examples of 1k tokens' -> 5e7, 20k preference pairs x 1.5k)."""
    direct = m.role("train_tokens")
    if direct:
        return float(direct[-1].value)
    if not trains(m) or m.live("objective.rl"):
        return None  # online RL trains on what it generates: prompts x samples x lengths (tools.rl), not examples
    counts = m.role("examples", "items")
    each = m.role("per_item_tokens")
    if counts and each:
        return float(counts[-1].value * each[-1].value)
    if counts and not m.role("output_tokens"):
        n = counts[-1].value
        tokens, values = pair_note(m, n, _typical_tokens(m, counts[-1].end) or EXAMPLE_TOKENS)  # (pairs: both sides)
        m.notes.append(("note.example_tokens", values))
        return float(n * tokens)
    return None


def _typical_tokens(m: Message, end: int) -> int | None:
    """Tokens in one example of the kind named right after its count ('20,000 messages': a chat message,
    about 60), or None when the noun has no typical length on record."""
    table = vocab()["example_tokens_by_noun"]
    words = re.findall(r"[a-z&]+", m.masked[end:end + 40])[:5]  # "messages", "support tickets", "of my own notes"
    pairs = [" ".join(words[i:i + 2]) for i in range(len(words) - 1)]
    return next((table[w] for w in [*pairs, *words] if w in table), None)


def trains(m: Message) -> bool:
    """Whether the message is about training (so counts are examples, not items of a batch job)."""
    said = bool(train_words(m) or m.live("phase.pretrain"))
    if not said and _encoder_named(m):
        return False  # "rerank 1M query-passage pairs with bge-reranker": pairs to score, not to train on
    words = said or bool(m.role("examples"))
    return words and not (m.live("phase.batch") and not train_words(m))


def read_epochs(m: Message) -> float | None:
    """Passes over the data: '3 epochs', 'one epoch', '训练2轮'."""
    found = m.role("epochs")
    if not found:
        return None
    value = found[-1].value
    if not 0 < value <= 1000:
        m.problems.append(("epochs_range", {}))
        return None
    return float(value)


def _weakly_served(m: Message) -> bool:
    """Serving read only from a verb like 'use' ('数据是3万条，而且我想用14B的'), no people or requests: the items
    counted stay (a fine-tuning plan before takes them as its examples, assistant.engine)."""
    return "phase" in m.weak and not m.role("users", "population", "request_rate")


def read_batch_items(m: Message) -> int | None:
    """Items of an offline job: '1 million documents', '10万条'; at the items question a bare number."""
    if trains(m) or (m.phase in SERVING and not _weakly_served(m)):
        return None  # serving: '一份32k tokens' is one request's length, not a job of one item
    found = m.role("items")
    if not found and m.phase == "batch":
        found = m.role("examples")
    if not found and m.pending == "batch_items":
        found = [q for q in m.qty if not q.role and not q.negated and q.value >= 1 and q.start not in m.named]
    if not found:
        return None
    # '250k documents, avg 6 pages each': the 6 is each document's size in pages, not the job's items (review CE #3)
    found = [q for q in found if q is found[0] or not word_pattern("item_size_after").match(m.masked[q.end:])]
    value = found[-1].value
    if value < 1:
        m.problems.append(("batch_items_min", {}))
        return None
    return int(value)


def read_batch_input_tokens(m: Message) -> int | None:
    """Tokens read per item: '2k tokens each' (2,000), '2k-token documents'."""
    if trains(m) or m.phase in SERVING:
        return None  # serving: a request's length is its prompt (read_prompt_tokens)
    found = m.role("per_item_tokens")
    found = [q for q in found if not q.said.endswith("|page")] or found  # '25 pages, ~12k tokens': the tokens said
    if not found and m.phase == "batch":
        found = m.role("prompt_tokens") or m.role("context")  # "articles are ~2k tokens"
    if not found or found[-1].value < 1:
        return with_shared_prompt(m, None)  # "plus a 400-token prompt", no item length said: the prompt's
    q = found[-1]
    if shared_prompt(m):  # "~300 tokens each plus a ~400 token prompt": the prompt said is read with every item
        return with_shared_prompt(m, round(q.value))
    if q.said and q.role == "per_item_tokens":  # "标题 30 个字" to label: the item's text, read with the task's
        # instructions; in a message that does not say the job, the conversation's job decides (engine: not a
        # training example's length, which is the example itself)
        total = round(q.value) + INSTRUCTION_TOKENS
        key = "note.instruction_prompt" if m.phase == "batch" else "note.instruction_prompt_if_batch"
        note = (key, {"text": f"{q.value:,.0f}", "extra": f"{INSTRUCTION_TOKENS:,}", "total": f"{total:,}"})
        if note not in m.notes:
            m.notes.append(note)
        return total if m.phase == "batch" else round(q.value)
    return int(q.value)


def read_batch_output_tokens(m: Message) -> int | None:
    """Tokens written per item: '200-token summaries', '~100 output tokens per document'."""
    if trains(m) or m.phase in ("serve", "production", "train-and-serve"):
        return None
    found = m.role("output_tokens")
    if not found and m.live("output_none"):
        return 0  # "it doesn't generate anything": an embedding or scoring job reads only
    if not found and (label := one_label(m)):
        return label  # "output is just a one word label", "只输出是或否": a few tokens
    if not found and m.live("output_short"):
        return SHORT_OUTPUT_TOKENS  # "outputs are short": a label or a few words
    if not found and (m.live("output_same_length") or m.live("output_like_input")):
        return read_batch_input_tokens(m)  # "outputs of similar length", "similar out": as long as what is read
    return round(found[-1].value) if found and found[-1].value >= 1 else None  # '2000字': 1,429, as the note says


def read_prompt_tokens(m: Message) -> int | None:
    """Typical prompt length when serving: 'prompts around 4k tokens' (4,000); in a message that trains, then
    serves ('finetune ..., then serve it at 10 rps, prompts 2k / outputs 300') the served requests' prompt."""
    if m.phase == "batch" or (trains(m) and m.phase != "train-and-serve"):
        return None
    found = m.role("prompt_tokens")
    if not found and (m.phase in SERVING or shared_prompt(m)):
        found = m.role("per_item_tokens")  # "合同每份大概5万字 ... 10个法务同时用": each request reads one
    if not found:
        return with_shared_prompt(m, None) or short_chat(m, "prompt_tokens")  # "mostly short chats": said
    return with_shared_prompt(m, int(found[-1].value)) if found[-1].value >= 1 else None

