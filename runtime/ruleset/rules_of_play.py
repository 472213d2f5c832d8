"""The rules of a hand of play that a ruleset states beside its scoring.

A generated module lists them in ``PLAY``, a plain dict the compiler writes from the
file's play statements (``discard_win``, ``missed_win``, ``hand_ends``, ``dead_wall``,
``last_draw``, ``void_suit``, ``indicator_flip``, ``open_kong``, ``false_win``, ``reveal``,
``declare``, ``abort``, ``kong_pay``, ``next_dealer``, ``at_draw``); a statement the file leaves out takes
the default below.  :class:`mjr.table.Table` reads them through
:attr:`mjr.Ruleset.play`.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any



@dataclass(frozen=True)
class KongPayment:
    """``kong_pay ID "name" on KIND : PAYER pays AMOUNT [WORD ...]``.

    ``payer`` is ``discarder`` (the player whose discard was konged: a direct kong
    only) or ``each`` (every other player still in the hand).  A robbed kong is never
    paid.  The words give the payment back at the close of the hand (each payment
    at most once): ``refund_unless_ready`` when the wall runs out and the kong's
    maker has not won and is not ready; ``refund_unless_ready_at_end`` the same
    however the hand ends (a win too); ``refund_at_draw`` when the hand ends with
    nobody having won."""

    id: str
    name: str
    kind: str
    payer: str
    amount: int
    refund_unless_ready: bool = False
    refund_at_draw: bool = False
    refund_unless_ready_at_end: bool = False

    @property
    def words(self) -> tuple[str, ...]:
        """The words after the amount, as the statement writes them."""
        return tuple(word for word, on in (("refund_unless_ready", self.refund_unless_ready),
                                           ("refund_unless_ready_at_end", self.refund_unless_ready_at_end),
                                           ("refund_at_draw", self.refund_at_draw)) if on)


@dataclass(frozen=True)
class OpenKong:
    """``open_kong FACT [when_ready] [locks]``: after a kong its maker chooses how the
    replacement comes, by a plain draw or by opening the kong (开杠 against 补张).

    An opened kong sets the flag fact ``fact`` for a win on its replacement and for a
    win on the discard that follows it.  ``when_ready`` allows it only to a hand that
    is ready; ``locks`` binds the player for the rest of the hand to discard every
    tile drawn unless winning with it, and to claim nothing but a win."""

    fact: str
    when_ready: bool = False
    locks: bool = False


@dataclass(frozen=True)
class FalseWin:
    """``false_win ID "name" : pays each opponent N [dead_hand]``: a win declared that
    the rules refuse (诈胡) is not refused as an illegal action but costs its declarer
    N to each opponent still in the hand; play goes on, and with ``dead_hand`` the
    declarer may not win again this hand."""

    id: str
    name: str
    amount: int
    dead_hand: bool = False


@dataclass(frozen=True)
class Declaration:
    """``declare ID "name" : stake N [closed] [wall N] [locks] [first_turn(FACT)]
    [next_turn(FACT)] [missed_win_bars]``: a declaration a player makes with a
    discard that leaves the hand ready, once a hand.

    ``closed``: only with no claimed meld (a concealed kong is no claim); ``wall``:
    only while at least that many tiles are left to draw.  The discard that declares
    may be won on; once it passes, the declaration stands: its ``stake`` goes onto
    the table as a deposit, and the flag fact ``id`` holds for the declarer's wins
    (the fact ``first_turn`` instead, where it is declared on the player's first
    turn before any claim or kong).  ``next_turn``: a flag fact for a win by the
    declarer before its next discard with no claim or kong in between (一发).
    ``locks``: the declarer discards each tile drawn unless winning with it, and
    claims nothing but a win.  ``missed_win_bars``: a win the declarer passes up
    bars every discard win for the rest of the hand."""

    id: str
    name: str
    stake: int = 0
    closed: bool = False
    wall: int = 0
    locks: bool = False
    first_turn: str = ""
    next_turn: str = ""
    missed_win_bars: bool = False


@dataclass(frozen=True)
class Abort:
    """``abort ID "name" : WORD [N]`` (途中流局): what ends a hand drawn before the wall
    runs out, with no payments and no checks of a drawn hand (``next_dealer`` tells
    it by ``aborted``).  ``nine_kinds N``: a player may call it (the action ``abort``)
    on the first turn, before any claim or kong, holding N or more different
    terminal and honour kinds (九種九牌); ``same_first_discards``: every player's
    first discard is the same wind, before any claim (四風連打); ``all_declared``:
    every player's declaration stands (四家立直); ``kongs N``: N kongs made by more
    than one player, once the discard after the last passes (四槓散了)."""

    id: str
    name: str
    word: str
    number: int = 0


@dataclass(frozen=True)
class Reveal:
    """``reveal N [per_kong] [after M]`` (ドラ表示牌): at the deal, N tiles are turned up
    at the back of the wall past the M kept for kong replacements, each lying on
    another; ``per_kong``, one more after each kong (up to M).  They are never drawn:
    the tiles revealed so far (fact source ``revealed``) and the ones under them
    (``under_revealed``, to a winner who has declared)."""

    count: int
    per_kong: bool = False
    after: int = 0

    @property
    def slots(self) -> int:
        """How many tiles may be revealed in a hand, each on one of its own."""
        return self.count + (self.after if self.per_kong else 0)


@dataclass(frozen=True)
class DealerRule:
    """``next_dealer [when WORD or WORD ...] : TARGET``: the first rule whose words
    hold (a rule with none always holds) names the next hand's dealer.
    ``dealer_ready``: the hand was drawn with the dealer's hand ready; ``aborted``:
    an ``abort`` ended it.  ``konged``:
    someone made a kong this hand; ``streak N`` (N in ``streak``): the dealer has
    kept the deal N times in a row already.  The target ``last_drawer`` is the player
    who drew the wall's last tile (by a draw or as a kong's replacement), or, when
    every player declined a roaming last tile, the first who was offered it."""

    conditions: tuple[str, ...]
    target: str
    streak: int = 0


@dataclass(frozen=True)
class PlayerTest:
    """One player's side of a draw check: all of ``ready`` / ``won`` / suits held /
    ``discards_terminal`` (every tile the player discarded this hand a terminal or an
    honour, and none of them claimed: 流し満貫), and the tests of the hand's history,
    each ``(word, kind, wanted)``: ``first_discard`` (the player discarded the hand's
    first tile of the kind), ``claimed_first`` (claimed it), ``fed_first`` (discarded
    it, and another player claimed it)."""

    ready: bool | None = None
    won: bool | None = None
    suits: tuple[str, int] | None = None  # (comparison, value), e.g. ("==", 3)
    discards_terminal: bool | None = None
    history: tuple[tuple[str, int, bool], ...] = ()


@dataclass(frozen=True)
class DrawCheck:
    """``at_draw ID "name" : each player where TEST pays each player where TEST AMOUNT``,
    or ``at_end ...`` or ``at_win ...``.

    An ``at_draw`` runs when a hand ends with the wall empty and no check of the
    ruleset's ``hand_ends`` says otherwise; an ``at_end`` when any hand ends but an
    aborted one, won or drawn; an ``at_win`` when a hand ends that someone won; each
    in file order (``keyword`` says which).  ``amount`` is a
    number, or ``-1`` for ``best`` (the highest points the payee's waits would score
    on the payer's discard) or for a held amount: ``holding``, the index of the
    ruleset's held amount (:meth:`mjr.Ruleset.held_amounts`) worked out on the tiles
    of ``holder`` (``payer`` or ``payee``).  ``shared`` (``N shared``, 不聴罰符): N
    goes from the payers together to the payees together, each payer paying each
    payee N / (payers x payees).  ``dealer_double`` (``N dealer_double``): twice the
    amount where the payer or the payee is the dealer."""

    id: str
    name: str
    payer: PlayerTest
    payee: PlayerTest
    amount: int
    shared: bool = False
    dealer_double: bool = False
    keyword: str = "at_draw"  # at_draw | at_end | at_win
    holder: str = ""
    holding: int = -1
    held_text: str = ""  # the held amount's expression as written


@dataclass(frozen=True)
class PlayRules:
    """How a hand is played, beyond how a win scores.

    ``discard_win``: ``all`` lets every player who can win on a discard do so (一炮多响);
    ``nearest`` gives it to the first of them in turn after the discarder (截胡).
    ``missed_win``: ``none``; ``same_tile`` (a passed win may not be taken on the same
    tile kind until the player's next draw or claim); ``any_tile`` (no discard win at
    all until then).  ``own_discards`` (振聴): no discard win while the hand waits on
    a kind its player has discarded.
    ``rob_concealed``: the shapes of a win that may rob a concealed kong (none: no
    concealed kong is robbed).
    ``hand_ends``: ``first_win``; ``wins`` (each player wins at most once and the hand
    ends when ``ends_after`` have won, 血战); ``wall`` (wins repeat until the wall runs
    out, 血流).
    ``dead_wall``: the tiles at the end of the wall that are never drawn, and
    ``dead_per_kong`` more for each kong made.
    ``last_draw``: ``ordinary``, or ``roams`` (海底漫游): each player in turn may take
    the wall's last tile or pass it on; its taker wins with it or shows it, a discard
    the others may win on.  When all pass, the hand is drawn.
    ``void_suit``: ``none``, or ``declared`` (定缺): after the deal each player
    declares a suit, which the hands it wins with carry as their ``void``.
    ``indicator_flip`` (where the ruleset's wildcard derives from a flipped tile):
    ``back``, the wall's last tile after the deal; ``before_deal``, its first tile
    before the deal; ``after_deal``, the tile after the dealer's fourteenth.
    """

    discard_win: str = "nearest"
    missed_win: str = "none"
    own_discards: bool = False
    hand_ends: str = "first_win"
    ends_after: int = 1
    dead_wall: int = 0
    dead_per_kong: int = 0
    last_draw: str = "ordinary"
    void_suit: str = "none"
    indicator_flip: str = "back"
    open_kong: OpenKong | None = None
    false_win: FalseWin | None = None
    reveal: Reveal | None = None
    rob_concealed: tuple[str, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    aborts: tuple[Abort, ...] = ()
    kong_payments: tuple[KongPayment, ...] = ()
    next_dealer: tuple[DealerRule, ...] = (DealerRule(("drawn", "dealer_won"), "dealer"), DealerRule((), "next"))
    draw_checks: tuple[DrawCheck, ...] = ()
    #: ``fact ... from SOURCE [N]``: the facts of play a table fills, as (fact id, source, count)
    fact_sources: tuple[tuple[str, str, int], ...] = ()

    @classmethod
    def from_module(cls, play: dict[str, Any]) -> PlayRules:
        """The rules a generated module's ``PLAY`` states, defaults for the rest."""
        fields: dict[str, Any] = {key: value for key, value in play.items()
                                  if key not in ("kong_payments", "next_dealer", "draw_checks", "open_kong",
                                                 "false_win", "reveal", "declarations", "aborts")}
        if play.get("open_kong"):
            fields["open_kong"] = OpenKong(*play["open_kong"])
        if play.get("false_win"):
            fields["false_win"] = FalseWin(*play["false_win"])
        if play.get("reveal"):
            fields["reveal"] = Reveal(*play["reveal"])
        fields["declarations"] = tuple(Declaration(*row) for row in play.get("declarations", ()))
        fields["aborts"] = tuple(Abort(*row) for row in play.get("aborts", ()))
        if "kong_payments" in play:
            fields["kong_payments"] = tuple(KongPayment(*row) for row in play["kong_payments"])
        if play.get("next_dealer"):
            fields["next_dealer"] = tuple(DealerRule(tuple(words), target, streak)
                                          for words, target, streak in play["next_dealer"])
        fields["draw_checks"] = tuple(DrawCheck(ident, name, PlayerTest(*payer), PlayerTest(*payee), *amounts)
                                      for ident, name, payer, payee, *amounts in play.get("draw_checks", ()))
        fields["fact_sources"] = tuple(tuple(row) for row in play.get("fact_sources", ()))
        return cls(**fields)
