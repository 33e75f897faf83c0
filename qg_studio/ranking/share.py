"""Meeting a set's implicit share by swapping questions, the mix kept as asked.

Selection (:func:`qg_studio.ranking.select`) gives each element its questions first; the
implicit share is met after, by trading a question for one of the same element and the
other explicitness. ``group`` maps an item to its group of questions asking the same thing
(a set holds one of a group); ``rank`` orders the candidates. A balanced set's mix has a
little give (``room``): where no question of the same element will do, one of another
element with room may come in.
"""

from __future__ import annotations

from typing import Callable

from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem

Group = Callable[[QAItem], int]
Rank = Callable[[QAItem], float]
# Whether ``new`` may take ``out``'s place in ``picked`` though of another element.
Room = Callable[[list[QAItem], QAItem, QAItem], bool]


def swap_for_share(
    picked: list[QAItem],
    rest: list[QAItem],
    want_implicit: int,
    group: Group,
    rank: Rank,
    room: Room | None = None,
) -> None:
    """Bring the implicit count of ``picked`` to ``want_implicit`` by swaps with ``rest``
    that ask nothing the rest of the set asks: of the same element first, then, where
    ``room`` allows, of another."""

    def count() -> int:
        return sum(i.explicitness == Explicitness.IMPLICIT for i in picked)

    for too_many in (True, False):
        while (count() > want_implicit) if too_many else (count() < want_implicit):
            if not (
                _swap_one(picked, rest, too_many, group, rank)
                or (room is not None and _swap_one(picked, rest, too_many, group, rank, room))
            ):
                break


def _swap_one(
    picked: list[QAItem],
    rest: list[QAItem],
    too_many: bool,
    group: Group,
    rank: Rank,
    room: Room | None = None,
) -> bool:
    """One swap towards the share, the lowest-ranked question first: for one of the same
    element, or, given ``room``, of another. True when swapped."""
    give = Explicitness.IMPLICIT if too_many else Explicitness.EXPLICIT
    for index in sorted(range(len(picked)), key=lambda i: rank(picked[i])):
        out = picked[index]
        if out.explicitness != give or out.scores.story_level:
            continue
        others = {group(p) for p in picked if p is not out}
        options = [
            r
            for r in rest
            if r.explicitness != give
            and group(r) not in others
            and (r.element == out.element if room is None else room(picked, out, r))
        ]
        if options:
            _replace(picked, rest, index, max(options, key=rank))
            return True
        if not too_many and room is None and _unblock(picked, rest, index, group, rank):
            return True
    return False


def _unblock(
    picked: list[QAItem], rest: list[QAItem], index: int, group: Group, rank: Rank
) -> bool:
    """Swap ``picked[index]`` (explicit) for an implicit question of its element that the
    set holds back only because its twin, an explicit question of another element, is in
    it ("How did the giant feel when he flung the stone? – full of rage" keeps out "Why did
    the giant fling the stone?"). The twin gives way to another question of its own
    element, so the mix stays as asked. True when swapped."""
    out = picked[index]
    for new in sorted(rest, key=rank, reverse=True):
        if new.explicitness != Explicitness.IMPLICIT or new.element != out.element:
            continue
        twins = [j for j, p in enumerate(picked) if j != index and group(p) == group(new)]
        if len(twins) != 1:
            continue
        twin = picked[twins[0]]
        if twin.explicitness != Explicitness.EXPLICIT or twin.scores.story_level:
            continue
        kept = {group(p) for j, p in enumerate(picked) if j not in (index, twins[0])}
        stand_ins = [
            r
            for r in rest
            if r is not new and r.element == twin.element and group(r) not in kept | {group(new)}
        ]
        if stand_ins:
            _replace(picked, rest, index, new)
            _replace(picked, rest, twins[0], max(stand_ins, key=rank))
            return True
    return False


def _replace(picked: list[QAItem], rest: list[QAItem], index: int, new: QAItem) -> None:
    rest.remove(new)
    rest.append(picked[index])
    picked[index] = new
