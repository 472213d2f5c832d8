"""mjr: Chinese regional mahjong rules as small ``.mjr`` files, compiled to fast evaluators.

``mjr.load(id_or_path)`` gives a :class:`Ruleset`; ``evaluate``, ``waits``, ``settle``
and ``evaluate_counts`` answer with plain data.  ``mjr list`` names the bundled ids.

The names below are imported on first use (PEP 562), so ``import mjr`` costs
about as much as starting Python: a program that only reaches for part of mjr, or a
command line that prints its help, does not pay for the rest.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from .batch import BatchError
    from .errors import MjrError, PurePythonWarning, SourceError
    from .hand import Context, Hand, HandFieldError, Meld
    from .hand_json import hand_from_json, hand_to_json
    from .loader import bundled_ids, load
    from .notation import NotationError, format_hand, parse_hand
    from .options import OptionError, OptionInfo
    from .result import FanLine, Group, PaymentLine, Result, Settlement, Stakes, Wait
    from .ruleset import HandError, Ruleset

__version__ = "0.1.0"

#: the submodule each public name lives in
_HOMES = {
    "batch": ("BatchError",),
    "errors": ("MjrError", "PurePythonWarning", "SourceError"),
    "hand": ("Context", "Hand", "HandFieldError", "Meld"),
    "hand_json": ("hand_from_json", "hand_to_json"),
    "loader": ("bundled_ids", "load"),
    "notation": ("NotationError", "format_hand", "parse_hand"),
    "options": ("OptionError", "OptionInfo"),
    "result": ("FanLine", "Group", "PaymentLine", "Result", "Settlement", "Stakes", "Wait"),
    "ruleset": ("HandError", "Ruleset"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "BatchError", "Context", "FanLine", "Group", "Hand", "HandError", "HandFieldError", "Meld", "MjrError",
    "NotationError", "OptionError", "OptionInfo", "PaymentLine", "PurePythonWarning", "Result", "Ruleset",
    "Settlement", "SourceError", "Stakes",
    "Wait", "__version__", "bundled_ids", "format_hand", "hand_from_json", "hand_to_json", "load", "parse_hand",
]


def __getattr__(name: str) -> object:
    """Import the submodule that defines ``name`` the first time it is asked for."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'mjr' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME_OF})
