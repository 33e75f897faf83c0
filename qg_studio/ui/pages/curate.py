"""The Curate page (placeholder until its issue lands)."""

import streamlit as st


def render() -> None:
    st.title("Curate")
    st.info("This step is coming in a later release.")
