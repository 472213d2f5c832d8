"""The boundary of the batch API: what a buffer of tile counts must be.

A batch arrives as any object with the buffer protocol.  It is checked here, once,
for what the compiled loop cannot see -- its item type, shape and layout -- and
then read in place; the loop checks each hand's counts itself.
"""

from __future__ import annotations

from array import array

from ..errors import BatchError
from ..tiles.kinds import N_KINDS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
#: What :meth:`mjr.Ruleset.evaluate_counts` takes: bytes-like tile counts.
if TYPE_CHECKING:
    from typing import Any

    Buffer = Any
else:
    Buffer = object  # named in annotations only


_BYTE_FORMATS = ("B", "b", "c")
_WHAT = "counts must be a buffer of one byte per tile count (bytes, bytearray, array('B'), a uint8 array)"


#: One zero of each array type a batch writes, repeated to make its outputs.
_ZERO = {code: array(code, [0]) for code in "qQ"}


def zeros(code: str, n: int) -> array[int]:
    """An array of ``n`` zeros of type ``code`` (``q`` or ``Q``): repeating one zero is
    many times faster than converting ``bytes(8 * n)``, for one hand or a million."""
    return _ZERO[code] * n


def batch_view(counts: Buffer) -> memoryview:
    """``counts`` as a flat read-only view of unsigned bytes, 34 per hand, without
    copying; :class:`BatchError` says what is wrong with anything else."""
    if type(counts) is bytes and len(counts) % N_KINDS == 0:  # the usual batch: already a flat read-only buffer
        return memoryview(counts)
    if isinstance(counts, (list, tuple)):
        counts = _bytes_of_sequence(counts)
    if isinstance(counts, (str, int, float)):
        raise BatchError(f"{_WHAT}, not {type(counts).__name__}")
    try:
        view = memoryview(counts)
    except TypeError:
        raise BatchError(f"{_WHAT}, not {type(counts).__name__}") from None
    if view.itemsize != 1 or view.format not in _BYTE_FORMATS:
        raise BatchError(f"{_WHAT}; this one holds items of format {view.format!r}, {view.itemsize} bytes each")
    if not view.c_contiguous:
        raise BatchError("counts must be C-contiguous (rows of 34 counts one after another); make a contiguous copy")
    if view.ndim == 2 and view.shape is not None and view.shape[1] != N_KINDS:
        raise BatchError(f"counts must have 34 columns, one per tile kind; this one has {view.shape[1]}")
    if view.ndim > 2:
        raise BatchError(f"counts must be flat or N x 34; this one has {view.ndim} dimensions")
    flat = view.cast("B") if view.ndim != 1 or view.format != "B" else view
    if len(flat) % N_KINDS:
        raise BatchError(f"counts must hold 34 bytes per hand; got {len(flat)} bytes")
    return flat.toreadonly()


def _bytes_of_sequence(counts: list[Any] | tuple[Any, ...]) -> bytes:
    """A list or tuple of small ints, checked item by item."""
    for index, value in enumerate(counts):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
            hand, kind = divmod(index, N_KINDS)
            raise BatchError(f"counts item {index} (hand {hand}, kind {kind}) must be a count 0-4, not {value!r}"[:200])
    return bytes(counts)


def win_tiles_view(win_tiles: Buffer | None, hands: int, why_needed: str | None) -> bytes:
    """The winning tiles of a batch of ``hands`` hands, one kind number per hand
    (empty when not given).  ``why_needed`` says why the batch cannot be scored
    without them, when it cannot."""
    if win_tiles is None:
        if why_needed is not None:
            raise BatchError(f"{why_needed}: pass win_tiles=, one tile kind (0-33) per hand, "
                             "e.g. bytes([kind, ...])")
        return b""
    if isinstance(win_tiles, (list, tuple)):
        for index, value in enumerate(win_tiles):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
                raise BatchError(f"win_tiles item {index} must be a tile kind 0-33, not {value!r}"[:200])
        win_tiles = bytes(win_tiles)
    try:
        view = memoryview(win_tiles)
    except TypeError:
        raise BatchError(f"win_tiles must be a buffer of one byte per hand, not {type(win_tiles).__name__}") from None
    if view.itemsize != 1 or view.format not in _BYTE_FORMATS or not view.c_contiguous:
        raise BatchError("win_tiles must be a contiguous buffer of one byte per hand (bytes, array('B'), uint8)")
    if view.nbytes != hands:
        raise BatchError(f"win_tiles must give one tile per hand: {hands} hands, {view.nbytes} win_tiles")
    return view.tobytes()
