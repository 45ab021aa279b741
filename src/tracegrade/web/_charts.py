"""Chart geometry for the server-rendered SVG charts (pure; templates draw and escape)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.store import TouchpointRunPoint
    from tracegrade.web._models import DayCost

__all__ = ["Bar", "BarChart", "Dot", "TrendChart", "cost_chart", "trend_chart"]

WIDTH, HEIGHT, PAD = 640, 180, 28


@dataclass(frozen=True, slots=True)
class Dot:
    """One run on the trend: where it is drawn and what its tooltip says."""

    x: float
    y: float
    label: str
    failed: bool


@dataclass(frozen=True, slots=True)
class TrendChart:
    """A pass-rate trend: the metric line, the variance band and the baseline."""

    width: int
    height: int
    line: str
    band: str
    baseline_y: float | None
    dots: tuple[Dot, ...]
    ticks: tuple[tuple[float, str], ...]


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a cost chart."""

    x: float
    y: float
    width: float
    height: float
    role: str
    label: str


@dataclass(frozen=True, slots=True)
class BarChart:
    """Cost per day, agent and judge bars side by side."""

    width: int
    height: int
    bars: tuple[Bar, ...]
    top: str


def _y(value: float) -> float:
    return round(HEIGHT - PAD - value * (HEIGHT - 2 * PAD), 1)


def _x(index: int, count: int) -> float:
    if count <= 1:
        return WIDTH / 2
    return round(PAD + index * (WIDTH - 2 * PAD) / (count - 1), 1)


def trend_chart(newest_first: Sequence[TouchpointRunPoint], baseline: float | None) -> TrendChart:
    """The trend of a touchpoint's metric (a share in [0, 1]) over its runs, oldest left."""
    points = [point for point in reversed(newest_first) if point.metric is not None]
    count = len(points)
    dots = []
    upper, lower = [], []
    for index, point in enumerate(points):
        metric = point.metric if point.metric is not None else 0.0
        x = _x(index, count)
        dots.append(
            Dot(x, _y(metric), f"{point.run_id}: {metric:.3f} ({point.status})", point.failed)
        )
        low = point.band_low if point.band_low is not None else metric
        high = point.band_high if point.band_high is not None else metric
        upper.append(f"{x},{_y(min(high, 1.0))}")
        lower.append(f"{x},{_y(max(low, 0.0))}")
    has_band = any(p.band_low is not None for p in points)
    return TrendChart(
        width=WIDTH,
        height=HEIGHT,
        line=" ".join(f"{dot.x},{dot.y}" for dot in dots),
        band=" ".join(upper + list(reversed(lower))) if has_band else "",
        baseline_y=_y(baseline) if baseline is not None else None,
        dots=tuple(dots),
        ticks=tuple((_y(value), f"{value:.2f}") for value in (0.0, 0.5, 1.0)),
    )


def cost_chart(days: Sequence[DayCost]) -> BarChart:
    """Bars of agent and judge cost per day, scaled to the dearest bar."""
    top = max([spent for day in days for spent in (day.agent_usd, day.judge_usd) if spent] or [0.0])
    slot = (WIDTH - 2 * PAD) / max(len(days), 1)
    bars = []
    for index, day in enumerate(days):
        for offset, (role, spent) in enumerate(
            (("agent", day.agent_usd), ("judge", day.judge_usd))
        ):
            if not spent or top <= 0:
                continue
            height = round(spent / top * (HEIGHT - 2 * PAD), 1)
            bars.append(
                Bar(
                    x=round(PAD + index * slot + offset * slot / 2, 1),
                    y=round(HEIGHT - PAD - height, 1),
                    width=round(max(slot / 2 - 2, 1), 1),
                    height=height,
                    role=role,
                    label=f"{day.day} {role}: ${spent:.4f}",
                )
            )
    return BarChart(width=WIDTH, height=HEIGHT, bars=tuple(bars), top=f"${top:.4f}")
