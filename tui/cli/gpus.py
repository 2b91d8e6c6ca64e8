"""`gpu-advisor gpus`: the GPU catalog, with price ranges, and where your own cards and prices go."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from gpu_advisor.tui.cli.base import JSON, Commands, UsageError, arg

if TYPE_CHECKING:
    from gpu_advisor.tools.price_sources import PriceSources

commands = Commands()


def _engines(g) -> list[dict[str, str]]:
    from gpu_advisor.knowledge import engines_on

    out = []
    for e, name in engines_on(g):
        support = e.support_on(g)
        out.append({"id": e.id, "name": name, "note": support.note if support else ""})
    return out


def _show(query: str, as_json: bool) -> None:
    """One card: every field, the engines that run on it and its price range."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.cost import try_price
    from gpu_advisor.tools.price_sources import price_sources
    from gpu_advisor.tui.format import plain

    g = find_gpu(query)
    data = {**g.model_dump(mode="json"), "engines": _engines(g)}
    q = try_price(g.id)
    if q:
        data["usd_per_gpu_hour"] = [q.usd_per_gpu_hour_low, q.usd_per_gpu_hour_high]
    sources = price_sources(g.id)
    if sources.offers:
        data["prices"] = sources.model_dump(mode="json", exclude={"gpu"})
    if as_json:
        print(json.dumps(data, indent=2))
        return
    skip = {"aliases", "market_notes", "engines", "source", "as_of", "prices"}
    width = max(len(k) for k in data)
    lines = [f"{k:<{width}}  {plain(str(v))}" for k, v in data.items() if k not in skip and v not in (None, [], {})]
    lines.append(f"{'engines':<{width}}  " + ", ".join(e["name"] for e in data["engines"]))
    lines += [f"  - {e['name']}: {plain(e['note'])}" for e in data["engines"] if e["note"]]
    lines += [f"{'notes':<{width}}  {plain(n)}" for n in g.market_notes]
    lines.append(f"{'source':<{width}}  {plain(g.source)} ({g.as_of})")
    lines += _price_lines(sources)
    print("\n".join(lines))


def _price_lines(sources: PriceSources) -> list[str]:
    """The rental prices on record: per region the distribution priced on, then each offer with its source."""
    from gpu_advisor.tui.format import plain, table

    if not sources.offers:
        return ["", "Rental prices: none on record."]
    rows = [(r.region, f"{r.usd_per_gpu_hour_median:.2f}", f"{r.usd_per_gpu_hour_low:.2f}",
             f"{r.usd_per_gpu_hour_high:.2f}", f"{r.offers}" + (" (few)" if r.few_offers else ""), r.as_of,
             ", ".join(r.providers)) for r in sources.regions]
    lines = ["", "Rental prices, USD per GPU-hour (median of the offers' midpoints; global: every offer outside "
             "China; on-demand and marketplace offers where there are any)",
             table(rows, ["region", "median", "low", "high", "offers", "as of", "providers"]), "", "Offers on record:"]
    for o in sources.offers:
        price = f"{o.price_low:,.2f}" + (f"-{o.price_high:,.2f}" if o.price_high != o.price_low else "")
        usd = "" if o.currency == "USD" else f" (USD {o.usd_per_gpu_hour_low:,.2f}" + (
            f"-{o.usd_per_gpu_hour_high:,.2f})" if o.usd_per_gpu_hour_high != o.usd_per_gpu_hour_low else ")")
        lines.append(f"  - {plain(o.provider)} ({o.region}, {o.kind}): {price} {o.currency}/GPU-hour{usd}, "
                     f"{o.as_of}; {plain(o.offering)}; source: {plain(o.source)}")
    if sources.currency_note != "USD":
        lines.append(f"  {sources.currency_note}")
    return lines


@commands.command("gpus", "the GPU catalog; 'gpus show ID' for one card and the engines that run on it",
                  arg("action", nargs="?", choices=("show",), help="show: one card, its engines and prices"),
                  arg("id", nargs="?", complete="gpu", help="a catalog id or name, a Mac ('M3 Max 30-core 36GB') or custom:..."),
                  JSON,
                  arg("--path", action="store_true", help="where your own gpus.yaml and prices.yaml go"),
                  examples=("gpu-advisor gpus", "gpu-advisor gpus --json", "gpu-advisor gpus show ascend-910b",
                            "gpu-advisor gpus show 'M4 Pro 24GB'"))
def cmd_gpus(args: argparse.Namespace) -> None:
    from gpu_advisor.knowledge import gpus, user_gpus_path, user_prices_path
    from gpu_advisor.tools.cost import try_price
    from gpu_advisor.tui.format import table

    if args.path:
        paths = {"gpus": str(user_gpus_path()), "prices": str(user_prices_path())}
        print(json.dumps(paths, indent=2) if args.json else "\n".join(paths.values()))
        return
    if args.action == "show":
        if not args.id:
            raise UsageError("gpus show needs a card: gpu-advisor gpus show h100-sxm")
        _show(args.id, args.json)
        return
    records = gpus()
    if args.json:
        print(json.dumps([{**g.model_dump(mode="json"), "engines": [e["name"] for e in _engines(g)]}
                          for g in records], indent=2))
        return
    rows = []
    for g in records:
        q = try_price(g.id)
        rows.append((g.id, g.name, f"{g.memory_gb:g}", f"{g.memory_bandwidth_gbps:,.0f}", f"{g.bf16_tflops:g}",
                     g.interconnect, f"{q.usd_per_gpu_hour_low:.2f}-{q.usd_per_gpu_hour_high:.2f}" if q else "-"))
    print(table(rows, ["id", "name", "GB", "GB/s", "BF16 TFLOPS", "link", "USD/GPU-h"]))
    print("\nTFLOPS are dense (no sparsity); GeForce figures use FP32 accumulation. Prices are dated snapshots.\n"
          "Also accepted wherever a GPU is named: any Apple M1-M4 by chip, GPU cores and memory ('M3 Max 30-core "
          "36GB') and custom:memory=96GB,bandwidth=1.8TB/s. 'gpus show ID' lists the engines that run on a card.")
