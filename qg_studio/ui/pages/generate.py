"""The Generate page: ask for a question set, watch it being made, see it by section.

Generated items are saved to the open story as soon as they exist, so leaving the
page or closing the tab loses nothing; the Curate page edits them.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from qg_studio.generation import GENERATORS
from qg_studio.mix import whole_counts
from qg_studio.schema import ELEMENTS
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.services.generation import AUTO
from qg_studio.trust import CHECK_THIS
from qg_studio.trust import LIKELY_WRONG
from qg_studio.trust import MARK_SYMBOLS
from qg_studio.trust import SURE
from qg_studio.trust import mark
from qg_studio.ui import engines
from qg_studio.ui.engines import writer_caption
from qg_studio.ui.state import current_actor
from qg_studio.ui.state import get_store
from qg_studio.ui.state import keep
from qg_studio.ui.state import require_story
from qg_studio.ui.state import sticky
from qg_studio.ui.steps import next_step
from qg_studio.ui.text import plain
from qg_studio.ui.text import quoted
from qg_studio.ui.widgets import pick_option

LAST_BATCH = "generate_last_batch"  # ids of the items the last run saved
_COLOURS = {
    Element.CHARACTER: "blue",
    Element.SETTING: "green",
    Element.ACTION: "orange",
    Element.FEELING: "red",
    Element.CAUSAL: "violet",
    Element.OUTCOME: "gray",
    Element.PREDICTION: "primary",
}


def render() -> None:
    st.title("Generate")
    story = require_story()
    if story is None:
        return
    if not story.sections:
        st.warning("This story has no sections yet; check it on the **Story** page.")
        return
    request, engine, options, check = _controls(len(story.sections))
    replace = _with_saved_questions(story)
    if st.button("Generate questions", type="primary", key="generate_go"):
        if request is not None:
            _run(story, request, engine, options, check, replace)
    batch = st.session_state.get(LAST_BATCH)
    if batch and batch.get("story") == story.id:
        for notice in batch.get("notices", []):
            st.warning(plain(notice))
        items = [i for i in get_store().list_items(story.id) if i.id in set(batch["ids"])]
        next_step("curate", "Next: review the questions", key="generate_next")
        _show(items, story.sections, batch.get("request"), batch.get("engine"))


# The settings a teacher chose stay as chosen while they visit the other pages.
DEFAULTS = {
    "gen_engine": AUTO,
    "gen_mode": "In total",
    "gen_number": 10,
    "gen_per_section": 2,
    "gen_implicit": 0.3,
    "gen_check": True,
    "gen_balanced": True,
    **{f"gen_mix_{e.name}": 1 for e in ELEMENTS},
}


def _controls(n_sections: int):
    for key, default in DEFAULTS.items():
        sticky(key, default)
    try:
        return _widgets(n_sections)
    finally:
        keep(*DEFAULTS)


def _widgets(n_sections: int):
    engines = [AUTO] + GENERATORS.names()
    st.caption(writer_caption())
    cols = st.columns([1, 1, 1])
    with cols[0]:
        with st.expander("Question writer (advanced)"):
            engine = st.selectbox(
                "Engine",
                engines,
                key="gen_engine",
                format_func=lambda e: "best available" if e == AUTO else e,
                help="best available: a trained question model when one "
                "works here (see Models), else the built-in writer, "
                "which runs on any computer",
            )
            model = ""
            if engine not in (AUTO, "embedded"):
                model = st.text_input(
                    "Model folder",
                    key="gen_model",
                    help="empty: the first ready question model listed on the Models page",
                )
    with cols[1]:
        mode = st.radio("How many", ["In total", "Per section"], horizontal=True, key="gen_mode")
        number = st.number_input(
            "Questions" if mode == "In total" else "Per section",
            min_value=1,
            max_value=200,
            key="gen_number" if mode == "In total" else "gen_per_section",
        )
    with cols[2]:
        implicit = st.slider(
            "Share of implicit questions",
            0.0,
            1.0,
            step=0.05,
            key="gen_implicit",
            help="implicit: the answer needs inference, not a copied span",
        )
        check = st.checkbox(
            "Check the answers",
            key="gen_check",
            help="each question is answered from the story, a few seconds more; a question "
            "whose answer the story does not give "
            "comes only when nothing else fills the mix, marked 'check this answer'",
        )
    balanced = st.toggle("Balanced mix of narrative elements", key="gen_balanced")
    elements: str | dict = "balanced"
    if not balanced:
        mix_cols = st.columns(len(ELEMENTS))
        elements = {}
        for col, element in zip(mix_cols, ELEMENTS):
            with col:
                elements[element] = int(
                    st.number_input(
                        element.value,
                        min_value=0,
                        max_value=50,
                        key=f"gen_mix_{element.name}",
                    )
                )
        if not any(elements.values()):
            st.error("Ask for at least one question of some element.")
            return None, engine, {}, check
    try:
        request = GenerationRequest(
            count=int(number) if mode == "In total" and balanced else None,
            per_section=int(number) if mode == "Per section" else None,
            elements=elements,
            implicit_share=float(implicit),
        )
    except ValueError as exc:
        st.error(str(exc))
        return None, engine, {}, check
    options = {"model": model} if model else {}
    return request, engine, options, check


ADD, REPLACE = "add", "replace"


def _with_saved_questions(story) -> list[QAItem]:
    """On a story that has questions already, the teacher says what a new run does: add
    to them, or take the place of the ones not reviewed yet. The ones to replace (or [])."""
    saved = get_store().list_items(story.id)
    if not saved:
        return []
    unreviewed = [i for i in saved if i.status == ReviewStatus.UNREVIEWED]
    choices = {
        ADD: f"Add new questions to the {len(saved)} this story has (none repeats one of "
        "them, kept, dropped or not reviewed)",
        REPLACE: f"Replace the {len(unreviewed)} not reviewed yet (kept and dropped ones stay)",
    }
    picked = pick_option(
        "radio",
        "This story has questions already",
        [ADD, REPLACE] if unreviewed else [ADD],
        choices,
        "gen_existing",
    )
    return unreviewed if picked == REPLACE else []


def _run(
    story,
    request: GenerationRequest,
    engine: str,
    options: dict,
    check: bool,
    replace: list[QAItem] | None = None,
) -> None:
    from qg_studio.services.generation import decided
    from qg_studio.services.generation import generate

    bar = st.progress(0.0, text="starting")

    def progress(fraction: float, message: str) -> None:
        bar.progress(min(max(fraction, 0.0), 1.0), text=message)

    answerer = None
    if check:
        try:
            answerer = engines.answerer()
        except Exception as exc:  # the check is optional: say so and go on without it
            st.warning("The answer check is not available here; questions are written without it.")
            _details(exc)
    if engine == AUTO:
        choice = engines.question_writer()
        engine, options = choice.name, dict(choice.options)
    try:
        # A second run never saves a question the story already has.
        run = generate(
            story.sections,
            request,
            engine,
            options,
            answerer=answerer,
            progress=progress,
            existing=decided(get_store(), story.id),
            title=story.title,
        )
    except Exception as exc:
        bar.empty()
        st.error(
            f"{engines.describe(engine, options).capitalize()} could not write "
            "questions for this story. Try the built-in writer (Question writer, "
            "above), or see the Models page."
        )
        _details(exc)
        return
    store = get_store()
    # Saved with the project: Curate compares the set with what was asked for and
    # regenerates with the same engine, after a reopen too.
    store.update_settings(
        story.project_id,
        request=request.to_dict(),
        engine=run.engine,
        engine_options=run.engine_options,
    )
    if not run.items:
        bar.empty()
        st.warning("No questions came out of this story; try a longer or simpler text.")
        return
    if replace:
        # One action, one undo: the unreviewed ones go and the new ones come together.
        ids = store.replace_items(
            story.id,
            [i.id for i in replace],
            run.items,
            actor=current_actor(),
            added_by=run.engine,
            label=f"generated {len(run.items)} questions in place of {len(replace)} not reviewed",
        )
    else:
        ids = store.add_items(
            story.id, run.items, actor=run.engine, label=f"generated {len(run.items)} questions"
        )
    st.session_state[LAST_BATCH] = {
        "story": story.id,
        "ids": ids,
        "engine": engines.describe(run.engine, run.engine_options),
        "notices": run.notices,
        "request": _requested_mix(request, len(story.sections), run.items),
    }
    bar.progress(1.0, text=f"{len(run.items)} questions saved to this story")


def _requested_mix(
    request: GenerationRequest, n_sections: int, items: list[QAItem]
) -> dict[str, float]:
    # Whole questions: "2 feeling questions asked", never "1.43".
    return {e.value: float(n) for e, n in whole_counts(request, n_sections).items()}


def _badge(label: str, colour: str) -> str:
    return f":{colour}-badge[{label}]"


_MARK_COLOURS = {SURE: "green", CHECK_THIS: "orange", LIKELY_WRONG: "red"}


def _show(items: list[QAItem], sections, requested: dict | None, engine: str | None = None) -> None:
    st.subheader(f"{len(items)} new questions")
    made_by = f"Written by {plain(engine)}. " if engine else ""
    st.caption(f"{made_by}Saved to this story. Edit, keep or drop them on the **Curate** page.")
    if requested:
        _mix_chart(items, requested)
    by_section: dict[int, list[QAItem]] = {}
    for item in items:
        by_section.setdefault(item.sections[0] if item.sections else 0, []).append(item)
    for section in sections:
        group = by_section.get(section.id, [])
        if not group:
            continue
        with st.expander(f"Section {section.id} — {len(group)} question(s)", expanded=True):
            for item in group:
                verdict, why = mark(item)
                badges = " ".join(
                    ([_badge(MARK_SYMBOLS[verdict], _MARK_COLOURS[verdict])] if verdict else [])
                    + [
                        _badge(item.element.value, _COLOURS.get(item.element, "gray")),
                        _badge(
                            item.explicitness.value,
                            "green" if item.explicitness == Explicitness.EXPLICIT else "orange",
                        ),
                    ]
                )
                st.markdown(
                    f"{badges}  \n**{plain(item.question)}**  \nAnswer: {plain(item.answer)}"
                )
                if verdict and verdict != SURE:
                    st.caption(f"{MARK_SYMBOLS[verdict]}: {why}")
                if item.evidence:
                    ev = item.evidence[0]
                    st.caption(f"Evidence (section {ev.section}): {quoted(ev.text, 240)}")


def _mix_chart(items: list[QAItem], requested: dict[str, float]) -> None:
    st.altair_chart(mix_chart(items, requested), width="stretch")


def mix_chart(items: list[QAItem], requested: dict[str, float]):
    """Bars of questions asked and written per element, the two side by side."""
    got = {e.value: 0 for e in ELEMENTS}
    for item in items:
        got[item.element.value] += 1
    frame = pd.DataFrame(
        {
            "requested": [requested.get(e.value, 0.0) for e in ELEMENTS],
            "generated": [got[e.value] for e in ELEMENTS],
        },
        index=[e.value for e in ELEMENTS],
    )
    import altair as alt

    long = frame.reset_index(names="element").melt(
        "element", var_name="count", value_name="questions"
    )
    # Horizontal: the element names read level; whole questions on the axis, never 0.5.
    chart = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            x=alt.X("questions:Q", axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("element:N", title=None, sort=[e.value for e in ELEMENTS]),
            yOffset=alt.YOffset("count:N"),
            color=alt.Color("count:N", title=None),
        )
        .properties(height=300)
    )
    return chart


def _details(exc: Exception) -> None:
    with st.expander("Technical details"):
        st.text(str(exc))
