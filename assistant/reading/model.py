"""The model a message names: a catalog name ('qwen 72b' -> the newest of that family), a size ('27B', '26B total
with 3.8B active'), a family with a size word, or the size an unknown name carries. Grammar only: the words are in
words/job.yaml and words/families.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.families import either_size, family_pick
from gpu_advisor.assistant.reading.generation import as_text_model
from gpu_advisor.assistant.reading.history import own_model
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.names import family_words, model_index, name_tokens
from gpu_advisor.assistant.reading.roles import moe_shape
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.resolve import BadValue, check_size, normalise


def _alternative_size(m: Message, pos: int, named: list[tuple[int, str]]) -> bool:
    """A bare size said as the other option after a named model ('qwen 14b possible? or the 7b one'), or listed
    right after it ('qwen2.5 14b 32b 哪个适合')."""
    if not any(p < pos for p, _c in named):
        return False
    if word_pattern("size_alternative_before").search(m.masked[max(0, pos - 48):pos]):
        return True
    end = max((e for s, e, _id in m.names if s < pos), default=None)
    return end is not None and bool(word_pattern("size_listed_between").search(m.masked[end:pos]))


def _total_and_active(m: Message) -> list[tuple[int, str]]:
    """Sizes said as total and active ('30b-a3b'); a negative one ('-5b-a3b') is a problem, never sized."""
    found = []
    for x in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)\s*b\s*-?\s*a\s*(\d+(?:\.\d+)?)\s*b\b", m.masked):
        before = m.masked[max(0, x.start() - 2):x.start()]
        if before.endswith("-") and not before[:1].isdigit():
            m.problems.append(("size_not_positive", {}))
        elif not negated(m.masked, x.start()):
            found.append((x.start(), f"{float(x.group(1)):g}B-A{float(x.group(2)):g}B"))
    return found


def read_model(m: Message) -> str | None:
    """The model: a catalog name ('qwen 72b' -> qwen2.5-72b, the newest of that family), a size
    ('27B', '26B total with 3.8B active' -> '26B-A3.8B'), or the size an unknown name carries."""
    candidates: list[tuple[int, str]] = []
    for start, _end, model_id in m.names:
        if not negated(m.text, start):
            candidates.append((start, model_id))
    candidates += _total_and_active(m)
    sizes = m.role("model", "model_total", "model_active")
    for q in sizes:
        total = q.value / 1e9 if q.scale not in ("b", "bn", "billion") else q.number
        if q.role == "model_active":
            continue
        if total <= 0:  # "serve a -5b model": said back as a problem (once), never sized and never raised
            if ("size_not_positive", {}) not in m.problems:
                m.problems.append(("size_not_positive", {}))
            continue
        near = [a for a in sizes if a.role == "model_active" and abs(a.start - q.start) < 60]
        same_sentence = [a for a in near
                         if not re.search(r"\.(?!\d)", m.masked[min(a.start, q.start):max(a.start, q.start)].replace("b.", ""))]
        active = same_sentence[0] if same_sentence else None
        spec = f"{total:g}B" + (f"-A{active.number:g}B" if active else "")
        if re.search(r"(?<![\w.])\d+(?:\.\d+)?\s*b\s*-?\s*a\s*\d", m.masked[q.start:q.end + 6]):
            continue  # "30b-a3b" was read above
        candidates.append((q.start, spec))
    if m.unknown and m.unknown[1] and not candidates:
        candidates.append((0, _with_active(m, m.unknown[1])))
    kept = [(pos, c) for pos, c in candidates if not _given_up(m, pos)]
    if kept and len(kept) < len(candidates):  # "8b if the 70b is too expensive": the 70b is the model now, the 8b the one to size
        candidates, m.gives_up_model = kept, True
    if not candidates:
        return family_pick(m)
    named = [(pos, c) for pos, c in candidates if not c[0].isdigit()]
    either = [c for pos, c in candidates if c[0].isdigit() and "-A" not in c and _alternative_size(m, pos, named)]
    candidates = [(pos, c) for pos, c in candidates if not _restates(c, named)
                  and not (c[0].isdigit() and _alternative_size(m, pos, named))]
    _pos, spec = max(candidates)
    spec = _larger_for_one(m, named, spec)
    _other_models(m, named, spec)
    if either and len(named) == 1 and spec == named[0][1]:
        spec = either_size(m, spec, either)  # "14b or 32b, you pick": the larger, the smaller said
    if spec[0].isdigit():
        spec = moe_shape(m, spec)  # "the 1T MoE": its active parameters assumed and said, never dense
        total_b = float(spec.split("B")[0])
        active_b = float(spec.split("-A")[1].rstrip("B")) if "-A" in spec else total_b
        typed = next((m.masked[q.start:q.end] for q in sizes if q.role != "model_active" and q.scale == "b"
                      and f"{q.number:g}B" == spec.split("-A")[0]), None)  # '123456789012345b': quoted as written
        try:
            check_size(total_b, active_b, typed)
        except BadValue as e:
            m.problems.append((e.code or "bad_value", e.params))
            return None
        return as_text_model(m, _family_and_size(m, spec) or spec)
    return as_text_model(m, spec)


def _with_active(m: Message, size: str) -> str:
    """The size an unknown name carries ('Zhipu-Flux-90B-MoE' -> '90B') with the active parameters said beside
    it ('激活12b', 'A12B', '12b active', 'active 12B'): '90B-A12B', memory from the total, speed from the active."""
    active = [a for a in m.role("model_active") if not a.negated]
    if "-A" in size or not active:
        return size
    return f"{size}-A{active[0].number:g}B"


def _other_models(m: Message, named: list[tuple[int, str]], chosen: str) -> None:
    """Two catalog models named to run side by side ('想本地跑qwen3 14b 顺便试试glm4 9b'): the one sized, and a
    note naming the others, unless the later one replaces the first ('llama 8b, actually 70b')."""
    others = list(dict.fromkeys(c for _pos, c in named if c != chosen))
    if not others or chosen[0].isdigit():
        return
    first = min(pos for pos, _c in named)
    if word_pattern("model_switch_between").search(m.masked[first:max(pos for pos, _c in named)]):
        return
    try:
        names = [find_model(x).name for x in others]
        m.notes.append(("note.model_other", {"chosen": find_model(chosen).name, "others": ", ".join(names),
                                             "first": names[0], "covered": "yes" if all(_covers(chosen, x) for x in others) else ""}))
    except Exception:  # noqa: BLE001 - a name the catalog cannot resolve is reported elsewhere
        return


def _larger_for_one(m: Message, named: list[tuple[int, str]], spec: str) -> str:
    """One person naming two models to run ('Llama 3.1 8B and maybe Qwen 14B', '跑qwen3 14b，顺便试试llama 3.1 8b'):
    the card is sized for the one that holds the others, whichever was said last; a switch ('8b, actually 70b')
    keeps the later one."""
    ids = list(dict.fromkeys(c for _pos, c in named))
    if len(ids) < 2 or spec not in ids or not word_pattern("personal").search(m.masked + " " + m.raw.lower()):
        return spec
    first, last = min(pos for pos, _c in named), max(pos for pos, _c in named)
    if word_pattern("model_switch_between").search(m.masked[first:last]):
        return spec
    try:
        return next((c for c in ids if all(_covers(c, x) for x in ids if x != c)), spec)
    except (LookupError, ValueError):
        return spec


def _covers(chosen: str, other: str) -> bool:
    """Whether a card sized for `chosen` holds `other` too: no more weights and no more KV cache per conversation
    (at the default 8k context), so the smaller model runs on the same card ('Llama 3.1 8B and maybe Qwen 14B')."""
    from gpu_advisor.tools.arch import kv_cache_bytes

    big, small = find_model(chosen), find_model(other)
    return small.total_params_b <= big.total_params_b and \
        kv_cache_bytes(small, 16, 8192, 1) <= kv_cache_bytes(big, 16, 8192, 1)


def _restates(spec: str, named: list[tuple[int, str]]) -> bool:
    """A bare size that is a named model's own size ('deepseek r1 满血版 671b', 'qwen2.5 72b, the 72b one', and a
    MoE's active count, 'DeepSeek V3 激活参数才37B'): the name said again, not another model (within 5% of its total
    or active parameters)."""
    if not spec[0].isdigit() or "-A" in spec or not named:
        return False
    total = float(spec.split("B")[0])
    for _pos, model_id in named:
        try:
            model = find_model(model_id)
        except Exception:  # noqa: BLE001 - a name the catalog cannot resolve restates nothing
            continue
        if abs(model.total_params_b - total) <= 0.05 * model.total_params_b:
            return True
        active = model.active_params_b  # said rounded, as its name does ('A3B' for 3.3B)
        if active < model.total_params_b and abs(active - total) <= max(0.05 * active, 0.5):
            return True
    return False


def _family_and_size(m: Message, spec: str) -> str | None:
    """'a 70B model (llama)' -> llama-3.3-70b: one family word beside a bare size names the newest
    model of that family with that size; a family without that size is reported unknown."""
    if "-A" in spec or m.unknown:
        return None
    if own_model(m):
        return _own_layout(m, spec)  # "our own 13B model, llama2 architecture": Llama 2 13B's layout, said
    words = [w for _s, _e, w in name_tokens(m.masked) if w in family_words()]
    if len(set(words)) != 1:
        return None
    size = spec.lower()
    model_id = model_index().get(normalise(f"{words[0]} {size}"))
    if model_id:
        return model_id
    m.unknown = (f"{words[0]} {size}", spec)
    return None


# A size within this share of a released model's is that model's size ('13B' for Llama 2 13B's 13.0B).
SAME_SIZE = 0.05


def _own_layout(m: Message, spec: str) -> str | None:
    """'我们自己训了一个13B的模型，结构跟llama2差不多', 'our own 13B, llama 2 architecture': a model of theirs said to
    share a released line's layout is sized as that line's model of the size said (its layers, KV heads and native
    context), said so; None when the line has no model of about that size (then the bare size is sized)."""
    from gpu_advisor.assistant.reading.variants import line_said

    hit = line_said(m.text)
    total = float(spec.rstrip("B"))
    found = next((find_model(x) for x in (hit[1] if hit else ())
                  if abs(find_model(x).total_params_b - total) <= SAME_SIZE * total), None)
    if hit is None or found is None:
        return None
    m.notes[:] = [n for n in m.notes if not (n[0] == "note.line_no_size" and n[1].get("line") == hit[0])]
    m.notes.append(("note.own_model_layout", {"size": spec, "model": found.name}))
    return found.id


def _given_up(m: Message, start: int) -> bool:
    """A model named as the one to give up ('if the 70b is too expensive', '如果 70b 太贵', '70b 太贵的话'): not the
    model to size when another is said beside it."""
    end = _end_at(m, start)
    return bool(word_pattern("model_given_up").match(m.masked[end:end + 40]))


def _end_at(m: Message, start: int) -> int:
    """Where the model name or size that starts at `start` ends in the masked text."""
    for s, e, _id in m.names:
        if s == start:
            return e
    for q in m.qty:
        if q.start == start:
            return q.end
    return start

