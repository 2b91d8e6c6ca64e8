"""`gpu-advisor detect`: the cards and memory of this machine, as the catalog knows them, and how to plan
with them."""

from __future__ import annotations

import argparse
import json
import shlex

from gpu_advisor.tui.cli.base import JSON, Commands

commands = Commands()


def owned_sentence(machine) -> str | None:
    """The words that tell the assistant these cards are yours ("I have 2 × NVIDIA GeForce RTX 3090 24GB")."""
    known = machine.known
    if not known:
        return None
    return "I have " + " and ".join(f"{c.count} × {c.gpu_name}" for c in known)


@commands.command("detect", "the GPUs and memory of this machine, and how to plan with them",
                  JSON,
                  examples=("gpu-advisor detect", "gpu-advisor detect --json"))
def cmd_detect(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.detect import as_owned, detect
    from gpu_advisor.tui.format import plain

    machine = detect()
    if args.json:
        print(json.dumps({**machine.model_dump(mode="json"), "owned": as_owned(machine)}, indent=2))
        return
    lines = ["This machine:"]
    for c in machine.cards:
        known = f"catalog: {c.gpu_id}" if c.gpu_id else "not in the catalog: describe it as custom:memory=" \
            f"{c.memory_gb:g}GB,bandwidth=<GB/s>,bf16=<TFLOPS>"
        lines.append(f"  {c.count} × {plain(c.name)}, {c.memory_gb:g} GB each ({known})")
    if not machine.cards:
        lines.append("  no GPU found (nvidia-smi, rocm-smi and Apple's sysctl are missing or list none)")
    if machine.ram_gb:
        lines.append(f"  system memory: {machine.ram_gb:g} GB")
    said = owned_sentence(machine)
    if said:
        lines += ["", "To plan with these cards, start with them:",
                  f"  gpu-advisor ask {shlex.quote(said + '; serve llama 3.1 8b to 5 users')}",
                  "or say it in the app: " + said + "."]
    else:
        lines += ["", "Tell the assistant which card you have and its memory, e.g. \"I have one RTX 3060 12GB\"."]
    print("\n".join(lines))
