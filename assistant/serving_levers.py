"""The serving levers in an answer: what prefix caching of a shared prompt changed in the plan (tools.prefix_plan)
and what speculative decoding does on its cards (tools.speculative_plan), in the user's language from the
catalogs' `lever.*` sentences. Every figure comes from those tools' results."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.launch_reply import command_lines
from gpu_advisor.assistant.spec_verdict import draft_verdict_lines
from gpu_advisor.knowledge import find_model
from gpu_advisor.tools.launch import LaunchError, launch_for
from gpu_advisor.tools.launch_levers import pool_commands
from gpu_advisor.tools.recommend import Recommendation

GB = 1e9


def _seconds(s: float) -> str:
    return f"{s * 1000:,.0f} ms" if s < 1 else f"{s:,.1f} s"


def _x(v: float) -> str:
    return f"{v:.2f}"


def _joined(sentences: list[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(sentences)


def prefix_lines(rec: Recommendation, lang: str) -> list[str]:
    p = rec.prefix_cache
    if p is None:
        return []
    c = p.cache
    if not p.counted:
        return [say(lang, "lever.prefix.none", shared=f"{c.shared_prefix_tokens:,}"), ""]
    cards = ""
    best = rec.best
    if best is not None and p.fewer_cards:
        cards = say(lang, "lever.prefix.cards", option=f"{best.gpus:,} × {best.gpu_name}",
                    without=f"{p.gpus_without:,} × {best.gpu_name}")
    lines = []
    if p.ttft_s is not None and p.ttft_without_s is not None:
        lines.append(say(lang, "lever.prefix.line", cached=f"{c.cached_tokens:,.0f}", prompt=f"{c.prompt_tokens:,}",
                         rate=f"{c.hit_rate:.0%}", shared=f"{c.shared_prefix_tokens:,}",
                         saved=f"{c.prefill_saved_share:.0%}", ttft=_seconds(p.ttft_s),
                         ttft_without=_seconds(p.ttft_without_s), cards=cards, kv=f"{c.prefix_kv_bytes / GB:,.1f}",
                         switch=say(lang, f"lever.prefix.switch.{c.engine}")))
    if p.own_tokens_assumed is not None:
        lines.append(say(lang, "lever.prefix.own", own=f"{p.own_tokens_assumed:,}"))
    if rec.workload.prefix_hit_rate is None:
        lines.append(say(lang, "lever.prefix.hit_default", rate=f"{c.hit_rate:.0%}"))
    return [_joined(lines, lang), ""] if lines else []


def speculative_lines(rec: Recommendation, lang: str) -> list[str]:
    s = rec.speculative
    if s is None:
        return []
    if s.refused is not None:
        draft = find_model(s.named).name if s.named else ""
        return [say(lang, f"lever.spec.refused.{s.refused}", model=rec.model_name, draft=draft), ""]
    if s.named is not None and s.one is not None:  # 'X as the draft, worth it?': its verdict (assistant.spec_verdict)
        return draft_verdict_lines(rec, lang)
    r = s.result
    if r is None:
        return []
    draft = r.draft_repo if r.method == "eagle3" and r.draft_repo else \
        say(lang, f"speculative.{r.method}") if r.method != "draft" else f"{say(lang, 'speculative.draft')} ({r.draft})"
    fits = say(lang, "lever.spec.fits") if s.fits else say(lang, "lever.spec.no_room",
                                                            room=f"{(s.headroom_bytes or 0) / GB:,.1f}")
    batch = rec.best.users_per_replica if rec.best is not None and rec.best.users_per_replica else None
    shown = batch or max(1, rec.workload.users)
    line = [say(lang, "lever.spec.line", draft=draft, k=r.tokens, a_low=f"{r.acceptance[0]:.0%}",
                a_high=f"{r.acceptance[1]:.0%}", e_low=_x(r.tokens_per_step[0]), e_high=_x(r.tokens_per_step[1]),
                batch=f"{shown:,}", lo=_x(r.speedup[0]), hi=_x(r.speedup[1]), tps=f"{s.tokens_per_s or 0:,.0f}",
                tps_lo=f"{(s.tokens_per_s_with or (0, 0))[0]:,.0f}", tps_hi=f"{(s.tokens_per_s_with or (0, 0))[1]:,.0f}",
                gb=f"{r.draft_bytes_per_gpu / GB:,.1f}", fits=fits)]
    rows = say(lang, "list_sep").join(say(lang, "lever.spec.by_batch_row", batch=f"{b:,}", lo=_x(lo), hi=_x(hi))
                                      for b, lo, hi in r.speedup_by_batch)
    line.append(say(lang, "lever.spec.by_batch", rows=rows))
    if r.faded:
        line.append(say(lang, "lever.spec.faded", batch=f"{shown:,}", lo=_x(r.speedup[0]), hi=_x(r.speedup[1])))
    if r.method == "eagle3" and r.draft_repo is None:
        line.append(say(lang, "lever.spec.no_head", model=rec.model_name))
    return [_joined(line, lang), ""]


def disagg_lines(rec: Recommendation, lang: str) -> list[str]:
    """Prefill and decode pools beside a request-rate plan, only where they pay (tools.disagg), with their commands."""
    d = rec.disaggregation
    if d is None or not d.pays:
        return []
    lines = [say(lang, "lever.disagg.pays", share=f"{d.prefill_share:.0%}", prefill=f"{d.prefill_copies:,}",
                 decode=f"{d.decode_copies:,}", gpus=f"{d.gpus:,}", colocated=f"{d.colocated_gpus:,}",
                 tpot=_seconds(d.tpot_s), tpot_colocated=_seconds(d.tpot_colocated_s),
                 transfer=_seconds(d.kv_transfer_s))]
    try:
        cmd = launch_for(rec)
    except LaunchError:
        cmd = None
    pools = pool_commands(cmd) if cmd is not None else None
    if cmd is None or pools is None:
        return [_joined(lines, lang), ""]
    block = ["```bash"]
    for key, argv in (("prefill", pools[0]), ("decode", pools[1])):
        block += [say(lang, f"lever.disagg.{key}"), *command_lines(cmd.model_copy(update={"argv": argv}), wrapped=True)]
    return [_joined(lines, lang), "", say(lang, "lever.disagg.commands"), *block, "```", ""]


def lever_lines(rec: Recommendation, lang: str) -> list[str]:
    return prefix_lines(rec, lang) + speculative_lines(rec, lang) + disagg_lines(rec, lang)
