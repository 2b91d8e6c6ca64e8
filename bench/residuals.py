"""`make residuals` (`python -m bench residuals`): the measured error of each memory and speed category.

For every category (inference memory by engine, fine-tuning memory by framework preset, decode and
prefill speed by engine) it takes the rows the accuracy bench scores (tests/reference/*.csv), the
relative error prediction / measured - 1 of each, and writes their 10th and 90th percentiles to
knowledge/data/residuals.yaml. The sizing tools turn those into the range of a figure: estimate /
(1 + p90) to estimate / (1 + p10), the measurement a row of the category would have given for that
estimate. tests/test_residuals.py checks that the file matches what this computes today.
"""

from __future__ import annotations

import sys
from datetime import date
from typing import get_args

from bench import percentile
from bench.accuracy import Report, Scored, memory_residuals, run
from gpu_advisor.knowledge import frameworks
from gpu_advisor.knowledge.loader import DATA_DIR
from gpu_advisor.tools.inference import Engine

COMMAND = "python -m bench residuals"
PATH = DATA_DIR / "residuals.yaml"
DIGITS = 4  # 0.01 % steps


def categories() -> list[str]:
    """Every memory and speed category an answer can fall in, whether the bench has rows for it or not."""
    return ([f"inference memory ({e})" for e in get_args(Engine)]
            + [f"fine-tuning memory ({f.id})" for f in frameworks()]
            + [f"{kind} speed ({e})" for kind in ("decode", "prefill") for e in get_args(Engine)]
            + [f"training time ({kind})" for kind in ("fine-tune", "pretrain")])


def training_residuals() -> dict[str, list[tuple[float, str]]]:
    """Errors of the hours a training run takes (predicted / measured - 1 = measured tokens/s / predicted
    - 1) by workload, over the published runs with sequences of 2,048 tokens or more (a shorter batch-1
    step does not fill a card: bench/training_speed.py scores those, the ranges leave them out)."""
    from bench.training_speed import run as training_runs

    out: dict[str, list[tuple[float, str]]] = {}
    for x in training_runs().runs:
        if x.inp.seq_len and x.inp.seq_len >= TRAINING_MIN_SEQ:
            kind = "pretrain" if x.inp.pretraining else "fine-tune"
            out.setdefault(f"training time ({kind})", []).append((1 / (1 + x.error) - 1, x.source))
    return out


TRAINING_MIN_SEQ = 2048


# Speed rows by category. llama-bench's tg and pp rows are pure decode and prefill rates. The Qwen2.5
# speed benchmark's vLLM and transformers rows divide 2,048 generated tokens by the whole time, prefill
# included; decode is most of that time (the prompt is at most 30,720 tokens at thousands of tokens/s), so
# their error stands for the decode figure of those engines. No row measures their prefill alone.
SPEED_TOOL_CATEGORY = {"llama.cpp decode": "decode speed (llama.cpp)", "llama.cpp prefill": "prefill speed (llama.cpp)",
                       "vllm end-to-end speed": "decode speed (vllm)",
                       "transformers end-to-end speed": "decode speed (transformers)"}


def speed_residuals(report: Report) -> dict[str, list[Scored]]:
    """The scored speed rows by category, in row order."""
    out: dict[str, list[Scored]] = {}
    for s in report.scored:
        if s.tool in SPEED_TOOL_CATEGORY:
            out.setdefault(SPEED_TOOL_CATEGORY[s.tool], []).append(s)
    return out


def bands(report: Report | None = None) -> list[dict]:
    """One record per category: rows, p10, p90 (rounded to 0.01 %) and the sources of the rows."""
    report = report if report is not None else run()
    rows: dict[str, list] = {**memory_residuals(report), **speed_residuals(report)}
    training = training_residuals()
    unknown = set(rows) - set(categories())
    if unknown:
        raise KeyError(f"bench categories with no engine or framework preset: {sorted(unknown)}")
    out = []
    for category in categories():
        pairs = training.get(category) or [(s.error, s.source) for s in rows.get(category, [])]
        errors = [e for e, _source in pairs]
        out.append({
            "category": category,
            "rows": len(pairs),
            "p10": round(percentile(errors, 10), DIGITS) if errors else None,
            "p90": round(percentile(errors, 90), DIGITS) if errors else None,
            "sources": sorted({source for _e, source in pairs}),
        })
    return out


def render(records: list[dict], today: date) -> str:
    total = sum(r["rows"] for r in records)
    header = [
        "# Measured error of each memory and speed category: the 10th and 90th percentiles of prediction /",
        "# measured - 1 over the reference rows the accuracy bench scores (tests/reference/). The tools give a",
        "# memory total or a speed the range estimate / (1 + p90) .. estimate / (1 + p10), at least +-2 %; a",
        "# category with no rows falls back to the tool's own range (the sum of the per-term ranges for",
        "# memory), and the answer says which applies. vLLM and transformers decode rows are end-to-end",
        "# generation speeds (2,048 tokens out, prefill included): their error stands for the decode figure.",
        "# Training time: the hours' error (measured tokens/s / predicted - 1) over tests/reference/training_speed.csv",
        "# runs with sequences of 2,048 tokens or more.",
        "# Each row is compared like for like (allocator figures where the source measured the allocator),",
        "# so the error is of the figure the bench compares, applied to the total the answer shows.",
        f"# Written by `{COMMAND}` (make residuals) on {today.isoformat()} from {total} rows: "
        + ", ".join(f"{r['category']} {r['rows']}" for r in records) + ".",
        "# Do not edit by hand: tests/test_residuals.py fails when this differs from what the command computes.",
        "",
    ]
    body = []
    for r in records:
        pct = (f"  p10: {r['p10']}\n  p90: {r['p90']}" if r["rows"] else "  p10: null\n  p90: null")
        body.append(f"- category: {r['category']}\n  rows: {r['rows']}\n{pct}\n"
                    f"  sources: [{', '.join(r['sources'])}]\n"
                    f"  source: {COMMAND} over tests/reference\n  as_of: {today.isoformat()}\n")
    return "\n".join(_wrap(line) for line in header) + "".join(body)

def _wrap(line: str, width: int = 110) -> str:
    """A long comment line as several comment lines."""
    if len(line) <= width or not line.startswith("# "):
        return line
    words, lines, cur = line[2:].split(" "), [], "#"
    for w in words:
        if len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = "#"
        cur += " " + w
    lines.append(cur)
    return "\n".join(lines)


def main() -> int:
    records = bands()
    PATH.write_text(render(records, date.today()), encoding="utf-8")
    print(f"wrote {PATH.relative_to(DATA_DIR.parent.parent)}")
    print("| category | rows | p10 | p90 | sources |")
    print("|---|---:|---:|---:|---|")
    for r in records:
        if r["rows"]:
            print(f"| {r['category']} | {r['rows']} | {r['p10']:+.1%} | {r['p90']:+.1%} | {', '.join(r['sources'])} |")
        else:
            print(f"| {r['category']} | 0 | - | - | (no measured rows: the tool's own range) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
