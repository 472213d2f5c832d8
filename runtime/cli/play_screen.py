"""What ``mjr play`` shows: every line of the game's text, built from the table's
state and its events, in one place.

Tiles are written as a person reads them and types them back: ``5m``, the honours
by their letters (``E S W N``, ``P`` white, ``F`` green, ``C`` red), flowers
``5f``, a joker ``J``; hands and melds in the notation's words with those letters
(``6679m 155p EE [PPP<L]``).  The log keeps its own names (``1z``): only the
screen is written here.  A seat's concealed tiles, and what it draws, are shown
only for the seats a person plays (every seat, when bots play them all).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import groupby

from ..abi import JOKER, SEAT_NAMES
from ..errors import clip_repr, did_you_mean
from ..hand.model import Hand, Meld
from ..notation.format import format_meld
from ..ruleset.result import Result
from ..table.actions import KINDS, Action
from ..table.referee import Table
from ..table.seats import Player
from ..table.state import WinRecord
from ..table.wall import FLOWER_BASE, WALL_JOKER, parse_wall_tile, wall_tile_name
from ..tiles.flowers import flower_name
from ..tiles.jokers import JOKER_LETTER
from ..tiles.kinds import FIRST_HONOR, N_KINDS, SUIT_LETTERS, suit_of, tile_text
from .output import counted
from .output import table as aligned

#: What the prompt takes besides the actions of play.
HELP, QUIT = "help", "quit"
#: Every command the prompt takes, with an example and what it does, as ``help`` lists them.
COMMANDS = (
    ("5m", "a tile alone discards it: 5m, E, P, J"),
    ("discard 5m", "discard a tile (honours by letter: E S W N, P white, F green, C red)"),
    ("draw", "draw a tile from the wall"),
    ("chow 345m", "claim the discard for a chow, written as its three tiles (chow alone: the one open)"),
    ("pung", "claim the discard for a pung"),
    ("kong", "claim the discard for a kong"),
    ("kong 5m", "on your turn: kong four 5m you hold, or add the 5m drawn to your pung (kong alone: the one open)"),
    ("win", "win on the tile you drew or on the discard"),
    ("pass", "let the discard go (or pass a last tile that roams on)"),
    ("open", "draw a kong's replacement by opening the kong (where the rules have it)"),
    ("void m", "declare a suit void after the deal: m, p or s (where the rules have it)"),
    ("declare 5m", "discard 5m making the rules' declaration (offered where the discard leaves you ready)"),
    ("abort", "call an abortive draw on your first turn, with enough terminal and honour kinds (where the rules "
              "have it)"),
    (HELP, "this list"),
    (QUIT, "end the game here (end of input, Ctrl-D, does too)"),
)
#: What a seat that does nothing of a kind shows in its place.
NONE = "-"


# -- tiles, hands and actions ------------------------------------------------------------


def tile(number: int) -> str:
    """A tile of the wall: a kind (honours by letter), a flower ``5f``, a joker ``J``."""
    return tile_text(number) if 0 <= number < N_KINDS else wall_tile_name(number)


def named(name: str) -> str:
    """A tile as the table's events name it (``1z``, ``8f``), as the screen writes it (``E``)."""
    return tile(parse_wall_tile(name))


def tiles(kinds: Iterable[int], jokers: int = 0) -> str:
    """Concealed tiles: each suit one word in rank order (``6679m``), each honour kind
    one word of letters (``EE``), then the jokers (``JJ``); ``-`` for none."""
    kinds = sorted(kinds)
    words = []
    for suit, letter in enumerate(SUIT_LETTERS):
        ranks = "".join(str(kind % 9 + 1) for kind in kinds if suit_of(kind) == suit)
        if ranks:
            words.append(ranks + letter)
    honours = (kind for kind in kinds if kind >= FIRST_HONOR)
    words += [tile_text(kind) * len(list(copies)) for kind, copies in groupby(honours)]
    if jokers:
        words.append(JOKER_LETTER * jokers)
    return " ".join(words) or NONE


def meld(meld: Meld) -> str:
    """A meld in the notation's brackets, an honour meld by letter: ``[555p<O]``, ``[PPJ<L]``, ``(CCCC)``."""
    if meld.tile < FIRST_HONOR:
        return format_meld(meld)
    opener, closer = ("(", ")") if meld.concealed else ("[", "]")
    letters = tile_text(meld.tile) * (len(meld.tiles) - len(meld.jokers)) + JOKER_LETTER * len(meld.jokers)
    source = f"<{meld.source}" if meld.source else ""
    return f"{opener}{letters}{source}{'+' * meld.added}{closer}"


def hand(hand: Hand) -> str:
    """A winning hand as the notation reads it: its concealed tiles, flowers, melds,
    and ``win T``."""
    words = [tiles(hand.tiles, hand.jokers)]
    words += [" ".join(map(flower_name, hand.flowers))] if hand.flowers else []
    words += [meld(m) for m in hand.melds]
    if hand.win_tile is not None:
        words += ["win", JOKER_LETTER if hand.win_tile == JOKER else tile_text(hand.win_tile)]
    return " ".join(words)


def action(act: Action) -> str:
    """An action as the prompt takes it: ``discard E``, ``kong 5m``, ``chow 345m``, ``pung``."""
    if act.kind in ("discard", "kong", "declare") and act.tile is not None:
        return f"{act.kind} {tile(act.tile)}"
    return str(act)


def choices(actions: Iterable[Action]) -> str:
    """What a seat may do, the discards as one list: ``discard 6m 9m E, kong 5m, win``."""
    discards = [tile(a.tile) for a in actions if a.kind == "discard" and a.tile is not None]
    rest = [action(a) for a in actions if a.kind != "discard"]
    return ", ".join(([f"discard {' '.join(discards)}"] if discards else []) + rest)


# -- who sits where ----------------------------------------------------------------------


def wind(table: Table, seat: int) -> str:
    """The name of ``seat`` this hand: its seat wind (the dealer's is East), or its
    number past the fourth seat (mjr.abi.SEAT_NAMES)."""
    return SEAT_NAMES[(seat - table.seating.dealer) % table.seats]


def seat_label(table: Table, seat: int, people: Collection[int] = ()) -> str:
    """``seat 2 (W)``, ``seat 0 (E, you)`` for a seat a person plays."""
    you = ", you" if seat in people else ""
    return f"seat {seat} ({wind(table, seat)}{you})"


# -- the game as it goes -------------------------------------------------------------------


def hand_header(number: int, hands: int, ruleset_id: str, table: Table, people: Collection[int]) -> str:
    you = ""
    if len(people) == 1:
        you = f"; you play {seat_label(table, next(iter(people)))}"
    elif people:
        you = f"; people play seats {', '.join(map(str, sorted(people)))}"
    return f"== hand {number} of {hands}: {ruleset_id}, dealer seat {table.seating.dealer}{you}"


class Narrator:
    """The line each event of a hand makes, as it happens.  A seat's draws are named
    only for the ``visible`` seats (the others' stay hidden); a claim names the tile
    on offer, remembered from the discard before it."""

    def __init__(self, visible: Collection[int]):
        self.visible = visible
        self.offered: str | None = None  # the tile of the last discard or added kong, as written

    def line(self, event: dict[str, object]) -> str:
        seat = event["seat"]
        assert isinstance(seat, int)
        who = f"  seat {seat}"
        if "replacement" in event:
            drawn = f": {named(str(event['replacement']))}" if seat in self.visible else ""
            return f"{who} draws a replacement from the back of the wall{drawn}{_set_aside(event)}"
        act = Action.parse(seat, str(event["action"]))
        if act.kind == "draw":
            drawn = f" {named(str(event['tile']))}" if "tile" in event and seat in self.visible else ""
            return f"{who} draws{drawn}{_set_aside(event)}"
        if act.kind in ("discard", "declare"):
            self.offered = tile(act.tile) if act.tile is not None else None
            declares = "declares, and " if act.kind == "declare" else ""
            return f"{who} {declares}discards {self.offered}"
        if act.kind == "kong" and act.tile is not None:
            self.offered = tile(act.tile)
            return f"{who} makes a kong of {self.offered}"
        on = f" on {self.offered}" if self.offered else ""
        if act.kind in ("pung", "kong", "chow"):
            shape = f" {str(act).split()[1]}" if act.kind == "chow" else ""
            return f"{who} calls {act.kind}{shape}{on}"
        if act.kind == "win":
            if event.get("false"):
                return f"{who} declares a win the rules refuse: a false win, paid for"
            return f"{who} declares a win"
        if act.kind == "pass":
            return f"{who} passes"
        if act.kind == "abort":
            return f"{who} calls an abortive draw"
        if act.kind == "void" and act.tile is not None:
            return f"{who} declares {SUIT_LETTERS[act.tile // 9]} void"
        return f"{who} opens the kong"  # open


def _set_aside(event: dict[str, object]) -> str:
    """`` and sets aside flowers 5f 8f`` where a draw set tiles aside."""
    parts = []
    for key, what in (("flowers", "flowers"), ("aside", "tiles")):
        names = event.get(key)
        if isinstance(names, list) and names:
            parts.append(f"{what} {' '.join(named(str(name)) for name in names)}")
    return f", and sets aside {' and '.join(parts)}" if parts else ""


def table_view(table: Table, people: Collection[int]) -> list[str]:
    """The tiles left in the wall, and each seat's discards, melds and what it set aside."""
    players: list[Player] = table.players
    flowers = any(p.flowers for p in players) or table.ruleset.has_flowers
    aside = any(p.aside for p in players)
    header = ["", "discards", "melds"] + ["flowers"] * flowers + ["set aside"] * aside
    rows = [header]
    for seat, player in enumerate(players):
        declared = f" {player.declared.id}" if player.declared is not None else ""
        row = [seat_label(table, seat, people) + " won" * player.out + declared,
               " ".join(map(tile, player.discards)) or NONE,
               " ".join(map(meld, player.melds)) or NONE]
        row += [" ".join(map(flower_name, player.flowers)) or NONE] * flowers
        row += [" ".join(map(tile, player.aside)) or NONE] * aside
        rows.append(row)
    wild = ""
    if table.indicator is not None:
        wild = f"; indicator {tile(table.indicator)}"
    if table.wild:
        wild += f"; wild this hand: {' '.join(tile(kind) for kind in sorted(table.wild))}"
    if table.revealed:
        wild += f"; revealed {' '.join(map(tile, table.revealed))}"
    if table.deposits:
        wild += f"; {table.deposits} on the table"
    return [f"  {counted(table.wall.live, 'tile')} left in the wall{wild}", *aligned(rows, indent="  ")]


def turn_lines(table: Table, seat: int, actions: list[Action], people: Collection[int]) -> list[str]:
    """What a person is shown before being asked: the table, their tiles, the tile
    drawn or on offer, and what they may do."""
    player = table.players[seat]
    mine = f"{seat_label(table, seat, people)}: {tiles(player.tiles(), player.jokers)}"
    if player.melds:
        mine += "  melds " + " ".join(map(meld, player.melds))
    if player.red or player.melded_red:
        mine += "  red fives " + " ".join(map(tile, player.all_red()))
    if table.drawn is not None:
        mine += f"  drew {tile(table.drawn)}"
    offer = table.offer
    if offer is not None and table.phase == "rob":
        concealed = table.state.offer is not None and table.state.offer.concealed
        made = "makes a concealed kong of" if concealed else "adds"
        mine += f"  seat {offer[0]} {made} {tile(offer[1])}{'' if concealed else ' to its pung'}"
    elif offer is not None and table.phase == "claim":
        mine += f"  seat {offer[0]} discarded {tile(offer[1])}"
    return [*table_view(table, people), mine, f"  you may: {choices(actions)}"]


def first_hint(actions: list[Action]) -> str:
    """Said once, at the first prompt of the game."""
    tile_alone = "a tile alone discards it; " if any(a.kind == "discard" for a in actions) else ""
    return f"  ({tile_alone}help lists the commands)"


def prompt() -> str:
    return "> "


def help_lines() -> list[str]:
    return ["  commands (one a line; what you may do now is listed after 'you may:'):",
            *aligned(COMMANDS, indent="    ")]


# -- what the prompt refuses -----------------------------------------------------------------


def refused(message: str) -> str:
    """The one line that says what was wrong with a line typed at the prompt."""
    return f"  {message}"


def empty_line() -> str:
    return "type what to do (help lists the commands)"


def unknown_command(word: str) -> str:
    """A line whose first word is no command and no tile."""
    hint = did_you_mean(word.lower(), (*KINDS, HELP, QUIT))
    return f"unknown command {clip_repr(word)}{hint}: help lists the commands"


def one_tile(text: str) -> str:
    """Tiles typed alone, more than one."""
    return f"{clip_repr(text)}: a tile alone discards it, one tile at a time (e.g. '5m')"


def cannot(kind: str, actions: list[Action]) -> str:
    """A kind of action none of ``actions`` is."""
    return f"you cannot {kind} now: you may {choices(actions)}"


def say_which(actions: list[Action]) -> str:
    """A kind typed alone where several of it are open."""
    return f"which {actions[0].kind}? type one of: {choices(actions)}"


def not_now(table: Table, seat: int, act: Action, actions: list[Action]) -> str:
    """Why ``act``, read well, is not one of ``actions``; and what is."""
    player = table.players[seat]
    same = [a for a in actions if a.kind == act.kind]
    if not same:
        return cannot(act.kind, actions)
    if act.kind == "discard" and act.tile is not None:
        held = player.jokers if act.tile == WALL_JOKER else player.counts[act.tile] if act.tile < FLOWER_BASE else 0
        why = f"you hold no {tile(act.tile)}" if not held else f"{tile(act.tile)} may not be discarded now"
        return f"{why}: you may {choices(same)}"
    return f"you cannot {action(act)} now: you may {choices(same)}"


# -- the end -----------------------------------------------------------------------------------


def end_lines(table: Table, people: Collection[int]) -> list[str]:
    """A hand over: the table as it ended, each win with its hand, fans and points (or
    the draw), every payment, and the net."""
    assert table.outcome is not None
    lines = ["-- the hand is over", *table_view(table, people)]
    for win in table.wins:
        lines += win_lines(table, win)
    if table.outcome.drawn:
        lines.append("the hand is a draw: the wall ran out and nobody won" if not table.wins else
                     "the wall ran out: the hand ends")
    lines += [f"  seat {p.payer} pays seat {p.payee} {counted(p.amount, 'point')}  ({p.clause} {p.name})"
              for p in table.payments] or ["  no payments"]
    lines.append("net: " + seats_amounts(table.net()))
    return lines


def win_lines(table: Table, win: WinRecord) -> list[str]:
    result = win.result
    source = "" if win.source is None else f" from seat {win.source}"
    lines = [f"{seat_label(table, win.seat)} wins by {win.method.replace('_', ' ')} on {tile(win.tile)}{source}: "
             f"{counted(result.points, 'point')}"]
    if result.hand is not None:
        lines.append(f"  hand  {hand(result.hand)}")
    lines += fan_lines(table, result)
    return lines


def fan_lines(table: Table, result: Result) -> list[str]:
    """The fans of a win, each with its value (a kind other than a plain fan named),
    and the ruleset's named values where it counts any."""
    if not result.fans:
        lines = ["  fans  none"]
    else:
        rows = [[line.value, line.name, line.id + ("" if line.kind == "fan" else f" ({line.kind})")]
                for line in result.fans]
        lines = [("  fans  " if i == 0 else "        ") + row
                 for i, row in enumerate(aligned(rows, right=[0]))]
    if result.values:
        displays = dict(table.ruleset.generated.values)
        lines.append("  values  " + ", ".join(f"{displays.get(name, name)} {value}" for name, value in result.values))
    return lines


def seats_amounts(amounts: Iterable[int]) -> str:
    """``seat 0 +4  seat 1 -4 ...``: a net or a ledger."""
    return "  ".join(f"seat {seat} {amount:+d}" for seat, amount in enumerate(amounts))


def ledger_line(ledger: Iterable[int]) -> str:
    return "ledger: " + seats_amounts(ledger)


def stopped_lines(why: str, number: int, hands: int, finished: int, ledger: Iterable[int],
                  log: str | None) -> list[str]:
    """The game ended at the prompt (``why``: end of input, quit, an interrupt) in
    hand ``number``: what stands of it."""
    lines = [f"{why}: the game ends in hand {number} of {hands}, left unfinished"]
    if finished:
        lines.append(f"{ledger_line(ledger)}  (after {counted(finished, 'hand')})")
    if log is not None:
        lines.append(f"the log {log} stops there: unfinished, 'mjr replay' refuses it")
    return lines


__all__ = [
    "action", "cannot", "choices", "COMMANDS", "empty_line", "end_lines", "fan_lines", "first_hint", "hand",
    "hand_header", "HELP", "help_lines", "ledger_line", "meld", "named", "Narrator", "NONE", "not_now",
    "one_tile", "prompt", "QUIT", "refused", "say_which", "seat_label", "seats_amounts", "stopped_lines",
    "table_view", "tile", "tiles", "turn_lines", "unknown_command", "win_lines", "wind"
]
