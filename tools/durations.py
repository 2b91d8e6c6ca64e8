"""Durations as figures to show: never a zero for a time that is not zero ('about 0 h', 'about 0.0 s' said a run of
minutes or an exchange of milliseconds took nothing). Whole units from 100 up, one decimal from about a tenth, and
below that two decimals (0.05 h), and under a hundredth two significant digits (0.0042 s). The writers add the unit; one
source for the tools' sentences and the writers' (assistant.writers.hours, seconds)."""

from __future__ import annotations

import math


def figure(x: float) -> str:
    """A non-negative quantity rounded for reading, never shown as 0 when it is above 0."""
    if x >= 99.5:
        return f"{x:,.0f}"
    if x >= 0.095:
        return f"{x:,.1f}"
    if x >= 0.01:
        return f"{x:.2f}"
    if x <= 0:
        return "0"
    return f"{x:.{1 - math.floor(math.log10(x))}f}"  # two significant digits: 0.0042


def hours_figure(h: float) -> str:
    """Hours to show (the unit is the caller's): '1.5', '0.05', '1,234'."""
    return figure(h)


def seconds_figure(s: float) -> str:
    """Seconds to show (the unit is the caller's): '773', '2.4', '0.039'."""
    return figure(s)
