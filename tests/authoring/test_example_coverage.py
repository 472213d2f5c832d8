"""Every fan, floor, requirement and payment clause a bundled ruleset writes is shown
by at least one of its own example hands (a variant: every fan it writes), played
under the table options the example chooses."""

from __future__ import annotations

from functools import partial

import pytest

import mjr
from mjr.authoring.examples import combinations, run_examples
from mjr.notation.parse import parse_hand


def _load(ident: str, options: dict[str, object]) -> mjr.Ruleset:
    return mjr.load(ident, **options)


@pytest.mark.parametrize("ident", mjr.bundled_ids())
def test_every_entry_has_an_example(ident: str) -> None:
    ruleset = mjr.load(ident)
    own_file = ruleset.generated.files[-1]
    seen: set[str] = set()
    for chosen in combinations(ruleset, partial(_load, ident)):
        assert all(outcome.passed for outcome in run_examples(chosen))
        for example in chosen.generated.examples:
            result = chosen.evaluate(parse_hand(example.hand, chosen.facts.kinds, chosen.has_flowers))
            if not result.is_win:
                seen.update(rule for rule, _ in chosen.generated.requirements if rule in result.reason)
                continue
            seen.update(result.fan_ids)
            seen.update(filter(None, (result.floor, result.payment, result.liable)))
            seen.update(clause for clause, _ in result.from_table)
    written = {fan.id for fan in ruleset.fans if fan.file == own_file}
    if len(ruleset.generated.files) == 1:  # a variant answers only for the fans it writes
        written |= {row[0] for row in (*ruleset.generated.floors, *ruleset.generated.payments)}
        written |= {ident for ident, _ in ruleset.generated.requirements}
    assert written - seen == set(), f"{ident}: no example shows {sorted(written - seen)}"
