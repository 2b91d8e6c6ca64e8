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
KV cache of the rollouts in flight takes what is left. Not modelled: the reward (a rule or a verifier is
assumed; a reward model adds its own forward pass and memory), weight syncing between engine and trainer,
sleep-mode offload, and separate rollout and training cards.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import ToolError, ToolInput
from gpu_advisor.tools.cost import Region
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.phases import DEFAULT_COMPLETION_TOKENS, DEFAULT_PROMPT_TOKENS, DEFAULT_SAMPLES
from gpu_advisor.tools.throughput import SpeedInput, speed
from gpu_advisor.tools.training import Method, TrainingMemoryInput, training_memory
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

Algorithm = Literal["grpo", "ppo"]
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


def training_setup(inp: RlInput) -> TrainingMemoryInput:
    """The policy update's layout: sequences of prompt + completion, ZeRO-3 over several cards, and a frozen BF16
    reference copy when every weight trains (with LoRA the reference is the base with the adapters off)."""
    return TrainingMemoryInput(model=inp.model, method=inp.method, seq_len=inp.prompt_tokens + inp.completion_tokens,
                               gpus=inp.gpus, zero=3 if inp.gpus > 1 else 0, reference_model=inp.method == "full",
                               framework=inp.framework, base_precision=inp.base_precision)


def rl_run(inp: RlInput) -> RlResult:
    """Memory and time of one online-RL run on gpus x gpu (formulas in the module docstring)."""
    if inp.gpu is None:
        raise ToolError("a card is needed to size an RL run: name one (gpu)")
    model = resolve_model(inp.model)
    gpu = find_gpu(inp.gpu)
    n = inp.gpus
    seq = inp.prompt_tokens + inp.completion_tokens
    critic = inp.algorithm == "ppo"
    tm = training_memory(training_setup(inp))
    train_bytes = tm.per_gpu_total_bytes * (2 if critic else 1)  # PPO: a value model trained beside the policy
    cap = usable_bytes(gpu)
    bf16 = find_precision("bf16")
    weights = arch.weight_bytes(model, bf16)
    kv_seq = arch.kv_cache_bytes(model, 16, seq, 1)
    rollouts = inp.prompts * inp.samples
    tp, left = 0, 0.0
    for t in [d for d in arch.valid_tensor_parallel(model, n) if n % d == 0]:
        left = cap - train_bytes - weights / t
        if left * t >= kv_seq * inp.samples:  # one whole group in flight at least
            tp = t
            break
    if not tp:
        t = max([d for d in arch.valid_tensor_parallel(model, n) if n % d == 0] or [1])
        return RlResult(fits=False, per_gpu_bytes=train_bytes + weights / t + kv_seq * inp.samples / t,
                        train_per_gpu_bytes=train_bytes, engine_weights_per_gpu_bytes=weights / t,
                        kv_per_gpu_bytes=kv_seq * inp.samples / t, capacity_bytes=cap, engine_tp=t,
                        engine_copies=max(1, n // t), rollouts_in_flight=0, generated_tokens=rollouts * inp.completion_tokens,
                        trained_tokens=rollouts * seq, rollout_hours=0.0, update_hours=0.0, hours=0.0, usd=None,
                        rollout_tokens_per_s=0.0)
    copies = n // tp
    in_flight = int(min(ROLLOUTS_IN_FLIGHT, rollouts / copies, left * tp // kv_seq))
    in_flight = max(in_flight, 1)
    sp = speed(SpeedInput(model=inp.model, precision="bf16", gpu=gpu.id, gpus=tp, batch=in_flight,
                          context=inp.prompt_tokens + inp.completion_tokens // 2, engine="vllm"))
    seconds = (rollouts * inp.prompt_tokens / sp.prefill_tokens_per_s
               + rollouts * inp.completion_tokens / sp.aggregate_decode_tokens_per_s) / copies
    rollout_hours = seconds / 3600 * inp.epochs
    trained = float(rollouts * seq)
    tt = training_time(TrainingTimeInput(model=inp.model, gpu=gpu.id, gpus=n, method=inp.method,
                                         tokens=trained * (2 if critic else 1), epochs=inp.epochs,
                                         reference_forward=True, framework=inp.framework, seq_len=seq,
                                         region=inp.region))
    hours = rollout_hours + tt.hours
    usd = tt.usd * hours / tt.hours if tt.usd is not None and tt.hours else None
    kv_group = kv_seq * inp.samples / tp  # the least the engine needs: one group in flight; it takes the rest
    warnings = list(tt.warnings)
    if not gpu.has_nvlink and n > 1:
        warnings.append(f"{gpu.name} has no NVLink: the engine's tensor parallel and the weight sync go over PCIe")
    return RlResult(fits=True, per_gpu_bytes=train_bytes + weights / tp + kv_group, train_per_gpu_bytes=train_bytes,
                    engine_weights_per_gpu_bytes=weights / tp, kv_per_gpu_bytes=kv_group, capacity_bytes=cap,
                    engine_tp=tp, engine_copies=copies, rollouts_in_flight=in_flight,
                    generated_tokens=float(rollouts * inp.completion_tokens), trained_tokens=trained,
                    rollout_hours=rollout_hours, update_hours=tt.hours, hours=hours, usd=usd,
                    rollout_tokens_per_s=sp.aggregate_decode_tokens_per_s * copies, warnings=warnings)

