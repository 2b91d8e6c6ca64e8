"""Score tools.training_time against published training throughput (tests/reference/training_speed.csv).

Each run is rebuilt as the tool's input (model, card, GPU count, method, framework, sequence length,
precision) and the tool's tokens per second per GPU is compared with the measured one. Rows that are
not training runs (matmul ceilings) or that state too little are counted with the reason.

`python -m bench training-speed` prints the table; `implied_mfu` gives the MFU each row implies with the
tool's FLOPs count, which is what knowledge/data/training_mfu.yaml is fitted to.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from bench import Summary, error_summary, print_errors, print_readme_table
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time_of

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "reference" / "training_speed.csv"
TOKENS = 1e9  # any amount: the tool's time is linear in it

# Shapes of MosaicML's MPT configs (llm-foundry scripts/train/yamls/pretrain/mpt-<size>.yaml @8c8dd48f):
# d_model, n_layers, n_heads; the parameter count is the benchmark row's own NumParams.
MPT_SHAPES = {"1b": (2048, 24, 16), "3b": (2560, 32, 20), "7b": (4096, 32, 32), "13b": (5120, 40, 40),
              "30b": (7168, 48, 56), "70b": (8192, 80, 64)}
QWEN1_MODELS = {"Qwen-1.8B": "qwen1-1.8b", "Qwen-7B": "qwen1-7b", "Qwen-14B": "qwen1-14b", "Qwen-72B": "qwen1-72b"}
LLAMA_MODELS = {"Llama 3.1 8B": "llama-3.1-8b", "Llama 3.1 70B": "llama-3.1-70b", "Llama 3.1 405B": "llama-3.1-405b"}
GPUS = {"NVIDIA H100 80GB": "h100-sxm", "NVIDIA A100 80GB": "a100-80gb-sxm", "NVIDIA A100 40GB": "a100-40gb-sxm",
        # torchtitan's H100 is a 500 W HBM2e SXM part: scored against the SXM figure, as its authors' MFU is
        "NVIDIA H100 96GB HBM2e SXM at 500 W": "h100-sxm", "NVIDIA H200": "h200",
        "NVIDIA A100-SXM4-80G": "a100-80gb-sxm", "NVIDIA A100": "a100-80gb-sxm",
        "NVIDIA GeForce RTX 4090": "rtx-4090", "NVIDIA RTX A6000": "rtx-a6000"}


@dataclass
class Run:
    row_id: str
    source: str
    category: str
    label: str
    model: ModelArch
    inp: TrainingTimeInput
    measured: float  # tokens per second per GPU

    def predicted(self, mfu: float | None = None) -> float:
        inp = self.inp if mfu is None else self.inp.model_copy(update={"mfu": mfu})
        r = training_time_of(self.model, inp)
        return inp.tokens * inp.epochs / (r.hours * 3600) / inp.gpus

    @property
    def error(self) -> float:
        return self.predicted() / self.measured - 1


@dataclass
class Report:
    runs: list[Run] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


def reference_rows() -> list[dict[str, str]]:
    with REFERENCE.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _mpt(r: dict[str, str]) -> ModelArch:
    size = r["model"].split()[1]
    params = int(re.search(r"\((\d+) parameters", r["model"]).group(1)) / 1e9  # type: ignore[union-attr]
    d_model, layers, heads = MPT_SHAPES[size]
    base = resolve_model(f"{params}B")
    return base.model_copy(update={"name": f"MPT {size}", "total_params_b": params, "active_params_b": params,
                                   "num_layers": layers, "hidden_size": d_model, "num_attention_heads": heads,
                                   "num_kv_heads": heads, "head_dim": d_model // heads, "attention": "mha",
                                   "sliding_window": None, "sliding_layers": 0, "recurrent_layers": 0})


def _precision(r: dict[str, str]) -> str:
    return "fp8" if "fp8" in r["precision"].lower() else "bf16"


def _pretraining(r: dict[str, str]) -> tuple[ModelArch, TrainingTimeInput, float]:
    model = _mpt(r) if r["source_id"] == "LLMFOUNDRY_BENCH" else resolve_model(LLAMA_MODELS[r["model"]])
    inp = TrainingTimeInput(model=model.name, gpu=GPUS[r["gpu"]], gpus=int(r["num_gpus"]), method="full",
                            tokens=TOKENS, pretraining=True, seq_len=int(r["seq_len"]), precision=_precision(r))
    return model, inp, float(r["value"])


def _qwen1(r: dict[str, str]) -> tuple[ModelArch, TrainingTimeInput, float]:
    """Qwen's finetune.py: batch 1 x gradient accumulation 8 per GPU, HF Trainer + PEFT on one card and
    DeepSpeed for full-parameter or several cards (as the memory bench sizes them)."""
    method_text, gpus, seq = r["method"], int(r["num_gpus"]), int(r["seq_len"])
    model = resolve_model(QWEN1_MODELS[re.sub(r"\s*\(.*", "", r["model"]).strip()])
    method = "qlora" if method_text.startswith("Q-LoRA") else "full" if method_text.startswith("Full") else "lora"
    framework = "deepspeed" if method == "full" or gpus > 1 else "hf-trainer"
    inp = TrainingTimeInput(model=model.id, gpu=GPUS[r["gpu"]], gpus=gpus, method=method, tokens=TOKENS,
                            framework=framework, seq_len=seq)
    return model, inp, 8 * seq / float(r["value"])


def _torchtune(r: dict[str, str]) -> tuple[ModelArch, TrainingTimeInput, float]:
    gpus = int(r["num_gpus"])
    method = {"Full finetune": "full", "LoRA": "lora", "QLoRA": "qlora"}[r["method"]]
    model = resolve_model(LLAMA_MODELS[r["model"]])
    inp = TrainingTimeInput(model=model.id, gpu=GPUS[r["gpu"]], gpus=gpus, method=method, tokens=TOKENS,
                            framework="torchtune" if gpus == 1 else "torchtune-distributed", seq_len=int(r["seq_len"]))
    return model, inp, float(r["value"]) / gpus


SETUPS = {"LLMFOUNDRY_BENCH": _pretraining, "TORCHTITAN_H100_202412": _pretraining,
          "TORCHTITAN_H200_202506": _pretraining, "QWEN1_FT_PROFILE": _qwen1, "TORCHTUNE_README": _torchtune}


def category(r: dict[str, str], inp: TrainingTimeInput) -> str:
    if inp.pretraining:
        return f"pretraining ({inp.precision})"
    return f"fine-tuning ({inp.framework})"


def run() -> Report:
    report = Report()
    for r in reference_rows():
        setup = SETUPS.get(r["source_id"])
        if setup is None:
            report.skip(f"{r['source_id']}: not a training run")
            continue
        if r["notes"].startswith("implausible"):
            report.skip(f"{r['source_id']}: implausible as printed (see notes)")
            continue
        model, inp, measured = setup(r)
        label = f"{model.name} {r['method']} {inp.gpu} x{inp.gpus} seq {inp.seq_len} {inp.precision}"
        report.runs.append(Run(r["row_id"], r["source_id"], category(r, inp), label, model, inp, measured))
    return report


def implied_mfu(run: Run) -> float:
    """The MFU this run reached, counted with the tool's FLOPs, with the QLoRA, FP8, stack and PCIe
    factors divided out (the framework's lead stays in: a stated MFU is not scaled by it)."""
    at_full = run.predicted(mfu=1.0)
    return run.measured / at_full


def summary(report: Report) -> list[Summary]:
    groups: dict[tuple[str, str], list[Run]] = {}
    for x in report.runs:
        groups.setdefault((x.category, x.source), []).append(x)
        groups.setdefault(("all", "all sources"), []).append(x)
        if x.inp.seq_len and x.inp.seq_len >= 2048:  # short batch-1 steps do not fill a card (Qwen-1 256-1,024)
            groups.setdefault(("all, 2,048+ tokens a sequence", "all sources"), []).append(x)
    out = []
    for (cat, source), runs in sorted(groups.items(), key=lambda kv: (kv[0][0].startswith("all"), kv[0])):
        worst = sorted(runs, key=lambda x: -abs(x.error))[:3]
        out.append(error_summary(cat, source, [x.error for x in runs], worst))
    return out


def print_report(report: Report) -> None:
    print_errors("Training speed against published runs (tokens/s per GPU; median absolute % error; bias = mean signed "
                 "error)", "category", summary(report),
                 lambda x: f"#{x.row_id} {x.label}: {x.measured:,.0f} vs {x.predicted():,.0f} ({x.error:+.0%})", width=24)
    print("not scored:", ", ".join(f"{why} ({n})" for why, n in sorted(report.skipped.items())))


def section() -> None:
    report = run()
    print_report(report)
    print_readme_table("training speed", "category", summary(report))
