"""Score generated MCR hands with a ruleset and compare with PyMahjongGB's answers.

Shared by the differential test (tests/regions/test_mcr_differential.py) and the
million-hand command (benchmarks/mcr_differential.py), so both compare the same
way: the ruleset scores a batch (``evaluate_batch``, fans kept as bits); a hand
agrees on the total when the fan totals are equal (the library's total includes
花牌, as ``Result.fan`` does), and on the fans when the same fans are awarded.
A hand that disagrees on either is scored again with ``evaluate`` to name its
difference: the fans whose points differ, as ``name library→mjr``.  Hands with
the same fans and total but points spread differently between them are not told
apart (the batch keeps which fans, not their points).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from mcr_hands import McrHand

import mjr

#: The 81 fans' display names (the MCR rules §M3.1, 中文), in the book's order, and the library's 明暗杠.
FAN_NAMES = (
    "大四喜", "大三元", "绿一色", "九莲宝灯", "四杠", "连七对", "十三幺",
    "清幺九", "小四喜", "小三元", "字一色", "四暗刻", "一色双龙会",
    "一色四同顺", "一色四节高",
    "一色四步高", "三杠", "混幺九",
    "七对", "七星不靠", "全双刻", "清一色", "一色三同顺", "一色三节高", "全大", "全中", "全小",
    "清龙", "三色双龙会", "一色三步高", "全带五", "三同刻", "三暗刻",
    "全不靠", "组合龙", "大于五", "小于五", "三风刻",
    "花龙", "推不倒", "三色三同顺", "三色三节高", "无番和", "妙手回春", "海底捞月", "杠上开花", "抢杠和",
    "碰碰和", "混一色", "三色三步高", "五门齐", "全求人", "双暗杠", "双箭刻",
    "全带幺", "不求人", "双明杠", "和绝张",
    "箭刻", "圈风刻", "门风刻", "门前清", "平和", "四归一", "双同刻", "双暗刻", "暗杠", "断幺",
    "一般高", "喜相逢", "连六", "老少副", "幺九刻", "明杠", "缺一门", "无字", "边张", "嵌张", "单钓将", "自摸",
    "花牌", "明暗杠",
)
#: The library's names that differ from the display names.
FROM_LIBRARY = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}
#: The environment variable that sets how many hands the differential test compares.
HANDS_VARIABLE = "MJR_MCR_HANDS"
#: How many hands of each difference class a summary quotes.
QUOTED = 2


def library_fans(hand: McrHand) -> dict[str, int]:
    """The library's fans of a hand, by display name, with their points."""
    return {FROM_LIBRARY.get(name, name): points for name, _, points in hand.fans}


@dataclass
class Report:
    """What a comparison found, over one or more batches."""

    hands: int = 0
    same_total: int = 0
    same_fans: int = 0
    #: difference class -> how many hands
    classes: Counter[str] = field(default_factory=Counter)
    #: difference class -> the first hands of it (notation)
    examples: dict[str, list[str]] = field(default_factory=dict)
    #: seconds spent by the ruleset: packing the hands into records, and scoring them
    pack_seconds: float = 0.0
    score_seconds: float = 0.0

    @property
    def total_agreement(self) -> float:
        return self.same_total / self.hands if self.hands else 1.0

    @property
    def fans_agreement(self) -> float:
        return self.same_fans / self.hands if self.hands else 1.0

    def note(self, text: str, difference: str) -> None:
        self.classes[difference] += 1
        quoted = self.examples.setdefault(difference, [])
        if len(quoted) < QUOTED:
            quoted.append(text)

    def summary(self) -> str:
        """Agreement, then each difference class with its count and first hands."""
        lines = [f"{self.hands:,} hands: total fan agrees on {self.same_total:,} ({100 * self.total_agreement:.3f}%), "
                 f"fan list on {self.same_fans:,} ({100 * self.fans_agreement:.3f}%)"]
        if self.hands:
            per_hand = (self.pack_seconds + self.score_seconds) / self.hands
            lines.append(f"mjr time: {self.pack_seconds:.2f} s packing + {self.score_seconds:.2f} s scoring "
                         f"({per_hand * 1e6:.2f} µs a hand)")
        for difference, count in self.classes.most_common():
            lines.append(f"  {count:>8,}  {difference}")
            lines.extend(f"            e.g. {text}" for text in self.examples[difference])
        return "\n".join(lines)


def compare(ruleset: mjr.Ruleset, hands: Iterable[McrHand], report: Report | None = None,
            workers: int | None = None) -> Report:
    """Score ``hands`` as one batch and add what was found to ``report`` (a new one by default)."""
    report = report if report is not None else Report()
    batch = list(hands)
    start = time.perf_counter()
    records, scored = pack(ruleset, batch)
    packed = time.perf_counter()
    scores = ruleset.evaluate_batch(records, fans=True, workers=workers)
    report.pack_seconds += packed - start
    report.score_seconds += time.perf_counter() - packed
    names = [info.name for info in ruleset.fans]
    at = {index: place for place, index in enumerate(scored)}
    for index, hand in enumerate(batch):
        wanted = library_fans(hand)
        place = at.get(index)
        won = place is not None and scores.status[place] == 0
        same_total = won and scores.fan[place] == hand.total
        same_fans = won and {names[i] for i in scores.fan_indices(place)} == wanted.keys()
        report.hands += 1
        report.same_total += same_total
        report.same_fans += same_fans
        if not (same_total and same_fans):
            report.note(hand.text, difference(ruleset, hand.text, wanted))
    return report


def pack(ruleset: mjr.Ruleset, batch: list[McrHand]) -> tuple[bytes, list[int]]:
    """The records of the hands the ruleset takes, and their indices in ``batch``
    (a hand it refuses is left out, and named by :func:`difference`)."""
    records, scored = [], []
    for index, hand in enumerate(batch):
        record = ruleset.records.record(hand.hand)
        if record is not None:
            records.append(record)
            scored.append(index)
    return b"".join(records), scored


def difference(ruleset: mjr.Ruleset, text: str, wanted: dict[str, int]) -> str:
    """The class of a hand that disagrees: why the ruleset refused it or did not
    let it win, or the fans whose points differ (``name library→mjr``, 0 for absent)."""
    try:
        result = ruleset.evaluate(text)
    except mjr.MjrError as error:
        return f"mjr refuses the hand: {str(error).splitlines()[0]}"
    if not result.is_win:
        return f"mjr: not a win ({result.reason})"
    got = {line.name: line.value for line in result.fans}
    names = sorted(wanted.keys() | got.keys(), key=_fan_order)
    changed = [f"{name} {wanted.get(name, 0)}→{got.get(name, 0)}" for name in names
               if wanted.get(name, 0) != got.get(name, 0)]
    return ", ".join(changed) if changed else "totals differ with the same fans (flowers or a multiplier?)"


def _fan_order(name: str) -> tuple[int, str]:
    return (FAN_NAMES.index(name) if name in FAN_NAMES else len(FAN_NAMES), name)
