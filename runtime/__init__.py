"""mjr: Chinese regional mahjong rules as small ``.mjr`` files, compiled to fast evaluators.

``mjr.load(id_or_path)`` gives a :class:`Ruleset`; ``evaluate``, ``waits``, ``settle``
and ``evaluate_counts`` answer with plain data.  ``mjr list`` names the bundled ids.

The names below are imported on first use (PEP 562), so ``import mjr`` costs
about as much as starting Python: a program that only reaches for part of mjr, or a
command line that prints its help, does not pay for the rest.
"""

from . import _moved
from ._version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from . import authoring as authoring
    from . import cli as cli
    from . import hand as hand
    from . import jobs as jobs
    from . import notation as notation
    from . import plugins as plugins
    from . import ruleset as ruleset
    from . import simulate as simulate
    from . import table as table
    from . import tiles as tiles
    from .errors import (
        BatchError,
        HandError,
        HandFieldError,
        MjrError,
        NotationError,
        OptionError,
        PurePythonWarning,
        SourceError,
    )
    from .hand.model import Context, Hand, Meld
    from .notation.format import format_hand
    from .notation.json import hand_from_json, hand_to_json
    from .notation.parse import parse_hand
    from .options import OptionInfo
    from .ruleset.loaded import Ruleset
    from .ruleset.loader import bundled_ids, load
    from .ruleset.result import FanLine, Group, PaymentLine, Result, Settlement, Stakes, Wait

#: the submodule each public name lives in
_HOMES = {
    "errors": ("BatchError", "HandError", "HandFieldError", "MjrError", "NotationError", "OptionError",
               "PurePythonWarning", "SourceError"),
    "hand.model": ("Context", "Hand", "Meld"),
    "notation.format": ("format_hand",),
    "notation.json": ("hand_from_json", "hand_to_json"),
    "notation.parse": ("parse_hand",),
    "options": ("OptionInfo",),
    "ruleset.loaded": ("Ruleset",),
    "ruleset.loader": ("bundled_ids", "load"),
    "ruleset.result": ("FanLine", "Group", "PaymentLine", "Result", "Settlement", "Stakes", "Wait"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "BatchError", "Context", "FanLine", "Group", "Hand", "HandError", "HandFieldError", "Meld", "MjrError",
    "NotationError", "OptionError", "OptionInfo", "PaymentLine", "PurePythonWarning", "Result", "Ruleset",
    "Settlement", "SourceError", "Stakes",
    "Wait", "__version__", "bundled_ids", "format_hand", "hand_from_json", "hand_to_json", "load", "parse_hand",
]


_moved.install()  # the module paths of mjr 0.1 that moved, for one more minor release


#: the rooms of the house (docs/development.rst), each a subpackage, imported on first
#: use too: ``mjr.table.Table`` after a plain ``import mjr``
ROOMS = ("tiles", "hand", "notation", "ruleset", "table", "jobs", "authoring", "simulate", "cli", "plugins")


def __getattr__(name: str) -> object:
    """Import the submodule that defines ``name`` (or the room it names) the first time
    it is asked for."""
    module = _HOME_OF.get(name)
    if module is None and name not in ROOMS:
        raise AttributeError(f"module 'mjr' has no attribute {name!r}")
    from importlib import import_module

    if module is None:
        value: object = import_module(f".{name}", __name__)
    else:
        value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME_OF, *ROOMS})
