"""The checks of a ruleset, each statement by its own rules, and its lowering to
IR (:func:`.checker.check`): every problem reported at once, with its place."""
