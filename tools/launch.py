"""The command that starts a plan: from a plan's option and workload (tools.recommend Option and Workload) the
server command of its engine, with the flag names of the engine version assumed (knowledge/data/engine_flags.yaml).

- vLLM: `vllm serve MODEL --tensor-parallel-size --pipeline-parallel-size --data-parallel-size --max-model-len
  --gpu-memory-utilization --kv-cache-dtype --quantization --enable-expert-parallel --max-num-seqs`. A copy
  that spans servers (pipeline stages) runs on a Ray cluster, as vLLM's multi-node docs set it up: `ray start
  --head` on the first server, `ray start --address` on the others, `--distributed-executor-backend ray`.
  Replicas that fit one server run as one data-parallel deployment per server, behind a load balancer.
- SGLang: `python -m sglang.launch_server --model-path --tp-size --pp-size --dp-size --ep-size --context-length
  --mem-fraction-static --kv-cache-dtype --max-running-requests`; across servers `--nnodes --node-rank
  --dist-init-addr`, the same command on each server with its own rank.
- llama.cpp: `llama-server -m FILE.gguf -ngl -c --n-cpu-moe -ctk -ctv -np` (-c is the context of all the slots
  together: each of the -np slots gets c / np).
- mlx-lm: `mlx_lm.server --model`.

The model is the Hugging Face repository on record (knowledge models.yaml hf_ids); a quantised plan whose
checkpoint no record names is said as "an AWQ checkpoint of M" with a local folder named after it, never a
repository made up. Deterministic: the same plan gives the same argv."""

from __future__ import annotations

import re
import shlex
from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge.engine_flags import EngineFlags, engine_flags
from gpu_advisor.knowledge.loader import gpus, precisions
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.encoder_serving import is_reranker
from gpu_advisor.tools.inference import sglang_default_mem_fraction
from gpu_advisor.tools.launch_levers import lever_flags
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.multi_lora import MultiLoraResult
from gpu_advisor.tools.offload import OffloadResult
from gpu_advisor.tools.recommend import BATCH_JOB_CONCURRENCY, Option, Recommendation, Workload
from gpu_advisor.tools.yarn_args import yarn_args

LaunchEngine = Literal["vllm", "sglang", "llama.cpp", "mlx-lm"]
ENGINES: tuple[LaunchEngine, ...] = ("vllm", "sglang", "llama.cpp", "mlx-lm")
# vLLM's default --gpu-memory-utilization, the share the plans are sized with (tools.inference)
VLLM_MEMORY_SHARE = 0.9
RAY_PORT = 6379  # Ray's default head port, as vLLM's multi-node docs start it
SGLANG_INIT_PORT = 5000  # the --dist-init-addr port SGLang's multi-node examples use
VLLM_DP_RPC_PORT = 13345  # the --data-parallel-rpc-port vLLM's data-parallel deployment docs use
SGLANG_BASE_SLOT = 1  # SGLang's --max-loras-per-batch counts base-only requests as one adapter
HEAD = "HEAD_IP"  # the first server's address, for the user to fill in
# The checkpoint's format as a folder name says it, for a quantised plan without a repository on record
FORMAT_WORDS = {"fp8": "FP8", "int8": "INT8", "w8a8-int8": "W8A8-INT8", "int4": "AWQ", "awq": "AWQ",
                "gptq-int4": "GPTQ-Int4", "gptq-int8": "GPTQ-Int8", "w4a16": "W4A16", "mxfp4": "MXFP4",
                "nvfp4": "NVFP4", "nf4": "NF4"}
# Formats an engine quantises at load time from the 16-bit checkpoint, and the --quantization value it takes
ONLINE = {"vllm": {"fp8": "fp8", "nf4": "bitsandbytes"}, "sglang": {"fp8": "fp8", "nf4": "bitsandbytes"}}
# An engine's KV-cache value for the plan's 8-bit cache
KV_VALUE = {"vllm": "fp8", "sglang": "fp8_e4m3"}
# GGUF file types for a plan in a format llama.cpp does not read: its nearest file type
GGUF_FOR = {"bf16": "f16", "fp16": "f16", "fp32": "f16", "fp8": "q8_0", "int8": "q8_0", "w8a8-int8": "q8_0",
            "int4": "q4_k_m", "awq": "q4_k_m", "gptq-int4": "q4_k_m", "gptq-int8": "q8_0", "w4a16": "q4_k_m",
            "mxfp4": "mxfp4", "nvfp4": "q4_k_m", "nf4": "q4_k_m"}
SIXTEEN = ("bf16", "fp16", "fp32", "f16")
CHAT_WORDS = ("instruct", "-chat", "-it")  # how a repository names its chat-tuned checkpoint


class LaunchError(ValueError):
    """A plan that no command starts (no plan, or a training-only one)."""


class LaunchNote(BaseModel):
    """A fact about running the command, as a code the answer's catalog words (assistant/launch_reply.py)."""

    code: Literal["each_server", "each_server_split", "ray_cluster", "node_rank", "copies", "checkpoint", "gguf_file",
                  "mlx_checkpoint", "layer_split", "offload", "ascend", "adapters", "adapters_elsewhere", "encoder",
                  "dp_nodes", "spec_head", "spec_draft_sglang"]
    values: dict[str, str | int] = Field(default_factory=dict)


class LaunchCommand(BaseModel):
    engine: LaunchEngine
    engine_name: str
    version: str = Field(description="the engine version whose flag names the command uses")
    flags_source: str = Field(description="where those flag names were read: repository, file, tag or commit")
    model_id: str
    model_name: str
    repo: str | None = Field(None, description="the model's Hugging Face repository on record, when there is one")
    checkpoint: str = Field(description="what the command loads: the repository, or 'an AWQ checkpoint of M' style")
    checkpoint_format: str | None = Field(None, description="the quantised checkpoint's format when one is needed")
    argv: list[str] = Field(description="the command that starts the server (on the first server)")
    setup: list[list[str]] = Field(default_factory=list, description="commands run before it: on the first "
                                                                     "server, then the same last one on each other")
    servers: int = 1
    tp: int = 1
    pp: int = 1
    dp: int = Field(1, description="data-parallel copies in one command (one server's replicas)")
    replicas: int = 1
    expert_parallel: bool = False
    context: int
    max_seqs: int = Field(description="requests one copy runs at once")
    notes: list[LaunchNote] = Field(default_factory=list)

    @property
    def shell(self) -> str:
        return shlex.join(self.argv)


def model_repo(model: ModelArch) -> str | None:
    """The repository a server loads: the chat (instruct) checkpoint on record when there is one, since a served
    model answers people, else the first on record; None when the catalog holds no repository."""
    chat = [r for r in model.hf_ids if any(k in r.lower() for k in CHAT_WORDS)]
    found = chat or model.hf_ids
    return found[0] if found else None


def _base_name(model: ModelArch) -> str:
    repo = model_repo(model)
    return repo.rsplit("/", 1)[-1] if repo else model.name.replace(" ", "-")


def _engine(o: Option, asked: str | None) -> LaunchEngine:
    if asked is not None:
        if asked not in ENGINES:
            raise LaunchError(f"no launch command for the engine '{asked}': one of {', '.join(ENGINES)}")
        return asked
    if o.runtime and "mlx" in o.runtime.lower():
        return "mlx-lm"
    if o.engine in ("vllm", "sglang", "llama.cpp"):
        return o.engine
    return "vllm"


def _short(ref: str) -> str:
    """A tag or commit as the source line names it: the part before its explanation, a commit in 12 digits."""
    return re.sub(r"\b([0-9a-f]{12})[0-9a-f]{28}\b", r"\1", ref.split(" (")[0])


def _gpu_stack(gpu_id: str) -> str | None:
    return next((g.stack for g in gpus() if g.id == gpu_id), None)


def _precision_family(pid: str) -> str:
    return next((p.family for p in precisions() if p.id == pid), "float")


# A batch command's (or a request rate's) --max-model-len: this many times the mean item, no less than BATCH_MIN_LEN tokens.
BATCH_LENGTH_ROOM = 4
BATCH_MIN_LEN = 8192


def _window(w: Workload, model: ModelArch) -> int:
    """The --max-model-len / -c a command sets: the context the conversation stated; a batch job's or a request rate's
    mean item (the plan is sized on the mean) with room for the long ones, BATCH_LENGTH_ROOM x the mean, at least
    BATCH_MIN_LEN, never the mean itself, which rejects every longer request (reviews BI #3, #9; BJ #6: 2,300 for
    2,000-token prompts and 300-token answers at 20 requests a second), within the model's own window."""
    if w.spec.serves:
        mean = (w.prompt_tokens or 0) + (w.output_tokens or 0)
        if "context" not in w.flexible or not (w.prompt_tokens and w.output_tokens) or w.context > mean:
            return w.context  # a window said, or a chat's context: what the plan was sized for
    else:
        mean = w.batch_input_tokens + w.written_per_item(model)
    limit = model.max_context
    if w.spec.batch and model.yarn_context and mean > limit and w.chunking(model) is None:
        limit = model.yarn_context  # an item past the native window within YaRN's: one pass with RoPE scaling,
        # the window holding it (a chunked item's passes stay within the native one)
    return min(limit, max(BATCH_MIN_LEN, BATCH_LENGTH_ROOM * mean, w.context if w.spec.serves else 0))


class _Plan:
    """The figures of the option a command needs, worked out once."""

    def __init__(self, o: Option, w: Workload, model: ModelArch, adapters: MultiLoraResult | None = None) -> None:
        self.adapters = adapters
        self.replicas, self.pp = max(1, o.replicas), max(1, o.pp)
        self.tp = o.tp or max(1, o.gpus // (self.replicas * self.pp))
        self.servers = o.servers or 1
        self.context = _window(w, model)
        # a batch job keeps as many sequences in flight per copy as it was sized with (the engine holds fewer when
        # its KV cache is full): one at a time would miss the deadline the plan was sized for (reviews BG #5, BH #12)
        self.users = o.users_per_replica or (-(-w.users // self.replicas) if w.spec.serves
                                             else BATCH_JOB_CONCURRENCY if w.spec.batch else 1)
        self.precision = o.precision or model.native_precision or "bf16"
        # data-parallel attention (an MLA mixture of experts): one engine rank per GPU of a copy, the experts spread
        # over all of them; a copy wider than a server spans `nodes` servers (vLLM's and SGLang's DP + EP recipes)
        self.dp = o.dp_attention if o.dp_attention > 1 and o.engine in ("vllm", "sglang") else 1
        self.server_gpus = o.server_gpus or 8
        self.nodes = max(1, -(-self.dp // self.server_gpus)) if self.dp > 1 else 1
        # copies on each server: the same number everywhere, or (5 copies on 2 servers) 3 on the first, 2 on the rest
        spread = self.pp == 1 and self.servers > 1
        self.per_server = -(-self.replicas // self.servers) if spread else self.replicas
        self.fuller = self.replicas - (self.per_server - 1) * self.servers if spread else self.servers


def _hf_checkpoint(model: ModelArch, precision: str, engine: str) -> tuple[str, str, str | None, str | None]:
    """(the model argument, what it is, its quantised format, the --quantization value) for vLLM and SGLang."""
    repo = model_repo(model)
    native = model.native_precision
    if _precision_family(precision) == "gguf":  # a GGUF plan asked of vLLM or SGLang: its nearest HF format
        precision = {"f16": "bf16", "q8_0": "fp8"}.get(precision, "awq")
    online = None if precision == native else ONLINE.get(engine, {}).get(precision)
    if repo and (precision == native or (native is None and precision in SIXTEEN) or online):
        return repo, repo, None, online
    fmt = FORMAT_WORDS.get(precision, precision.upper())
    return f"./{_base_name(model)}-{fmt}", f"{fmt} of {model.name}", fmt, None


def _vllm(cmd: LaunchCommand, p: _Plan, o: Option, flags: EngineFlags, model: ModelArch) -> None:
    arg, what, fmt, quant = _hf_checkpoint(model, p.precision, "vllm")
    cmd.checkpoint, cmd.checkpoint_format = what, fmt
    if p.dp > 1:
        _vllm_dp(cmd, p, o, flags, arg, quant)
        return
    argv = [*flags.program, arg, "--tensor-parallel-size", str(p.tp)]
    if model.encoder:  # an embedding or reranking model runs on vLLM's pooling runner
        argv += ["--runner", "pooling", "--convert", "classify" if is_reranker(model) else "embed"]
        cmd.notes.append(LaunchNote(code="encoder", values={"model": model.name}))
    per_server = p.per_server
    if p.pp > 1:
        argv += ["--pipeline-parallel-size", str(p.pp), "--distributed-executor-backend", "ray"]
        cmd.setup = [["ray", "start", "--head", "--port", str(RAY_PORT)],
                     ["ray", "start", "--address", f"{HEAD}:{RAY_PORT}"]]
        cmd.notes.append(LaunchNote(code="ray_cluster", values={"servers": p.pp}))
    elif per_server > 1:
        argv += ["--data-parallel-size", str(per_server)]
    cmd.dp = per_server if p.pp == 1 else 1
    if o.expert_parallel:
        argv.append("--enable-expert-parallel")
    if quant:
        argv += ["--quantization", quant]
    if p.precision == "fp16" and model.native_precision is None:
        argv += ["--dtype", "float16"]
    argv += [*yarn_args(model, p.context, "vllm"), "--max-model-len", str(p.context),
             "--gpu-memory-utilization", f"{VLLM_MEMORY_SHARE:.2f}"]
    if o.kv_precision == "fp8":
        argv += ["--kv-cache-dtype", KV_VALUE["vllm"]]
    argv += ["--max-num-seqs", str(p.users)]
    if p.adapters is not None:
        argv += p.adapters.flags
        cmd.notes.append(LaunchNote(code="adapters", values={"loras": p.adapters.loras}))
    cmd.argv = argv


def _vllm_dp(cmd: LaunchCommand, p: _Plan, o: Option, flags: EngineFlags, arg: str, quant: str | None) -> None:
    """vLLM's data-parallel attention with expert parallelism (its data-parallel and expert-parallel deployment
    docs, Moonshot's Kimi K2 guide): one rank per GPU; across servers the first runs the API server and the
    others join it headless from their start rank."""
    argv = [*flags.program, arg, "--tensor-parallel-size", "1", "--data-parallel-size", str(p.dp)]
    if p.nodes > 1:
        argv += ["--data-parallel-size-local", str(p.server_gpus), "--data-parallel-address", HEAD,
                 "--data-parallel-rpc-port", str(VLLM_DP_RPC_PORT)]
        cmd.notes.append(LaunchNote(code="dp_nodes", values={"servers": p.nodes, "local": p.server_gpus}))
    argv.append("--enable-expert-parallel")
    if quant:
        argv += ["--quantization", quant]
    argv += ["--max-model-len", str(p.context), "--gpu-memory-utilization", f"{VLLM_MEMORY_SHARE:.2f}"]
    if o.kv_precision == "fp8":
        argv += ["--kv-cache-dtype", KV_VALUE["vllm"]]
    cmd.dp, cmd.tp, cmd.expert_parallel = p.dp, 1, True
    cmd.max_seqs = max(1, -(-p.users // p.dp))  # each data-parallel rank schedules its own share of the users
    argv += ["--max-num-seqs", str(cmd.max_seqs)]
    cmd.argv = argv


def _sglang(cmd: LaunchCommand, p: _Plan, o: Option, flags: EngineFlags, model: ModelArch) -> None:
    arg, what, fmt, quant = _hf_checkpoint(model, p.precision, "sglang")
    cmd.checkpoint, cmd.checkpoint_format = what, fmt
    argv = [*flags.program, "--model-path", arg, "--tp-size", str(p.tp)]
    if model.encoder:
        argv.append("--is-embedding")
    per_server = p.per_server
    if p.dp > 1:  # SGLang's DeepSeek recipe: --tp N --dp N --enable-dp-attention, the experts over all N
        argv += ["--dp-size", str(p.dp), "--enable-dp-attention"]
        if p.nodes > 1:
            argv += ["--nnodes", str(p.nodes), "--node-rank", "0", "--dist-init-addr", f"{HEAD}:{SGLANG_INIT_PORT}"]
            cmd.notes.append(LaunchNote(code="node_rank", values={"servers": p.nodes, "last": p.nodes - 1}))
    elif p.pp > 1:
        argv += ["--pp-size", str(p.pp), "--nnodes", str(p.pp), "--node-rank", "0",
                 "--dist-init-addr", f"{HEAD}:{SGLANG_INIT_PORT}"]
        cmd.notes.append(LaunchNote(code="node_rank", values={"servers": p.pp, "last": p.pp - 1}))
    elif per_server > 1:
        argv += ["--dp-size", str(per_server)]
    cmd.dp = p.dp if p.dp > 1 else per_server if p.pp == 1 else 1
    if o.expert_parallel:
        argv += ["--ep-size", str(p.tp)]
    if quant:
        argv += ["--quantization", quant]
    if p.precision == "fp16" and model.native_precision is None:
        argv += ["--dtype", "float16"]
    gpu = next((g for g in gpus() if g.id == o.gpu), None)
    share = sglang_default_mem_fraction(gpu, p.tp, p.pp)
    argv += [*yarn_args(model, p.context, "sglang"), "--context-length", str(p.context),
             "--mem-fraction-static", f"{share:.2f}"]
    if o.kv_precision == "fp8":
        argv += ["--kv-cache-dtype", KV_VALUE["sglang"]]
    argv += ["--max-running-requests", str(p.users)]
    if p.adapters is not None:  # SGLang: adapters named at start (--lora-paths), --max-loras-per-batch in one batch
        # SGLang counts requests to the base model alone as one of the batch's adapters (server_args.py
        # max_loras_per_batch: "include base-only request"), so its slots are vLLM's --max-loras plus one
        argv += ["--enable-lora", "--max-loras-per-batch", str(p.adapters.max_loras + SGLANG_BASE_SLOT),
                 "--max-lora-rank", str(p.adapters.max_lora_rank)]
        cmd.notes.append(LaunchNote(code="adapters", values={"loras": p.adapters.loras}))
    cmd.argv = argv


def _llamacpp(cmd: LaunchCommand, p: _Plan, o: Option, flags: EngineFlags, model: ModelArch,
              offload: OffloadResult | None) -> None:
    file_type = p.precision if _precision_family(p.precision) == "gguf" else GGUF_FOR.get(p.precision, "q4_k_m")
    if offload is not None:
        file_type = offload.precision
    name = f"{_base_name(model)}-{file_type.upper()}.gguf"
    cmd.checkpoint, cmd.checkpoint_format = f"{file_type.upper()} GGUF of {model.name}", file_type.upper()
    cmd.notes.append(LaunchNote(code="gguf_file", values={"format": file_type.upper(), "model": model.name}))
    slots = max(1, p.users)
    # -ngl above the layer count puts the output layer on the card too (llama.cpp counts it as one more); a split
    # carries its own -ngl, the one its answer says (tools.offload)
    layers = offload.ngl if offload is not None else model.num_layers + 1
    argv = [*flags.program, "-m", name, "-ngl", str(layers)]
    if offload is not None and offload.cpu_moe_layers:
        argv += ["--n-cpu-moe", str(offload.cpu_moe_layers)]
    split = offload.tensor_split if offload is not None else None
    if split:  # the card-side layers per card, in order: the first --n-cpu-moe layers are light on their card
        argv += ["-ts", ",".join(str(c) for c in split)]
    if offload is not None:
        cmd.notes.append(LaunchNote(code="offload", values={"ram_gb": f"{offload.ram_gb:,.1f}"}))  # as the answer says
    argv += [*yarn_args(model, p.context, "llama.cpp"), "-c", str(p.context * slots), "-np", str(slots)]
    kv = (offload.kv_precision if offload is not None else o.kv_precision)  # the split's own cache type, if split
    kv = kv if kv in ("q8_0", "q4_0") else None
    if kv:
        argv += ["-ctk", kv, "-ctv", kv]
    if p.adapters is not None:
        cmd.notes.append(LaunchNote(code="adapters_elsewhere", values={"loras": p.adapters.loras}))
    if o.gpus // p.replicas > 1 and offload is None:  # (a split: the answer's offload lines say it, -ts with it)
        cmd.notes.append(LaunchNote(code="layer_split", values={"gpus": o.gpus // p.replicas}))
    cmd.argv = argv


def _mlx(cmd: LaunchCommand, p: _Plan, flags: EngineFlags, model: ModelArch) -> None:
    repo = model_repo(model)
    if repo and (p.precision in SIXTEEN or p.precision == model.native_precision):
        arg = cmd.checkpoint = repo
    else:
        bits = 8 if p.precision in ("fp8", "int8", "q8_0", "w8a8-int8", "gptq-int8") else 4
        cmd.checkpoint_format = f"{bits}bit"
        arg = f"./{_base_name(model)}-{bits}bit"
        cmd.checkpoint = f"{bits}-bit MLX of {model.name}"
        cmd.notes.append(LaunchNote(code="mlx_checkpoint", values={"bits": bits, "model": model.name}))
    cmd.argv = [*flags.program, "--model", arg]


def launch_command(o: Option, w: Workload, engine: str | None = None,
                   offload: OffloadResult | None = None, adapters: MultiLoraResult | None = None) -> LaunchCommand:
    """The command that starts option `o` of a serving plan for workload `w`; `engine` asks for another engine
    than the plan's (vllm, sglang, llama.cpp, mlx-lm); `offload` is the plan's llama.cpp split of the model
    between the card and system RAM (its -ngl and --n-cpu-moe); `adapters` the plan's LoRA adapters (vLLM
    --enable-lora --max-loras --max-lora-rank --max-cpu-loras, SGLang --max-loras-per-batch)."""
    if not w.spec.serves and not w.spec.batch:
        raise LaunchError("a training plan has no server to start: size a serving plan first")
    if not o.ok and not o.serves:
        raise LaunchError(f"{o.gpus} x {o.gpu_name} does not hold the model: no command starts it")
    model = resolve_model(w.model)
    kind = _engine(o, engine if engine is not None or offload is None else "llama.cpp")
    flags = engine_flags()[kind]
    p = _Plan(o, w, model, adapters)
    cmd = LaunchCommand(engine=kind, engine_name=flags.name, version=flags.version,
                        flags_source=f"{flags.repository} {flags.path} @ {_short(flags.ref)}",
                        model_id=model.id, model_name=model.name, repo=model_repo(model),
                        checkpoint="", argv=[], servers=p.servers, tp=p.tp, pp=p.pp, replicas=p.replicas,
                        expert_parallel=o.expert_parallel and kind in ("vllm", "sglang"), context=p.context,
                        max_seqs=max(1, p.users))
    if kind == "vllm":
        _vllm(cmd, p, o, flags, model)
    elif kind == "sglang":
        _sglang(cmd, p, o, flags, model)
    elif kind == "llama.cpp":
        _llamacpp(cmd, p, o, flags, model, offload)
    else:
        _mlx(cmd, p, flags, model)
    lever_flags(cmd, w, model)  # prefix caching, speculative decoding (tools.launch_levers)
    _placement_notes(cmd, p, o, kind)
    return cmd


def _placement_notes(cmd: LaunchCommand, p: _Plan, o: Option, kind: str) -> None:
    """Where the command runs: on each server, one cluster per copy, the checkpoint to fetch first."""
    if cmd.checkpoint_format and kind in ("vllm", "sglang"):
        cmd.notes.insert(0, LaunchNote(code="checkpoint", values={"format": cmd.checkpoint_format,
                                                                  "model": cmd.model_name}))
    if p.pp > 1 and p.replicas > 1:
        cmd.notes.insert(0, LaunchNote(code="copies", values={"copies": p.replicas, "servers": p.pp}))
    elif p.pp == 1 and p.servers > 1 and p.nodes == 1 and p.fuller < p.servers:  # 5 copies on 2 servers: 3 and 2
        flag = "--data-parallel-size" if kind == "vllm" else "--dp-size"
        cmd.notes.insert(0, LaunchNote(code="each_server_split", values={
            "servers": p.servers, "fuller": p.fuller, "copies": p.per_server, "rest": p.servers - p.fuller,
            "fewer": p.per_server - 1, "flag": flag, "total": p.replicas}))
    elif p.pp == 1 and p.servers > 1 and p.nodes == 1:
        cmd.notes.insert(0, LaunchNote(code="each_server", values={"servers": p.servers}))
    if _gpu_stack(o.gpu) == "cann" and kind in ("vllm", "sglang"):
        cmd.notes.append(LaunchNote(code="ascend", values={}))


def launch_for(rec: Recommendation, engine: str | None = None) -> LaunchCommand:
    """The command for a recommendation's plan: its llama.cpp offload when that is the answer, else its best
    option. LaunchError when there is no serving plan to start."""
    best = rec.best
    if rec.offload_leads and rec.offload is not None and best is not None and engine in (None, "llama.cpp"):
        # the offload runs the model asked, which the rented alternative may have relaxed to a smaller one
        asked = rec.workload.model_copy(update={"model": rec.offload.model_id})
        return launch_command(best, asked, "llama.cpp", offload=rec.offload)
    if best is None:
        raise LaunchError("no plan to start: no option holds the model")
    return launch_command(best, rec.workload, engine, adapters=rec.multi_lora)


def check_flags(cmd: LaunchCommand) -> list[str]:
    """The flags of a command that its engine's version does not list (empty: every flag exists)."""
    flags = engine_flags()[cmd.engine]
    start = len(flags.program)
    return [a for a in cmd.argv[start:] if a.startswith("-") and not flags.accepts(a)]


# ---------------------------------------------------------------- a Kubernetes manifest

# The engines' published container images (Docker Hub / GHCR), and the one each version's command runs in
IMAGES = {"vllm": "vllm/vllm-openai:v0.11.0", "sglang": "lmsysorg/sglang:latest",
          "llama.cpp": "ghcr.io/ggml-org/llama.cpp:server-cuda"}
PORTS = {"vllm": 8000, "sglang": 30000, "llama.cpp": 8080}  # each server's default HTTP port
GPU_RESOURCE = {"nvidia": "nvidia.com/gpu", "amd": "amd.com/gpu"}  # the vendors' device plugins


# ROCm builds: vLLM's AMD image (vLLM's ROCm install docs); no other engine's is on record
ROCM_IMAGES = {"vllm": "rocm/vllm:latest"}


def _image_and_resource(engine: str, gpu_id: str) -> tuple[str, str]:
    """The container image and the device plugin's GPU resource for the engine on this card's vendor."""
    vendor = next((g.vendor for g in gpus() if g.id == gpu_id), "nvidia")
    image = IMAGES.get(engine) if vendor == "nvidia" else ROCM_IMAGES.get(engine) if vendor == "amd" else None
    if image is None or vendor not in GPU_RESOURCE:
        raise LaunchError("no container image on record for this engine on this card: start it with the command "
                          "instead")
    return image, GPU_RESOURCE[vendor]


def _container(name: str, argv: list[str], image: str, resource: str, gpus_each: int, port: int | None) -> list[str]:
    lines = [f"        - name: {name}", f"          image: {image}",
             "          command: [" + ", ".join(_quoted(a) for a in argv) + "]"]
    if port is not None:
        lines += ["          ports:", f"            - containerPort: {port}"]
    lines += ["          resources:", "            limits:", f"              {resource}: {gpus_each}",
              "          volumeMounts:", "            - {name: shm, mountPath: /dev/shm}"]
    return lines


def _quoted(a: str) -> str:
    return '"' + a.replace("\\", "\\\\").replace('"', '\\"') + '"'


def kubernetes_manifest(cmd: LaunchCommand, o: Option) -> str:
    """The plan as Kubernetes objects: a Deployment of one pod per server (its GPUs, the command) behind a
    Service when each copy fits one server; a LeaderWorkerSet (the Kubernetes SIG's API for multi-host
    inference) of `pp` pods per copy when a copy spans servers: the leader starts the Ray head and the server,
    each worker joins the leader's Ray cluster. LaunchError for a Mac (no GPU pods) or a card with no device
    image on record."""
    if cmd.engine not in IMAGES:
        raise LaunchError(f"{cmd.engine_name} runs on a Mac, not in Kubernetes: start it with the command instead")
    image, resource = _image_and_resource(cmd.engine, o.gpu)
    name = re.sub(r"[^a-z0-9-]+", "-", cmd.model_id.lower()).strip("-")[:40] + "-" + cmd.engine.replace(".", "")
    per_pod = o.gpus // max(1, cmd.servers if cmd.pp == 1 else cmd.replicas * cmd.pp)
    port = PORTS[cmd.engine]
    volumes = ["      volumes:", "        - name: shm", "          emptyDir: {medium: Memory, sizeLimit: 16Gi}"]
    service = ["---", "apiVersion: v1", "kind: Service", f"metadata: {{name: {name}}}", "spec:",
               f"  selector: {{app: {name}}}", f"  ports: [{{port: {port}, targetPort: {port}}}]"]
    if cmd.pp == 1:
        pods = cmd.servers if cmd.servers > 1 else 1
        head = ["apiVersion: apps/v1", "kind: Deployment", f"metadata: {{name: {name}}}", "spec:",
                f"  replicas: {pods}", f"  selector: {{matchLabels: {{app: {name}}}}}", "  template:",
                f"    metadata: {{labels: {{app: {name}}}}}", "    spec:", "      containers:"]
        return "\n".join(head + _container("server", cmd.argv, image, resource, per_pod, port) + volumes + service)
    leader = ["sh", "-c", f"ray start --head --port {RAY_PORT} && " + shlex.join(cmd.argv)]
    worker = ["sh", "-c", f"ray start --address $(LWS_LEADER_ADDRESS):{RAY_PORT} --block"]
    head = ["apiVersion: leaderworkerset.x-k8s.io/v1", "kind: LeaderWorkerSet", f"metadata: {{name: {name}}}",
            "spec:", f"  replicas: {cmd.replicas}", "  leaderWorkerTemplate:", f"    size: {cmd.pp}",
            "    leaderTemplate:", f"      metadata: {{labels: {{app: {name}, role: leader}}}}", "      spec:",
            "        containers:"]
    lead = [x.replace("        - ", "          - ", 1) if x.startswith("        - name") else "  " + x
            for x in _container("leader", leader, image, resource, per_pod, port)]
    work = ["    workerTemplate:", "      spec:", "        containers:"] + [
        x.replace("        - ", "          - ", 1) if x.startswith("        - name") else "  " + x
        for x in _container("worker", worker, image, resource, per_pod, None)]
    pod_volumes = ["  " + v for v in volumes]
    service[5] = f"  selector: {{app: {name}, role: leader}}"
    return "\n".join(head + lead + pod_volumes + work + pod_volumes + service)
