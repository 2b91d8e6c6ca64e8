"""`gpu-advisor`: the command line. A stable contract: scripts call it, so flags and JSON keys stay.

Bad input exits with status 2 and a one-line reason (with the closest names for unknown models and
GPUs); a problem of the environment (read-only database, full disk, missing folder) exits with 1 and
a one-line reason saying what was not saved; "internal error" is kept for bugs. Nothing here prints
a traceback. Stored and imported text is printed with terminal control sequences removed. Sizing
commands import neither langgraph nor textual.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from tools.phases import PHASES
from tui.format import plain

if TYPE_CHECKING:
    from assistant.history import HistoryStore

EXIT_USAGE = 2
EXIT_ENVIRONMENT = 1
MAX_AMOUNT = 1e12  # hours, dollars, tokens/s ...: beyond this no figure means anything (and products stay finite)
MAX_CONFIG_BYTES = 1 << 20  # a Hugging Face config.json is a few KB
MAX_STDIN_CHARS = 100_000  # a question read from a pipe; the message cap applies after that
ENGINES = ("transformers", "vllm", "llama.cpp")


class UsageError(Exception):
    """Input the tools cannot size; printed as one line, exit status 2."""


class HelpFormatter(argparse.HelpFormatter):
    """--help shows every option's default, also for options without a help text."""

    def _get_help_string(self, action: argparse.Action) -> str:
        help_text = action.help or ""
        if "%(default)" not in help_text and action.default not in (None, False, argparse.SUPPRESS) \
                and action.option_strings:
            help_text += " (default: %(default)s)"
        return help_text.strip()



class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: `gpu-advisor: <command>: <reason> (see --help)`, exit 2;
    with --json on the command line the error is a JSON object on stdout as well."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        if not kwargs.get("help") and kwargs.get("default") not in (None, False) and args and args[0].startswith("-"):
            kwargs["help"] = "(default: %(default)s)"
        return super().add_argument(*args, **kwargs)

    def error(self, message: str):
        where = self.prog.removeprefix('gpu-advisor').strip() or 'usage'
        if JSON_ERRORS[0]:
            print(json.dumps({"error": {"message": f"{where}: {message}", "exit_status": EXIT_USAGE}}))
        self.exit(EXIT_USAGE, f"gpu-advisor: {where}: {message} (see `{self.prog} --help`)\n")


JSON_ERRORS = [False]  # set by main() when --json is on the command line


class ReplayMismatch(Exception):
    """`sessions replay --check` found differences: exit status 1."""


# ---------------------------------------------------------------- argument types


def positive_int(text: str) -> int:
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        if text.lower().endswith("k") and text[:-1].replace(".", "", 1).isdigit():
            value = int(float(text[:-1]) * 1024)
        else:
            raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    if value > 10_000_000:
        raise argparse.ArgumentTypeError(f"{value:,} is beyond anything this tool can size (at most 10,000,000)")
    return value


def _finite(value: float, text: str) -> float:
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got '{text}'")
    return value


def fraction(text: str) -> float:
    raw = text.strip().rstrip("%")
    try:
        value = _finite(float(raw), text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a fraction like 0.7 or 70%, got '{text}'") from None
    if text.strip().endswith("%") or value > 1:
        value /= 100
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (or 1% and 100%), got '{text}'")
    return value


def _number(text: str) -> float:
    try:
        value = float(text.replace(",", "").lstrip("$"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
    _finite(value, text)
    if abs(value) > MAX_AMOUNT:
        raise argparse.ArgumentTypeError(f"'{text}' is beyond anything this tool can price or size (at most {MAX_AMOUNT:g})")
    return value


def positive_float(text: str) -> float:
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got '{text}'")
    return value


def non_negative_float(text: str) -> float:
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"cannot be negative, got '{text}'")
    return value


def db_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("needs the path of a database file, not an empty string")
    return text


def model_spec(text: str) -> str:
    """A --model value; when it names a file (or a folder with config.json), that file must be a
    regular JSON file of sane size: no devices, FIFOs or endless files, no absurd nesting or numbers."""
    from pathlib import Path

    path = Path(text).expanduser()
    try:
        if not (text.endswith(".json") or "/" in text) or not (path.exists() or path.is_symlink()):
            return text
        if path.is_dir():
            path = path / "config.json"
            if not path.exists():
                return text
        if not path.is_file():
            raise argparse.ArgumentTypeError(f"{path} is not a regular file; give a config.json file")
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise argparse.ArgumentTypeError(f"{path} is over {MAX_CONFIG_BYTES // 1024} KB: not a model config.json")
        with path.open("rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        config = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise argparse.ArgumentTypeError(f"{path} is not text (not UTF-8): not a config.json") from None
    except (ValueError, RecursionError) as e:
        reason = "nested too deeply" if isinstance(e, RecursionError) else str(e).split(":")[0]
        raise argparse.ArgumentTypeError(f"{path} is not valid JSON ({reason})") from None
    if not isinstance(config, dict) or not _sane_json(config):
        raise argparse.ArgumentTypeError(f"{path} is not a model config.json (an object of sane values)")
    return text


def _sane_json(value: object, depth: int = 0) -> bool:
    if depth > 32:
        return False
    if isinstance(value, dict):
        return all(_sane_json(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_sane_json(v, depth + 1) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return math.isfinite(value) and abs(value) <= 1e18
    return True


def tokens_amount(text: str) -> float:
    t = text.strip().lower().replace(",", "")
    scale = {"k": 1e3, "m": 1e6, "b": 1e9}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale != 1 else t) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a token count like 20M or 5000000, got '{text}'") from None
    _finite(value, text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got '{text}'")
    if value > MAX_AMOUNT * 1e4:
        raise argparse.ArgumentTypeError(f"'{text}' is beyond anything this tool can size")
    return value


# ---------------------------------------------------------------- output


def emit(args: argparse.Namespace, result: BaseModel, human: Callable[[], str]) -> None:
    if args.json:
        data = result.model_dump(mode="json")
        for key in ("assumptions", "warnings", "terms"):  # figures first, the breakdown last
            if key in data:
                data[key] = data.pop(key)
        print(json.dumps(data, indent=2))
        return
    print(human())
    from tui.format import explain, notes

    extra = notes(result)  # type: ignore[arg-type]
    if extra:
        print()
        print(extra)
    if getattr(args, "explain", False):
        print()
        print(explain(result))  # type: ignore[arg-type]
    elif not args.json:
        print("\n(--explain shows every formula and input)")


# ---------------------------------------------------------------- commands


def cmd_size_inference(args: argparse.Namespace) -> None:
    from tools.inference import InferenceMemoryInput, inference_memory
    from tui.format import gb, table

    r = inference_memory(InferenceMemoryInput(
        model=args.model, precision=args.precision, kv_precision=args.kv_precision, context=args.context,
        batch=args.batch, gpus=args.gpus, pp=args.pp, gpu=args.gpu, engine=args.engine,
        gpu_memory_utilization=args.gpu_memory_utilization))

    def human() -> str:
        n = r.gpus * r.pp
        lines = [f"{r.model}: {r.precision} weights, {r.engine}, {r.batch} x {r.context:,} tokens"
                 + (f", {r.gpus} TP x {r.pp} PP GPUs" if n > 1 else ""),
                 "Memory in GB (10^9 bytes)", ""]
        rows = [("Weights", gb(r.weights_bytes), gb(r.per_gpu_weights_bytes)),
                ("KV cache", gb(r.kv_cache_bytes), gb(r.per_gpu_kv_cache_bytes)),
                ("Activations", gb(r.activation_bytes), gb(r.per_gpu_activation_bytes)),
                ("Engine overhead", gb(r.overhead_bytes), gb(r.per_gpu_overhead_bytes)),
                ("Total", gb(r.total_bytes), gb(r.per_gpu_total_bytes)),
                ("Range", f"{gb(r.total_range_bytes[0])}-{gb(r.total_range_bytes[1])}",
                 f"{gb(r.per_gpu_total_range_bytes[0])}-{gb(r.per_gpu_total_range_bytes[1])}")]
        lines.append(table(rows, ["", "all GPUs", "per GPU"]))
        if r.gpu:
            verdict = "fits" if r.fits else "does NOT fit"
            lines += ["", f"On {r.gpu} ({gb(r.gpu_capacity_bytes or 0)} GB usable): {verdict}, "
                          f"headroom {gb(r.headroom_bytes or 0)} GB per GPU"]
            if r.kv_cache_capacity_tokens is not None:
                lines.append(f"vLLM KV cache capacity: {r.kv_cache_capacity_tokens:,} tokens "
                             f"= {r.max_concurrent_sequences:,.1f} sequences of {r.context:,} tokens")
        return "\n".join(lines)

    emit(args, r, human)


def cmd_size_training(args: argparse.Namespace) -> None:
    from tools.training import TrainingMemoryInput, training_memory
    from tui.format import gb, table

    r = training_memory(TrainingMemoryInput(
        model=args.model, method=args.method, precision=args.precision, base_precision=args.base_precision,
        mixed_precision=not args.pure_bf16, optimizer=args.optimizer, seq_len=args.seq_len, batch=args.batch,
        gradient_checkpointing=args.gradient_checkpointing, gpus=args.gpus, zero=args.zero,
        cpu_offload=args.cpu_offload, lora_rank=args.lora_rank))

    def human() -> str:
        rows = [("Weights", gb(r.weights_bytes)), ("Gradients", gb(r.gradient_bytes)),
                ("Optimizer states", gb(r.optimizer_bytes)), ("Activations", gb(r.activation_bytes)),
                ("CUDA context and allocator", gb(r.overhead_bytes)), ("Total per GPU", gb(r.per_gpu_total_bytes)),
                ("Range per GPU", f"{gb(r.per_gpu_total_range_bytes[0])}-{gb(r.per_gpu_total_range_bytes[1])}")]
        lines = [f"{r.model}: {r.method} fine-tuning on {r.gpus} GPU(s)" + (f", ZeRO-{r.zero}" if r.zero else ""),
                 f"Trainable parameters: {r.trainable_params / 1e9:,.3f}B", "Memory in GB (10^9 bytes)", "",
                 table(rows, ["", "per GPU"])]
        if r.cpu_bytes:
            lines.append(f"CPU memory for offloaded state: {gb(r.cpu_bytes)} GB per GPU")
        return "\n".join(lines)

    emit(args, r, human)


def cmd_speed(args: argparse.Namespace) -> None:
    from tools.throughput import SpeedInput, speed
    from tui.format import tokens

    r = speed(SpeedInput(model=args.model, precision=args.precision, gpu=args.gpu, gpus=args.gpus, batch=args.batch,
                         context=args.context, engine=args.engine, kv_precision=args.kv_precision))

    def human() -> str:
        lo, hi = r.decode_tokens_per_s_range
        plo, phi = r.prefill_tokens_per_s_range
        return "\n".join([
            f"{r.model} on {r.gpus} x {r.gpu} ({r.engine}), batch {r.batch}, context {r.context:,}",
            f"Decode:  {tokens(r.decode_tokens_per_s)} tokens/s per sequence (range {tokens(lo)}-{tokens(hi)}), "
            f"{tokens(r.aggregate_decode_tokens_per_s)} tokens/s in all; {r.bound}-bound",
            f"Prefill: {tokens(r.prefill_tokens_per_s)} tokens/s (range {tokens(plo)}-{tokens(phi)}); "
            f"first token after {r.time_to_first_token_s:.2f} s for a {r.context:,}-token prompt",
        ])

    emit(args, r, human)


def cmd_fit(args: argparse.Namespace) -> None:
    from tools.fit import FitInput, fit
    from tui.format import gb, table

    r = fit(FitInput(model=args.model, gpu=args.gpu, phase=args.phase, precision=args.precision, context=args.context,
                     batch=args.batch, engine=args.engine, method=args.method, optimizer=args.optimizer,
                     seq_len=args.seq_len, gradient_checkpointing=args.gradient_checkpointing))

    def human() -> str:
        rows = [(o.gpus, "yes" if o.fits else "no", gb(o.per_gpu_bytes), gb(o.capacity_bytes),
                 f"{o.headroom_fraction:.0%}", o.setup) for o in r.options]
        lines = [f"{r.model} on {r.gpu}: {r.phase}", "Memory in GB (10^9 bytes)", "",
                 table(rows, ["GPUs", "fits", "need/GPU", "have/GPU", "headroom", "setup"]), "",
                 f"Smallest fit: {r.smallest_fit or 'none of ' + ', '.join(str(o.gpus) for o in r.options)} GPU(s); "
                 f"valid tensor-parallel degrees: {', '.join(map(str, r.valid_tensor_parallel))}"]
        if r.remedies:
            lines += ["", "What would make it fit on one card:"]
            lines += [f"  {'yes' if x.fits else 'no '}  {x.change}: {gb(x.per_gpu_bytes)} GB" for x in r.remedies]
        return "\n".join(lines)

    emit(args, r, human)


def cmd_cost(args: argparse.Namespace) -> None:
    from tools.cost import CostInput, RentBuyInput, cost, rent_vs_buy

    r = cost(CostInput(gpu=args.gpu, gpus=args.gpus, region=args.region, hours=args.hours,
                       tokens_per_s=args.tokens_per_s, utilisation=args.utilisation or 1.0,
                       usd_per_gpu_hour=args.usd_per_gpu_hour))
    rb = None
    if args.rent_vs_buy:
        rb = rent_vs_buy(RentBuyInput(gpu=args.gpu, gpus=args.gpus, utilisation=args.utilisation or 0.5,
                                      region=args.region, rent_usd_per_gpu_hour=args.usd_per_gpu_hour,
                                      purchase_usd_per_gpu=args.purchase_usd, horizon_months=args.horizon_months,
                                      hosting_usd_per_gpu_month=args.hosting_usd_per_month,
                                      electricity_usd_per_kwh=args.electricity_usd_per_kwh))
    if args.json:
        print(json.dumps({"cost": r.model_dump(mode="json"),
                          "rent_vs_buy": rb.model_dump(mode="json") if rb else None}, indent=2))
        return

    def human() -> str:
        lo, hi = r.usd_per_hour_range
        lines = [f"{r.gpus} x {r.gpu}: {r.usd_per_hour:,.2f} USD/hour typical (range {lo:,.2f}-{hi:,.2f})"]
        if r.run_usd is not None:
            lines.append(f"Run of {args.hours:g} h: {r.run_usd:,.2f} USD")
        if r.usd_per_million_tokens is not None:
            lines.append(f"Generated tokens: {r.usd_per_million_tokens:,.2f} USD per million")
        if rb:
            be = "never within the horizon" if rb.break_even_utilisation is None else f"{rb.break_even_utilisation:.0%}"
            lines += ["", f"Rent or buy over {rb.horizon_months} months at {rb.utilisation:.0%} utilisation: "
                          f"rent {rb.rent_total_usd:,.0f} USD, buy {rb.buy_total_usd:,.0f} USD -> {rb.cheaper}",
                      f"Buying pays off above {be} utilisation (the guide's rule of thumb: "
                      f"{rb.rule_of_thumb[0]:.0%}-{rb.rule_of_thumb[1]:.0%})"]
            r.assumptions.extend(rb.assumptions)
            r.warnings.extend(rb.warnings)
            r.terms.extend(rb.terms)
        return "\n".join(lines)

    emit(args, r, human)


def cmd_train_time(args: argparse.Namespace) -> None:
    from tools.training_time import TrainingTimeInput, training_time

    r = training_time(TrainingTimeInput(model=args.model, gpu=args.gpu, gpus=args.gpus, method=args.method,
                                        tokens=args.tokens, epochs=args.epochs, mfu=args.mfu, region=args.region,
                                        gradient_checkpointing=args.gradient_checkpointing))

    def human() -> str:
        lo, hi = r.hours_range
        lines = [f"{r.model}: {args.method} on {r.gpus} x {r.gpu}, {args.tokens:,.0f} tokens x {args.epochs:g} epoch(s)",
                 f"Time: {r.hours:,.1f} h (range {lo:,.1f}-{hi:,.1f} h) at {r.mfu:.0%} effective MFU"]
        if r.usd is not None and r.usd_range:
            lines.append(f"Rented: {r.usd:,.0f} USD (range {r.usd_range[0]:,.0f}-{r.usd_range[1]:,.0f})")
        return "\n".join(lines)

    emit(args, r, human)


def cmd_recommend(args: argparse.Namespace) -> None:
    from tools.recommend import Workload, recommend
    from tui.format import gb, table, tokens

    r = recommend(Workload(model=args.model, phase=args.phase, serve_precision=args.precision, method=args.method,
                           objective=args.objective, context=args.context, users=args.users,
                           utilisation=args.utilisation or 0.5, region=args.region, budget_usd_per_month=args.budget,
                           budget_usd=args.budget_once, owned=args.owned or [], preference=args.prefer,
                           train_tokens=args.train_tokens, epochs=args.epochs, batch_items=args.items,
                           batch_input_tokens=args.tokens_in, batch_output_tokens=args.tokens_out,
                           deadline_hours=args.deadline_hours, ttft_ms=args.ttft_ms, prompt_tokens=args.prompt_tokens))

    def human() -> str:
        rows = []
        for o in r.options[: args.top]:
            rows.append((f"{o.gpus} x {o.gpu}" + (" (owned)" if o.owned else ""), "yes" if o.ok else "no",
                         f"{o.headroom_fraction:.0%}",
                         tokens(o.decode_tokens_per_s) if o.decode_tokens_per_s else "-",
                         f"{o.usd_per_hour:,.2f}" if o.usd_per_hour else "-",
                         f"{o.purchase_usd:,.0f}" if o.purchase_usd else "-",
                         f"{o.job_hours:,.1f}" if o.job_hours else "-",
                         f"{o.job_usd:,.0f}" if o.job_usd else "-"))
        best = r.best
        head = (f"Recommendation: {r.action} {best.gpus} x {best.gpu_name}" if best
                else "No option meets every requirement")
        lines = [head]
        if best:
            lines += [f"  - {x}" for x in best.reasons]
            if best.serve_per_gpu_bytes:
                lines.append(f"  - serving needs {gb(best.serve_per_gpu_bytes)} GB per GPU of {gb(best.capacity_bytes)} GB")
            if best.train_per_gpu_bytes:
                lines.append(f"  - fine-tuning needs {gb(best.train_per_gpu_bytes)} GB per GPU")
        lines += ["", table(rows, ["option", "fits", "headroom", "tok/s/user", "USD/h", "buy USD", "job h", "job USD"])]
        for lever in r.levers:
            if lever.option:
                lines.append(f"  would work with {lever.change}: {lever.option.gpus} x {lever.option.gpu}")
        if r.rent_or_buy:
            rb = r.rent_or_buy
            be = "never within the horizon" if rb.break_even_utilisation is None else f"{rb.break_even_utilisation:.0%}"
            lines += ["", f"Rent or buy: at {rb.utilisation:.0%} utilisation {rb.cheaper} is cheaper over "
                          f"{rb.horizon_months} months; buying pays off above {be}."]
        return "\n".join(lines)

    emit(args, r, human)


def cmd_gpus(args: argparse.Namespace) -> None:
    from knowledge import gpus, user_gpus_path, user_prices_path
    from tools.cost import try_price
    from tui.format import table

    if args.path:
        paths = {"gpus": str(user_gpus_path()), "prices": str(user_prices_path())}
        print(json.dumps(paths, indent=2) if args.json else "\n".join(paths.values()))
        return
    records = gpus()
    if args.json:
        print(json.dumps([g.model_dump(mode="json") for g in records], indent=2))
        return
    rows = []
    for g in records:
        q = try_price(g.id)
        rows.append((g.id, g.name, f"{g.memory_gb:g}", f"{g.memory_bandwidth_gbps:,.0f}", f"{g.bf16_tflops:g}",
                     g.interconnect, f"{q.usd_per_gpu_hour_low:.2f}-{q.usd_per_gpu_hour_high:.2f}" if q else "-"))
    print(table(rows, ["id", "name", "GB", "GB/s", "BF16 TFLOPS", "link", "USD/GPU-h"]))
    print("\nTFLOPS are dense (no sparsity); GeForce figures use FP32 accumulation. Prices are dated snapshots.")


def cmd_models(args: argparse.Namespace) -> None:
    from knowledge import models, show_model
    from tui.format import table

    if args.action == "show":
        if not args.id:
            raise UsageError("models show needs a model: gpu-advisor models show Qwen/Qwen2.5-72B-Instruct")
        _allow_network()
        shape = show_model(args.id)
        if args.json:
            print(json.dumps(shape, indent=2))
        else:
            width = max(len(k) for k in shape)
            print("\n".join(f"{k:<{width}}  {plain(str(v))}" for k, v in shape.items() if v not in (None, [], {})))
        return
    records = models()
    if args.json:
        print(json.dumps([m.model_dump(mode="json") for m in records], indent=2))
        return
    rows = [(m.id, m.name, f"{m.total_params_b:g}" + (f" (A{m.active_params_b:g})" if m.is_moe else ""),
             m.num_layers, m.attention.upper(), f"{m.num_kv_heads}x{m.head_dim}", f"{m.max_context:,}") for m in records]
    print(table(rows, ["id", "name", "params B", "layers", "attention", "KV heads", "context"]))
    print("\nAlso accepted: Hugging Face repo ids, a path to config.json, or a size such as 27B or 26B-A3.8B.")


# The sizing commands may resolve a model on the Hugging Face Hub; the conversation stays offline
# (replayed sessions must give the same answers).
HUB_COMMANDS = ("size", "speed", "fit", "train-time", "recommend", "models")


def _allow_network() -> None:
    """A sizing command may look a model up on the Hugging Face Hub (HF_HUB_OFFLINE still wins)."""
    from knowledge import hub

    hub.allow_network(True)


def _reply_json(message) -> dict:
    return {"role": "assistant", "content": message.content, **message.additional_kwargs}


def question_text(words: list[str]) -> str:
    """The question: the words given, or standard input for `ask -` and for `ask` with a pipe."""
    if words in ([], ["-"]):
        if words == [] and sys.stdin.isatty():
            raise UsageError('ask needs a question: gpu-advisor ask "serve llama 3 8b to 20 users" '
                             '(or pipe one in: echo "..." | gpu-advisor ask)')
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="replace")
        text = sys.stdin.read(MAX_STDIN_CHARS + 1)
        if len(text) > MAX_STDIN_CHARS:
            raise UsageError(f"the question on standard input is over {MAX_STDIN_CHARS:,} characters")
        text = " ".join(text.split())
        if not text:
            raise UsageError("standard input held no question")
        return text
    return " ".join(words)


def cmd_ask(args: argparse.Namespace) -> None:
    from langchain_core.messages import HumanMessage

    from assistant import graph
    from assistant.session import check_message

    text = check_message(question_text(args.text))
    state = graph.invoke({"messages": [HumanMessage(text)], "oneshot": True})
    reply = state["messages"][-1]
    if args.json:
        print(json.dumps(_reply_json(reply), indent=2))
    else:
        print(reply.content)


def open_store(args: argparse.Namespace):
    from assistant.history import HistoryStore

    store = HistoryStore(args.db)
    if store.notice:
        print(f"gpu-advisor: {store.notice}", file=sys.stderr)
    return store


def cmd_chat(args: argparse.Namespace) -> int | None:
    """A line-mode conversation on stdin/stdout: for pipes, scripts and screen readers."""
    from assistant.session import Conversation

    if not args.plain:
        return open_app(args.db, args.resume)
    store = None if args.no_save else open_store(args)
    conv = Conversation.resume(store, args.resume) if args.resume and store else Conversation(store)
    interactive = sys.stdin.isatty()
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8 arrive as U+FFFD
    if interactive and not args.json:
        print("GPU Advisor. Type your question; an empty line or Ctrl-D ends the chat.\n")
    while True:
        if interactive and not args.json:
            print("You: ", end="", flush=True)
        line = sys.stdin.readline()
        if not line or (interactive and not line.strip()):
            break
        reply = conv.send(line.rstrip("\n"))
        if args.json:
            print(json.dumps(_reply_json(reply)), flush=True)
        else:
            print(("Advisor: " if interactive else "") + plain(str(reply.content)) + "\n", flush=True)
    if interactive and conv.session_id and not args.json:
        print(f"Saved as session {conv.session_id}.")
    return None


def cmd_completion(args: argparse.Namespace) -> None:
    from tui.completion import script

    print(script(args.shell, dict(subcommands(build_parser()))), end="")


def cmd_config(args: argparse.Namespace) -> None:
    from tui import settings

    path = settings.settings_path()
    if args.action == "path":
        print(json.dumps({"path": str(path)}) if args.json else path)
    elif args.action == "show":
        current = settings.load(path)
        if current.problem:
            print(f"gpu-advisor: {current.problem}", file=sys.stderr)
        if args.json:
            print(json.dumps({"path": str(path), **current.as_dict()}, indent=2))
        else:
            print(f"# {path}{'' if path.exists() else ' (not written yet: these are the defaults)'}")
            print(settings.to_toml(current), end="")
    else:
        try:
            changed = settings.set_value(args.key, args.value, path)
        except settings.SettingsError as e:
            raise UsageError(str(e)) from None
        print(json.dumps({"path": str(path), **changed.as_dict()}) if args.json else f"Set {args.key} in {path}")


NO_TERMINAL = ("gpu-advisor: the terminal app needs a terminal, and this is not one (a pipe, CI or an IDE task).\n"
               "  For a conversation on standard input and output:  gpu-advisor chat --plain\n"
               "  For one question:                                 gpu-advisor ask \"serve llama 3 8b to 20 users\"\n"
               "  Every command:                                    gpu-advisor --help\n")


def open_app(db: str | None, resume: str | None = None) -> int:
    """The terminal app, when there is a terminal to draw on; else say what to use instead (exit 2)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write(NO_TERMINAL)
        return EXIT_USAGE
    if db:
        from pathlib import Path

        from assistant.history import HistoryError, looks_like_sqlite

        if not looks_like_sqlite(Path(db).expanduser()):
            raise HistoryError(f"{db} is not a GPU Advisor history database (it does not start with the SQLite "
                               "header); it was left untouched. Give --db a new file name or an existing history database")
    try:
        from tui.app import run_app
    except ImportError:
        build_parser().print_help()
        return 0
    run_app(db=db, resume=resume)
    return 0


def _print_sessions(store: HistoryStore, args: argparse.Namespace) -> None:
    """`sessions list` and `sessions search`: a table, or JSON with --json."""
    from tui.format import table

    search = args.action == "search"
    rows = store.search(" ".join(args.query), limit=args.limit) if search else store.list_sessions(limit=args.limit)
    if args.json:
        print(json.dumps([r.__dict__ for r in rows], indent=2))
    elif not rows:
        print("No session matches." if search else "No sessions.")
    else:
        print(table([(r.id, r.updated[:16].replace("T", " "), plain(" ".join(r.title.split()))[:50],
                      plain(" ".join(r.snippet.split()))[:40] if search else r.messages)
                     for r in rows], ["id", "updated (UTC)", "title", "match" if search else "messages"]))


def _read_session_export(file: str, max_bytes: int) -> Any:
    """The JSON of a `sessions export` file; every way it can be unreadable is a UsageError."""
    from pathlib import Path

    source = Path(file)
    try:
        if not source.is_file():
            raise UsageError(f"cannot read {file}: {'no such file' if not source.exists() else 'not a regular file'}")
        if source.stat().st_size > max_bytes:
            raise UsageError(f"{file} is over {max_bytes >> 20} MB: not a session export")
        return json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as e:
        reason = "nested too deeply" if isinstance(e, RecursionError) else getattr(e, "strerror", None) or e
        raise UsageError(f"cannot read {file}: {reason}") from None


def _confirm_delete(store: HistoryStore, session_id: str, as_json: bool) -> bool:
    """Asks before `sessions delete` without --yes; refuses when nobody can answer."""
    if not sys.stdin.isatty() or as_json:
        raise UsageError("deleting needs --yes when not run interactively")
    title = store.session(session_id)["title"]
    answer = input(f"Delete session {session_id} ({plain(title)})? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def _replay(store: HistoryStore, args: argparse.Namespace) -> None:
    """`sessions replay`: today's engine against the saved replies; --check makes a difference an exit code."""
    from assistant.session import rerun

    differences = rerun(store, args.id)
    if args.json:
        print(json.dumps([d.__dict__ for d in differences], indent=2))
    elif not differences:
        print("Today's engine gives the same replies, word for word.")
    else:
        for d in differences:
            print(plain(d.unified()))
            print()
        print(f"{len(differences)} repl{'y differs' if len(differences) == 1 else 'ies differ'} from the saved session.")
    if differences and args.check:
        raise ReplayMismatch()


def cmd_sessions(args: argparse.Namespace) -> None:
    from assistant.history import MAX_IMPORT_BYTES, HistoryError

    store = open_store(args)
    action = args.action
    if action == "path":
        print(json.dumps({"path": str(store.path)}) if args.json else store.path)
    elif action in ("list", "search"):
        _print_sessions(store, args)
    elif action == "show":
        print(plain(store.export_text(args.id, "json" if args.json else "markdown")), end="")
    elif action == "export":
        if args.output:
            from pathlib import Path

            out = Path(args.output)
            if out.exists() and not out.is_symlink() and not args.force:
                raise UsageError(f"{out} exists; pass --force to overwrite it")
            store.export_to(args.id, out, overwrite=args.force, fmt=args.format)
            print(json.dumps({"path": str(out)}) if args.json else f"Wrote {out}")
        else:
            print(plain(store.export_text(args.id, args.format or "markdown")), end="")
    elif action == "import":
        session_id = store.import_json(_read_session_export(args.file, MAX_IMPORT_BYTES))
        print(json.dumps({"id": session_id}) if args.json else f"Imported as session {session_id}")
    elif action == "delete":
        session_id = store.resolve_id(args.id)
        if not args.yes and not _confirm_delete(store, session_id, args.json):
            print("Kept.")
            return
        store.delete(session_id)
        print(json.dumps({"deleted": session_id}) if args.json else f"Deleted {session_id}")
    elif action == "backup":
        target = store.backup(args.target)
        print(json.dumps({"path": str(target)}) if args.json else f"Backed up to {target}")
    elif action == "replay":
        _replay(store, args)
    else:  # pragma: no cover - argparse restricts the choices
        raise HistoryError(f"unknown action {action}")


# ---------------------------------------------------------------- parser


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable output (memory in bytes)")
    p.add_argument("--explain", action="store_true", help="show every formula with its inputs")


def _db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=db_path, default=None, metavar="PATH",
                   help="history database (default: $GPU_ADVISOR_DB or the user data folder)")


def _model(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", "-m", type=model_spec, required=True, metavar="M",
                   help="catalog name, HF repo id, path to config.json, or a size like 27B or 26B-A3.8B")


class _RawHelp(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults shown, and the examples in the epilog kept as written."""


EXAMPLES: dict[str, list[str]] = {
    "": ["gpu-advisor", "gpu-advisor ask \"serve llama 3 8b to 20 users\"", "gpu-advisor chat --plain",
         "gpu-advisor size inference -m llama-3.1-70b -p int4 --gpu h100 --batch 8"],
    "size inference": ["gpu-advisor size inference -m qwen2.5-14b -p fp8 --context 8192 --batch 10 --gpu l40s",
                       "gpu-advisor size inference -m ./config.json --gpus 2 --json"],
    "size training": ["gpu-advisor size training -m 27B --method qlora --seq-len 4096",
                      "gpu-advisor size training -m llama-3.1-8b --method full --gpus 8 --zero 3 --json"],
    "size": ["gpu-advisor size inference -m llama-3.1-8b", "gpu-advisor size training -m 27B --method lora"],
    "speed": ["gpu-advisor speed -m llama-3.1-8b --gpu rtx-4090 --batch 4"],
    "fit": ["gpu-advisor fit -m llama-3.1-70b --gpu a100-80gb", "gpu-advisor fit -m 27B --gpu l40s --phase train"],
    "cost": ["gpu-advisor cost --gpu h100 --gpus 8 --hours 12", "gpu-advisor cost --gpu l40s --rent-vs-buy --utilisation 60%"],
    "train-time": ["gpu-advisor train-time -m 27B --gpu h100 --tokens 20M --epochs 2"],
    "recommend": ["gpu-advisor recommend -m 27B --phase train-and-serve --users 15",
                  "gpu-advisor recommend -m llama-3.1-8b --phase serve --users 50 --region china --json"],
    "ask": ["gpu-advisor ask \"fine-tune a 27B model and serve it to 20 users\"",
            "echo \"serve llama 3 8b to 3 users\" | gpu-advisor ask", "gpu-advisor ask - --json < question.txt"],
    "chat": ["gpu-advisor chat", "printf 'serve llama 3 8b\\nabout 15\\n' | gpu-advisor chat --plain --no-save"],
    "sessions": ["gpu-advisor sessions list", "gpu-advisor sessions search 微调"],
    "sessions list": ["gpu-advisor sessions list -n 10 --json"],
    "sessions path": ["gpu-advisor sessions path"],
    "sessions search": ["gpu-advisor sessions search llama 70b", "gpu-advisor sessions search 微调 --json"],
    "sessions show": ["gpu-advisor sessions show 01J8"],
    "sessions export": ["gpu-advisor sessions export 01J8 -o report.md", "gpu-advisor sessions export 01J8 --format json"],
    "sessions import": ["gpu-advisor sessions import session.json"],
    "sessions replay": ["gpu-advisor sessions replay 01J8 --check"],
    "sessions delete": ["gpu-advisor sessions delete 01J8 --yes"],
    "sessions backup": ["gpu-advisor sessions backup ~/history-backup.db --json"],
    "config": ["gpu-advisor config path", "gpu-advisor config show --json"],
    "config path": ["gpu-advisor config path"],
    "config set": ["gpu-advisor config set theme nord", "gpu-advisor config set region china",
                   "gpu-advisor config set keys.chat.math f5"],
    "config show": ["gpu-advisor config show"],
    "gpus": ["gpu-advisor gpus", "gpu-advisor gpus --json"],
    "models": ["gpu-advisor models", "gpu-advisor models --json"],
    "completion": ["gpu-advisor completion bash > ~/.local/share/bash-completion/completions/gpu-advisor",
                   "gpu-advisor completion zsh > ~/.zfunc/_gpu-advisor",
                   "gpu-advisor completion fish > ~/.config/fish/completions/gpu-advisor.fish"],
}


def subcommands(parser: argparse.ArgumentParser, path: str = "") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command of the parser, as ("sessions list", its parser), the root as ("", parser)."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from subcommands(sub, f"{path} {name}".strip())


def _add_examples(parser: argparse.ArgumentParser) -> None:
    for path, p in subcommands(parser):
        examples = EXAMPLES.get(path)
        if examples and not p.epilog:
            p.epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
            p.formatter_class = _RawHelp


def _default_region() -> str:
    """The --region default: the settings file's region (gpu-advisor config set region china)."""
    from tui import settings

    return settings.load().region


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gpu-advisor")
    except PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gpu-advisor",
        description="Choose GPUs to fine-tune and serve large language models. "
                    "With no command, opens the terminal app.")
    parser.add_argument("--version", action="version", version=f"gpu-advisor {_version()}")
    parser.add_argument("--debug", action="store_true",
                        help="print the traceback of an internal error (also GPU_ADVISOR_DEBUG=1); "
                             "it is always kept in the error log")
    region = _default_region()
    sub = parser.add_subparsers(dest="command", metavar="command")

    size = sub.add_parser("size", help="memory needed for inference or training")
    size_sub = size.add_subparsers(dest="what", metavar="inference|training", required=True)

    inf = size_sub.add_parser("inference", help="memory to serve a model")
    _model(inf)
    inf.add_argument("--precision", "-p", default="bf16", metavar="P")
    inf.add_argument("--kv-precision", default=None, metavar="P")
    inf.add_argument("--context", type=positive_int, default=4096, metavar="N", help="tokens per sequence")
    inf.add_argument("--batch", type=positive_int, default=1, metavar="N", help="concurrent sequences")
    inf.add_argument("--gpus", type=positive_int, default=1, metavar="N", help="tensor-parallel GPUs")
    inf.add_argument("--pp", type=positive_int, default=1, metavar="N", help="pipeline stages")
    inf.add_argument("--gpu", default=None, metavar="G", help="check the fit on this GPU")
    inf.add_argument("--engine", choices=ENGINES, default=None)
    inf.add_argument("--gpu-memory-utilization", type=fraction, default=0.9, metavar="F")
    _common(inf)
    inf.set_defaults(func=cmd_size_inference)

    tr = size_sub.add_parser("training", help="memory to fine-tune a model")
    _model(tr)
    tr.add_argument("--method", choices=("full", "lora", "qlora"), required=True)
    tr.add_argument("--precision", default="bf16", metavar="P", help="compute precision (bf16 or fp16)")
    tr.add_argument("--base-precision", default=None, metavar="P", help="QLoRA base format (default nf4)")
    tr.add_argument("--pure-bf16", action="store_true", help="no FP32 master weights or optimizer states")
    tr.add_argument("--optimizer", choices=("adamw", "adamw-8bit", "sgd"), default="adamw")
    tr.add_argument("--seq-len", type=positive_int, default=2048, metavar="N")
    tr.add_argument("--batch", type=positive_int, default=1, metavar="N", help="micro-batch per GPU")
    tr.add_argument("--gradient-checkpointing", action=argparse.BooleanOptionalAction, default=True)
    tr.add_argument("--gpus", type=positive_int, default=1, metavar="N")
    tr.add_argument("--zero", type=int, choices=(0, 1, 2, 3), default=0)
    tr.add_argument("--cpu-offload", action="store_true")
    tr.add_argument("--lora-rank", type=positive_int, default=16, metavar="R")
    _common(tr)
    tr.set_defaults(func=cmd_size_training)

    sp = sub.add_parser("speed", help="decode and prefill tokens/s")
    _model(sp)
    sp.add_argument("--precision", "-p", default="bf16", metavar="P")
    sp.add_argument("--kv-precision", default=None, metavar="P")
    sp.add_argument("--gpu", required=True, metavar="G")
    sp.add_argument("--gpus", type=positive_int, default=1, metavar="N")
    sp.add_argument("--batch", type=positive_int, default=1, metavar="N")
    sp.add_argument("--context", type=positive_int, default=2048, metavar="N")
    sp.add_argument("--engine", choices=ENGINES, default=None)
    _common(sp)
    sp.set_defaults(func=cmd_speed)

    ft = sub.add_parser("fit", help="on how many of a GPU does it fit, and what would make it fit")
    _model(ft)
    ft.add_argument("--gpu", required=True, metavar="G")
    ft.add_argument("--phase", choices=("serve", "train"), default="serve")
    ft.add_argument("--precision", "-p", default="bf16", metavar="P")
    ft.add_argument("--context", type=positive_int, default=4096, metavar="N")
    ft.add_argument("--batch", type=positive_int, default=1, metavar="N")
    ft.add_argument("--engine", choices=ENGINES, default=None)
    ft.add_argument("--method", choices=("full", "lora", "qlora"), default="lora")
    ft.add_argument("--optimizer", choices=("adamw", "adamw-8bit", "sgd"), default="adamw")
    ft.add_argument("--seq-len", type=positive_int, default=2048, metavar="N")
    ft.add_argument("--gradient-checkpointing", action=argparse.BooleanOptionalAction, default=True)
    _common(ft)
    ft.set_defaults(func=cmd_fit)

    co = sub.add_parser("cost", help="rental cost, cost per run or per million tokens, rent vs buy")
    co.add_argument("--gpu", required=True, metavar="G")
    co.add_argument("--gpus", type=positive_int, default=1, metavar="N")
    co.add_argument("--region", choices=("global", "us", "eu", "china"), default=region)
    co.add_argument("--hours", type=positive_float, default=None, metavar="H", help="length of a run")
    co.add_argument("--tokens-per-s", type=positive_float, default=None, metavar="T")
    co.add_argument("--utilisation", "--utilization", type=fraction, default=None, metavar="U")
    co.add_argument("--usd-per-gpu-hour", type=positive_float, default=None, metavar="USD")
    co.add_argument("--rent-vs-buy", action="store_true")
    co.add_argument("--purchase-usd", type=positive_float, default=None, metavar="USD", help="price of one card")
    co.add_argument("--horizon-months", type=positive_int, default=36, metavar="M")
    co.add_argument("--hosting-usd-per-month", type=non_negative_float, default=100.0, metavar="USD")
    co.add_argument("--electricity-usd-per-kwh", type=non_negative_float, default=None, metavar="USD")
    _common(co)
    co.set_defaults(func=cmd_cost)

    tt = sub.add_parser("train-time", help="hours and cost of a fine-tuning run")
    _model(tt)
    tt.add_argument("--gpu", required=True, metavar="G")
    tt.add_argument("--gpus", type=positive_int, default=1, metavar="N")
    tt.add_argument("--method", choices=("full", "lora", "qlora"), default="lora")
    tt.add_argument("--tokens", type=tokens_amount, required=True, metavar="T", help="tokens per epoch, e.g. 20M")
    tt.add_argument("--epochs", type=positive_float, default=1.0, metavar="E")
    tt.add_argument("--mfu", type=fraction, default=None, metavar="F")
    tt.add_argument("--gradient-checkpointing", action=argparse.BooleanOptionalAction, default=False)
    tt.add_argument("--region", choices=("global", "us", "eu", "china"), default=region)
    _common(tt)
    tt.set_defaults(func=cmd_train_time)

    rc = sub.add_parser("recommend", help="rank GPU options for a workload")
    _model(rc)
    rc.add_argument("--phase", choices=tuple(PHASES), default="train-and-serve")
    rc.add_argument("--precision", "-p", default=None, metavar="P",
                    help="serving weight format (default: the checkpoint's own, else int8)")
    rc.add_argument("--method", choices=("full", "lora", "qlora"), default="qlora")
    rc.add_argument("--objective", choices=("sft", "dpo"), default="sft", help="dpo: preference pairs")
    rc.add_argument("--context", type=positive_int, default=8192, metavar="N")
    rc.add_argument("--users", type=positive_int, default=1, metavar="N", help="concurrent users")
    rc.add_argument("--utilisation", "--utilization", type=fraction, default=None, metavar="U")
    rc.add_argument("--region", choices=("global", "us", "eu", "china"), default=region)
    rc.add_argument("--budget", type=positive_float, default=None, metavar="USD", help="per month")
    rc.add_argument("--owned", action="append", metavar="'2x rtx-3090'", help="cards you already have")
    rc.add_argument("--prefer", choices=("rent", "buy", "either"), default="either")
    rc.add_argument("--budget-once", type=positive_float, default=None, metavar="USD",
                    help="one-off: to buy cards, or for one job")
    rc.add_argument("--train-tokens", type=tokens_amount, default=None, metavar="T",
                    help="tokens per epoch (default 20M; pretraining 20 per parameter)")
    rc.add_argument("--epochs", type=positive_float, default=1.0, metavar="N")
    rc.add_argument("--items", type=positive_int, default=None, metavar="N", help="batch job: items to process")
    rc.add_argument("--tokens-in", type=positive_int, default=1000, metavar="N", help="batch job: tokens per item")
    rc.add_argument("--tokens-out", type=positive_int, default=200, metavar="N", help="batch job: tokens written")
    rc.add_argument("--deadline-hours", type=positive_float, default=None, metavar="H")
    rc.add_argument("--ttft-ms", type=positive_float, default=None, metavar="MS", help="time-to-first-token target")
    rc.add_argument("--prompt-tokens", type=positive_int, default=None, metavar="N", help="prompt length for --ttft-ms")
    rc.add_argument("--top", type=positive_int, default=8, metavar="N", help="options to show")
    _common(rc)
    rc.set_defaults(func=cmd_recommend)

    ask = sub.add_parser("ask", help="one question, one answer; every default listed as an assumption")
    ask.add_argument("text", nargs="*", help='e.g. "fine-tune a 27B model and serve it to 20 users"; '
                     '"-" or none with a pipe: read it from standard input')
    ask.add_argument("--json", action="store_true", help="the reply with its structured payload")
    ask.set_defaults(func=cmd_ask)

    chat = sub.add_parser("chat", help="a conversation; --plain for line mode on stdin/stdout")
    chat.add_argument("--plain", action="store_true", help="line mode (pipes, screen readers)")
    chat.add_argument("--json", action="store_true", help="one JSON reply per line")
    chat.add_argument("--resume", metavar="ID", default=None, help="continue a saved session")
    chat.add_argument("--no-save", action="store_true", help="do not save this conversation")
    _db(chat)
    chat.set_defaults(func=cmd_chat)

    se = sub.add_parser("sessions", help="saved conversations: list, search, show, export, import, replay ...")
    se_sub = se.add_subparsers(dest="action", metavar="action", required=True)

    def action(name: str, help_text: str, *positional: str, **positional_kwargs) -> argparse.ArgumentParser:
        p = se_sub.add_parser(name, help=help_text)
        for arg in positional:
            p.add_argument(arg, **positional_kwargs)
        p.add_argument("--json", action="store_true")
        _db(p)
        return p

    action("list", "newest first").add_argument("-n", "--limit", type=positive_int, default=50)
    action("path", "where the database is")
    action("search", "full-text search of messages and titles", "query", nargs="+").add_argument(
        "-n", "--limit", type=positive_int, default=50)
    action("show", "a session's transcript", "id")
    p = action("export", "a Markdown report or JSON", "id")
    p.add_argument("--format", choices=("markdown", "json"), default=None,
                   help="default: JSON for a .json file, else Markdown")
    p.add_argument("-o", "--output", default=None, help="file to write (never overwritten without --force)")
    p.add_argument("--force", action="store_true")
    action("import", "add a session from a JSON export", "file")
    action("replay", "re-run a session through today's engine and show what changed", "id").add_argument(
        "--check", action="store_true", help="exit 1 when any reply differs")
    action("delete", "delete a session", "id").add_argument(
        "-y", "--yes", action="store_true", help="do not ask for confirmation")
    action("backup", "copy the database (VACUUM INTO a new file)", "target")
    se.set_defaults(func=cmd_sessions)

    cf = sub.add_parser("config", help="settings: where the file is, what it says, change one")
    cf_sub = cf.add_subparsers(dest="action", metavar="path|show|set", required=True)
    for name, help_text in (("path", "where the settings file is"), ("show", "the settings in effect")):
        cf_sub.add_parser(name, help=help_text).add_argument("--json", action="store_true")
    cs = cf_sub.add_parser("set", help="change one setting: theme, region, keys.<binding id>")
    cs.add_argument("key", help="theme, region or keys.<binding id> (F1 in the app lists the ids)")
    cs.add_argument("value")
    cs.add_argument("--json", action="store_true")
    cf.set_defaults(func=cmd_config)

    g = sub.add_parser("gpus", help="the GPU catalog")
    g.add_argument("--json", action="store_true")
    g.add_argument("--path", action="store_true", help="where your own gpus.yaml and prices.yaml go")
    g.set_defaults(func=cmd_gpus)
    m = sub.add_parser("models", help="the model catalog; 'models show ID' for the shape of any model")
    m.add_argument("action", nargs="?", choices=("show",), help="show: resolve one model and print its shape")
    m.add_argument("id", nargs="?", help="a catalog name, Hugging Face repo id, config.json path or size")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_models)

    completion = sub.add_parser("completion", help="a shell completion script: bash, zsh or fish")
    completion.add_argument("shell", choices=("bash", "zsh", "fish"))
    completion.set_defaults(func=cmd_completion)
    from tui import mcp_server, openai_api  # the servers' modules load their libraries only when run

    mcp_server.add_command(sub)  # gpu-advisor mcp
    openai_api.add_command(sub)  # gpu-advisor serve
    _add_examples(parser)
    return parser


def _reason(exc: BaseException) -> tuple[str, int] | None:
    """The one-line message and exit status for an expected failure: bad input (2) or the
    environment (1). None for bugs."""
    from assistant.history import StorageError

    if isinstance(exc, StorageError):
        return str(exc), EXIT_ENVIRONMENT
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
        return f"{exc.filename + ': ' if exc.filename else ''}{exc.strerror or exc}", EXIT_ENVIRONMENT
    reason = _input_reason(exc)
    return (reason, EXIT_USAGE) if reason is not None else None


def _input_reason(exc: BaseException) -> str | None:
    """The one-line message for errors caused by input; None for anything else."""
    from knowledge import BadValue, ConfigError, KnowledgeError, NotFound
    from tools.common import ToolError, validation_message

    if isinstance(exc, ValidationError):
        return validation_message(exc)
    if isinstance(exc, NotFound):
        hint = f" (did you mean: {', '.join(exc.suggestions)}?)" if exc.suggestions else ""
        why = f": {exc.reason}" if exc.reason else ""
        more = {"model": "gpu-advisor models", "GPU": "gpu-advisor gpus"}.get(exc.kind)
        return f"unknown {exc.kind} '{exc.query}'{why}{hint}" + (f"; see `{more}`" if more else "")
    from assistant.history import HistoryError
    from assistant.session import MessageTooLong

    if isinstance(exc, (BadValue, ConfigError, ToolError, KnowledgeError, UsageError, HistoryError, MessageTooLong)):
        return str(exc)
    return None


def error_log_path() -> Path:
    """The file internal errors are appended to, with their tracebacks: GPU_ADVISOR_LOG_DIR, else the
    platform's user log folder (~/.local/state/gpu-advisor/log on Linux)."""
    override = os.environ.get("GPU_ADVISOR_LOG_DIR")
    if override:
        return Path(override).expanduser() / "errors.log"
    from platformdirs import user_log_dir

    return Path(user_log_dir("gpu-advisor", appauthor=False)) / "errors.log"


def _log_internal_error(exc: BaseException, command: str) -> Path | None:
    """Appends the traceback to the error log; None when the log cannot be written. Only the command's
    name is kept, not its arguments or a message's text."""
    import traceback
    from datetime import UTC, datetime

    path = error_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {datetime.now(UTC).isoformat(timespec='seconds')} gpu-advisor {_version()} {command}\n")
            log.write("".join(traceback.format_exception(exc)))
    except OSError:
        return None
    return path


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    JSON_ERRORS[0] = "--json" in argv
    # --debug goes anywhere before a `--`: taken out here, so every command accepts it
    end = argv.index("--") if "--" in argv else len(argv)
    debug = "--debug" in argv[:end] or bool(os.environ.get("GPU_ADVISOR_DEBUG"))
    argv = [a for a in argv[:end] if a != "--debug"] + argv[end:]
    parser = build_parser()
    opening_app = not argv or (argv[0] == "--db" and len(argv) == 2)
    if opening_app and argv and not argv[1].strip():
        parser.error("argument --db: needs the path of a database file, not an empty string")
    args = None if opening_app else parser.parse_args(argv)
    if args is not None and not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        if args is None:
            return open_app(argv[1] if argv else None)
        if args.command in HUB_COMMANDS:
            _allow_network()
        status = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except ReplayMismatch:
        return 1
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        known = _reason(exc)
        if known is None:
            if debug:
                import traceback

                traceback.print_exception(exc)
            log = _log_internal_error(exc, getattr(args, "command", None) or "app")
            where = f"the traceback is in {log}" if log else "--debug shows the traceback"
            message = f"internal error ({type(exc).__name__}: {plain(str(exc))[:300]}); please report it ({where})"
            if JSON_ERRORS[0]:
                print(json.dumps({"error": {"message": message, "exit_status": 1}}))
            print(f"gpu-advisor: {message}", file=sys.stderr)
            return 1
        reason, status = known
        reason = " ".join(plain(reason).split())
        if JSON_ERRORS[0]:
            print(json.dumps({"error": {"message": reason, "exit_status": status}}))
        print(f"gpu-advisor: {reason}", file=sys.stderr)
        return status
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
