"""The monthly bill of a service from its traffic's shape (tools.traffic_month): `gpu-advisor monthly`."""

from __future__ import annotations

import argparse

from gpu_advisor.tui.cli.base import REGION, SIZING_OUTPUT, Commands, arg, emit
from gpu_advisor.tui.cli.sizing import CURRENCY, exchange_note, in_currency
from gpu_advisor.tui.cli.values import positive_float, positive_int

WAY_WORDS = {"on_demand_always": "on demand, always on", "on_demand_scheduled": "on demand, scaled on the schedule",
             "reserved_all": "reserved, every copy", "reserved_base": "reserved quiet-hours copies + on demand peak",
             "spot_peak": "spot for the peak copies", "scale_to_zero": "scaled to zero (serverless)"}
commands = Commands()


def share(text: str) -> float:
    """A share from 0 to 1, or a percentage ('10%'); 0 is allowed (nobody off the busy hours)."""
    value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (or 0% and 100%), got {text!r}")
    return value


REASONS = {"spot": "spot can be reclaimed: the busy hours' copies are not held",
           "cold_start": "the first request after an idle spell waits a cold start"}


@commands.command(
    "monthly", "monthly bill of a service from its traffic shape: on demand, reserved, spot, scaled to zero",
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--gpus-per-replica", type=positive_int, default=1, metavar="N", help="cards in one copy of the model"),
    arg("--replicas", type=positive_int, required=True, metavar="N", help="copies the busy hour needs"),
    arg("--peak-hours", type=positive_float, default=24.0, metavar="H", help="busy hours a day (9 to 6: 9)"),
    arg("--peak-days", type=positive_float, default=7.0, metavar="D", help="days a week with busy hours (weekdays: 5)"),
    arg("--offpeak-share", type=share, default=1.0, metavar="S",
        help="load off the busy hours as a share of the busy hour's, 0-1 or a percentage (0: nobody)"),
    arg("--burst", type=positive_float, default=1.0, metavar="X", help="bursts as a multiple of the busy hour's load"),
    arg("--ttft-ms", type=positive_float, default=None, metavar="MS",
        help="time-to-first-token target: scaled to zero meets it only above the cold start"),
    arg("--usd-per-gpu-hour", type=positive_float, default=None, metavar="USD", help="on-demand rate (default: on record)"),
    REGION,
    CURRENCY,
    *SIZING_OUTPUT,
    examples=("gpu-advisor monthly --gpu h100 --replicas 4 --peak-hours 9 --peak-days 5 --offpeak-share 10%",
              "gpu-advisor monthly --gpu l40s --replicas 2 --peak-hours 12 --offpeak-share 0 --ttft-ms 2000"))
def cmd_monthly(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.traffic_month import ShapeInput, check_shape, monthly_by_shape
    from gpu_advisor.tui.cli.base import UsageError

    try:
        check_shape(args.peak_hours, args.peak_days)
        r = monthly_by_shape(ShapeInput(
            gpu=args.gpu, gpus_per_replica=args.gpus_per_replica, peak_replicas=args.replicas,
            peak_hours=args.peak_hours, peak_days=args.peak_days, offpeak_share=args.offpeak_share,
            burst=max(1.0, args.burst), ttft_target_s=args.ttft_ms / 1000 if args.ttft_ms else None,
            usd_per_gpu_hour=args.usd_per_gpu_hour, region=args.region))
    except ToolError as e:
        raise UsageError(str(e)) from None

    def human() -> str:
        cur = args.currency
        lines = [f"{r.burst_replicas} x {args.gpus_per_replica} {r.gpu} in the busy hours "
                 f"({r.peak_hours_per_month:,.0f} h a month), {r.offpeak_replicas} in the quiet hours "
                 f"({r.offpeak_hours_per_month:,.0f} h):", ""]
        for w in sorted(r.ways, key=lambda w: w.usd_per_month):
            mark = "*" if w.way == r.cheapest else " "
            why = "" if w.meets else f"  (does not meet: {REASONS[w.reason or 'spot']})"
            lines.append(f"{mark} {WAY_WORDS[w.way]:<45} {in_currency(w.usd_per_month, cur, 0):>10} {cur}/month{why}")
        lines += ["", f"Cheapest that meets the target: {WAY_WORDS[r.cheapest]}" if r.cheapest else "None meets it."]
        return "\n".join(lines + exchange_note(cur))

    emit(args, r, human)
