"""mjr: Chinese regional mahjong rules as small ``.mjr`` files, compiled to fast evaluators.

``mjr.load(id_or_path)`` gives a :class:`Ruleset`; ``evaluate``, ``waits``, ``settle``
and ``evaluate_counts`` answer with plain data.  ``mjr list`` names the bundled ids.
"""

from .batch import BatchError
from .errors import MjrError, PurePythonWarning, SourceError
from .hand import Context, Hand, HandFieldError, Meld
from .hand_json import hand_from_json, hand_to_json
from .loader import bundled_ids, load
from .notation import NotationError, format_hand, parse_hand
from .result import FanLine, Group, PaymentLine, Result, Settlement, Table, Wait
from .ruleset import HandError, Ruleset

__version__ = "0.1.0"

__all__ = [
    "BatchError", "Context", "FanLine", "Group", "Hand", "HandError", "HandFieldError", "Meld", "MjrError",
    "NotationError", "PaymentLine", "PurePythonWarning", "Result", "Ruleset", "Settlement", "SourceError", "Table",
    "Wait", "__version__", "bundled_ids", "format_hand", "hand_from_json", "hand_to_json", "load", "parse_hand",
]
