"""Files built to exhaust the checker: defines that double or chain, long ``extends``
chains, fans that depend on each other thousands deep, huge or odd input files.

Each must be checked in time linear in its text, and either accepted (and then
evaluate correctly) or refused with a positioned SourceError; never a hang, a
RecursionError or a MemoryError.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mjr
from mjr.compiler.build import MAX_SOURCE_BYTES, check_file, generate_file
from mjr.compiler.check.expressions import MAX_DEPTH, MAX_SIZE
from mjr.errors import MjrError, SourceError

HEADER = 'ruleset t "Test" {\n    tiles suits(m p s) winds dragons\n'
WIN = "234m 567m 345p 678s 2s win 2s self_draw"
#: Far more than the work these files need, far less than the hang they once caused.
SECONDS = 5.0


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MJR_PATH", raising=False)


def doubling(levels: int, first: str = "standard and self_draw", prefix: str = "d") -> str:
    """``define d0: FIRST`` then ``define dN: (dN-1 and dN-1)``: 2^levels terms written out."""
    lines = [f"    define {prefix}0: {first}\n"]
    lines += [f"    define {prefix}{i}: ({prefix}{i - 1} and {prefix}{i - 1})\n" for i in range(1, levels + 1)]
    return "".join(lines)


def chained(length: int) -> str:
    """``define d0: standard`` then ``define dN: not dN-1``."""
    return "    define d0: standard\n" + "".join(f"    define d{i}: not d{i - 1}\n" for i in range(1, length))


def write(tmp_path: Path, body: str, name: str = "case.mjr") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + body + "}\n", encoding="utf-8")
    return path


def timed_error(path: Path) -> tuple[SourceError, float]:
    start = time.perf_counter()
    with pytest.raises(SourceError) as info:
        check_file(path)
    return info.value, time.perf_counter() - start


# --------------------------------------------------------------------------- defines


@pytest.mark.parametrize("levels", [25, 60])
def test_doubling_defines_are_refused_quickly_at_the_define(tmp_path: Path, levels: int) -> None:
    path = write(tmp_path, doubling(levels, "standard") + f'    fan a "A" 1 : d{levels}\n')
    error, seconds = timed_error(path)
    assert seconds < SECONDS
    assert len(error.problems) == 1
    problem = error.problems[0]
    # d13 is the first with more than MAX_SIZE terms: 2^14 - 1 (d0 is one term).
    assert (problem.span.line, problem.span.column) == (3 + 13, 5)
    assert problem.message == (f"define 'd13' is too large once the defines it uses are written out "
                                f"(more than {MAX_SIZE} terms)")
    assert problem.source_line == "    define d13: (d12 and d12)"


def test_doubling_defines_within_the_limit_are_written_once(tmp_path: Path) -> None:
    body = (doubling(11) + doubling(9, "chow or pung", "g")
            + '    fan a "A" 1 : d11\n    fan b "B" 1 : all sets are g9\n')
    path = write(tmp_path, body)
    start = time.perf_counter()
    source = generate_file(path).text
    assert time.perf_counter() - start < SECONDS
    plain = generate_file(write(tmp_path, '    fan a "A" 1 : standard\n', "plain.mjr")).text
    assert len(source) < len(plain) + 20_000  # written out, d11 alone would be 2^11 copies of its first line
    compile(source, "case.py", "exec")
    ruleset = mjr.load(path, backend="python")
    assert ruleset.evaluate(WIN).fan_ids == ("a", "b")
    assert ruleset.evaluate("234m 567m 345p 678s 2s win 2s discard").fan_ids == ("b",)
    assert ruleset.evaluate("234m 567m 345p 666s 2s win 2s discard").fan_ids == ("b",)


@pytest.mark.parametrize("length", [200, 2000])
def test_a_long_chain_of_defines_is_refused_where_it_gets_too_deep(tmp_path: Path, length: int) -> None:
    path = write(tmp_path, chained(length) + f'    fan a "A" 1 : d{length - 1}\n')
    error, seconds = timed_error(path)
    assert seconds < SECONDS
    assert len(error.problems) == 1
    problem = error.problems[0]
    crossing = MAX_DEPTH  # d0 is one level, each 'not' one more
    assert (problem.span.line, problem.span.column) == (3 + crossing, 5)
    assert problem.message == (f"define 'd{crossing}' is nested too deeply once the defines it uses are "
                                f"written out (more than {MAX_DEPTH} levels)")


def test_a_chain_of_defines_within_the_limit_loads_and_evaluates(tmp_path: Path) -> None:
    path = write(tmp_path, chained(80) + '    fan a "A" 1 : d79\n    fan b "B" 1 : d78\n')
    ruleset = mjr.load(path, backend="python")
    assert ruleset.evaluate(WIN).fan_ids == ("b",)  # d79 is 'not standard', d78 is 'standard'


def test_loading_a_file_with_defines_too_deep_is_a_source_error(tmp_path: Path) -> None:
    path = write(tmp_path, chained(2000) + '    fan a "A" 1 : d1999\n')
    with pytest.raises(SourceError) as info:
        mjr.load(path, backend="python")
    assert [p.span.line for p in info.value.problems] == [3 + MAX_DEPTH]


@pytest.mark.parametrize("body, expected", [
    (chained(2000) + '    fan a "A" 1 : d1999\n', f"t.mjr:{3 + MAX_DEPTH}:5: define 'd90' is nested too deeply"),
    (doubling(25, "standard") + '    fan a "A" 1 : d25\n', "t.mjr:16:5: define 'd13' is too large"),
], ids=["chain", "doubling"])
def test_pytest_collects_such_a_file_as_a_clean_error(tmp_path: Path, body: str, expected: str) -> None:
    write(tmp_path, body, "t.mjr")
    env = {**os.environ, "MJR_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "mjr_files=*.mjr",
         "-o", "mjr_backends=python", "t.mjr"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert expected in done.stdout
    assert "RecursionError" not in done.stdout and "Traceback" not in done.stdout


def test_a_misused_define_used_through_another_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "    define runs: chow\n    define lucky: runs and self_draw\n"
                           '    fan a "A" 1 : lucky\n')
    error, _ = timed_error(path)
    assert [p.span.line for p in error.problems] == [5]
    assert "define 'runs' cannot be used here: 'chow' is a property of a set" in error.problems[0].message


# --------------------------------------------------------------------------- fans and extends


def test_fans_depending_on_each_other_thousands_deep_are_ordered(tmp_path: Path) -> None:
    body = "".join(f'    fan f{i} "F" 1 : f{i + 1}\n' for i in range(1999)) + '    fan f1999 "F" 1 : standard\n'
    ruleset = check_file(write(tmp_path, body))
    assert ruleset.fan_order[:3] == (1999, 1998, 1997)


def test_a_long_fan_cycle_is_reported_with_a_short_chain(tmp_path: Path) -> None:
    body = "".join(f'    fan f{i} "F" 1 : f{(i + 1) % 500}\n' for i in range(500))
    error, _ = timed_error(write(tmp_path, body))
    assert [p.message for p in error.problems] == [
        "fan conditions refer to each other in a cycle: f0 -> f1 -> f2 -> f3 -> ... (493 more) -> f497 -> f498 "
        "-> f499 -> f0"]


def extends_chain(folder: Path, length: int, cycle: bool = False) -> Path:
    first = 'ruleset a0 "A0" extends a{last} {{\n' if cycle else 'ruleset a0 "A0" {{\n'
    (folder / "a0.mjr").write_text(first.format(last=length - 1) + "    tiles suits(m p s) winds dragons\n"
                                   '    fan f0 "F" 1 : standard\n}\n', encoding="utf-8")
    for i in range(1, length):
        (folder / f"a{i}.mjr").write_text(f'ruleset a{i} "A{i}" extends a{i - 1} {{\n'
                                          f'    fan f{i} "F" 1 : f{i - 1}\n}}\n', encoding="utf-8")
    return folder / f"a{length - 1}.mjr"


def test_an_extends_chain_of_2000_files_is_checked(tmp_path: Path) -> None:
    ruleset = check_file(extends_chain(tmp_path, 2000))
    assert len(ruleset.files) == 2000 and len(ruleset.fans) == 2000
    assert ruleset.fan_order[:2] == (0, 1)


def test_an_extends_cycle_of_2000_files_names_the_extends(tmp_path: Path) -> None:
    error, _ = timed_error(extends_chain(tmp_path, 2000, cycle=True))
    assert len(error.problems) == 1
    problem = error.problems[0]
    assert problem.span.file.endswith("a0.mjr") and (problem.span.line, problem.span.column) == (1, 25)
    assert problem.message.startswith("'extends' makes a cycle: a1999 -> a1998 -> a1997 -> a1996 -> ... (")
    assert len(problem.message) < 200


# --------------------------------------------------------------------------- input files


def test_an_endless_device_is_refused_as_too_large() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    with pytest.raises(MjrError, match=r"^/dev/zero: larger than 1 MB, the limit for a \.mjr file$"):
        check_file(Path("/dev/zero"))


def test_a_file_over_the_limit_is_refused_without_parsing(tmp_path: Path) -> None:
    path = write(tmp_path, "    # " + "x" * MAX_SOURCE_BYTES + "\n")
    with pytest.raises(MjrError, match="larger than 1 MB") as info:
        check_file(path)
    assert not isinstance(info.value, SourceError)


def test_a_file_just_under_the_limit_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "    # " + "x" * (MAX_SOURCE_BYTES - 200) + '\n    fan a "A" 1 : standard\n')
    assert check_file(path).fans[0].id == "a"


def test_a_folder_is_refused_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "rules.mjr"
    folder.mkdir()
    with pytest.raises(MjrError, match=r"rules\.mjr: is a folder, not a \.mjr file$"):
        check_file(folder)


def test_bytes_that_are_not_utf8_are_refused_with_the_offset(tmp_path: Path) -> None:
    path = tmp_path / "latin1.mjr"
    path.write_bytes(HEADER.encode() + '    fan a "caf\xe9" 1 : standard\n}\n'.encode("latin-1"))
    with pytest.raises(MjrError, match=rf"latin1\.mjr: not UTF-8 text \(invalid continuation byte at byte "
                                       rf"{len(HEADER) + 14}\)$"):
        check_file(path)


def test_the_command_line_names_the_device_without_a_traceback() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    done = subprocess.run([sys.executable, "-m", "mjr.cli", "check", "/dev/zero"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    assert "/dev/zero: larger than 1 MB" in done.stderr and "Traceback" not in done.stderr


# --------------------------------------------------------------------------- quoting


def test_a_long_unknown_name_is_quoted_short(tmp_path: Path) -> None:
    name = "x" * 5000
    error, _ = timed_error(write(tmp_path, f'    fan a "A" 1 : {name}\n'))
    assert error.problems[0].message == f"unknown name '{'x' * 60}'..."


def test_a_long_unexpected_word_is_quoted_short(tmp_path: Path) -> None:
    word = "Y" * 5000
    error, _ = timed_error(write(tmp_path, f"    {word}\n"))
    assert error.problems[0].message.startswith(f"unexpected '{'Y' * 60}'...;")


def test_a_long_duplicate_example_title_is_quoted_short(tmp_path: Path) -> None:
    title = "t" * 3000
    body = f'    fan a "A" 1 : standard\n    example "{title}" {{\n    }}\n'
    error, _ = timed_error(write(tmp_path, body))
    assert error.problems[0].message == f"example '{'t' * 60}'... has no hand"


def test_thousands_of_problems_are_reported_in_linear_time(tmp_path: Path) -> None:
    body = "".join(f'    fan a{i} "A" 1 : standrd\n' for i in range(3000))
    error, seconds = timed_error(write(tmp_path, body))
    assert seconds < 2 * SECONDS  # once over 60 s: every problem compared with every other
    assert len(error.problems) == 3000
    assert error.problems[-1].message == "unknown name 'standrd' (did you mean 'standard'?)"
    assert error.problems[-1].source_line == '    fan a2999 "A" 1 : standrd'
