"""``mjr simulate --plot``: the points histogram and the most frequent fans, as a PNG.

Drawn on a bare :class:`matplotlib.figure.Figure` (no pyplot, no display): it
needs only the ``plot`` extra, and leaves no global state in the process.  Fans
are labelled by id, which any font can draw (a display name may be CJK).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import MjrError, missing_extra

if TYPE_CHECKING:
    from .report import SimulationReport

#: How many of the most frequent fans the plot shows.
TOP_FANS = 15

#: At most this many points values get a bar each (more are binned, as in the text).
POINTS_BARS = 40


def require_matplotlib() -> None:
    """Refuse ``--plot`` with the extra to install when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise missing_extra("--plot needs matplotlib, which is not installed", "plot") from None


def draw(report: SimulationReport, path: Path) -> None:
    """Write the plot of ``report`` to ``path`` (a PNG)."""
    require_matplotlib()
    from matplotlib.figure import Figure

    from .report import fan_rows, points_bins

    figure: Any = Figure(figsize=(11, 4.5), layout="constrained")
    points, fans = figure.subplots(1, 2, width_ratios=(1, 1.2))
    bins = points_bins(report, POINTS_BARS)
    points.bar([label for label, _ in bins], [wins for _, wins in bins], color="#4c72b0")
    points.set(title="points of a win", xlabel="points", ylabel="wins")
    top = fan_rows(report)[:TOP_FANS][::-1]
    fans.barh([row["id"] for row in top], [100 * row["share"] for row in top], color="#dd8452")
    fans.set(title=f"the {len(top)} most frequent fans", xlabel="% of wins")
    figure.suptitle(f"{report.ruleset}: {report.tally.hands} hands, seed {report.seed}, {report.bot} bots, "
                    f"{100 * report.rate(report.tally.draws):.1f}% drawn")
    try:
        figure.savefig(path, format="png", dpi=100)
    except OSError as error:
        raise MjrError(f"cannot write the plot {str(path)!r}: {error.strerror or error}") from None
