"""A tool call as the replay's tool-calls panel shows it: its name, the arguments it was given (the ones set,
the ones that shape the answer first) and a one-line summary of its result, in the session's language."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from gpu_advisor.tui.format import plain
from gpu_advisor.tui.words import words

# The arguments named first, in this order: what the call was about; the rest follow alphabetically.
LEADING = ("model", "gpu", "gpus", "phase", "method", "precision", "users", "context", "batch", "seq_len",
           "region", "utilisation")
SHOWN_ARGS = 8  # a call's arguments shown at most; the rest are counted


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:,.6g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return ",".join(_value(v) for v in value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def arguments(args: Any, lang: str = "en", most: int = SHOWN_ARGS) -> str:
    """'model=llama-3-8b gpu=rtx-4090 precision=fp8 …': the arguments given a value (not None, False or empty)."""
    if not isinstance(args, dict):
        return ""
    given = {k: v for k, v in args.items() if v not in (None, False, "", [], {})}
    order = [k for k in LEADING if k in given] + sorted(k for k in given if k not in LEADING)
    shown = " ".join(f"{k}={_value(given[k])}" for k in order[:most])
    if len(order) > most:
        shown += " " + words(lang, "call.more", n=len(order) - most)
    return plain(shown)


def _gb(n: Any) -> str:
    return f"{float(n) / 1e9:,.1f}"


def result_summary(tool: str, result: Any, lang: str = "en") -> str:
    """The result in one line: a recommendation's pick, a memory estimate's use per GPU and whether it fits, else
    the first few plain fields."""
    if result is None:
        return words(lang, "call.no_result")
    if not isinstance(result, dict):
        return plain(_value(result))[:120]
    if "error" in result and len(result) <= 2:
        return words(lang, "call.failed", error=plain(str(result["error"])))
    best = result.get("best")
    if "action" in result:
        action = words(lang, f"call.action.{result['action']}") if result["action"] in ("use", "rent", "buy", "none") \
            else plain(str(result["action"]))
        if isinstance(best, dict) and best.get("gpu_name"):
            return words(lang, "call.pick", action=action, count=best.get("gpus") or best.get("count") or 1,
                         gpu=plain(str(best["gpu_name"])))
        return action
    per_gpu = result.get("per_gpu_total_bytes")
    if per_gpu is not None:
        capacity = result.get("gpu_capacity_bytes")
        said = words(lang, "call.of_gpu", gb=_gb(per_gpu), capacity=_gb(capacity)) if capacity \
            else words(lang, "call.per_gpu", gb=_gb(per_gpu))
        if result.get("fits") is not None:
            said += ", " if lang != "zh" else "，"
            said += words(lang, "call.fits" if result["fits"] else "call.does_not_fit")
        return said
    plain_fields = [(k, v) for k, v in result.items() if isinstance(v, str | int | float) and not isinstance(v, bool)
                    and k not in ("assumptions", "warnings", "terms")]
    return plain(" ".join(f"{k}={_value(v)}" for k, v in plain_fields[:4]))


def calls_text(calls: list[dict[str, Any]], lang: str = "en") -> Text:
    """The tool-calls panel: each call's name and time, its arguments (dim), and its result."""
    if not calls:
        return Text(words(lang, "replay.no_calls"), style="dim")
    text = Text()
    for n, call in enumerate(calls):
        if n:
            text.append("\n")
        text.append(plain(str(call.get("tool"))), style="bold")
        text.append(f" ({call.get('duration_ms') or 0:.1f} ms)\n", style="dim")
        args = arguments(call.get("arguments"), lang)
        if args:
            text.append(f"  {args}\n", style="dim")
        text.append(f"  {words(lang, 'call.result')} {result_summary(str(call.get('tool')), call.get('result'), lang)}\n")
    return text
