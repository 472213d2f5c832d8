"""What evaluation and settlement return: plain frozen data, JSON-serialisable.

"Not a win" is a :class:`Result` with ``is_win=False`` and a reason, never an
exception.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from ..abi import DEFAULT_SEATS, SEAT_NAMES
from ..hand.model import Hand
from ..notation.parse import format_hand

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any, Protocol

    class LazyFields(Protocol):
        """What makes the lazy fields of a result: the ruleset that scored it."""

        def lazy_field(self, name: str, details: Any, hand: Hand | None) -> Any: ...


@dataclass(frozen=True)
class FanLine:
    """One awarded fan: its id, display name, kind (fan/limit/bonus/multiplier), value."""

    id: str
    name: str
    kind: str
    value: int


@dataclass(frozen=True)
class Group:
    """One group of the chosen decomposition; ``winning`` marks the group the
    winning tile completed (none for thirteen orphans or a declared shape)."""

    kind: str  # pair | chow | pung | kong | knitted
    tiles: tuple[str, ...]
    concealed: bool
    declared: bool
    winning: bool = False


@dataclass(frozen=True)
class Result:
    is_win: bool
    reason: str = ""
    fans: tuple[FanLine, ...] = ()
    fan: int = 0
    points: int = 0
    multiplier: int = 1
    limit: bool = False
    floor: str | None = None
    shape: str = ""
    groups: tuple[Group, ...] = ()
    wildcards: tuple[tuple[str, int], ...] = ()
    substituted: int = 0
    payment: str | None = None
    liable: str | None = None
    #: what each other seat pays under ``payment``, in play order from the winner's
    #: right: ``(("S", 4), ("W", 8), ("N", 4))`` (settlement charges the payers among them)
    amounts: tuple[tuple[str, int], ...] = ()
    #: what the winner takes from the deposits on the table (a kitty, stakes put down
    #: in earlier turns), besides the payment, by ``table pays`` clause: ``(("kitty", 2000),)``
    from_table: tuple[tuple[str, int], ...] = ()
    #: the ruleset's named values (``value fu "符" : ...``) for this reading, in
    #: file order: ``(("fu", 40), ("basic", 2600))``
    values: tuple[tuple[str, int], ...] = ()
    hand: Hand | None = field(default=None, compare=False)

    @property
    def fan_ids(self) -> tuple[str, ...]:
        return tuple(line.id for line in self.fans)

    def __getattr__(self, name: str) -> Any:
        """A field a ruleset's result computes on first read (:data:`LAZY_FIELDS`),
        then keeps: most callers of evaluate read the points and never the groups."""
        lazy = self.__dict__.get("_lazy") if name in LAZY_FIELDS else None
        if lazy is None:
            raise AttributeError(f"'Result' object has no attribute {name!r}")
        value = lazy[0].lazy_field(name, lazy[1], self.hand)
        self.__dict__[name] = value
        return value

    def __getstate__(self) -> dict[str, Any]:
        """Every field, the lazy ones computed (what made them stays behind)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["hand"] = format_hand(self.hand) if self.hand is not None else None
        data["fans"] = [asdict(line) for line in self.fans]
        data["groups"] = [asdict(group) for group in self.groups]
        data["wildcards"] = [list(pair) for pair in self.wildcards]
        data["amounts"] = dict(self.amounts)
        data["from_table"] = dict(self.from_table)
        data["values"] = dict(self.values)
        return data

    def value(self, name: str) -> int:
        """The named value ``name`` (a KeyError naming the values there are)."""
        found = dict(self.values)
        if name not in found:
            raise KeyError(f"no value {name!r} in this result; its values: {', '.join(found) or 'none'}")
        return found[name]


#: The fields of a :class:`Result` that a ruleset computes on first read.
LAZY_FIELDS = frozenset({"fans", "groups", "wildcards", "amounts", "from_table"})
for _name in LAZY_FIELDS:  # no class default: a result without the value reaches __getattr__
    delattr(Result, _name)


def lazy_result(values: dict[str, Any], hand: Hand, maker: LazyFields, state: Any) -> Result:
    """A result of ``values`` (every field but ``hand`` and :data:`LAZY_FIELDS`)
    whose lazy fields ``maker`` computes from ``state`` when first read.  It
    equals, hashes, prints and pickles as the result built with every field."""
    result = object.__new__(Result)
    values["hand"] = hand
    values["_lazy"] = (maker, state)
    object.__setattr__(result, "__dict__", values)
    return result


@dataclass(frozen=True)
class Wait:
    """A tile that completes a waiting hand, with the best result on it."""

    tile: str
    result: Result

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "result": self.result.to_json()}


@dataclass(frozen=True)
class PaymentLine:
    payer: str  # a seat (E S W N 5 6 7 8: mjr.abi.SEAT_NAMES), or ``table``: its deposits (``table pays``)
    payee: str
    amount: int
    clause: str
    name: str


@dataclass(frozen=True)
class Settlement:
    """Payments for one win; every line names the clause behind it; zero-sum."""

    lines: tuple[PaymentLine, ...]
    #: the players at the table: the first seats of E S W N 5 6 7 8
    seats: int = DEFAULT_SEATS

    def totals(self) -> dict[str, int]:
        """Each seated player's net, and the table's (its deposits, ``table``) when a
        line takes from them: together they sum to zero."""
        net = {seat: 0 for seat in SEAT_NAMES[:self.seats]}
        for line in self.lines:
            net.setdefault(line.payer, 0)
            net[line.payer] -= line.amount
            net[line.payee] += line.amount
        return net

    def to_json(self) -> dict[str, Any]:
        return {"lines": [asdict(line) for line in self.lines], "totals": self.totals()}


@dataclass(frozen=True)
class Stakes:
    """What settlement needs beyond the hand: a stake multiplier, and seats that have
    already won and so pay nothing more (血战-style play)."""

    stake: int = 1
    won: frozenset[str] = frozenset()
