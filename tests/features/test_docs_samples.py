"""The ``mjr`` command samples in the docs give the output they show.

Every ``.. code-block:: console`` block of the pages below is a sample: each
``$ mjr ...`` line is run, in a scratch folder (as a user outside the repository
would, so bundled rulesets are named as installed), and what it prints must equal
the lines under it.  Only timings are normalised (``in 0.01s``, ``45.5 hands/s``): counts, tables and
places are compared as they are, so a sample goes stale only by failing here.
Other commands in a block (``pip install``) are shown, not run; output that depends
on the machine (``mjr cache``) is shown in a ``text`` block instead.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mjr import cli

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("cli.rst", "quickstart.rst", "simulate.rst")
TIMING = re.compile(r"\bin \d+\.\d+s$", re.M)
RATE = re.compile(r"^\d+(\.\d+)? hands/s ", re.M)  # mjr simulate's speed, on stderr
#: stderr lines that depend on the machine, not on the command: warnings (a ruleset
#: interpreted where no C compiler exists) and compile notes (a ruleset, with the
#: table options of the combination built)
MACHINE_NOTES = re.compile(r"^(mjr: warning: .*|compiling \S+( \S+=\S+)* \.\.\.)\n", re.M)


def console_samples(page: str) -> list[tuple[str, str, str]]:
    """(place, command, expected output) for each ``$ mjr`` line of the console
    blocks of ``page``."""
    lines = (DOCS / page).read_text(encoding="utf-8").split("\n")
    samples = []
    at = 0
    while at < len(lines):
        if lines[at].strip() != ".. code-block:: console":
            at += 1
            continue
        at += 1
        block: list[tuple[int, str]] = []
        while at < len(lines) and (not lines[at].strip() or lines[at].startswith("   ")):
            block.append((at + 1, lines[at][3:]))
            at += 1
        while block and not block[-1][1].strip():
            block.pop()
        for index, (number, text) in enumerate(block):
            if not text.startswith("$ mjr "):
                continue
            output = []
            for _, following in block[index + 1 :]:
                if following.startswith("$ "):
                    break
                output.append(following)
            samples.append((f"{page}:{number}", text[2:], "\n".join(output).strip("\n")))
    return samples


SAMPLES = [sample for page in PAGES for sample in console_samples(page)]


def normalised(text: str) -> str:
    text = MACHINE_NOTES.sub("", text)
    text = RATE.sub("<rate> hands/s ", text)
    return TIMING.sub("in <time>", "\n".join(line.rstrip() for line in text.strip("\n").split("\n")))


def test_the_pages_have_samples() -> None:
    places = {place.split(":")[0] for place, _, _ in SAMPLES}
    assert places == set(PAGES)
    assert any(command.startswith("mjr test") for _, command, _ in SAMPLES)


# One worker runs the samples in turn: two of them test every bundled ruleset.  On a run
# of the whole suite every combination of options is built before the tests start
# (conftest.py); on a run of chosen files the second sample finds the first's builds,
# where side by side each would wait for or make them (minutes of a worker each).
@pytest.mark.xdist_group("docs_samples")
@pytest.mark.parametrize(("place", "command", "expected"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_sample(place: str, command: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # the run's build cache: a combination of options is built once per run
    cli.main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    shown = normalised(out + err)
    assert shown == normalised(expected), f"{place}: '$ {command}' now prints:\n{out}{err}"
