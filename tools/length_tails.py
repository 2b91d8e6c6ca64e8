"""The tails of a request rate's lengths said with their means ('prompts average 2k tokens, p99 8k', 'outputs
200-800 tokens'): the queueing model's 99th-percentile prompt and output (tools.queueing.RateInput, the fields
the CLI fills from --prompt-p99 and --output-p99) and the context a request holds (its longest prompt and output).
A tail at or below its mean is no tail: the mean stands alone (the measured spread, tools.queueing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Workload


def tail_lengths(w: Workload, prompt: int, output: int) -> dict[str, int | None]:
    """RateInput's prompt_tokens_p99 and output_tokens_p99 from the workload's, each kept only above its mean."""
    return {"prompt_tokens_p99": w.prompt_tokens_p99 if (w.prompt_tokens_p99 or 0) > prompt else None,
            "output_tokens_p99": w.output_tokens_p99 if (w.output_tokens_p99 or 0) > output else None}


def length_tails(w: Workload, prompt: int, output: int) -> dict[str, int]:
    """The prompt and output a request's context holds: each at its tail when one was said, else at its mean."""
    tails = tail_lengths(w, prompt, output)
    return {"prompt": tails["prompt_tokens_p99"] or prompt, "output": tails["output_tokens_p99"] or output}
