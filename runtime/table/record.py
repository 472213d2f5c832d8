"""The lines a table of play writes to its log, built from the state of its hand.

A log is JSON Lines: per hand, a ``hand`` line (the ruleset and its options, the
seating, the stake, the whole wall as dealt), one line per event, and an ``end``
line (the wins, every payment with its clause, each seat's net, the next seating).
An event line is an action (``{"seat": 0, "action": "draw", "tile": "5m"}``: what was
drawn is part of the record) or a note of the table (``{"seat": 2, "replacement":
"3p"}``).  A log holds one hand, or a session: its hands, each numbered in its
``hand`` line (``session_hand``), then a closing ``session`` line with the number
of hands and the ledger, so that a log cut anywhere, even between two hands, is
told from a whole one.  :mod:`mjr.table.log` reads a log back and replays it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from typing import IO, Any

from ..errors import LogWriteError, os_reason
from .state import TableState
from .wall import wall_tile_name

FORMAT = "mjr-play-log"
#: Version 2 numbers a session's hands and closes the session; a version 1 log (one
#: hand, written as version 2 writes one) still replays.
VERSION = 2


def hand_header(state: TableState, session_hand: int | None = None) -> dict[str, Any]:
    """The ``hand`` line of a hand; ``session_hand`` is its number in a session (from 0)."""
    header: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "ruleset": state.ruleset.id, "options": dict(state.ruleset.choices),
        "seating": asdict(state.seating), "stake": state.stake, "seed": state.seed,
        "wall": [wall_tile_name(tile) for tile in state.wall.original],
    }
    if session_hand is not None:
        header["session_hand"] = session_hand
    return {"hand": header}


def hand_end(state: TableState) -> dict[str, Any]:
    """The ``end`` line of a hand that is over."""
    assert state.outcome is not None
    return {"end": {
        "drawn": state.outcome.drawn,
        "wins": [{"seat": win.seat, "method": win.method, "tile": wall_tile_name(win.tile), "from": win.source,
                  "points": win.result.points, "fans": [line.id for line in win.result.fans]} for win in state.wins],
        "payments": [payment.to_json() for payment in state.payments],
        "net": state.net(),
        "next_seating": asdict(state.outcome.next_seating),
        **({"aborted": state.outcome.aborted} if state.outcome.aborted else {}),
    }}


def session_end(hands: int, ledger: Iterable[int]) -> dict[str, Any]:
    """The closing line of a session of ``hands`` hands."""
    return {"session": {"hands": hands, "ledger": list(ledger)}}


def write_lines(stream: IO[str], lines: Iterable[dict[str, Any]]) -> None:
    """Write ``lines`` to a log in one piece and flush it, or raise
    :class:`~mjr.errors.LogWriteError` (the ``OSError`` its cause) when it cannot be
    written: a full disk, a closed stream."""
    try:
        stream.write("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
        stream.flush()
    except (OSError, ValueError) as error:  # ValueError: a closed stream
        raise LogWriteError(f"the log could not be written ({os_reason(error)})") from error


def write_line(stream: IO[str], line: dict[str, Any]) -> None:
    write_lines(stream, [line])


__all__ = ["FORMAT", "VERSION", "hand_end", "hand_header", "session_end", "write_line", "write_lines"]
