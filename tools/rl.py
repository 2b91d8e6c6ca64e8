"""Online reinforcement-learning fine-tuning (GRPO, PPO and kin) on n cards: rollouts, then a policy update.

One pass over the prompts has two parts, sized with the tools that size each:
- rollout generation: every prompt is answered `samples` times (the group) by an inference engine (vLLM, as
  TRL, verl and OpenRLHF use) holding the current policy: a batch generation job of prompts x samples
  sequences, prompt_tokens read and completion_tokens written each (tools.throughput);
- the policy update: training on the generated sequences, prompts x samples x (prompt + completion) tokens,
  with the reference model's forward pass for the KL penalty (tools.training_time); PPO also trains a value
  model (critic) of the policy's size, which doubles the update's compute and training state.

Memory: colocated, as TRL's vllm_mode="colocate" and verl's hybrid engine run it: the training state (sharded
with ZeRO-3 over the cards, a frozen BF16 reference copy when every weight trains; with LoRA the reference is
the base with the adapters switched off) shares each card with the engine's BF16 copy of the policy, and the
KV cache of the rollouts in flight takes what is left.

Split, as OpenRLHF, verl with separate rollout and actor pools, and TRL's vllm_mode="server" run it: `rollout_gpus`
cards hold only the engine (its BF16 weights, tensor parallel as small as fits, and the whole rest of their memory
for KV cache, so more rollouts in flight), the other cards hold only the training state (ZeRO-3 over them). After
each step the trainer sends the new weights to the engine: one BF16 copy over the link between the cards
(tools.throughput.link: NVLink, else PCIe). A step is `prompts_per_step` prompts (1,024, the train batch of verl's
and OpenRLHF's example GRPO scripts). Synchronous (TRL's server mode, and verl and OpenRLHF by default) a step takes
the rollouts, then the update, then the sync, each side idle while the other works; pipelined (OpenRLHF
--async_train, verl's one-step-off-policy: the rollouts of step k+1 run during the update of step k, one step
stale) it takes the slower of the two plus the sync. `rl_layouts` sizes both layouts on the same cards and says
which one pays (the same cards cost the same per hour, so the faster).

The run: a pass over the prompts (x epochs), or, when the user says it in steps ('~2000 steps'), that many steps:
one step sized, every total times the steps (its hours and price are the job's, what a budget is weighed against).

A reward model, when named, is held in BF16 sharded over the training cards and scores every sequence with one
forward pass; PPO's critic is the policy's size unless named (then its own training state and time).
Over several servers of your own joined by Ethernet (`server_gpus`, `network_gbit_per_s`), the colocated run is data
parallel across them (tools.rl_sync: HSDP, the training state sharded over each server's cards, the rollouts generated
on each server's own): every step adds one gradient all-reduce between the servers. When one server's cards cannot hold
that shard, the training state is sharded over all the cards (ZeRO-3, `full_shard`) and every micro-batch gathers the
weights over the Ethernet (tools.training_time's network term). The split layout is not sized there (its trainer
would shard, or send the weights, over the Ethernet).

Not modelled: a reward computed by a rule or a verifier (free), the colocated engine's sleep and wake between
phases, and weight syncing in the colocated layout (in memory).
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import ToolError, ToolInput
from gpu_advisor.tools.cost import Region
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.phases import (
    DEFAULT_COMPLETION_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    DEFAULT_SAMPLES,
    PROMPTS_PER_STEP,
)
from gpu_advisor.tools.rl_sync import ServerSync, server_sync
from gpu_advisor.tools.throughput import SpeedInput, link, speed
from gpu_advisor.tools.train_margin import room_worth
from gpu_advisor.tools.train_margin import roomy as leaves_margin
from gpu_advisor.tools.training import Method, TrainingMemoryInput, training_memory
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

Algorithm = Literal["grpo", "ppo"]
Layout = Literal["colocate", "split"]
# A reward model's forward pass: 2 FLOPs per active parameter per token scored.
REWARD_FLOPS_PER_PARAM = 2
# Rollouts the engine keeps in flight per copy at most (continuous batching), fewer when the KV cache is short.
ROLLOUTS_IN_FLIGHT = 256


class RlInput(ToolInput):
    model: str
    gpu: str | None = Field(None, description="the card (needed to size a run; the training layout alone needs none)")
    gpus: int = Field(1, gt=0, le=1024)
    method: Method = "lora"
    algorithm: Algorithm = "grpo"
    prompts: int = Field(gt=0, description="prompts in one pass over the data")
    samples: int = Field(DEFAULT_SAMPLES, ge=2, le=1024, description="completions generated per prompt (the group: "
                                                                      "GRPO compares within it, so at least 2)")
    prompt_tokens: int = Field(DEFAULT_PROMPT_TOKENS, gt=0)
    completion_tokens: int = Field(DEFAULT_COMPLETION_TOKENS, gt=0, description="tokens generated per completion")
    epochs: float = Field(1.0, gt=0, description="passes over the prompts")
    framework: str | None = None
    base_precision: str | None = None
    region: Region = "global"
    layout: Layout = Field("colocate", description="colocate: engine and trainer share every card; split: separate "
                                                    "rollout and training cards")
    rollout_gpus: int | None = Field(None, gt=0, description="split: cards for the rollout engine (None: the count "
                                                             "that makes a step fastest); the rest train")
    pipelined: bool = Field(False, description="split: rollouts of the next step overlap the update (one step stale);"
                                               " False: synchronous, a step is the sum")
    prompts_per_step: int = Field(PROMPTS_PER_STEP, gt=0, description="prompts in one policy step (train batch)")
    reward_model: str | None = Field(None, description="a reward model that scores every rollout: its BF16 weights "
                                                        "sharded over the training cards (ZeRO-3 inference, as "
                                                        "OpenRLHF and verl run it) and one forward pass over each "
                                                        "sequence; None: a rule or a verifier (no model)")
    critic_model: str | None = Field(None, description="PPO: the critic (value model) trained beside the policy; None: "
                                                        "the policy's size (verl's default; OpenRLHF starts it from "
                                                        "the reward model unless --critic_pretrain is set)")
    steps: int | None = Field(None, gt=0, le=10_000_000, description="the run in policy steps when said ('~2000 "
                                                                     "steps'): that many steps of prompts_per_step "
                                                                     "prompts, whatever prompts and epochs say; "
                                                                     "None: prompts / prompts_per_step x epochs")
    server_gpus: int | None = Field(None, gt=0, le=16, description="cards in each of your servers when the cards span "
                                                                   "several joined by Ethernet (network_gbit_per_s): "
                                                                   "data parallel across them (tools.rl_sync)")
    network_gbit_per_s: float | None = Field(None, gt=0, description="the Ethernet between those servers, Gb/s")
    full_shard: bool = Field(False, description="across those servers: the training state sharded over all the cards "
                                                "(ZeRO-3 over the Ethernet) instead of each server's (HSDP)")

    @property
    def servers(self) -> int:
        """Servers the cards span over Ethernet (1: one server, or a fast network sized as one pool)."""
        if self.server_gpus is None or self.network_gbit_per_s is None or self.gpus <= self.server_gpus:
            return 1
        return -(-self.gpus // self.server_gpus)

    @property
    def shard_gpus(self) -> int:
        """Cards the training state is sharded over: all of them, or across servers over Ethernet each server's
        (the smallest server's count: the most each card holds)."""
        if self.servers == 1 or self.server_gpus is None or self.full_shard:
            return self.gpus
        return self.gpus - (self.servers - 1) * self.server_gpus


class RlResult(BaseModel):
    fits: bool
    per_gpu_bytes: float
    train_per_gpu_bytes: float
    engine_weights_per_gpu_bytes: float
    kv_per_gpu_bytes: float
    capacity_bytes: float
    engine_tp: int
    engine_copies: int
    rollouts_in_flight: int
    generated_tokens: float
    trained_tokens: float
    rollout_hours: float
    update_hours: float
    hours: float
    usd: float | None
    rollout_tokens_per_s: float
    warnings: list[str] = []
    layout: Layout = "colocate"
    rollout_gpus: int = Field(0, description="cards the engine runs on (all of them when colocated)")
    train_gpus: int = Field(0, description="cards the trainer runs on (all of them when colocated)")
    pipelined: bool = False
    steps: float = Field(0.0, description="policy steps in the run (prompts / prompts_per_step x epochs)")
    step_seconds: float = Field(0.0, description="time of one step: rollouts + update (+ sync), or when pipelined "
                                                 "the slower of rollouts and update, plus the sync")
    sync_hours: float = Field(0.0, description="split: sending the new weights to the engine after each step")
    train_fits: bool = True
    engine_fits: bool = True
    run_steps: int | None = Field(None, description="the run was said in steps: its totals are that many steps'")
    reward_per_gpu_bytes: float = Field(0.0, description="the reward model's BF16 weights on each training card")
    reward_hours: float = Field(0.0, description="the reward model's forward pass over the sequences (in update_hours)")
    servers: int = Field(1, description="servers the run is data parallel across over Ethernet (tools.rl_sync)")
    network_hours: float = Field(0.0, description="across servers: the gradient all-reduces between them (in hours)")
    network_seconds_per_step: float = 0.0
    faster_at_edge: RlResult | None = Field(None, description="split: the faster split on the same cards that leaves "
                                                              "less than the training margin (tools.train_margin), "
                                                              "passed over for this one, which leaves it")

    @property
    def roomy(self) -> bool:
        """The run leaves the training margin free (tools.train_margin): on the training cards when split (the
        engine takes what is left of its own cards by design), on every card when colocated."""
        used = self.train_per_gpu_bytes if self.layout == "split" else self.per_gpu_bytes
        return leaves_margin(used, self.capacity_bytes, self.train_gpus)


class RlLayouts(BaseModel):
    """Both layouts of one RL run on the same cards, and the one that pays (same cards, same price: the faster)."""
    colocate: RlResult
    split: RlResult | None = Field(None, description="None on one card, and across servers over Ethernet")
    pays: Layout
    ratio: float = Field(description="the other layout's hours over the paying one's (inf when the other does not fit)")
    for_room: bool = Field(False, description="the paying layout leaves the training margin and the other, faster, "
                                              "does not: taken for the room")
    formula: str = "a step: rollouts + update (+ weight sync when split); pipelined split: max(rollouts, update) + sync"


def training_setup(inp: RlInput, gpus: int | None = None) -> TrainingMemoryInput:
    """The policy update's layout: sequences of prompt + completion, ZeRO-3 over several cards, and a frozen BF16
    reference copy when every weight trains (with LoRA the reference is the base with the adapters off). `gpus`:
    the trainer's cards when they are fewer than the run's (split)."""
    n = gpus or inp.shard_gpus
    return TrainingMemoryInput(model=inp.model, method=inp.method, seq_len=inp.prompt_tokens + inp.completion_tokens,
                               gpus=n, zero=3 if n > 1 else 0, reference_model=inp.method == "full",
                               framework=inp.framework, base_precision=inp.base_precision)


def _others(inp: RlInput, train_gpus: int) -> tuple[float, float]:
    """(bytes on each training card, update FLOPs factor) of the models beside the policy: PPO's critic (the policy's
    training state again when it is the policy's size, else its own) and the reward model's BF16 weights sharded over
    the training cards. Returns (critic bytes + reward bytes, reward bytes)."""
    critic = 0.0
    if inp.algorithm == "ppo":
        own = training_memory(training_setup(inp, train_gpus)).per_gpu_total_bytes
        critic = own if inp.critic_model is None else training_memory(training_setup(
            inp.model_copy(update={"model": inp.critic_model}), train_gpus).model_copy(
            update={"reference_model": False})).per_gpu_total_bytes
    reward = arch.weight_bytes(resolve_model(inp.reward_model), find_precision("bf16")) / train_gpus \
        if inp.reward_model else 0.0
    return critic + reward, reward


def _update(inp: RlInput, gpu_id: str, n: int, trained: float, seq: int) -> tuple[float, float | None, list[str], float]:
    """The update's (hours, usd, warnings, reward hours) on n training cards: the policy's training (with the reference
    model's forward pass), PPO's critic trained on the same tokens (the policy's size unless named), and the reward
    model's forward pass over every sequence (2 FLOPs per active parameter per token at the run's MFU)."""
    zero3 = {"servers": inp.servers, "network_gbit_per_s": inp.network_gbit_per_s} if inp.full_shard else {}
    tt = training_time(TrainingTimeInput(model=inp.model, gpu=gpu_id, gpus=n, method=inp.method, **zero3,
                                         tokens=trained * (2 if inp.algorithm == "ppo" and inp.critic_model is None
                                                           else 1), epochs=inp.epochs, reference_forward=True,
                                         framework=inp.framework, seq_len=seq, region=inp.region))
    hours, warnings = tt.hours, [x for x in tt.warnings if not x.startswith("the network between the")]
    if inp.full_shard:  # (training_time's network warning is one step's when the run is said in steps: said here)
        warnings.append(f"one server's cards cannot hold the training state: it is sharded over all {n} cards (ZeRO-3), "
                        f"and every micro-batch gathers the weights over the {inp.network_gbit_per_s:g} Gb/s Ethernet "
                        f"between the {inp.servers} servers (counted in the update's time)")
    if inp.algorithm == "ppo" and inp.critic_model is not None:
        hours += training_time(TrainingTimeInput(model=inp.critic_model, gpu=gpu_id, gpus=n, method=inp.method,
                                                 tokens=trained, epochs=inp.epochs, framework=inp.framework,
                                                 seq_len=seq, region=inp.region)).hours
    reward_hours = 0.0
    if inp.reward_model:
        flops = REWARD_FLOPS_PER_PARAM * resolve_model(inp.reward_model).active_params_b * 1e9 * trained * inp.epochs
        reward_hours = flops / (n * find_gpu(gpu_id).bf16_tflops * 1e12 * tt.mfu) / 3600
        hours += reward_hours
    usd = tt.usd * hours / tt.hours if tt.usd is not None and tt.hours else None
    return hours, usd, warnings, reward_hours


def _steps(inp: RlInput) -> float:
    return math.ceil(inp.prompts / inp.prompts_per_step) * inp.epochs


def _run_of_steps(inp: RlInput, steps: int) -> RlResult:
    """A run said in steps: one step (prompts_per_step prompts, its rollouts in flight as one step has them) sized as
    a pass, then every total (tokens, hours, the price) times the steps; a step's time and the memory stay."""
    return _times(rl_run(inp.model_copy(update={"prompts": inp.prompts_per_step, "epochs": 1.0, "steps": None})), steps)


def _times(one: RlResult, steps: int) -> RlResult:
    """One step's result as a run of `steps` steps (the faster split at the edge beside it too)."""
    if not one.fits:
        return one.model_copy(update={"steps": float(steps), "run_steps": steps})
    edge = _times(one.faster_at_edge, steps) if one.faster_at_edge is not None else None
    return one.model_copy(update={
        "steps": float(steps), "run_steps": steps, "generated_tokens": one.generated_tokens * steps, "trained_tokens": one.trained_tokens * steps,
        "rollout_hours": one.rollout_hours * steps, "update_hours": one.update_hours * steps, "hours": one.hours * steps,
        "sync_hours": one.sync_hours * steps, "network_hours": one.network_hours * steps,
        "usd": one.usd * steps if one.usd is not None else None, "faster_at_edge": edge})


def rl_run(inp: RlInput) -> RlResult:
    """Memory and time of one online-RL run on gpus x gpu (formulas in the module docstring), in its layout: a pass
    over the prompts (x epochs), or the steps said."""
    if inp.gpu is None:
        raise ToolError("a card is needed to size an RL run: name one (gpu)")
    if inp.steps is not None:
        return _run_of_steps(inp, inp.steps)
    if inp.layout == "split":
        return _split_run(inp)
    model = resolve_model(inp.model)
    gpu = find_gpu(inp.gpu)
    n, shard = inp.gpus, inp.shard_gpus  # shard: each server's cards across servers over Ethernet, else all
    engine_cards = min(shard, inp.server_gpus or shard)  # an engine copy stays inside a server
    seq = inp.prompt_tokens + inp.completion_tokens
    tm = training_memory(training_setup(inp))
    others, reward_bytes = _others(inp, shard)  # PPO's critic, a reward model's weights
    train_bytes = tm.per_gpu_total_bytes + others
    cap = usable_bytes(gpu)
    bf16 = find_precision("bf16")
    weights = arch.weight_bytes(model, bf16)
    kv_seq = arch.kv_cache_bytes(model, 16, seq, 1)
    rollouts = inp.prompts * inp.samples
    tp, left = 0, 0.0
    for t in [d for d in arch.valid_tensor_parallel(model, engine_cards) if engine_cards % d == 0]:
        left = cap - train_bytes - weights / t
        if left * t >= kv_seq * inp.samples:  # one whole group in flight at least
            tp = t
            break
    if not tp:
        t = max([d for d in arch.valid_tensor_parallel(model, engine_cards) if engine_cards % d == 0] or [1])
        return RlResult(fits=False, per_gpu_bytes=train_bytes + weights / t + kv_seq * inp.samples / t,
                        train_per_gpu_bytes=train_bytes, engine_weights_per_gpu_bytes=weights / t,
                        kv_per_gpu_bytes=kv_seq * inp.samples / t, capacity_bytes=cap, engine_tp=t,
                        engine_copies=max(1, n // t), rollouts_in_flight=0, generated_tokens=rollouts * inp.completion_tokens,
                        trained_tokens=rollouts * seq, rollout_hours=0.0, update_hours=0.0, hours=0.0, usd=None,
                        rollout_tokens_per_s=0.0, rollout_gpus=n, train_gpus=n, steps=_steps(inp),
                        train_fits=train_bytes <= cap, engine_fits=False, reward_per_gpu_bytes=reward_bytes)
    copies = n // tp
    in_flight = int(min(ROLLOUTS_IN_FLIGHT, rollouts / copies, left * tp // kv_seq))
    in_flight = max(in_flight, 1)
    sp = speed(SpeedInput(model=inp.model, precision="bf16", gpu=gpu.id, gpus=tp, batch=in_flight,
                          context=inp.prompt_tokens + inp.completion_tokens // 2, engine="vllm"))
    seconds = (rollouts * inp.prompt_tokens / sp.prefill_tokens_per_s
               + rollouts * inp.completion_tokens / sp.aggregate_decode_tokens_per_s) / copies
    rollout_hours = seconds / 3600 * inp.epochs
    trained = float(rollouts * seq)
    update_hours, update_usd, warnings, reward_hours = _update(inp, gpu.id, n, trained, seq)
    exchange = across_servers(inp)
    sync = exchange.seconds_per_step if exchange is not None else 0.0
    network_hours = sync * _steps(inp) / 3600
    hours = rollout_hours + update_hours + network_hours
    usd = update_usd * hours / update_hours if update_usd is not None and update_hours else None
    kv_group = kv_seq * inp.samples / tp  # the least the engine needs: one group in flight; it takes the rest
    if not gpu.has_nvlink and n > 1:
        warnings.append(f"{gpu.name} has no NVLink: the engine's tensor parallel and the weight sync go over PCIe")
    return RlResult(fits=True, per_gpu_bytes=train_bytes + weights / tp + kv_group, train_per_gpu_bytes=train_bytes,
                    engine_weights_per_gpu_bytes=weights / tp, kv_per_gpu_bytes=kv_group, capacity_bytes=cap,
                    engine_tp=tp, engine_copies=copies, rollouts_in_flight=in_flight,
                    generated_tokens=float(rollouts * inp.completion_tokens), trained_tokens=trained,
                    rollout_hours=rollout_hours, update_hours=update_hours, hours=hours, usd=usd,
                    rollout_tokens_per_s=sp.aggregate_decode_tokens_per_s * copies, warnings=warnings,
                    rollout_gpus=n, train_gpus=n, steps=_steps(inp), step_seconds=hours * 3600 / _steps(inp),
                    reward_per_gpu_bytes=reward_bytes, reward_hours=reward_hours, servers=inp.servers,
                    network_hours=network_hours, network_seconds_per_step=sync)


def across_servers(inp: RlInput) -> ServerSync | None:
    """Each step's gradient all-reduce between the servers (None on one): the policy's trainable gradients, and
    PPO's critic's (the policy's size unless named)."""
    if inp.servers == 1 or inp.network_gbit_per_s is None or inp.full_shard:
        return None  # one server; or ZeRO-3 over all the cards, its traffic in the update's time
    policy = training_memory(training_setup(inp)).trainable_params
    critic = 0.0
    if inp.algorithm == "ppo":
        critic = policy if inp.critic_model is None else training_memory(training_setup(
            inp.model_copy(update={"model": inp.critic_model}))).trainable_params
    return server_sync(policy + critic, inp.servers, inp.network_gbit_per_s)


def _split_at(inp: RlInput, r: int) -> RlResult:
    """The split layout with r cards for the rollout engine and the rest for the trainer."""
    assert inp.gpu is not None
    model, gpu = resolve_model(inp.model), find_gpu(inp.gpu)
    t, seq = inp.gpus - r, inp.prompt_tokens + inp.completion_tokens
    others, reward_bytes = _others(inp, t)  # PPO's critic, a reward model's weights: on the training cards
    train_bytes = training_memory(training_setup(inp, t)).per_gpu_total_bytes + others
    cap = usable_bytes(gpu)
    weights = arch.weight_bytes(model, find_precision("bf16"))
    kv_seq = arch.kv_cache_bytes(model, 16, seq, 1)
    rollouts, steps = inp.prompts * inp.samples, _steps(inp)
    degrees = [d for d in arch.valid_tensor_parallel(model, r) if r % d == 0] or [1]
    tp = next((d for d in degrees if (cap - weights / d) * d >= kv_seq * inp.samples), 0)
    shown_tp = tp or max(degrees)
    base = dict(capacity_bytes=cap, train_per_gpu_bytes=train_bytes, engine_weights_per_gpu_bytes=weights / shown_tp,
                generated_tokens=float(rollouts * inp.completion_tokens), trained_tokens=float(rollouts * seq),
                layout="split", rollout_gpus=r, train_gpus=t, pipelined=inp.pipelined, steps=steps,
                train_fits=train_bytes <= cap, engine_fits=bool(tp), reward_per_gpu_bytes=reward_bytes)
    if not tp or train_bytes > cap:
        kv = kv_seq * inp.samples / shown_tp
        return RlResult(fits=False, per_gpu_bytes=max(train_bytes, weights / shown_tp + kv), kv_per_gpu_bytes=kv,
                        engine_tp=shown_tp, engine_copies=max(1, r // shown_tp), rollouts_in_flight=0,
                        rollout_hours=0.0, update_hours=0.0, hours=0.0, usd=None, rollout_tokens_per_s=0.0, **base)
    copies, left = r // tp, cap - weights / tp
    in_flight = max(1, int(min(ROLLOUTS_IN_FLIGHT, rollouts / copies, left * tp // kv_seq)))
    sp = speed(SpeedInput(model=inp.model, precision="bf16", gpu=gpu.id, gpus=tp, batch=in_flight,
                          context=inp.prompt_tokens + inp.completion_tokens // 2, engine="vllm"))
    seconds = (rollouts * inp.prompt_tokens / sp.prefill_tokens_per_s
               + rollouts * inp.completion_tokens / sp.aggregate_decode_tokens_per_s) / copies
    rollout_hours = seconds / 3600 * inp.epochs
    update_hours, update_usd, warnings, reward_hours = _update(inp, gpu.id, t, float(rollouts * seq), seq)
    sync_hours = weights / (link(gpu)[1] * 1e9) * steps / 3600  # one BF16 copy to the engine after each step
    if inp.pipelined:
        hours = max(rollout_hours, update_hours) + sync_hours
    else:
        hours = rollout_hours + update_hours + sync_hours
    usd = update_usd / (update_hours * t) * inp.gpus * hours if update_usd is not None and update_hours else None
    if link(gpu)[0] == "pcie":
        warnings.append(f"{gpu.name} has no NVLink: the weight sync to the rollout cards goes over PCIe")
    least = weights / tp + kv_seq * inp.samples / tp  # the engine's least: its weights and one group's KV cache
    return RlResult(fits=True, per_gpu_bytes=max(train_bytes, least), kv_per_gpu_bytes=left, engine_tp=tp,
                    engine_copies=copies, rollouts_in_flight=in_flight, rollout_hours=rollout_hours,
                    update_hours=update_hours, hours=hours, usd=usd, sync_hours=sync_hours, warnings=warnings,
                    reward_hours=reward_hours,
                    rollout_tokens_per_s=sp.aggregate_decode_tokens_per_s * copies,
                    step_seconds=hours * 3600 / steps, **base)


def _split_run(inp: RlInput) -> RlResult:
    """The split layout: the rollout cards the user named, else the count (1 to gpus - 1) with the fastest run among
    those that leave the training margin (tools.train_margin) unless much slower (room_worth), else the fastest; a
    faster split passed over for the room is kept beside it (faster_at_edge)."""
    n = inp.gpus
    if n < 2:
        raise ToolError("a split layout needs at least 2 cards: one for the rollouts, one for the trainer")
    if inp.rollout_gpus is not None and inp.rollout_gpus >= n:
        raise ToolError(f"{inp.rollout_gpus} rollout cards of {n} leave none for the trainer: give fewer")
    tried = [_split_at(inp, r) for r in ([inp.rollout_gpus] if inp.rollout_gpus else range(1, n))]
    fitting = [x for x in tried if x.fits]
    if not fitting:
        return tried[len(tried) // 2]
    fastest = min(fitting, key=lambda x: (x.hours, x.rollout_gpus))
    chosen = min(fitting, key=lambda x: (not x.roomy, x.hours, x.rollout_gpus))
    if chosen is fastest or not room_worth(chosen.hours, fastest.hours):
        return fastest
    return chosen.model_copy(update={"faster_at_edge": fastest})


def rl_layouts(inp: RlInput) -> RlLayouts:
    """Both layouts on the same cards, and which one pays: the one that fits, else the one that leaves the training
    margin (tools.train_margin), else the faster (same cards, same price per hour); colocated on one card (a split
    needs two)."""
    colocate = rl_run(inp.model_copy(update={"layout": "colocate"}))
    if inp.servers > 1 and not colocate.fits and not inp.full_shard:  # one server's cards cannot hold the shard
        colocate = rl_run(inp.model_copy(update={"layout": "colocate", "full_shard": True}))
    if inp.gpus < 2 or inp.servers > 1:  # across servers over Ethernet: colocated on each (module docstring)
        return RlLayouts(colocate=colocate, split=None, pays="colocate", ratio=math.inf)
    split = rl_run(inp.model_copy(update={"layout": "split"}))
    both = split.fits and colocate.fits
    # one leaves the margin, the other does not: that one, unless it is much slower (train_margin.room_worth)
    room = both and split.roomy != colocate.roomy and (
        room_worth(split.hours, colocate.hours) if split.roomy else room_worth(colocate.hours, split.hours))
    if split.fits and (not colocate.fits or (split.roomy if room else split.hours < colocate.hours)):
        return RlLayouts(colocate=colocate, split=split, pays="split", for_room=room and colocate.hours < split.hours,
                         ratio=colocate.hours / split.hours if colocate.fits else math.inf)
    return RlLayouts(colocate=colocate, split=split, pays="colocate", for_room=room and split.hours < colocate.hours,
                     ratio=split.hours / colocate.hours if both else math.inf)


def fewest_rl_gpus(inp: RlInput, step: int, most: int) -> RlLayouts | None:
    """The fewest cards beyond `inp.gpus` (in whole `step`s: servers) that hold the run as asked, colocated or split,
    up to `most`; None when none does. A cluster too small for a full fine-tune is sized here for the cards it needs."""
    n = inp.gpus + step
    while n <= most:
        lay = rl_layouts(inp.model_copy(update={"gpus": n, "rollout_gpus": None}))
        if lay.colocate.fits or (lay.split is not None and lay.split.fits):
            return lay
        n += step
    return None


RlResult.model_rebuild()
