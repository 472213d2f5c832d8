"""A job over a file of hands: what ``mjr score --batch`` asks for, as one value.

It holds no machinery, so the command line builds one without importing the
scoring of files (:mod:`mjr.jobs.score_file`), which runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from ..ruleset.loaded import Ruleset

#: Hands per partition (per task) unless told otherwise.
PARTITION_SIZE = 10_000


@dataclass(frozen=True)
class Job:
    """A batch scoring run: the input and output files and how to run the partitions."""

    source: str  # the input file as named
    out: Path | None
    ruleset: Ruleset
    name: str  # what a cluster worker loads: a ruleset id or an absolute .mjr path
    backend: str = "auto"
    workers: int | None = None
    scheduler: str | None = None
    partition_size: int = PARTITION_SIZE
    progress: bool = True
