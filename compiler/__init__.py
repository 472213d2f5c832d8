"""The mjr compiler: ``.mjr`` text -> checked IR -> generated Cython -> built module.

One subpackage per stage, each importing only those before it: :mod:`.model` (the
IR and the words), :mod:`.front` (the source made one plain ruleset), :mod:`.check`
(checked and lowered to IR), :mod:`.emit` (the generated module's text) and
:mod:`.build` (the cache, the C toolchain and the entry points re-exported here).
"""

from .build import Built, build, check_file, generate_file

#: the stages, each a subpackage, in the order they import one another
STAGES = ("model", "front", "check", "emit", "build")

__all__ = ["STAGES", "Built", "build", "check_file", "generate_file"]
