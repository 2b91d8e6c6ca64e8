"""`gpu-advisor gpus`: the GPU catalog, with price ranges, and where your own cards and prices go."""

from __future__ import annotations

import argparse
import json

from tui.cli.base import JSON, Commands, arg

commands = Commands()


@commands.command("gpus", "the GPU catalog",
                  JSON,
                  arg("--path", action="store_true", help="where your own gpus.yaml and prices.yaml go"),
                  examples=("gpu-advisor gpus", "gpu-advisor gpus --json"))
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
