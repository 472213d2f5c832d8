"""mjr.simulate and ``mjr simulate``: hands played by bots, reproducible wherever they run."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import mjr
from mjr import cli
from mjr.cli.simulate import report_lines
from mjr.errors import MjrError
from mjr.ruleset import loader
from mjr.simulate import run as simulate
from mjr.table.bots import GreedyBot, play_out
from mjr.table.close import Payment
from mjr.table.referee import Seating, Table, unplayable


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def untimed(report: simulate.SimulationReport) -> dict[str, Any]:
    return report.to_json(timings=False)


# --------------------------------------------------------------------------- seeds


def test_hand_seeds_are_hashed_not_added() -> None:
    """Run 0's hand 1 is not run 1's hand 0, as it would be with seed + index."""
    assert simulate.hand_seed(0, 1) != simulate.hand_seed(1, 0)
    assert simulate.hand_seed(5, 7) == simulate.hand_seed(5, 7)
    assert len({simulate.hand_seed(seed, index) for seed in range(20) for index in range(20)}) == 400


def test_a_hand_replays_from_its_seed_and_index() -> None:
    ruleset = mjr.load("simple")
    first, again = (simulate.play_hand(ruleset, "greedy", 9, 6) for _ in range(2))
    assert first.events == again.events and first.payments == again.payments
    assert first.seating.dealer == 6 % 4


def test_same_seed_same_report_other_seed_another() -> None:
    one, two = (simulate.simulate("simple", 60, seed=3, workers=1) for _ in range(2))
    assert untimed(one) == untimed(two)
    other = simulate.simulate("simple", 60, seed=4, workers=1)
    assert untimed(other)["points"] != untimed(one)["points"] or untimed(other)["fans"] != untimed(one)["fans"] \
        or untimed(other)["draws"] != untimed(one)["draws"]
    assert untimed(other)["seed"] == 4 and untimed(other)["hands"] == 60


def test_one_process_and_two_give_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """Partitions of fixed size: the hands and their tally do not depend on the
    workers.  (Partitions of 20 hands here, so that a few hands make several.)"""
    monkeypatch.setattr(simulate, "PARTITION_SIZE", 20)
    hands = 2 * simulate.PARTITION_SIZE + 10  # three partitions, the last short
    alone = simulate.simulate("simple", hands, seed=11, workers=1)
    shared = simulate.simulate("simple", hands, seed=11, workers=2)
    assert shared.workers == "2 processes" and alone.workers == "1 process"
    assert untimed(shared) == untimed(alone)
    assert alone.tally.hands == hands and sum(alone.tally.wins_per_hand.values()) == hands


def test_tallies_merge_in_any_order() -> None:
    ruleset = mjr.load("simple")
    first, second = simulate.Tally(), simulate.Tally()
    for index in range(6):
        (first if index % 2 else second).add_hand(index, simulate.play_hand(ruleset, "random", 1, index))
    assert first.merge(second) == second.merge(first)
    assert first.merge(second).hands == 6


# --------------------------------------------------------------------------- what a report holds


@pytest.mark.parametrize("ident", loader.bundled_ids())
def test_every_bundled_ruleset_plays_balanced_hands(ident: str) -> None:
    """... or, for one a table cannot play (red fives), is refused before any hand."""
    ruleset = mjr.load(ident)
    if unplayable(ruleset) is not None:
        with pytest.raises(MjrError, match="does not deal yet"):
            simulate.simulate(ident, 12, seed=1, workers=1)
        return
    report = simulate.simulate(ident, 12, seed=1, workers=1)
    tally = report.tally
    assert set(tally.fan_wins) <= {fan.id for fan in ruleset.fans}
    assert tally.zero_sum_failures == [] and tally.tile_count_failures == []
    assert tally.hands == 12 and tally.draws + sum(n for c, n in tally.wins_per_hand.items() if c) == 12
    assert sum(tally.points.values()) == tally.wins == sum(tally.wins_by_method.values())


def test_an_unbalanced_hand_is_reported_by_index() -> None:
    table = play_out(Table(mjr.load("simple"), seed=2, seating=Seating()), [GreedyBot(s) for s in range(4)])
    table.payments.append(Payment(1, 1, 5, "made_up", "made up"))  # a seat paying itself
    tally = simulate.Tally()
    tally.add_hand(41, table)
    assert tally.zero_sum_failures == [41] and tally.tile_count_failures == []


def test_the_text_names_failing_hands() -> None:
    report = simulate.simulate("simple", 5, seed=1, workers=1)
    report.tally.zero_sum_failures.extend([3, 4])
    lines = report_lines(report)
    assert "zero-sum: FAILED in 2 of 5 hands (hands 3 4)" in lines
    assert "tile count: ok (5 hands)" in lines


def test_a_worker_that_cannot_load_the_ruleset_names_it() -> None:
    partition = simulate.Partition("nowhere.mjr", "auto", (), "greedy", 0, 0, 1)
    with pytest.raises(mjr.MjrError, match="^a worker could not load the ruleset nowhere.mjr: "):
        simulate.play_partition(partition)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": 0}, "the number of hands must be a whole number of 1 or more, not 0"),
    ({"hands": -3}, "not -3"),
    ({"hands": 5, "bot": "clever"}, "unknown bot 'clever': choose one of greedy, random"),
    ({"hands": 5, "workers": 0}, "workers must be 1 or more, not 0"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(mjr.MjrError, match=message):
        simulate.simulate("simple", **kwargs)


# --------------------------------------------------------------------------- the command


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "-r", "sichuan.xuezhan", "--hands", "40", "--seed", "2", "--workers", "1")
    report = simulate.simulate("sichuan.xuezhan", 40, seed=2, workers=1)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == ("sichuan.xuezhan (bloody_flow=off players=4 three_flush=off void=checked): 40 hands, seed 2, "
                        "greedy bots")
    assert any(line.split()[:2] == ["draws", str(report.tally.draws)] for line in lines)
    assert lines[-2:] == ["zero-sum: ok (40 hands)", "tile count: ok (40 hands)"]
    assert any(line.split()[:3] == ["fan", "name", "wins"] for line in lines)
    assert any(line.split()[:2] == ["plain", "平和"] for line in lines)
    assert "hands/s on 1 process in" in err


def test_json_report_is_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "-r", "simple", "--hands", "30", "--seed", "5", "--workers", "1", "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["seconds"] > 0 and doc["workers"] == "1 process"
    for timing in ("seconds", "play_seconds", "hands_per_second", "workers"):
        doc.pop(timing)
    assert doc == untimed(simulate.simulate("simple", 30, seed=5, workers=1))
    assert doc["zero_sum"] == {"ok": True, "hands": 30, "failures": 0, "first_failures": []}


def test_a_failed_check_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "payments_balance", lambda table: False)
    code, out, _ = run(capsys, "-r", "simple", "--hands", "3", "--workers", "1")
    assert code == 1 and "zero-sum: FAILED in 3 of 3 hands (hands 0 1 2)" in out


def test_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (mahjong-rules[plot])")
    path = tmp_path / "simple.png"
    code, _, _ = run(capsys, "-r", "simple", "--hands", "20", "--workers", "1", "--plot", str(path))
    assert code == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_names_the_extra(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    code, out, err = run(capsys, "-r", "simple", "--hands", "20", "--plot", str(tmp_path / "x.png"))
    assert (code, out) == (2, "")
    assert err == ("mjr: error: --plot needs matplotlib, which is not installed; "
                   "install it with: pip install 'mahjong-rules[plot]'\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["-r", "simple", "--hands", "0"], "mjr simulate: error: argument --hands: expected a whole number of 1 or "
                                       "more, not '0'"),
    (["-r", "simple", "--hands", "-4"], "not '-4'"),
    (["-r", "nosuch", "--hands", "3"], "mjr: error: unknown ruleset 'nosuch'"),
    (["-r", "simple", "-o", "ghost=flip", "--hands", "3"], "mjr: error: simple has no option 'ghost'"),
    (["-r", "simple", "--hands", "3", "--scheduler", "nowhere"], "mjr: error: "),
    (["-r", "simple", "--hands", "3", "--workers", "2", "--scheduler", "tcp://h:1"],
     "--workers is for a local run"),
    (["-r", "simple", "--hands", "3", "--plot", "no/such/folder/x.png"],
     "mjr: error: cannot write the plot 'no/such/folder/x.png': the folder 'no/such/folder' does not exist"),
    (["-r", "simple", "--hands", "3", "--plot", "x.svg"], "mjr: error: --plot writes a PNG file"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    if "--plot" in argv:
        pytest.importorskip("matplotlib", reason="matplotlib is not installed: the missing extra is named first")
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err.splitlines()[-1]
    assert "Traceback" not in err
    assert not list(tmp_path.iterdir())  # no plot, nothing else written


# --------------------------------------------------------------------------- on a cluster


def test_a_dask_cluster_gives_the_local_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed on a LocalCluster of 2 worker processes (each loads the ruleset
    by name) and here: the same report, timings aside.  (Partitions of 25 hands, so
    that both workers get several.)"""
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (mahjong-rules[dask])")
    monkeypatch.setattr(simulate, "PARTITION_SIZE", 25)
    runs = [("simple", 110), ("sichuan.xuezhan", 90)]
    local = [untimed(simulate.simulate(ident, hands, seed=8, workers=1)) for ident, hands in runs]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        remote = [simulate.simulate(ident, hands, seed=8, scheduler=cluster.scheduler_address)
                  for ident, hands in runs]
    assert [report.workers for report in remote] == [cluster.scheduler_address] * 2
    assert [untimed(report) for report in remote] == local
    assert [doc["hands"] for doc in local] == [110, 90] and all(doc["zero_sum"]["ok"] for doc in local)


def test_the_benchmark_prints_its_rows(tmp_path: Path) -> None:
    """benchmarks/simulate.py, one small round (its timings are not checked)."""
    import subprocess

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "simulate.py"
    done = subprocess.run([sys.executable, str(script), "--hands", "8", "--rounds", "1", "--scaling-hands", "0",
                           "--rulesets", "simple", "mcr"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| `")]
    assert [row.split(",")[0] for row in rows] == ["| `simple`", "| `mcr`"]
    assert all(" hands/s | " in row and " ms a hand | " in row for row in rows)


def test_a_ruleset_file_changed_between_runs_is_played_as_it_now_reads(tmp_path: Path) -> None:
    """Two runs in one process of a file rewritten between them: the second plays the
    new rules, not the ones the first run loaded."""
    path = tmp_path / "changing.mjr"
    rules = """ruleset t.changing "Changing" {{
    tiles suits(m p s) winds dragons
    claims pung kong
    win self_draw discard
    fan plain "Plain" {value} : standard
    pay self_drawn "S" when self_draw : each opponent pays points
    pay discarded "D" when discard : discarder pays points
}}
"""
    totals = []
    for value in (1, 5):
        path.write_text(rules.format(value=value), encoding="utf-8")
        report = simulate.simulate(path, 20, workers=1).to_json(timings=False)
        totals.append(sum(int(points) * wins for points, wins in report["points"].items()))
    assert totals[1] == 5 * totals[0] > 0
