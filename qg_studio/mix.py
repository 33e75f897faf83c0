"""Whether a set honours the mix the teacher asked for, and if not, why not.

The pipeline fills element quotas and the implicit share whenever the story allows;
when it does not, :func:`check_mix` says which elements (and the implicit share) fell
short and why, as a structured :class:`MixShortfall` the CLI prints and the Generate
page shows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Sequence

from qg_studio.schema import ELEMENTS
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Record


@dataclass
class Short:
    """One part of the request the set could not meet."""

    asked: int
    given: int
    why: str


@dataclass
class MixShortfall(Record):
    """What a set gave of what was asked: in all, per element, of the implicit share; why
    each fell short; and the engine that wrote the set."""

    asked: int
    given: int
    elements: dict[str, Short] = field(default_factory=dict)
    implicit: Short | None = None
    total_why: str = ""
    engine: str = ""

    def message(self) -> str:
        """One paragraph for the teacher."""
        parts = []
        if self.given < self.asked:
            parts.append(f"{self.given} of the {self.asked} questions asked for: {self.total_why}.")
        for name, short in self.elements.items():
            parts.append(f"{name}: {short.given} of {short.asked} ({short.why}).")
        if self.implicit is not None:
            parts.append(
                f"implicit: {self.implicit.given} of {self.implicit.asked} ({self.implicit.why})."
            )
        return " ".join(parts)


def requested_counts(request: GenerationRequest, n_sections: int) -> dict[Element, float]:
    """How many questions of each element the teacher asked for (balanced: an even share)."""
    if isinstance(request.elements, dict):
        wanted = {e: n for e, n in request.elements.items() if n > 0}
        total = request.total(n_sections)
        asked = sum(wanted.values()) or 1
        return {e: total * n / asked for e, n in wanted.items()}
    total = request.total(n_sections)
    return {e: total / len(ELEMENTS) for e in ELEMENTS}


def whole_counts(request: GenerationRequest, n_sections: int) -> dict[Element, int]:
    """The requested counts as whole questions a teacher can read ("2 feeling"), summing to
    the total asked: each element's share rounded down, the rest to the largest remainders
    (in the elements' order on a tie)."""
    shares = requested_counts(request, n_sections)
    counts = {e: int(share) for e, share in shares.items()}
    rest = round(sum(shares.values())) - sum(counts.values())
    order = sorted(shares, key=lambda e: (-(shares[e] - counts[e]), ELEMENTS.index(e)))
    for element in order[: max(0, rest)]:
        counts[element] += 1
    return counts


def check_mix(
    items: Sequence[QAItem],
    request: GenerationRequest,
    n_sections: int,
    candidates: Counter | None = None,
    repeats: Counter | None = None,
    engine: str = "",
) -> MixShortfall | None:
    """None when the set meets the request; else what fell short and why.

    ``candidates`` counts the distinct candidates of each element the engines offered,
    ``repeats`` those dropped because the project already asks them."""
    candidates = candidates or Counter()
    repeats = repeats or Counter()
    asked = request.total(n_sections)
    given = Counter(i.element for i in items)
    report = MixShortfall(asked=asked, given=len(items), engine=engine)
    if len(items) < asked:
        report.total_why = (
            f"the {engine or 'question'} engine found no more distinct questions in this story"
        )
        if sum(repeats.values()):
            report.total_why += (
                f" ({sum(repeats.values())} more repeated questions this project already has)"
            )
    for element, share in requested_counts(request, n_sections).items():
        # Balanced: an element is short when it got less than its even share rounded down.
        need = int(share) if not isinstance(request.elements, dict) else round(share)
        need = max(need, 1) if share >= 1 else need
        if given[element] >= need:
            continue
        report.elements[element.value] = Short(
            need, given[element], _why(element, candidates, repeats)
        )
    want_implicit = round(len(items) * request.implicit_share)
    have_implicit = sum(i.explicitness == Explicitness.IMPLICIT for i in items)
    if have_implicit + 0.5 < want_implicit - 0.05 * len(items):
        report.implicit = Short(
            want_implicit, have_implicit, "the story gave too few questions a reader must infer"
        )
    if len(items) >= asked and not report.elements and report.implicit is None:
        return None
    return report


def _why(element: Element, candidates: Counter, repeats: Counter) -> str:
    if repeats[element] and not candidates[element]:
        return "every one the engine wrote is already in this project"
    if not candidates[element]:
        return f"the story gave no {element.value} question the engine could write"
    if repeats[element]:
        return (
            f"{repeats[element]} more repeat questions already in this project, "
            f"the rest read badly or repeat one another"
        )
    return (
        f"only {candidates[element]} distinct one(s) found; the rest read badly or "
        f"repeat one another"
    )
