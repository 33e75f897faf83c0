"""What a teacher sees first: what QG Studio does, its four steps, and a sample story."""

from __future__ import annotations

import streamlit as st

from qg_studio.ui.steps import STEPS

PRODUCT = "QG Studio"
PITCH = (
    "QG Studio reads a story you give it and writes reading-comprehension questions "
    "about it, with their answers, ready to print as a worksheet or play as a quiz."
)
SAMPLE_PROJECT = "Sample: The Paper Boat"
# Written for this project (not from any data set): about 260 words, grades 2-3.
SAMPLE_STORY = """The Paper Boat

Mia lived in a small town beside a wide, slow river. Every Saturday she folded a paper boat from the pages of an old newspaper and set it on the water to see how far it would sail.

One grey morning, her little brother Theo asked if he could come too. Mia sighed, because Theo was only four and always wanted to hold everything. Still, she took his hand, and they walked to the wooden bridge together.

Mia folded the boat carefully and wrote her name on the side with a blue pencil. Theo watched with wide eyes. When she placed the boat on the water, the wind pushed it straight into a tangle of reeds. It stuck there and began to sink.

Theo started to cry. Mia felt cross at first, but then she saw how sad he was. She sat down on the bank and folded a second boat, slowly this time, so that Theo could copy each step. His boat was crooked and one corner was torn, but he was very proud of it.

They set the two boats on the river side by side. This time the wind was gentle. The boats drifted past the reeds, under the bridge and around the bend, until they were two tiny white dots.

On the walk home, Theo held Mia's hand and said, "Next Saturday, I will teach you how to fold a boat." Mia laughed. She said that sounded like a fair trade, and she meant it.
"""


def welcome() -> None:
    """The product, one sentence on what it does, and the four steps."""
    st.title(PRODUCT)
    st.markdown(PITCH)
    cols = st.columns(len(STEPS))
    for n, (col, (_, title, does)) in enumerate(zip(cols, STEPS), start=1):
        with col.container(border=True):
            st.markdown(f"**{n}. {title}**")
            st.caption(does[0].upper() + does[1:] + ".")
