"""`gpu-advisor models`: the model catalog, and `models show ID` for the shape of any model (a catalog
name, a Hugging Face repo id, a config.json or a bare size)."""

from __future__ import annotations

import argparse
import json

from gpu_advisor.tui.cli.base import JSON, REVISION, Commands, UsageError, allow_network, arg
from gpu_advisor.tui.format import plain

commands = Commands()


@commands.command(
    "models", "the model catalog; 'models show ID' for the shape of any model",
    arg("action", nargs="?", choices=("show",), help="show: resolve one model and print its shape"),
    arg("id", nargs="?", complete="model", help="a catalog name, Hugging Face repo id, config.json path or size"),
    REVISION,
    JSON,
    examples=("gpu-advisor models", "gpu-advisor models --json",
              "gpu-advisor models show ibm-granite/granite-3.3-8b-instruct --revision main"))
def cmd_models(args: argparse.Namespace) -> None:
    from gpu_advisor.knowledge import models, show_model
    from gpu_advisor.tui.format import table

    if args.revision is not None and args.action != "show":
        raise UsageError("--revision goes with models show ORG/NAME")
    if args.action == "show":
        if not args.id:
            raise UsageError("models show needs a model: gpu-advisor models show Qwen/Qwen2.5-72B-Instruct")
        allow_network()
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
