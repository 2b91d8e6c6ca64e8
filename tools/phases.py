"""The jobs a workload can be: the one list every layer above derives its phase handling from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Phase = Literal["experiment", "fine-tune", "serve", "train-and-serve", "production", "batch", "pretrain",
                "continued-pretrain"]

# Words sent with each image to a vision model ("describe this product", "extract the fields of this
# page"): a batch item or a request is one image and these.
IMAGE_PROMPT_TOKENS = 100
# Text trained on with each image of a vision fine-tune (the instruction and the answer written about it: a
# receipt's or form's fields, a caption): an assumption said in the reply beside the model's image tokens.
IMAGE_EXAMPLE_TEXT_TOKENS = 300

# An online RL fine-tune (tools.rl) when the user does not say: a group of 8 completions per prompt (TRL's
# GRPOConfig num_generations default; DeepSeekMath's GRPO used 64), 10,000 prompts in a pass, prompts of 512 tokens
# and completions of 1,024 generated in full. Each is stated in the answer for the user to correct.
DEFAULT_SAMPLES = 8
RL_PROMPTS = 10_000
DEFAULT_PROMPT_TOKENS = 512
DEFAULT_COMPLETION_TOKENS = 1024
# Prompts in one policy step: the train batch of verl's and OpenRLHF's example GRPO scripts.
PROMPTS_PER_STEP = 1024
# People generating at the same time when a serving job does not say: the conversation's `users` slot
# (assistant.slots) and `gpu-advisor size inference --users` both start from it.
DEFAULT_USERS = 5


@dataclass(frozen=True)
class PhaseSpec:
    id: str
    trains: bool  # fine-tunes (or pretrains) a model
    serves: bool  # answers people interactively, around the clock or in working hours
    batch: bool = False  # runs an offline inference job to a deadline
    pretrains: bool = False  # trains every weight on raw text: compute = 6 x parameters x tokens


PHASES: dict[str, PhaseSpec] = {p.id: p for p in (
    PhaseSpec("experiment", trains=True, serves=True),
    PhaseSpec("fine-tune", trains=True, serves=False),
    PhaseSpec("serve", trains=False, serves=True),
    PhaseSpec("train-and-serve", trains=True, serves=True),
    PhaseSpec("production", trains=True, serves=True),
    PhaseSpec("batch", trains=False, serves=False, batch=True),
    PhaseSpec("pretrain", trains=True, serves=False, pretrains=True),
    # continued (domain-adaptive) pretraining: the same full-parameter run on raw text, started from a released
    # checkpoint instead of random weights; the compute (6 x N x D) and memory are the same as pretraining's
    PhaseSpec("continued-pretrain", trains=True, serves=False, pretrains=True),
)}


def trains(phase: str | None) -> bool:
    return phase is not None and PHASES[phase].trains


def serves(phase: str | None) -> bool:
    return phase is not None and PHASES[phase].serves


def is_job(phase: str | None) -> bool:
    """A job that ends (fine-tuning, a batch run, pretraining): what it costs is the cost per run."""
    return phase is not None and not PHASES[phase].serves
