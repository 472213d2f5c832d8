"""The table of the speed issue, built from the measurements: one row per line of it,
each with mjr's figure, what it is compared with, the ratio and the target.

Row names are fixed (the smoke test looks for each); a row whose measurement could
not run (a peer not installed, Dask missing, ``pip install`` not asked for) is
still printed, saying why.  The cells give wall times; the rows timed in this
process give their CPU times too, in the note (benchmarks/timing.py).
"""

from __future__ import annotations

import os
import platform
import re
import statistics
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from timing import Measure, fmt_ratio, fmt_time

import mjr

#: The rows of the table, in order (the smoke test checks that each is printed).
ROW_NAMES = (
    "`evaluate(text)`, one call, hand given as notation",
    "`evaluate(hand)`, one call, an already parsed `Hand`",
    "`evaluate(hand)` next to the `mahjong` riichi calculator",
    "`evaluate_batch`, regular hands, one core",
    "`evaluate_counts`, batch, regular hands",
    "`evaluate_batch`, non-winning hands, one core",
    *(f"Tuidaohu batch, {k} wildcard{'' if k == 1 else 's'}" for k in range(5)),
    "fixed cost of one `evaluate_counts` call",
    "fixed cost of one `evaluate_batch` call",
    "batch on 2 cores vs 1",
    "memory floor: a NumPy pass over the batch's bytes",
    "Dask: a JSONL file, LocalCluster of 2 workers vs local",
    "cold compile of one ruleset",
    "`import mjr`",
    "`pip install .`",
)


@dataclass
class TableRow:
    name: str
    mjr: str = ""
    compared: str = ""
    ratio: str = ""
    target: str = ""
    met: bool | None = None
    note: str = ""

    def cells(self) -> list[str]:
        verdict = {True: " ✓", False: " ✗", None: ""}[self.met]
        name = self.name + (f" ({self.note})" if self.note else "")
        return [name, self.mjr, self.compared, self.ratio, (self.target + verdict).strip()]


Measures = dict[str, Measure]
#: The ruleset the cold-compile row builds (as processes.COMPILED).
COMPILE_SOURCE = "rulesets/guangdong.tuidaohu.mjr"


def _cell(text: str) -> str:
    """Why a row was not measured, fit for one table cell: its first line, shortened."""
    line = text.strip().splitlines()[0] if text.strip() else "unknown"
    line = line.replace("|", "\\|")
    return line if len(line) <= 160 else line[:157] + "..."


def _cpu(measure: Measure) -> str:
    """The median CPU time per unit of a measurement timed in this process, for a note."""
    cpu = measure.cpu_median
    return "no CPU figure" if cpu is None else fmt_time(cpu)


def _peer_row(name: str, m: Measures, mine: str, peer: str, label: str, limit: float | None,
              missing: dict[str, str], package: str) -> TableRow:
    """mjr's time per call beside a peer's, the ratio mjr ÷ peer, and the target
    ``limit`` on that ratio."""
    row = TableRow(name, fmt_time(m[mine].median), note=f"{m[mine].units} distinct hands")
    target = "" if limit is None else f"≤ {limit:.1f}× {label}"
    if peer not in m:
        row.compared, row.target = f"{label} unavailable ({_cell(missing.get(package, 'not run'))})", target
        return row
    ratio = m[mine].median / m[peer].median
    row.compared = f"{label} {fmt_time(m[peer].median)}"
    row.ratio = f"{fmt_ratio(ratio)} {label}'s time"
    row.target, row.met = target, None if limit is None else ratio <= limit
    mine_cpu, peer_cpu = m[mine].cpu_median, m[peer].cpu_median
    if mine_cpu is not None and peer_cpu is not None:
        row.note += f"; CPU {fmt_time(mine_cpu)}, {label} {fmt_time(peer_cpu)}: {fmt_ratio(mine_cpu / peer_cpu)}"
    if m[peer].units != m[mine].units:
        row.note += f"; {label} on the first {m[peer].units}"
    if m[peer].note:
        row.note += f"; {label}: {m[peer].note}"
    return row


def _per_hand(name: str, measure: Measure, limit: float | None = None, target: str = "") -> TableRow:
    met = None if limit is None else measure.median <= limit
    return TableRow(name, f"{fmt_time(measure.median)}/hand", target=target, met=met,
                    note=f"{measure.units} distinct hands; CPU {_cpu(measure)}/hand")


def _wildcard_rows(m: Measures) -> list[TableRow]:
    rows = []
    for k in range(5):
        measure = m[f"wild_{k}"]
        row = _per_hand(ROW_NAMES[6 + k], measure)
        if k:
            growth = measure.median / m[f"wild_{k - 1}"].median
            row.ratio = f"{fmt_ratio(growth)} the time with {k - 1}"
            row.target, row.met = "growth ≤ 1.5×", growth <= 1.5
            if k == 4:
                row.target = "≤ 1.5 µs; growth ≤ 1.5×"
                row.met = growth <= 1.5 and measure.median <= 1.5e-6
        rows.append(row)
    return rows


def _fixed_cost(name: str, call: Measure, per_hand: Measure, limit: float | None) -> TableRow:
    """A call on one hand, less the time per hand of a big batch."""
    fixed = call.median - per_hand.median
    note = f"{call.units} calls, each on another hand, less the batch's time per hand"
    if call.cpu_median is not None and per_hand.cpu_median is not None:
        note += f"; CPU {fmt_time(call.cpu_median - per_hand.cpu_median)}"
    return TableRow(name, fmt_time(fixed), f"a call on 1 hand {fmt_time(call.median)}",
                    target="" if limit is None else f"≤ {fmt_time(limit)}",
                    met=None if limit is None else fixed <= limit, note=note)


def _process_rows(m: Measures, skipped: dict[str, str]) -> list[TableRow]:
    rows = []
    dask = TableRow(ROW_NAMES[15], target="same rows")
    if "dask_cluster" in m:
        cluster, local = m["dask_cluster"], m["dask_local"]
        dask.mjr = f"{fmt_time(cluster.median)}/hand"
        dask.compared = f"local (threads) {fmt_time(local.median)}/hand"
        dask.ratio = f"{fmt_ratio(local.median / cluster.median)} the local speed"
        dask.met = cluster.note.startswith("same")
        dask.note = f"{cluster.units} hands; {cluster.note}; cluster start not timed"
    else:
        dask.mjr, dask.met = f"skipped: {_cell(skipped.get('dask', 'not run'))}", None
    rows.append(dask)
    compile_row = TableRow(ROW_NAMES[16], target="≤ 4 s CPU")
    if "compile" in m:
        compile_row.mjr = f"{m['compile'].median:.1f} s CPU"
        compile_row.met = m["compile"].median <= 4.0
        wall = statistics.median(m["compile"].aside)
        compile_row.note = f"{COMPILE_SOURCE}, empty cache, new process; {wall:.1f} s wall"
    else:
        compile_row.mjr = f"not measured: {_cell(skipped.get('compile', 'not run'))}"
    rows.append(compile_row)
    imp, bare = m["import"], m["python"]
    rows.append(TableRow(ROW_NAMES[17], fmt_time(imp.median), f"bare Python {fmt_time(bare.median)}",
                         f"{fmt_ratio(imp.median / bare.median)} bare Python", "≤ 25 ms", imp.median <= 0.025,
                         f"new process, median of {len(imp.samples)}"))
    install = TableRow(ROW_NAMES[18], target="≤ 30 s on 2 cores")
    if "install" in m:
        install.mjr = f"{m['install'].median:.0f} s"
        install.met = m["install"].median <= 30
        install.note = f"{m['install'].note}; new venv, fresh copy of the sources"
    else:
        install.mjr = f"not measured: {_cell(skipped.get('install', 'run with --install'))}"
    rows.append(install)
    return rows


def table_rows(m: Measures, missing: dict[str, str], skipped: dict[str, str]) -> list[TableRow]:
    """Every row of the table, from the measurements by key."""
    rows = [
        _peer_row(ROW_NAMES[0], m, "evaluate_text", "gb", "PyMahjongGB", 1.0, missing, "PyMahjongGB"),
        _peer_row(ROW_NAMES[1], m, "evaluate_hand", "gb", "PyMahjongGB", 0.5, missing, "PyMahjongGB"),
        _peer_row(ROW_NAMES[2], m, "evaluate_hand", "riichi", "riichi", None, missing, "mahjong"),
        _per_hand(ROW_NAMES[3], m["batch_1"], 120e-9, "≤ 120 ns/hand"),
        _per_hand(ROW_NAMES[4], m["counts"], 120e-9, "≤ 120 ns/hand"),
        _per_hand(ROW_NAMES[5], m["batch_non_winning"]),
        *_wildcard_rows(m),
        _fixed_cost(ROW_NAMES[11], m["counts_call"], m["counts"], 0.5e-6),
        _fixed_cost(ROW_NAMES[12], m["batch_call"], m["batch_1"], None),
    ]
    one, two = m["batch_1"], m["batch_2"]
    speedup = one.median / two.median
    rows.append(TableRow(ROW_NAMES[13], f"{fmt_time(two.median)}/hand on 2", f"{fmt_time(one.median)}/hand on 1",
                         f"speed-up {fmt_ratio(speedup)}", "≥ 1.8×", speedup >= 1.8,
                         f"`workers=2` vs `workers=1`, {one.units} hands; CPU of every thread {_cpu(two)}/hand "
                         f"on 2, {_cpu(one)}/hand on 1"))
    floor = m["floor"]
    rows.append(TableRow(ROW_NAMES[14], f"batch {fmt_time(one.median)}/hand", f"NumPy {fmt_time(floor.median)}/hand",
                         f"{fmt_ratio(one.median / floor.median)} the floor",
                         note=f"summing the records as 64-bit words; {floor.note}; CPU: batch {_cpu(one)}/hand, "
                              f"NumPy {_cpu(floor)}/hand"))
    return rows + _process_rows(m, skipped)


# --------------------------------------------------------------------------- output


def _version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001
        return "not installed"


def machine() -> dict[str, str]:
    """The date, the CPU and what ran: printed at the top of every run."""
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    backend = mjr.load("guangdong.jipinghu").backend
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": f"{usable} usable of {os.cpu_count()}",
        "load average": load,
        "os": f"{platform.system()} {platform.machine()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "mjr": f"{mjr.__version__} ({backend})",
        "PyMahjongGB": _version("PyMahjongGB"),
        "mahjong": _version("mahjong"),
    }


def markdown(rows: list[TableRow]) -> str:
    out = ["| measurement | mjr | compared with | ratio | target |", "|---|--:|--:|--:|---|"]
    out += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(out)


def summary_line(info: dict[str, str]) -> str:
    return (f"{info['date']}; {info['cpu']}, {info['cores']} cores (load {info['load average']}); "
            f"{info['python']}; mjr {info['mjr']}; PyMahjongGB {info['PyMahjongGB']}; mahjong {info['mahjong']}")


def footnote(rounds: int, cpu_share: float) -> str:
    return (f"Medians of {rounds} interleaved rounds (processes: see each row).  Ratios are mjr's time ÷ the "
            "other's unless the cell says otherwise.  The peers score other rule sets (MCR for PyMahjongGB, riichi "
            f"for `mahjong`), on the same tiles: indicative only.  In its rounds this process had {cpu_share:.0%} "
            "of a core (CPU time ÷ wall time; near 100% on a quiet machine, far less on a busy one).  The "
            "notes give the CPU times of the rows timed in this process (medians of the same rounds).")


README_BEGIN = "<!-- speed:begin: generated by `python benchmarks/run.py --readme README.md` -->"
README_END = "<!-- speed:end -->"


_SECTION = re.compile(re.escape(README_BEGIN) + r".*?" + re.escape(README_END), re.S)


def readme_problem(path: Path) -> str | None:
    """Why ``path`` cannot take the speed section (checked before a run), or None."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        return f"cannot read {path}: {error.strerror or error}"
    if not _SECTION.search(text):
        return (f"{path} has no speed section to rewrite: put the table between the lines {README_BEGIN} "
                f"and {README_END}")
    return None


def rewrite_readme(path: Path, rows: list[TableRow], info: dict[str, str], rounds: int, cpu_share: float) -> None:
    """Replace the text between the README's speed markers with this run's table."""
    body = "\n".join([
        README_BEGIN,
        f"Measured with `python benchmarks/run.py`: {summary_line(info)}.  See `benchmarks/README.md` for what "
        "each row measures.",
        "",
        markdown(rows),
        "",
        footnote(rounds, cpu_share),
        README_END,
    ])
    text = path.read_text(encoding="utf-8")
    path.write_text(_SECTION.sub(lambda _: body, text, count=1), encoding="utf-8")


def to_json(rows: list[TableRow], measures: Measures, info: dict[str, str], settings: dict[str, object],
            missing: dict[str, str], skipped: dict[str, str]) -> dict[str, object]:
    return {
        "machine": info,
        "settings": settings,
        "rows": [asdict(row) for row in rows],
        "measures": {key: {"units": x.units, "median": x.median, "samples": x.samples, "cpu_median": x.cpu_median,
                           "cpu_samples": x.cpu, "note": x.note}
                     for key, x in measures.items()},
        "peers_missing": missing,
        "skipped": skipped,
    }
