"""Number roles that the words around them override once every quantity has its first role: a share of
the people online at once is people, not how busy the cards are; a size said as a MoE is a total. Grammar only: the words are in
words/roles.yaml."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_gpu, models

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message


def online_share(m: Message) -> None:
    """'3000 staff, 5% online at peak', '员工5000人，高峰5%在线': the people at once are the people who use it
    times the share (150), said in a note; the percentage is never a utilisation. With no count of people
    in the message the share is only kept from being read as one."""
    for q in m.role("utilisation_percent", "uptime"):  # '峰值在线率5%' reads 在线率 as uptime first
        i = m.qty.index(q)
        after = m.masked[q.end:q.end + 60]
        before = m.masked[max(0, q.start - 40):q.start]
        if q.role == "uptime" and not word_pattern("online_share_before").search(before):
            continue  # '可用性99.9% 并发两百': an availability target, then the people at once
        if not (word_pattern("online_share_after").match(after) or word_pattern("online_share_before").search(before)):
            continue
        # the people who use the service (staff, DAU, monthly actives), never a company's headcount; a plain
        # count of users only when no such population is said
        everyone = [p for p in m.role("population", "daily_users") if p.value >= 1] or \
            [p for p in m.role("users") if p.extra != "concurrent" and p.value >= 1]
        if not everyone:
            m.qty[i] = replace(q, role="online_share")
            continue
        before_share = [p for p in everyone if p.start < q.start]
        of = (before_share or everyone)[-1]
        population = of.value
        at_once = max(1, math.ceil(population * q.value / 100 - 1e-9))
        m.notes.append(("note.online_share", {"share": f"{q.value:g}", "population": f"{population:,.0f}",
                                              "n": f"{at_once:,}"}))
        m.qty[i] = replace(q, role="users", extra="concurrent", number=float(at_once), scale="")
        if of.role == "users" or (of.role == "daily_users" and of.extra == "month"):
            m.qty[m.qty.index(of)] = replace(of, role="population")  # the share was said of them: they use it


# The fewest parameters a count said in plain digits names ('5亿参数' is 0.5B): smaller counts near 'parameters' are
# something else.
FEWEST_PARAMS = 1e8


def param_counts(m: Message) -> None:
    """A count of parameters said in full ('总参数两千三百亿', '2300亿参数', '激活220亿', read as 230000000000 and
    22000000000): the model's size in billions, the one beside an active word its active parameters."""
    for i, q in enumerate(m.qty):
        if q.role or q.scale or q.negated or q.value < FEWEST_PARAMS:
            continue
        before, after = m.masked[max(0, q.start - 40):q.start], m.masked[q.end:q.end + 40]
        if word_pattern("param_active_before").search(before) or word_pattern("param_active_after").match(after):
            role = "model_active"
        elif word_pattern("param_count_before").search(before) or word_pattern("param_count_after").match(after):
            role = "model"
        else:
            continue
        m.qty[i] = replace(q, number=q.value / 1e9, scale="b", role=role)


def moe_sizes(m: Message) -> None:
    """'the 1T MoE', '300B的MoE': a total said as a mixture of experts is the model's total; 'A32B' said
    alone is its active parameters."""
    for i, q in enumerate(m.qty):
        if q.role in ("", "model") and q.scale in ("b", "bn", "billion", "t", "trillion") and not q.negated \
                and word_pattern("moe_after").match(m.masked[q.end:q.end + 40]):
            m.qty[i] = replace(q, role="model_total")
    if m.role("model_active"):
        return
    for x in word_pattern("moe_active_glued").finditer(m.masked):
        m.qty.append(Quantity(float(x["active"]), "b", x.start(), x.end(), role="model_active"))
        break


def moe_shape(m: Message, spec: str) -> str:
    """A size read as dense ('1000B') for a model the message calls a MoE, with no active parameters said:
    the active share of the catalog's MoE nearest in total size, said in a note (memory follows the total,
    speed the active parameters). Never a silent dense model."""
    called_moe = m.live("moe_said") or bool(m.unknown and word_pattern("moe_said").search(
        re.sub(r"[\u3400-\u9fff]+", " ", m.unknown[0].lower())))  # '九章MoE-100B': the Latin part says MoE
    if not re.fullmatch(r"\d+(?:\.\d+)?B", spec) or not called_moe or m.live("moe_not"):  # 'Zhipu-Flux-90B-MoE'
        return spec
    total = float(spec[:-1])
    moes = [x for x in models() if x.num_experts and x.active_params_b < x.total_params_b]
    if not moes:
        return spec
    like = min(moes, key=lambda x: (abs(math.log(x.total_params_b / total)), -x.as_of.toordinal()))
    active = float(f"{total * like.active_params_b / like.total_params_b:.2g}")
    m.notes.append(("note.moe_active_assumed", {"total": f"{total:g}", "active": f"{active:g}", "like": like.name,
                                                "like_total": f"{like.total_params_b:g}",
                                                "like_active": f"{like.active_params_b:g}"}))
    return f"{total:g}B-A{active:g}B"


def npu_counts(m: Message) -> None:
    """'8卡910C', '8x Ascend 910C': cards counted as packages, read as the NPUs software sees (two dies each:
    16 NPUs of 64 GB), said in a note; a count said in NPUs or dies, or a server by its model name (whose
    count is already in NPUs), is kept."""
    for i, (s, e, gpu_id, count) in enumerate(m.gpus):
        if gpu_id.startswith("custom:"):
            continue
        gpu = find_gpu(gpu_id)
        if gpu.npus_per_package < 2:
            continue
        near = m.text[max(0, s - 16):e + 16]
        if s not in m.counted:  # 'is 910C worth it instead': no count said, sized at the NPUs the job takes
            continue
        if word_pattern("npu_word").search(near) or (s in m.per_server and word_pattern("server_word").search(m.text[s:e])):
            continue
        npus = count * gpu.npus_per_package
        m.gpus[i] = (s, e, gpu_id, npus)
        m.notes.append(("note.npus_per_package", {"count": f"{count}", "npus": f"{npus}", "per": f"{gpu.npus_per_package}",
                                                  "name": gpu.name, "memory": f"{gpu.memory_gb:g}",
                                                  "card": gpu.id.rpartition("-")[2].upper()}))  # '910C', '310P'


def daily_batch(m: Message) -> bool:
    """Items counted per day or night with a same-day or overnight deadline ('nightly 200k docs must finish by
    6am', '每天3万份病历，当天跑完'): an offline batch job, its throughput over the window, never users."""
    return bool(m.role("items") and m.live("items_per_period") and m.live("finish_cue"))
