"""The rules of a hand of play that a ruleset states beside its scoring.

A generated module lists them in ``PLAY``, a plain dict the compiler writes from the
file's play statements (``discard_win``, ``missed_win``, ``hand_ends``, ``dead_wall``,
``kong_pay``, ``next_dealer``); a statement the file leaves out takes the default
below.  :class:`mjr.Table` reads them through :attr:`mjr.Ruleset.play`.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

#: The kinds of kong a ``kong_pay`` clause is paid on.
KONG_KINDS = ("direct", "added", "concealed")
#: What may decide the next dealer (``next_dealer when ...``), and whom it may name.
DEALER_CONDITIONS = ("drawn", "dealer_won", "several_winners", "self_draw", "discard", "konged", "streak")
DEALER_TARGETS = ("dealer", "next", "previous", "winner", "discarder", "random")
#: How a table fills a fact of play: the tiles after the win (horses, birds), the
#: dealer's streak, the steps to the previous hand's winner, the winning tile's
#: other copies all in sight.
FACT_SOURCES = ("wall_after_win", "dealer_streak", "previous_winner", "last_copy")


@dataclass(frozen=True)
class KongPayment:
    """``kong_pay ID "name" on KIND : PAYER pays AMOUNT [refund_unless_ready]``.

    ``payer`` is ``discarder`` (the player whose discard was konged: a direct kong
    only) or ``each`` (every other player still in the hand).  A robbed kong is never
    paid; ``refund_unless_ready`` gives the payment back when the hand is drawn and
    the kong's maker is not ready."""

    id: str
    name: str
    kind: str
    payer: str
    amount: int
    refund_unless_ready: bool = False


@dataclass(frozen=True)
class DealerRule:
    """``next_dealer [when WORD or WORD ...] : TARGET``: the first rule whose words
    hold (a rule with none always holds) names the next hand's dealer.  ``konged``:
    someone made a kong this hand; ``streak N`` (N in ``streak``): the dealer has
    kept the deal N times in a row already."""

    conditions: tuple[str, ...]
    target: str
    streak: int = 0


@dataclass(frozen=True)
class PlayerTest:
    """One player's side of a draw check: all of ``ready`` / ``won`` / suits held."""

    ready: bool | None = None
    won: bool | None = None
    suits: tuple[str, int] | None = None  # (comparison, value), e.g. ("==", 3)


@dataclass(frozen=True)
class DrawCheck:
    """``at_draw ID "name" : each player where TEST pays each player where TEST AMOUNT``.

    Run in file order when a hand ends with the wall empty and no check of the
    ruleset's ``hand_ends`` says otherwise.  ``amount`` is a number, or ``-1`` for
    ``best``: the highest points the payee's waits would score on the payer's discard."""

    id: str
    name: str
    payer: PlayerTest
    payee: PlayerTest
    amount: int


@dataclass(frozen=True)
class PlayRules:
    """How a hand is played, beyond how a win scores.

    ``discard_win``: ``all`` lets every player who can win on a discard do so (一炮多响);
    ``nearest`` gives it to the first of them in turn after the discarder (截胡).
    ``missed_win``: ``none``; ``same_tile`` (a passed win may not be taken on the same
    tile kind until the player's next draw or claim); ``any_tile`` (no discard win at
    all until then).
    ``hand_ends``: ``first_win``; ``wins`` (each player wins at most once and the hand
    ends when ``ends_after`` have won, 血战); ``wall`` (wins repeat until the wall runs
    out, 血流).
    ``dead_wall``: the tiles at the end of the wall that are never drawn.
    """

    discard_win: str = "nearest"
    missed_win: str = "none"
    hand_ends: str = "first_win"
    ends_after: int = 1
    dead_wall: int = 0
    kong_payments: tuple[KongPayment, ...] = ()
    next_dealer: tuple[DealerRule, ...] = (DealerRule(("drawn", "dealer_won"), "dealer"), DealerRule((), "next"))
    draw_checks: tuple[DrawCheck, ...] = ()
    #: ``fact ... from SOURCE [N]``: the facts of play a table fills, as (fact id, source, count)
    fact_sources: tuple[tuple[str, str, int], ...] = ()

    @classmethod
    def from_module(cls, play: dict[str, Any]) -> PlayRules:
        """The rules a generated module's ``PLAY`` states, defaults for the rest."""
        fields: dict[str, Any] = {key: value for key, value in play.items()
                                  if key not in ("kong_payments", "next_dealer", "draw_checks")}
        if "kong_payments" in play:
            fields["kong_payments"] = tuple(KongPayment(*row) for row in play["kong_payments"])
        if play.get("next_dealer"):
            fields["next_dealer"] = tuple(DealerRule(tuple(words), target, streak)
                                          for words, target, streak in play["next_dealer"])
        fields["draw_checks"] = tuple(DrawCheck(ident, name, PlayerTest(*payer), PlayerTest(*payee), amount)
                                      for ident, name, payer, payee, amount in play.get("draw_checks", ()))
        fields["fact_sources"] = tuple(tuple(row) for row in play.get("fact_sources", ()))
        return cls(**fields)
