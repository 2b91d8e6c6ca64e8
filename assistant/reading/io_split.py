"""A split of the tokens between input and output ('3:1 in/out', '输入输出差不多3比1', 'prompts are about 3x the output',
rewritten as '3:1 in-out split' by words/numbers.yaml) is a ratio, never a length: with the prompt's length said, the
output is worked out from it; with the output's, the prompt; with neither, each request reads the usual prompt
(tools.recommend's default, the context up to 4,096) and writes its share, said in a note. Lengths said both win."""

from __future__ import annotations

from gpu_advisor.assistant.reading.load import split_output, volume_split
from gpu_advisor.assistant.reading.message import Message, Understanding

PROMPT_TOKENS = 4096  # a request reads tools.recommend's default prompt (the context up to 4,096) ...
SLOTS = {"batch": ("batch_input_tokens", "batch_output_tokens")}  # the lengths of each phase; others serve
SERVING = ("prompt_tokens", "output_tokens")


def apply_split(m: Message, u: Understanding, volumes: tuple[float, float] | None = None,
                ) -> tuple[int, tuple[str, dict[str, str]]] | None:
    """The output length the split gives (set in u.updates, with the note that says how), or None when no split is
    said or both lengths are. `volumes`: the tokens read and written said as volumes ('300M output and 1.2B input')."""
    split = volumes or volume_split(m)
    prompt_slot, output_slot = SLOTS.get(str(u.updates.get("phase") or m.phase), SERVING)
    prompt, output = u.updates.get(prompt_slot), u.updates.get(output_slot)
    if split is None or (prompt and output):
        return None
    read, written = split
    shares = {"read": f"{read:g}", "written": f"{written:g}"}
    if prompt:
        output = split_output(read, written, int(prompt))
        u.updates[output_slot] = output
        return output, ("load.note_split_output", {**shares, "prompt": f"{int(prompt):,}", "output": f"{output:,}"})
    if output:
        prompt = max(1, round(int(output) * read / written))
        u.updates[prompt_slot] = prompt
        return int(output), ("load.note_split_prompt", {**shares, "prompt": f"{prompt:,}", "output": f"{int(output):,}"})
    context = u.updates.get("context")
    prompt = min(PROMPT_TOKENS, round(context * read / (read + written))) if context else PROMPT_TOKENS
    output = split_output(read, written, prompt)
    u.updates[output_slot] = output
    if volumes:
        shares = {"read": f"{read:,.0f}", "written": f"{written:,.0f}"}
    return output, ("usage.note_split" if volumes else "load.note_split",
                    {**shares, "prompt": f"{prompt:,}", "output": f"{output:,}"})


def read_io_split(m: Message, u: Understanding) -> None:
    """A split said with no volume over a period ('serve llama 3 8b to 20 users, 3:1 in/out'): its lengths."""
    if any(code in ("usage.note_split", "load.note_split", "load.note_split_output", "load.note_split_prompt")
           for code, _p in u.notes):
        return  # read with the volume (reading.usage)
    found = apply_split(m, u)
    if found:
        u.notes.append(found[1])
