"""``mjr play`` on a terminal, as a person plays it: the command runs on a
pseudo-terminal (its input echoed, Ctrl-D and Ctrl-C typed as keys), and what it
shows is read off the screen."""

from __future__ import annotations

import codecs
import os
import re
import select
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty")

#: How long a step may take before the test gives up (the whole hand takes about a second).
PATIENCE = 30.0
#: The command, run as the terminal's session leader so that Ctrl-C reaches it: a
#: session's leader takes the first terminal it opens as its controlling terminal.
LAUNCH = ("import os, sys; os.close(os.open(os.ttyname(0), os.O_RDWR)); "
          "os.execv(sys.executable, [sys.executable, '-m', 'mjr', *sys.argv[1:]])")
#: A tile the log's way, never the screen's: an honour as a ``z`` digit.
Z_NAME = re.compile(r"[0-9]z\b")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")


#: The warning a ruleset installed without a C compiler gives once, not part of the game.
_INTERPRETED = re.compile(r"^mjr: warning: .* runs interpreted .*\n", re.MULTILINE)

class Terminal:
    """``mjr ARGS`` on a pseudo-terminal: type lines and keys, read the screen."""

    def __init__(self, *args: str):
        self.fd, child = pty.openpty()
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], stdin=child, stdout=child,
                                        stderr=child, start_new_session=True, close_fds=True)
        os.close(child)
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.screen = ""  # everything shown so far, each line ended by "\n"
        self.shut = False

    def wait_for(self, done, what: str) -> str:
        """Read the screen until ``done(screen)``; the screen."""
        deadline = time.monotonic() + PATIENCE
        while not done(self.screen):
            left = deadline - time.monotonic()
            if left <= 0 or self.shut:
                raise AssertionError(f"no {what} on the screen; it ends:\n{self.screen[-1500:]}")
            if select.select([self.fd], [], [], left)[0]:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # EIO: the command has closed the terminal
                    chunk = b""
                self.shut = not chunk
                self.screen += self.decoder.decode(chunk, final=self.shut).replace("\r\n", "\n")
                # (without a C compiler the ruleset says once that it runs interpreted)
                self.screen = _INTERPRETED.sub("", self.screen)
        return self.screen

    def prompt(self) -> str:
        """What the screen shows up to the next prompt (or the end of play)."""
        start = len(self.screen)
        self.wait_for(lambda screen: screen.endswith("> ") and len(screen) > start or self.ended(start),
                      "prompt")
        return self.screen[start:]

    def ended(self, start: int = 0) -> bool:
        return "\nledger: " in self.screen[start:] or "the game ends in hand" in self.screen[start:]

    def type(self, line: str) -> str:
        """Type ``line`` and Enter; the screen from the echoed line to the next prompt."""
        os.write(self.fd, line.encode() + b"\n")
        return self.prompt()

    def press(self, key: bytes) -> None:
        os.write(self.fd, key)

    def finish(self) -> int:
        """Read to the end; the command's exit status."""
        self.wait_for(lambda screen: self.shut, "end")
        try:
            return self.process.wait(PATIENCE)
        finally:
            os.close(self.fd)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def terminal():
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        started.append(Terminal(*args))
        return started[-1]

    yield start
    for term in started:
        term.kill()


def choices(shown: str) -> list[str]:
    """What the last ``you may:`` line offers: ``discard 6m 9m E``, ``pung``, ``pass``."""
    line = [line for line in shown.splitlines() if line.startswith("  you may: ")][-1]
    return line[len("  you may: "):].split(", ")


def a_person_would_type(shown: str) -> str:
    """A simple player: wins when it can, lets a discard go, else discards the tile
    it drew (typed alone), or its last."""
    options = choices(shown)
    for word in ("win", "pass", "draw"):
        if word in options:
            return word
    discards = next(option.split()[1:] for option in options if option.startswith("discard "))
    drew = re.search(r"  drew (\S+)\n", shown)
    return drew.group(1) if drew and drew.group(1) in discards else discards[-1]


def test_a_person_plays_a_hand_to_its_end_at_a_terminal(terminal) -> None:
    """help, a bad word, a tile alone, a claim, ``discard X``, then play to the end:
    the winning hand with its fans and points, the payments, the ledger; honours by
    letter throughout, and no traceback."""
    term = terminal("play", "-r", "guangdong.jipinghu", "--seed", "3")
    first = term.prompt()
    assert first.startswith("== hand 1 of 1: guangdong.jipinghu, dealer seat 0; you play seat 0 (E)\n"
                            "  seat 0 draws 9p\n  83 tiles left in the wall\n")
    assert "\n  seat 3 (N)       -         -\n" in first
    assert first.endswith("seat 0 (E, you): 267m 149p 134899s E P  drew 9p\n"
                          "  you may: discard 2m 6m 7m 1p 4p 9p 1s 3s 4s 8s 9s E P\n"
                          "  (a tile alone discards it; help lists the commands)\n> ")

    shown = term.type("help")
    assert shown.startswith("help\n  commands (one a line; what you may do now is listed after 'you may:'):\n")
    for example in ("5m ", "discard 5m ", "chow 345m ", "kong 5m ", "void m ", "help ", "quit "):
        assert f"\n    {example}" in shown
    assert shown.endswith("\n> ")

    assert term.type("dicsard P") == (
        "dicsard P\n  unknown command 'dicsard' (did you mean 'discard'?): help lists the commands\n> ")
    assert term.type("discard 10m").startswith("discard 10m\n  unknown tile '10m' (tiles are written ")

    shown = term.type("p")  # a tile alone, in either case
    assert shown.startswith("p\n  seat 0 discards P\n  seat 1 draws\n  seat 1 discards 9s\n")
    assert "\n  seat 0 (E, you)  P         -\n" in shown
    assert shown.endswith("seat 0 (E, you): 267m 149p 134899s E  seat 1 discarded 9s\n  you may: pung, pass\n> ")
    shown = term.type("pung")
    assert "\n  seat 0 (E, you)  P         [999s<R]\n" in shown
    assert shown.endswith("seat 0 (E, you): 267m 149p 1348s E  melds [999s<R]\n"
                          "  you may: discard 2m 6m 7m 1p 4p 9p 1s 3s 4s 8s E\n> ")
    shown = term.type("discard E")
    assert shown.startswith("discard E\n  seat 0 discards E\n")
    assert "\n  seat 0 (E, you)  P E       [999s<R]\n" in shown

    moves = 0
    while not term.ended():
        shown = term.type(a_person_would_type(shown))
        moves += 1
        assert moves < 60, "the hand does not end"
    assert term.finish() == 0
    end = term.screen[term.screen.index("-- the hand is over\n"):]
    assert "\nseat 1 (S) wins by discard on 7m from seat 2: 8 points\n" \
           "  hand  12356678m CC [FFF<O] win 7m\n" \
           "  fans  2  混一色  half_flush\n" \
           "        1  三元牌  dragon_pung (bonus)\n" \
           "  seat 2 pays seat 1 8 points  (discarded 点炮)\n" in end
    assert end.endswith("net: seat 0 -8  seat 1 +24  seat 2 -8  seat 3 -8\n"
                        "ledger: seat 0 -8  seat 1 +24  seat 2 -8  seat 3 -8\n")
    assert "Traceback" not in term.screen and not Z_NAME.findall(term.screen)


@pytest.mark.parametrize(("key", "shown", "status"), [
    (b"\x04", "> \nend of input: the game ends in hand 1 of 1, left unfinished\n", 0),  # Ctrl-D
    (b"\x03", "> ^C\ninterrupted: the game ends in hand 1 of 1, left unfinished\n", 130),  # Ctrl-C
])
def test_ctrl_d_or_ctrl_c_at_the_prompt_ends_the_game_saying_so(terminal, tmp_path, key: bytes, shown: str,
                                                                status: int) -> None:
    log = tmp_path / "game.log"
    term = terminal("play", "-r", "guangdong.jipinghu", "--seed", "3", "--log", str(log))
    term.prompt()
    term.type("discard")  # a bad line first: the prompt is asked again
    term.press(key)
    assert term.finish() == status
    assert term.screen.endswith(shown + f"the log {log} stops there: unfinished, 'mjr replay' refuses it\n")
    assert "Traceback" not in term.screen
