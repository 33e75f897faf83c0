"""Mine the embedded engine's wording choices from expert questions (train split only).

    qg-studio train wordings --data ../shared/data/fairytaleqa --split train

For every expert QA pair the engine writes each of its wordings (see
:mod:`~qg_studio.generation.variants`) and scores it with ROUGE-L against the expert
question. Per answer situation (``variants.signature``) and per element, the wordings
are ordered by their mean score; the file keeps those orders and the aggregate counts
only (no text from the data), plus the most common question openings per element.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections import defaultdict
from typing import Sequence

from qg_studio.evaluate import rouge_l
from qg_studio.generation.embedded import best_location
from qg_studio.generation.variants import signature
from qg_studio.generation.variants import variants
from qg_studio.schema import Element

MIN_SIGNATURE = 12  # fewer examples than this: the element's order decides


def mine(stories: Sequence, split: str = "train", log=sys.stderr) -> dict:
    """The wording orders from ``stories`` (FairytaleQA-layout stories of ``split``)."""
    by_sig: dict[str, list[dict[str, float]]] = defaultdict(list)
    by_element: dict[str, list[dict[str, float]]] = defaultdict(list)
    openings: dict[str, Counter] = defaultdict(Counter)
    sig_count: Counter = Counter()
    for n, story in enumerate(stories, 1):
        by_id = {s.id: s for s in story.sections}
        for q in story.questions:
            sections = [by_id[i] for i in q.sections if i in by_id]
            answer = q.row.get("answer1", "")
            if not sections or not answer:
                continue
            element = Element.parse(q.row["attribute1"])
            expert = q.row["question"]
            openings[element.value][_opening(expert)] += 1
            found = best_location(sections, answer)
            if found is None:
                continue
            _, analysis, loc = found
            options = variants(analysis, loc, element, answer)
            if not options:
                continue
            sig = signature(analysis, loc, element, answer)
            sig_count[sig] += 1
            scores = {name: rouge_l(text, expert) for name, text in options.items()}
            by_sig[sig].append(scores)
            by_element[element.value].append(scores)
        if log is not None and n % 20 == 0:
            print(f"mined {n}/{len(stories)} stories", file=log)
    return {
        "made_from": f"FairytaleQA {split} split, {len(stories)} stories",
        "by_signature": {
            sig: _order(rows)[0] for sig, rows in by_sig.items() if sig_count[sig] >= MIN_SIGNATURE
        },
        "by_element": {el: _order(rows)[0] for el, rows in by_element.items()},
        "signature_counts": {sig: n for sig, n in sig_count.most_common() if n >= MIN_SIGNATURE},
        "element_means": {el: _order(rows)[1] for el, rows in by_element.items()},
        "openings": {el: dict(c.most_common(12)) for el, c in openings.items()},
    }


def _order(rows: list[dict[str, float]]) -> tuple[list[str], dict[str, float]]:
    """Wordings by the mean score of "use it when it exists, else the rule": the order
    :func:`variants.choose` walks, so a rare but good wording still ranks high."""
    names = {name for row in rows for name in row}
    means = {}
    for name in names:
        total = 0.0
        for row in rows:
            total += row.get(name, row.get("rule", max(row.values())))
        means[name] = round(total / len(rows), 4)
    order = sorted(means, key=lambda k: -means[k])
    # Past the rule nothing is tried: the rule always exists when anything does.
    if "rule" in order:
        order = order[: order.index("rule") + 1]
    return order, means


_NAME = re.compile(r"^[A-Z][a-z'-]+$")


def _opening(question: str) -> str:
    """The first three words, names replaced by X: "what did X", "how did the"."""
    words = question.split()[:3]
    return " ".join("X" if _NAME.match(w) and i > 0 else w.lower() for i, w in enumerate(words))
