"""An online RL fine-tune's layout in words (tools.rl.rl_layouts): where the rollouts ran (colocated with the
trainer, or on cards of their own), how long one step takes and why, and which of the two layouts pays on these
cards, with the figures that say why (hours a pass, rollouts in flight, the side that sets the pace)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option
from gpu_advisor.tools.rl import RlLayouts, RlResult


def _h(h: float) -> str:
    return f"{h:.2f}" if h < 0.095 else f"{h:,.1f}" if h < 100 else f"{h:,.0f}"


def _s(s: float) -> str:
    return f"{s:,.2f}" if s < 1 else f"{s:,.0f}"


def step_words(r: RlResult, prompts_per_step: int, lang: str) -> str:
    """One step's time and what sets it, per layout."""
    if r.layout == "colocate":
        return say(lang, "fig.rl_step_colocate", prompts=f"{prompts_per_step:,}", step=_s(r.step_seconds))
    sync = r.sync_hours * 3600 / r.steps if r.steps else 0.0
    key = "fig.rl_step_pipelined" if r.pipelined else "fig.rl_step_sync"
    return say(lang, key, prompts=f"{prompts_per_step:,}", step=_s(r.step_seconds), sync=_s(sync))


def step_prompts(r: RlResult, prompts: int, prompts_per_step: int) -> int:
    """The prompts in one step: the step size, or the whole pass when it holds fewer prompts than a step (256 prompts
    with a train batch of 1,024 make one step of 256, never 'a step of 1,024' as long as the pass)."""
    return prompts_per_step if r.run_steps else min(prompts, prompts_per_step)


def asked_steps_line(r: RlResult | None, steps: int | None, prompts: int, option: str, lang: str) -> str | None:
    """The answer's first line when a step's time is asked ('how long per step at 512 prompts', '一个step大概多久',
    'how long per 100 steps'): the time of those steps on the plan's cards, not a pass over prompts never said."""
    if r is None or not r.fits or not steps or not r.step_seconds:
        return None
    h = _h(r.step_seconds * steps / 3600)
    if steps == 1:
        return say(lang, "literal.duration_step", hours=h, prompts=f"{prompts:,}", option=option)
    return say(lang, "literal.duration_steps", hours=h, steps=f"{steps:,}", prompts=f"{prompts:,}", option=option)


def steps_words(r: RlResult, steps: int | None, lang: str) -> str:
    """The time of the steps asked about ('how long per 1000 steps'): that many times one step's (nothing when they are
    the run's own steps, or the one step the step line times: its time is said already)."""
    if not steps or steps == 1 or not r.step_seconds or steps == r.run_steps:
        return ""
    h = r.step_seconds * steps / 3600
    days = h / 24
    return say(lang, "fig.rl_steps", steps=f"{steps:,}", h=_h(h), days=f"{days:,.1f}" if days < 10 else f"{days:,.0f}")


def per_words(r: RlResult, lang: str) -> str:
    """What the hours said are of: a pass over the prompts, or the run said in steps ('for the run of 2,000 steps')."""
    return say(lang, "rl_per.run", steps=f"{r.run_steps:,}") if r.run_steps else say(lang, "rl_per.pass")


def _why_split_loses(split: RlResult, lang: str) -> str:
    if not split.pipelined:
        return say(lang, "rl_layout.why_sync")
    if split.update_hours >= split.rollout_hours:
        return say(lang, "rl_layout.why_update", t=split.train_gpus, h=_h(split.update_hours))
    return say(lang, "rl_layout.why_rollouts", r=split.rollout_gpus, h=_h(split.rollout_hours))


def layout_lines(run: Option, lang: str) -> list[str]:
    """The verdict on the layout: which pays on these cards, by how much, and why; nothing on one card."""
    lay: RlLayouts | None = run.rl_layouts
    if lay is None or lay.split is None:
        return []
    c, s, n = lay.colocate, lay.split, run.gpus
    ratio, per = f"{lay.ratio:.1f}", per_words(c, lang)
    if lay.for_room:  # the faster layout leaves less than the training margin: the other one, for its room
        key = "rl_layout.split_room" if lay.pays == "split" else "rl_layout.colocate_room"
        line = say(lang, key, n=n, r=s.rollout_gpus, t=s.train_gpus, split_h=_h(s.hours), colo_h=_h(c.hours), per=per)
    elif lay.pays == "split" and not c.fits:
        line = say(lang, "rl_layout.split_only", n=n, r=s.rollout_gpus, t=s.train_gpus, h=_h(s.hours), per=per)
    elif lay.pays == "split":
        line = say(lang, "rl_layout.split_pays", n=n, r=s.rollout_gpus, t=s.train_gpus, split_h=_h(s.hours),
                   colo_h=_h(c.hours), ratio=ratio, split_in=s.rollouts_in_flight, colo_in=c.rollouts_in_flight,
                   per=per)
    elif s.fits and c.fits:
        line = say(lang, "rl_layout.colocate_pays", n=n, r=s.rollout_gpus, t=s.train_gpus, split_h=_h(s.hours),
                   colo_h=_h(c.hours), ratio=ratio, why=_why_split_loses(s, lang), per=per)
    elif c.fits:
        key = "rl_layout.split_unfit_train" if not s.train_fits else "rl_layout.split_unfit_engine"
        line = say(lang, key, n=n, r=s.rollout_gpus, t=s.train_gpus, train=f"{s.train_per_gpu_bytes / 1e9:,.1f}",
                   capacity=f"{s.capacity_bytes / 1e9:,.1f}")
    else:
        return []
    return [line, ""]
