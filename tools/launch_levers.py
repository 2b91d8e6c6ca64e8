"""The serving levers in a launch command (tools.launch): prefix caching and speculative decoding as the engine
version assumed spells them (knowledge/data/engine_flags.yaml), and the notes a command needs for them.

- Prefix caching: vLLM's --enable-prefix-caching (on by default in V1; written out so the plan's assumption shows
  in its command); SGLang's RadixAttention is on unless --disable-radix-cache, so nothing is added.
- Speculative decoding: vLLM's --speculative-config JSON (method eagle3 with the head's repository, an MTP method
  with no model: the layers are in the checkpoint); vLLM 0.11 runs no separate draft model (its V1 engine), so a
  draft-model plan says to use SGLang's STANDALONE. SGLang: --speculative-algorithm EAGLE3 | EAGLE (MTP, as its
  docs run DeepSeek's) | STANDALONE with --speculative-draft-model-path, --speculative-num-steps,
  --speculative-eagle-topk 1 (a chain, no tree) and --speculative-num-draft-tokens (steps + 1).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.knowledge.speculative import speculative_methods
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.speculative import pick_method

if TYPE_CHECKING:
    from gpu_advisor.tools.launch import LaunchCommand
    from gpu_advisor.tools.recommend import Workload

SGLANG_ALGORITHM = {"eagle3": "EAGLE3", "mtp": "EAGLE", "draft": "STANDALONE"}


def _draft_path(model: ModelArch, method: str) -> tuple[str | None, bool]:
    """(the draft's repository or a local folder, True when none is on record); None for MTP (in the checkpoint)."""
    row = speculative_methods()[method]
    if method == "mtp":
        return None, False
    if method == "draft":
        draft = row.drafts.get(model.id)
        repo = resolve_model(draft).hf_ids[0] if draft and resolve_model(draft).hf_ids else None
        return repo, repo is None
    repo = row.heads.get(model.id)
    return (repo, False) if repo else (f"./EAGLE3-{model.name.replace(' ', '-')}", True)


def lever_flags(cmd: LaunchCommand, w: Workload, model: ModelArch) -> None:
    """Add the levers `w` asks for to `cmd` (vLLM or SGLang; other engines take none of these flags)."""
    from gpu_advisor.tools.launch import LaunchNote

    if w.shared_prefix_tokens and cmd.engine == "vllm":
        cmd.argv.append("--enable-prefix-caching")
    method = pick_method(model.id) if w.speculative == "auto" else w.speculative
    if method is None or cmd.engine not in ("vllm", "sglang"):
        return
    row = speculative_methods()[method]
    if method == "mtp" and model.id not in row.mtp:
        return  # no MTP layers: the plan says so (tools.speculative_plan), the command starts without them
    path, missing = _draft_path(model, method)
    if missing:
        cmd.notes.append(LaunchNote(code="spec_head", values={"path": path or "", "model": model.name}))
    if cmd.engine == "vllm":
        if method == "draft":
            cmd.notes.append(LaunchNote(code="spec_draft_sglang", values={"version": cmd.version}))
            return
        config: dict[str, str | int] = {"method": row.mtp[model.id].method if method == "mtp" else "eagle3"}
        if path:
            config["model"] = path
        config["num_speculative_tokens"] = row.tokens
        cmd.argv += ["--speculative-config", json.dumps(config, separators=(",", ":"))]
        return
    cmd.argv += ["--speculative-algorithm", SGLANG_ALGORITHM[method]]
    if path:
        cmd.argv += ["--speculative-draft-model-path", path]
    cmd.argv += ["--speculative-num-steps", str(row.tokens), "--speculative-eagle-topk", "1",
                 "--speculative-num-draft-tokens", str(row.tokens + 1)]


def pool_commands(cmd: LaunchCommand) -> tuple[list[str], list[str]] | None:
    """The prefill pool's and the decode pool's server commands for a disaggregated plan (tools.disagg): SGLang's
    --disaggregation-mode prefill | decode; vLLM's --kv-transfer-config with the NIXL connector on both (the router
    in front, Dynamo or llm-d, pairs them). None for another engine."""
    from gpu_advisor.tools.disagg import VLLM_CONNECTOR

    start = [a for a in cmd.argv if a not in ("--data-parallel-size", "--dp-size")]
    if "--data-parallel-size" in cmd.argv or "--dp-size" in cmd.argv:  # one copy per command in a pool
        flag = "--data-parallel-size" if "--data-parallel-size" in cmd.argv else "--dp-size"
        i = cmd.argv.index(flag)
        start = cmd.argv[:i] + cmd.argv[i + 2:]
    if cmd.engine == "sglang":
        return ([*start, "--disaggregation-mode", "prefill"], [*start, "--disaggregation-mode", "decode"])
    if cmd.engine == "vllm":
        both = [*start, "--kv-transfer-config", VLLM_CONNECTOR]
        return both, list(both)
    return None
