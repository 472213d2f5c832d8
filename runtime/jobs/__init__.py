"""Jobs over many hands: scoring a file of hands (:mod:`.score_file`) in partitions,
on threads, processes or a cluster (:mod:`.executor`)."""

from __future__ import annotations
