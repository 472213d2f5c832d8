"""Single calls: ``Ruleset.evaluate`` on notation and on parsed hands, and the peers per call.

Every pass walks a list of distinct hands once (no hand twice, so the branch
predictor cannot learn them).  The peers score the same tiles: PyMahjongGB (the
C++ MCR fan calculator) and the ``mahjong`` riichi calculator; they score other
rule sets, so the ratios are indicative only.
"""

from __future__ import annotations

from dataclasses import dataclass

import hands as H
from timing import Suite

import mjr

#: The region of the single-call and regular batch rows: the README's first example.
REGION = "guangdong.jipinghu"


@dataclass
class Peers:
    """The peer entry points that import, and why the others do not."""

    gb: object | None
    riichi: tuple[object, object] | None
    missing: dict[str, str]


def load_peers() -> Peers:
    missing: dict[str, str] = {}
    gb = riichi = None
    try:
        from MahjongGB import MahjongFanCalculator

        gb = MahjongFanCalculator
    except Exception as error:  # noqa: BLE001 - any failure means "unavailable"
        missing["PyMahjongGB"] = f"{type(error).__name__}: {error}"
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig

        riichi = (HandCalculator, HandConfig)
    except Exception as error:  # noqa: BLE001
        missing["mahjong"] = f"{type(error).__name__}: {error}"
    return Peers(gb, riichi, missing)


def add_mjr(suite: Suite, rs: mjr.Ruleset, winning: list[H.BenchHand], check: bool) -> None:
    """``evaluate(text)`` and ``evaluate(hand)``, one call per distinct hand."""
    texts = [H.to_mjr(h, "self_draw") for h in winning]
    parsed = [mjr.parse_hand(text) for text in texts]
    evaluate = rs.evaluate
    if check:
        losing = [text for text in texts[:2000] if not evaluate(text).is_win]
        assert not losing, f"{rs.id} does not score {losing[0]!r} as a win"

    def on_text(items: list[str] = texts) -> None:
        for text in items:
            evaluate(text)

    def on_hand(items: list[mjr.Hand] = parsed) -> None:
        for hand in items:
            evaluate(hand)

    suite.add("evaluate_text", on_text, len(texts))
    suite.add("evaluate_hand", on_hand, len(parsed))


def add_gb(suite: Suite, calc: object, winning: list[H.BenchHand]) -> None:
    """PyMahjongGB's ``MahjongFanCalculator``: concealed hand, self-drawn, no flowers,
    seat and round East (its arguments passed by position)."""
    prepared = [H.to_gb(h) for h in winning]
    ok = []
    for tiles, win in prepared:
        try:
            calc((), tiles, win, 0, True, False, False, False, 0, 0)  # type: ignore[operator]
            ok.append((tiles, win))
        except Exception:  # noqa: BLE001 - such a hand is left out and counted
            pass
    if not ok:
        raise RuntimeError("MahjongFanCalculator rejected every hand")

    def gb(items: list[tuple[tuple[str, ...], str]] = ok) -> None:
        for tiles, win in items:
            # pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast, seat, round
            calc((), tiles, win, 0, True, False, False, False, 0, 0)  # type: ignore[operator]

    rejected = len(prepared) - len(ok)
    suite.add("gb", gb, len(ok), note=f"{rejected} hands rejected" if rejected else "")


def add_riichi(suite: Suite, classes: tuple[object, object], winning: list[H.BenchHand]) -> None:
    """The ``mahjong`` package's ``HandCalculator.estimate_hand_value``, menzen tsumo
    (so every concealed winning hand has a yaku)."""
    calculator, config_class = classes
    config = config_class(is_tsumo=True)  # type: ignore[operator]
    prepared = [H.to_riichi(h) for h in winning]
    estimate = calculator.estimate_hand_value  # type: ignore[attr-defined]
    errors = sum(estimate(t, w, config=config).error is not None for t, w in prepared[:200])

    def riichi(items: list[tuple[list[int], int]] = prepared) -> None:
        for tiles, win in items:
            estimate(tiles, win, config=config)

    suite.add("riichi", riichi, len(prepared), note=f"{errors} of 200 with an error result" if errors else "")


def add_single_calls(suite: Suite, rs: mjr.Ruleset, winning: list[H.BenchHand], riichi_hands: int,
                     peers: Peers, check: bool) -> None:
    """Every single-call measurement, on the same distinct hands (the riichi peer,
    ten times slower, on the first ``riichi_hands`` of them)."""
    add_mjr(suite, rs, winning, check)
    if peers.gb is not None:
        try:
            add_gb(suite, peers.gb, winning)
        except Exception as error:  # noqa: BLE001 - a broken peer must not stop the run
            peers.missing["PyMahjongGB"] = f"{type(error).__name__}: {error}"
    if peers.riichi is not None:
        add_riichi(suite, peers.riichi, winning[:riichi_hands])
