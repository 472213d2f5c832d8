"""Table options: what a ruleset lets whoever opens a table choose, and the checking
of a choice against them.

A ruleset declares its options in its ``.mjr`` file (``option ghost "鬼牌"
choice(none white flip)``); each chosen combination is its own build.  The table
travels in every built module (``OPTIONS``), so a choice is checked with the
runtime alone, before anything is compiled.  Values are Python values: a word is a
``str``, a number an ``int`` and a flag a ``bool``; text (a command line's
``-o tiles=108``) is read by the option's kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import OptionError, clip_repr, did_you_mean

#: An option's value: a word of a choice, a number (of a choice or a range), or a flag.
Value = str | int | bool
#: A whole number as text: an optional sign and at most 18 digits (any option's
#: number fits; a longer one is a mistake, and Python's int() refuses past 4,300).
_NUMBER_TEXT = re.compile(r"[+-]?[0-9]{1,18}")
#: How a flag may be written, as text.
_FLAG_WORDS = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False,
               "1": True, "0": False}




@dataclass(frozen=True)
class OptionInfo:
    """One option of a ruleset's table.

    ``values``: a choice's words or numbers; ``(False, True)`` for a flag; the low
    and high end for a number."""

    name: str
    display: str
    kind: str  # choice | flag | number
    values: tuple[Value, ...]
    default: Value
    section: str = ""

    def allowed(self) -> str:
        """The values this option allows, as a message says them."""
        if self.kind == "flag":
            return "on or off"
        if self.kind == "number":
            return f"a whole number from {self.values[0]} to {self.values[1]}"
        words = [str(value) for value in self.values]
        return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]

    def read(self, raw: object) -> Value:
        """``raw`` (a Python value or its text) as a value of this option; an
        OptionError naming the option and the values it allows if it is none."""
        value = self._read(raw)
        if value is None:
            shown = clip_repr(raw)
            hint = did_you_mean(shown, [str(v) for v in self.values]) if self.kind == "choice" else ""
            raise OptionError(f"option {self.name!r} cannot be {shown}: it takes {self.allowed()}{hint}")
        return value

    def _read(self, raw: object) -> Value | None:
        if self.kind == "flag":
            if isinstance(raw, bool):
                return raw
            return _FLAG_WORDS.get(raw.strip().lower()) if isinstance(raw, str) else None
        number = _number(raw)
        if self.kind == "number":
            low, high = self.values
            return number if number is not None and low <= number <= high else None  # type: ignore[operator]
        for value in self.values:
            if (number is not None and value == number and not isinstance(value, str)) or value == raw:
                return value
        return None

    def as_json(self) -> dict[str, object]:
        """What a game server needs to offer this option on a table-creation screen."""
        values: object = list(self.values)
        if self.kind == "number":
            values = {"low": self.values[0], "high": self.values[1]}
        return {"name": self.name, "display": self.display, "kind": self.kind, "values": values,
                "default": self.default, "section": self.section}


def _number(raw: object) -> int | None:
    """``raw`` as a whole number: an int (not a bool), or text of an optional sign
    and at most 18 ASCII digits; None for anything else (``+-1``, ``--2``, ``1e3``,
    5,000 digits), for :meth:`OptionInfo.read` to refuse by name."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and _NUMBER_TEXT.fullmatch(raw.strip()):
        return int(raw.strip())
    return None


def show(value: object) -> str:
    """A value as the ``.mjr`` file and the command line write it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def describe(chosen: Iterable[tuple[str, object]]) -> str:
    """``ghost=flip tiles=108``: a combination as the command line writes it."""
    return " ".join(f"{name}={show(value)}" for name, value in chosen)


def choose(ruleset: str, table: tuple[OptionInfo, ...], fixed: Mapping[str, Value],
           given: Mapping[str, object]) -> dict[str, Value]:
    """Every option of ``table`` with its value: ``given`` over the defaults, each
    checked; then the ``fixed`` ones.  An OptionError names what is wrong."""
    by_name = {option.name: option for option in table}
    chosen: dict[str, Value] = {option.name: option.default for option in table}
    for name, raw in given.items():
        if name in fixed:
            raise OptionError(f"{ruleset} fixes option {name!r} to {show(fixed[name])}: it cannot be chosen")
        option = by_name.get(name)
        if option is None:
            names = ", ".join(by_name) if by_name else "none"
            raise OptionError(f"{ruleset} has no option {name!r}{did_you_mean(name, list(by_name))} "
                              f"(its options: {names})")
        chosen[name] = option.read(raw)
    return {**chosen, **fixed}


def parse_settings(settings: Iterable[str]) -> dict[str, str]:
    """``NAME=VALUE`` texts (the command line's ``-o``) as a mapping; an OptionError
    for one without ``=`` or given twice."""
    parsed: dict[str, str] = {}
    for setting in settings:
        name, equals, value = setting.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name or not value:
            raise OptionError(f"option {setting!r} is not NAME=VALUE (e.g. -o ghost=white)")
        if name in parsed:
            raise OptionError(f"option {name!r} is given twice ({parsed[name]} and {value})")
        parsed[name] = value
    return parsed
