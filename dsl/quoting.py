"""Quote a user's text inside an error message, cut to a readable length.

A message names what it is about ("unknown name 'x'"), and the thing named comes
from the user's file: an id, a title, a chain of defines.  A hostile or broken file
can make it a megabyte long; the message must still fit on a screen, so every quote
of user text goes through :func:`quoted` and every listed chain through
:func:`chain`.
"""

from __future__ import annotations

from collections.abc import Sequence

#: The most characters of user text a message quotes; longer text is cut with '...'.
QUOTE_LIMIT = 60
#: The most names a chain (``a -> b -> c``) lists before it elides the middle.
CHAIN_LIMIT = 8


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text``, or its first ``limit`` characters and '...' when it is longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a Python-style quoted literal (``'name'``), cut to ``limit``
    characters of the text; the cut is marked by '...' after the closing quote."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + "..."


def chain(names: Sequence[str], joiner: str = " -> ") -> str:
    """``a -> b -> c``, each name cut, the middle elided when there are many."""
    parts = [cut(name) for name in names]
    if len(parts) > CHAIN_LIMIT:
        keep = CHAIN_LIMIT // 2
        hidden = len(parts) - 2 * keep
        parts = [*parts[:keep], f"... ({hidden} more)", *parts[-keep:]]
    return joiner.join(parts)
