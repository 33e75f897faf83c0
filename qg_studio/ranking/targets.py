"""How many questions of each element a set takes: the teacher's mix, scaled to the total,
or as even as the candidates allow."""

from __future__ import annotations

from collections import Counter

from qg_studio.schema import ELEMENTS
from qg_studio.schema import Element
from qg_studio.schema import GenerationRequest


def element_targets(
    request: GenerationRequest, total: int, available: Counter, offset: int = 0
) -> dict[Element, int]:
    """How many questions of each element to pick.

    Balanced: as even as the candidates allow, the remainder going round the elements
    from ``offset`` (so per-section picks still balance over the story)."""
    if isinstance(request.elements, dict):
        wanted = {e: n for e, n in request.elements.items() if n > 0}
        asked = sum(wanted.values())
        if request.count is None and request.per_section is None or asked == total:
            return dict(wanted)
        # Scale the mix to the total asked for.
        targets = {e: int(total * n / asked) for e, n in wanted.items()}
        rest = total - sum(targets.values())
        for e, _ in sorted(wanted.items(), key=lambda kv: -kv[1]):
            if rest <= 0:
                break
            targets[e] += 1
            rest -= 1
        return targets
    elements = [e for e in ELEMENTS if available.get(e, 0) > 0] or list(ELEMENTS)
    elements = elements[offset % len(elements) :] + elements[: offset % len(elements)]
    targets = {e: 0 for e in elements}
    remaining = total
    while remaining > 0:
        progressed = False
        for e in elements:
            if remaining <= 0:
                break
            if targets[e] < available.get(e, 0):
                targets[e] += 1
                remaining -= 1
                progressed = True
        if not progressed:
            break
    return targets
