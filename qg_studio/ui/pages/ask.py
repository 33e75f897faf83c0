"""The Ask page: the teacher asks a question about the open story and sees the answer,
its kind, the evidence highlighted in the section, and the labels the tagger gives it."""

from __future__ import annotations

import html

import streamlit as st

from qg_studio.schema import Section
from qg_studio.services.answers import MAX_QUESTION_CHARS
from qg_studio.ui import engines
from qg_studio.ui.state import current_actor
from qg_studio.ui.state import get_store
from qg_studio.ui.state import require_story
from qg_studio.ui.text import plain

RESULT_KEY = "ask_result"


def render() -> None:
    st.title("Ask")
    story = require_story()
    if story is None:
        return
    sections = story.sections
    st.caption(
        f"{plain(story.title or 'Untitled story')} · {len(sections)} sections. Ask "
        "anything about the story; QG Studio finds where to look unless you choose "
        "sections."
    )
    with st.form("ask_form"):
        question = st.text_input(
            "Your question",
            key="ask_question",
            placeholder="Why did the fox follow the miller?",
            max_chars=MAX_QUESTION_CHARS,  # the browser stops a pasted page at the limit
        )
        # Only the answerer that works here is used (which one: the Models page); a
        # choice that then fails would only leave the teacher with an error.
        chosen = st.multiselect(
            "Look only in sections (optional)", [s.id for s in sections], key="ask_sections"
        )
        asked = st.form_submit_button("Answer", type="primary")
    if asked:
        if not question.strip():
            st.error("Type a question first.")
            return
        from qg_studio.services.answers import answer_and_label

        try:
            answerer = engines.answerer()
            with st.spinner("Answering…"):
                reply = answer_and_label(
                    question, sections, chosen or None, answerer=answerer, title=story.title
                )
            if reply.answerer_failed:
                raise RuntimeError(reply.notes[0])
        except Exception as exc:  # noqa: BLE001 - show the reason, keep the page usable
            st.error(f"This question could not be answered: {plain(exc)}")
            return
        st.session_state[RESULT_KEY] = (story.id, reply)
    result = st.session_state.get(RESULT_KEY)
    if result and result[0] == story.id:
        _show(story.id, sections, result[1])


def _show(story_id: int, sections: list[Section], reply) -> None:
    """``reply``: a services.answers.LabelledQuestion (answer, evidence, labels)."""
    tag = reply.labels
    answer = reply.answers[0] if reply.answers else "(no answer found)"
    st.subheader(plain(answer))
    badges = [
        f"kind: **{reply.answer_kind}**",
        "**stated in the text**" if reply.explicit else "**not stated in the text**",
        f"confidence {reply.confidence:.0%}",
        f"section{'s' if len(reply.sections) > 1 else ''} {', '.join(map(str, reply.sections))}",
    ]
    if tag is not None:
        badges.append(f"element: **{tag.element.value}** ({tag.element_confidence:.0%})")
        badges.append(f"{tag.explicitness.value} ({tag.explicitness_confidence:.0%})")
    st.markdown(" · ".join(badges))
    from qg_studio.trust import trust_note

    if trust_note(reply.confidence):  # a guess is never shown like a sure answer
        st.warning(f"Check this answer: the answerer is only {reply.confidence:.0%} sure.")
    if reply.note:
        st.info(plain(reply.note))
    by_id = {s.id: s for s in sections}
    for sid in reply.sections:
        section = by_id.get(sid)
        if section is None:
            continue
        marks = [(e.start, e.end) for e in reply.evidence if e.section == sid]
        with st.expander(f"Section {sid}", expanded=bool(marks)):
            st.markdown(_highlight(section.text, marks), unsafe_allow_html=True)
    if st.button("Add to this story's questions", key="ask_add"):
        item = reply.to_item("teacher")
        get_store().add_items(story_id, [item], actor=current_actor())
        st.success("Added to the question set: see the **Curate** page.")


def _highlight(text: str, marks: list[tuple[int, int]]) -> str:
    """The section as HTML-escaped text with the evidence spans in <mark>."""
    out, at = [], 0
    for start, end in sorted(marks):
        if start < at:
            continue
        out.append(html.escape(text[at:start]))
        out.append(f"<mark>{html.escape(text[start:end])}</mark>")
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out).replace("\n\n", "<br><br>").replace("\n", "<br>")
