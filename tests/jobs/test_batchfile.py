"""``mjr score --batch``: files of hands in, a row per hand out, on threads or on Dask.

The bundled rulesets run as installed (compiled where the machine could compile).
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mjr
from mjr import cli
from mjr.jobs import executor
from mjr.jobs import score_file as batchfile
from mjr.notation.json import hand_to_json
from mjr.tiles.kinds import tile_name

BUNDLED = "guangdong.jipinghu"
WIN = "234m 567m 345p 678s 2s win 2s self_draw"
NOT_A_WIN = "123m 456p 789s 234s 5s win 6s self_draw"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "score", *argv, *(["--no-progress"] if "--batch" in argv else []))


def hand_line(text: str) -> str:
    return json.dumps(hand_to_json(mjr.parse_hand(text)))


def rows_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def ruleset() -> mjr.Ruleset:
    return mjr.load(BUNDLED)


# --------------------------------------------------------------------------- JSONL


def test_jsonl_rows_match_evaluate(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   ruleset: mjr.Ruleset) -> None:
    hands = [WIN, NOT_A_WIN, "123m 456m 789m EEE C win C discard from R seat E round S"]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(hand_line(h) + "\n" for h in hands), encoding="utf-8")
    code, out, err = run(capsys, "-r", BUNDLED, "--batch", str(path))
    assert code == 0
    rows = rows_of(out)
    assert [row["index"] for row in rows] == [0, 1, 2]
    for row, text in zip(rows, hands, strict=True):
        result = ruleset.evaluate(text)
        assert row["is_win"] is result.is_win
        assert (row["points"], row["fan"]) == ((result.points, result.fan) if result.is_win else (-1, -1))
        assert row["fans"] == list(result.fan_ids)
        assert row["reason"] == (result.reason or None)
        assert row["refused"] is None and row["refusal"] is None
    assert rows[1]["reason"] == "the tiles do not form a complete hand"
    assert err.startswith("3 hands: 2 won, 1 did not win, 0 refused in ")


def test_notation_strings_and_out_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, out = tmp_path / "hands.jsonl", tmp_path / "rows.jsonl"
    path.write_text(json.dumps(WIN) + "\n" + hand_line(WIN) + "\n", encoding="utf-8")
    code, shown, _ = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out))
    assert (code, shown) == (0, "")
    first, second = rows_of(out.read_text(encoding="utf-8"))
    assert first == {**second, "index": 0}
    assert first["fans"] == ["all_chows", "self_drawn"] and first["points"] == 4


# --------------------------------------------------------------------------- refusals


BAD_LINES = [
    hand_line("111m 222m 333p 444p 5p win 5p self_draw"),
    '{"tiles": ["2m", "3m"',                                   # line 2: not JSON
    hand_line(WIN).replace('"2m"', '"2x"', 1),                 # line 3: not a tile
    hand_line("22222m 567m 345p 678s win 2s self_draw"),       # line 4: five 2m
    hand_line("234m 567m 345p 678s E win E self_draw"),        # line 5: honours, not in xuezhan
    "",                                                        # line 6: empty
    "42",                                                      # line 7: no hand
    hand_line(NOT_A_WIN),
    hand_line("234m 567m 345p 678s 22s self_draw"),            # line 9: no winning tile
]


def test_refused_lines_are_named_and_the_run_goes_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(BAD_LINES) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "-r", "sichuan.xuezhan", "--batch", str(path))
    rows = rows_of(out)
    assert code == 1 and len(rows) == len(BAD_LINES)
    assert [row["refusal"] for row in rows] == [None, "not JSON", "bad hand", "impossible hand",
                                                "refused by the ruleset", "not JSON", "bad hand", None, "bad hand"]
    refused = [row["refused"] for row in rows]
    assert refused[1] == (f"{path}:2:22: not JSON: Expecting ',' delimiter\n"
                          '    {"tiles": ["2m", "3m"\n                         ^')
    assert refused[2].startswith(f"{path}:3: tiles[0]: not a tile: '2x'")
    assert refused[3] == f"{path}:4: 5 copies of 2m: there are only 4"
    assert refused[4] == f"{path}:5: tile 1z is not in sichuan.xuezhan's tile set"
    assert refused[5] == f"{path}:6: an empty line; expected a hand"
    assert refused[6] == f"{path}:7: expected a hand JSON object or a string of hand notation, not int"
    assert refused[8] == f"{path}:9: a hand to evaluate needs its winning tile: add 'win T'"
    assert rows[0]["is_win"] and rows[7]["reason"] == "the tiles do not form a complete hand"
    assert rows[1]["points"] is None and rows[1]["fans"] is None
    assert err.startswith("9 hands: 1 won, 1 did not win, 7 refused "
                          "(2 not JSON, 3 bad hand, 1 impossible hand, 1 refused by the ruleset) in ")


def test_bad_notation_string_and_bytes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps("123m 456x win 5m").encode() + b"\n" + b'"\xff"\n')
    code, out, _ = run(capsys, "-r", BUNDLED, "--batch", str(path))
    first, second = rows_of(out)
    assert code == 1
    assert first["refused"] == (f"{path}:1: bad hand at column 9: 'x' is not part of a tile: expected ranks 1-9 "
                                "then m p s z, or an honour letter E S W N P F C\n    123m 456x win 5m\n            ^")
    assert second == batchfile.refused_row(1, "not JSON", f"{path}:2: not UTF-8 text (byte 2)")


def test_json_summary_with_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, out = tmp_path / "hands.jsonl", tmp_path / "rows.jsonl"
    path.write_text(f"{hand_line(WIN)}\nnope\n{hand_line(NOT_A_WIN)}\n", encoding="utf-8")
    code, shown, _ = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out), "--json")
    doc = json.loads(shown)
    assert code == 1
    assert {k: doc[k] for k in ("ruleset", "hands", "won", "not_won", "refused", "refusals")} == {
        "ruleset": BUNDLED, "hands": 3, "won": 1, "not_won": 1, "refused": 1, "refusals": {"not JSON": 1}}


# --------------------------------------------------------------------------- exit status and usage


def test_exit_status(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(f"{hand_line(NOT_A_WIN)}\n", encoding="utf-8")
    assert run(capsys, "-r", BUNDLED, "--batch", str(good))[0] == 0  # a hand that does not win is no refusal
    code, out, err = run(capsys, "-r", BUNDLED, "--batch", str(tmp_path / "missing.jsonl"))
    assert (code, out) == (2, "") and err == f"mjr: error: cannot read {tmp_path / 'missing.jsonl'}: no such file\n"
    code, _, err = run(capsys, "-r", BUNDLED, "--batch", str(good), "--out", str(good))
    assert code == 2 and "is the input file" in err
    assert good.read_text(encoding="utf-8") == f"{hand_line(NOT_A_WIN)}\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["--batch", "x.jsonl", WIN], "give a HAND or --batch FILE, not both"),
    ([WIN, "--out", "x.jsonl"], "--out goes with --batch FILE"),
    ([WIN, "--workers", "2"], "--workers goes with --batch FILE"),
    (["--batch", "x.jsonl", "--json"], "--json with --batch needs --out FILE"),
    (["--batch", "x.jsonl", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers is for a local run"),
    (["--batch", "x.jsonl", "--workers", "0"], "expected a whole number of 1 or more, not '0'"),
    (["--batch", "x.jsonl", "--partition-size", "x"], "expected a whole number of 1 or more, not 'x'"),
])
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "-r", BUNDLED, *argv)
    shown = json.loads(out)["error"] if "--json" in argv else err
    assert code == 2 and "mjr score: error: " in shown and message in shown


# --------------------------------------------------------------------------- threads


def generated_hands(count: int, seed: int = 7) -> list[str]:
    """``count`` distinct hand JSON lines: complete hands of four sets and a pair, a
    tenth of them spoiled by one tile (so they do not win), a few impossible."""
    chance = random.Random(seed)
    names = [tile_name(kind) for kind in range(34)]
    chows = [[k, k + 1, k + 2] for suit in range(3) for k in range(suit * 9, suit * 9 + 7)]
    sets = chows + [[k] * 3 for k in range(34)]
    seen: set[str] = set()
    lines: list[str] = []
    while len(lines) < count:
        tiles = [t for s in chance.choices(sets, k=4) for t in s] + [chance.randrange(34)] * 2
        if chance.random() < 0.1:
            tiles[chance.randrange(14)] = chance.randrange(34)
        if Counter(tiles).most_common(1)[0][1] > 4 and chance.random() < 0.9:
            continue
        win = tiles.pop(chance.randrange(14))
        tiles.sort()
        context: dict[str, Any] = {"seat": chance.choice("ESWN"), "round": chance.choice("ESWN")}
        if chance.random() < 0.5:
            context.update(win_by="discard", **{"from": chance.choice("LOR")})
        else:
            context["win_by"] = "self_draw"
        line = json.dumps({"tiles": [names[t] for t in tiles], "win": names[win], "context": context})
        if line not in seen:
            seen.add(line)
            lines.append(line)
    return lines


def test_workers_give_identical_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join([*generated_hands(600), "oops"]) + "\n", encoding="utf-8")
    outputs = []
    for workers in ("1", "2"):
        code, out, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--workers", workers,
                             "--partition-size", "37")
        assert code == 1
        outputs.append((out, err.split(" in ")[0]))
    assert outputs[0] == outputs[1]
    rows = rows_of(outputs[0][0])
    assert [row["index"] for row in rows] == list(range(601))
    assert rows[-1]["refused"] == f"{path}:601:1: not JSON: Expecting value\n    oops\n    ^"
    assert {row["is_win"] for row in rows} == {True, False}


def test_map_partitions_keeps_order_and_raises() -> None:
    def slow_square(n: int) -> int:
        time.sleep(0.002 * (n % 3))
        return n * n

    assert list(executor.map_partitions(slow_square, range(40), workers=3)) == [n * n for n in range(40)]

    def fails_on_five(n: int) -> int:
        if n == 5:
            raise ValueError("five")
        return n

    with pytest.raises(ValueError, match="five"):
        list(executor.map_partitions(fails_on_five, range(40), workers=2))


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    screen, plain = Terminal(), io.StringIO()
    for stream in (screen, plain):
        bar = executor.Progress(200, stream=stream, delay=0.0)
        bar.advance(50)
        bar.close()
    assert plain.getvalue() == ""
    drawn = screen.getvalue()
    assert drawn.startswith("\r[#######.......................]  25%  50/200 hands  ")
    assert drawn.endswith("\r\x1b[K")


def test_the_command_shows_progress_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(generated_hands(30)) + "\n", encoding="utf-8")
    monkeypatch.setattr(executor, "PROGRESS_DELAY", 0.0)
    shown = []
    for quiet in ([], ["--no-progress"]):
        screen = Terminal()
        monkeypatch.setattr(sys, "stderr", screen)
        code = cli.main(["score", "-r", BUNDLED, "--batch", str(path), "--out", str(tmp_path / "rows.jsonl"),
                         "--partition-size", "10", *quiet])
        assert code == 0
        shown.append(screen.getvalue())
    assert shown[0].startswith("\r[##########....................]  33%  10/30 hands  ")
    assert "\r\x1b[K30 hands: " in shown[0]
    assert shown[1].startswith("30 hands: ")
    assert "\r" not in shown[1]


# --------------------------------------------------------------------------- Parquet


def test_parquet_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path, ruleset: mjr.Ruleset) -> None:
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (mahjong-rules[parquet])")
    import pyarrow.parquet as pq

    path, out = tmp_path / "hands.parquet", tmp_path / "rows.parquet"
    cells = [WIN, hand_line(NOT_A_WIN), None, "{nope", "123m 456x win 5m"]
    pq.write_table(pa.table({"id": list(range(5)), "hand": cells}), path)
    code, shown, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out))
    assert (code, shown) == (1, "")
    rows = pq.read_table(out).to_pylist()
    assert list(rows[0]) == list(batchfile.ROW_FIELDS)
    assert rows[0]["fans"] == list(ruleset.evaluate(WIN).fan_ids) and rows[0]["is_win"]
    assert (rows[1]["is_win"], rows[1]["points"]) == (False, -1)
    assert rows[2]["refused"] == f"{path}: row 3: no hand (an empty cell)"
    assert rows[3]["refused"].startswith(f"{path}: row 4: bad hand at column 2: not JSON: ")
    assert rows[3]["refusal"] == "not JSON" and rows[4]["refusal"] == "bad hand"
    assert err.startswith("5 hands: 1 won, 1 did not win, 3 refused (1 not JSON, 2 bad hand) in ")
    code, shown, _ = run(capsys, "-r", BUNDLED, "--batch", str(path))  # no --out: JSONL on stdout
    assert rows_of(shown) == rows


def test_parquet_without_a_hand_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (mahjong-rules[parquet])")
    import pyarrow.parquet as pq

    path = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"hands": [WIN]}), path)
    code, _, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(tmp_path / "rows.parquet"))
    assert code == 2 and not (tmp_path / "rows.parquet").exists()
    assert err == (f"mjr: error: {path}: no column 'hand'; a Parquet file of hands has a text column 'hand' "
                   "of hand JSON or notation (this one has: hands)\n")


# --------------------------------------------------------------------------- missing extras


def test_missing_extras_name_what_to_install(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("pyarrow", "pyarrow.parquet", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # makes `import name` fail
    path = tmp_path / "hands.jsonl"
    path.write_text(hand_line(WIN) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--scheduler", "tcp://127.0.0.1:1")
    assert (code, err) == (2, "mjr: error: --scheduler needs Dask distributed, which is not installed; "
                              "install it with: pip install 'mahjong-rules[dask]'\n")
    code, _, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(tmp_path / "rows.parquet"))
    assert (code, err) == (2, "mjr: error: writing Parquet needs pyarrow, which is not installed; "
                              "install it with: pip install 'mahjong-rules[parquet]'\n")
    (tmp_path / "hands.parquet").write_bytes(b"PAR1")
    code, _, err = run(capsys, "-r", BUNDLED, "--batch", str(tmp_path / "hands.parquet"))
    assert (code, err) == (2, "mjr: error: reading Parquet needs pyarrow, which is not installed; "
                              "install it with: pip install 'mahjong-rules[parquet]'\n")


# --------------------------------------------------------------------------- Dask


def test_a_scheduler_address_needs_a_port(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="Dask distributed is not installed (mahjong-rules[dask])")
    path = tmp_path / "hands.jsonl"
    path.write_text(hand_line(WIN) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--scheduler", "localhost")
    assert (code, out) == (2, "")
    assert err == ("mjr: error: not a Dask scheduler address: 'localhost' (missing port number in address "
                   "'localhost'); expected one such as tcp://HOST:8786\n")


def test_a_worker_names_the_ruleset_it_cannot_load() -> None:
    partition = batchfile.Partition("hands.jsonl", 0, [hand_line(WIN).encode()])
    with pytest.raises(mjr.MjrError, match="^a worker could not load the ruleset nowhere.mjr: ") as caught:
        batchfile.score_partition_named("nowhere.mjr", "auto", (), partition)
    assert type(caught.value) is mjr.MjrError  # sent back from a worker as it is
    assert batchfile.score_partition_named(BUNDLED, "auto", (), partition)[0]["fans"] == ["all_chows", "self_drawn"]


def test_dask_cluster_gives_the_local_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """2,000 distinct hands scored here in one partition and on a LocalCluster of 2
    worker processes in 20 (real processes, so tasks and partitions are pickled and
    each worker loads the ruleset itself; more partitions than workers, so each
    worker scores several and they may finish out of order): the same rows, byte
    for byte.  The same on either backend (100,000 hands in 10 partitions compiled,
    10,000 in 1 interpreted, took minutes of the suite, most of it making the hands,
    for the same checks)."""
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (mahjong-rules[dask])")
    count = 2_000
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(generated_hands(count)) + "\n", encoding="utf-8")
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    code, _, summary = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(local), "--workers", "1")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        remote_code, _, remote_summary = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(remote),
                                             "--scheduler", cluster.scheduler_address, "--partition-size", "100")
    assert (remote_code, remote_summary.split(" in ")[0]) == (code, summary.split(" in ")[0])
    assert remote.read_bytes() == local.read_bytes()
    rows = rows_of(local.read_text(encoding="utf-8"))
    assert len(rows) == count and {row["is_win"] for row in rows} == {True, False}


# --------------------------------------------------------------------------- the output is complete or absent


def test_out_as_the_input_by_any_name_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A hard link, a symlink or another spelling of the input: refused before any
    file is opened for writing, so the input keeps its hands."""
    path = tmp_path / "hands.jsonl"
    text = f"{hand_line(WIN)}\n{hand_line(NOT_A_WIN)}\n"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "hard.jsonl").hardlink_to(path)
    (tmp_path / "soft.jsonl").symlink_to(path)
    (tmp_path / "sub").mkdir()
    for out in ("hard.jsonl", "soft.jsonl", "sub/../hands.jsonl"):
        code, shown, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(tmp_path / out))
        assert (code, shown) == (2, "")
        assert err.endswith(f"mjr: error: --out {tmp_path / out} is the input file; "
                            "write the results to another file\n")
        assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl", "hard.jsonl", "soft.jsonl", "sub"]


def test_stdout_as_the_input_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mjr score --batch hands.jsonl >> hands.jsonl`` would read its own rows."""
    path = tmp_path / "hands.jsonl"
    path.write_text(f"{hand_line(WIN)}\n", encoding="utf-8")
    with path.open("a", encoding="utf-8") as appended:
        monkeypatch.setattr(sys, "stdout", appended)
        with pytest.raises(mjr.MjrError, match="^stdout is the input file "):
            batchfile.score_file(batchfile.Job(str(path), None, mjr.load(BUNDLED), BUNDLED, progress=False))
    assert path.read_text(encoding="utf-8") == f"{hand_line(WIN)}\n"


def test_a_symlinked_out_is_replaced_at_its_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, target, link = tmp_path / "hands.jsonl", tmp_path / "rows.jsonl", tmp_path / "link.jsonl"
    path.write_text(f"{hand_line(WIN)}\n", encoding="utf-8")
    target.write_text("old rows\n", encoding="utf-8")
    link.symlink_to(target)
    assert run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(link))[0] == 0
    assert link.is_symlink() and rows_of(target.read_text(encoding="utf-8"))[0]["is_win"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl", "link.jsonl", "rows.jsonl"]


@pytest.mark.parametrize("mode", [0o600, 0o640])
def test_an_out_file_replaced_keeps_its_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: int) -> None:
    """A private old file of rows stays private: the new one is not made with the umask's mode."""
    path, out = tmp_path / "hands.jsonl", tmp_path / "rows.jsonl"
    path.write_text(f"{hand_line(WIN)}\n", encoding="utf-8")
    out.write_text("old rows\n", encoding="utf-8")
    out.chmod(mode)
    assert run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out))[0] == 0
    assert rows_of(out.read_text(encoding="utf-8"))[0]["is_win"] and out.stat().st_mode & 0o777 == mode


def _stopped(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, Any]]:
    """Run ``mjr score`` twice, as text and with --json: exit status 3 both times; the
    error line, and the JSON document."""
    code, out, err = run(capsys, *argv)
    shown = [line for line in err.splitlines() if not line.startswith("mjr: warning: ")]  # interpreted, once
    assert (code, out) == (3, "") and len(shown) == 1 and shown[0].startswith("mjr: error: ")
    message = shown[0].removeprefix("mjr: error: ")
    code, out, _ = run(capsys, *argv, "--json")
    document = json.loads(out)
    assert code == 3 and document["finished"] is False and document["error"] == message
    return message, document


def test_a_full_disk_stops_the_run_and_leaves_the_old_out(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path, out = tmp_path / "hands.jsonl", tmp_path / "rows.jsonl"
    path.write_text("\n".join(generated_hands(40)) + "\n", encoding="utf-8")
    out.write_text("the rows of the last run\n", encoding="utf-8")

    def write(self: batchfile.JsonlWriter, rows: list[dict[str, Any]]) -> None:
        if rows[0]["index"] >= 10:
            raise OSError(28, "No space left on device")
        self.stream.write("partial\n")

    monkeypatch.setattr(batchfile.JsonlWriter, "write", write)
    message, document = _stopped(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out),
                                 "--partition-size", "10", "--workers", "1")
    assert message == (f"cannot write {out}: No space left on device; the run stopped after 10 hands, "
                       f"and {out} was not written")
    assert document == {"error": message, "ruleset": BUNDLED, "out": str(out), "finished": False,
                        "seconds": document["seconds"]}
    assert out.read_text(encoding="utf-8") == "the rows of the last run\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl", "rows.jsonl"]  # no temporary file left


def test_dev_full_stops_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(generated_hands(20)) + "\n", encoding="utf-8")
    message, _ = _stopped(capsys, "-r", BUNDLED, "--batch", str(path), "--out", "/dev/full")
    assert message.startswith("cannot write /dev/full: No space left on device; the run stopped after ")
    assert message.endswith(" hands, and the rows so far went to /dev/full")


def test_a_damaged_row_group_stops_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (mahjong-rules[parquet])")
    import pyarrow.parquet as pq

    path, out = tmp_path / "hands.parquet", tmp_path / "rows.parquet"
    hands = generated_hands(30)
    pq.write_table(pa.table({"hand": hands}), path, row_group_size=10, compression="NONE")
    data = bytearray(path.read_bytes())
    metadata = pq.ParquetFile(path).metadata
    column = metadata.row_group(1).column(0)
    start = column.dictionary_page_offset or column.data_page_offset
    data[start:start + column.total_compressed_size] = bytes([0xFF]) * column.total_compressed_size
    path.write_bytes(bytes(data))
    message, _ = _stopped(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out), "--partition-size", "4",
                          "--workers", "1")
    assert message.startswith(f"cannot read {path}: row group 2 of 3 (rows 11-20) is damaged: ")
    assert message.endswith(f"; the run stopped after 8 hands, and {out} was not written")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["hands.parquet"]


class Done:
    """A future of a task that ran, or (given an error) of one the cluster lost."""

    def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
        self.value, self.error = value, error

    def result(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.value


class LosingClient:
    """A Dask client whose cluster loses the worker holding the partition of hands
    20-29, ``losses`` times: each time that task comes back cancelled, as
    distributed reports it."""

    def __init__(self, losses: int) -> None:
        self.losses, self.sent, self.closed = losses, 0, False
        self.error = pytest.importorskip("distributed.client").FutureCancelledError("score-1234", "lost-worker")

    def nthreads(self) -> dict[str, int]:
        return {"tcp://127.0.0.1:1": 1}

    def scatter(self, partition: Any, hash: bool) -> Any:
        return partition

    def submit(self, task: Any, partition: Any, pure: bool) -> Any:
        self.sent += 1
        if partition.first == 20 and self.losses:
            self.losses -= 1
            return Done(error=self.error)
        return Done(task(partition))

    def close(self) -> None:
        self.closed = True


def test_a_task_lost_with_its_worker_is_sent_again(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path, local, remote = tmp_path / "hands.jsonl", tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    path.write_text("\n".join(generated_hands(50)) + "\n", encoding="utf-8")
    client = LosingClient(losses=executor.RESENDS)
    monkeypatch.setattr(executor, "_dask_client", lambda address: client)
    assert run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(local))[0] == 0
    code, _, err = run(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(remote),
                       "--scheduler", "tcp://127.0.0.1:1", "--partition-size", "10")
    assert code == 0 and err.startswith("50 hands: ") and remote.read_bytes() == local.read_bytes()
    assert client.sent == 5 + executor.RESENDS and client.closed


def test_a_lost_dask_worker_stops_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A task cancelled each time it is sent: the run stops, naming the cause."""
    path, out = tmp_path / "hands.jsonl", tmp_path / "rows.jsonl"
    path.write_text("\n".join(generated_hands(50)) + "\n", encoding="utf-8")
    clients: list[LosingClient] = []

    def client(address: str) -> LosingClient:
        clients.append(LosingClient(losses=1 + executor.RESENDS))
        return clients[-1]

    monkeypatch.setattr(executor, "_dask_client", client)
    message, _ = _stopped(capsys, "-r", BUNDLED, "--batch", str(path), "--out", str(out),
                          "--scheduler", "tcp://127.0.0.1:1", "--partition-size", "10")
    assert message == (f"the Dask cluster cancelled a task {1 + executor.RESENDS} times before it was done "
                       "(reason: lost-worker), as when workers are lost with the partition they hold; the run "
                       f"stopped after 20 hands, and {out} was not written")
    assert not out.exists() and len(clients) == 2 and all(c.closed for c in clients)


def test_a_dead_worker_process_stops_the_run() -> None:
    from concurrent.futures import BrokenExecutor, Future

    future: Future[int] = Future()
    future.set_exception(BrokenExecutor("a process in the pool was terminated"))
    with pytest.raises(mjr.errors.UnfinishedRunError, match="a worker process stopped before its task was done"):
        executor._pool_result(future)


# --------------------------------------------------------------------------- hostile lines


def test_a_huge_number_refuses_its_line_only(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    huge = '{"tiles": [' + "9" * 5000 + "]}"
    path.write_text(f"{hand_line(WIN)}\n{huge}\n{hand_line(WIN)}\n", encoding="utf-8")
    code, out, err = run(capsys, "-r", BUNDLED, "--batch", str(path))
    rows = rows_of(out)
    assert code == 1 and [row["is_win"] for row in rows] == [True, False, True]
    assert rows[1]["refusal"] == "not JSON"
    assert rows[1]["refused"].startswith(f"{path}:2:12: not JSON: a number of 5000 digits (at most ")
    assert err.startswith("3 hands: 2 won, 0 did not win, 1 refused (1 not JSON) in ")


def test_an_over_long_line_is_refused_unread(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A line past the bound is skipped in pieces of the bound, never held whole:
    here the bound is made small, and the reads are watched."""
    monkeypatch.setattr(batchfile, "MAX_LINE_BYTES", 300)
    path = tmp_path / "hands.jsonl"
    long_line = '"' + "1m " * 2000 + '"'
    win = hand_line(WIN)
    win = json.dumps(WIN)
    path.write_bytes(f"{win}\n{long_line}\r\n{win}\n{'x' * 301}".encode())
    reads = []
    real = batchfile._lines

    def watched(file: Any) -> Any:
        original = file.readline

        def readline(limit: int = -1) -> bytes:
            line = original(limit)
            reads.append(len(line))
            return line

        file.readline = readline
        return real(file)

    monkeypatch.setattr(batchfile, "_lines", watched)
    code, out, _ = run(capsys, "-r", BUNDLED, "--batch", str(path))
    rows = rows_of(out)
    assert code == 1 and [row["is_win"] for row in rows] == [True, False, True, False]
    assert rows[1] == batchfile.refused_row(1, "not JSON", f"{path}:2: a line of {len(long_line)} bytes, "
                                                           "not read: a hand takes at most 300 bytes")
    assert rows[3]["refused"] == f"{path}:4: a line of 301 bytes, not read: a hand takes at most 300 bytes"
    assert max(reads) <= 302



def test_a_line_past_64_kib_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(f'"{" " * (1 << 20)}"\n{" " * 65_536}\n{hand_line(WIN)}\n', encoding="utf-8")
    code, out, _ = run(capsys, "-r", BUNDLED, "--batch", str(path))
    rows = rows_of(out)
    assert code == 1 and [row["refusal"] for row in rows] == ["not JSON", "not JSON", None]
    assert rows[0]["refused"] == (f"{path}:1: a line of {(1 << 20) + 2} bytes, not read: "
                                  "a hand takes at most 65536 bytes")
    assert rows[1]["refused"] == f"{path}:2: an empty line; expected a hand"  # 64 KiB of blanks: read, and empty
