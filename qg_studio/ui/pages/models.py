"""The Models page (placeholder until its issue lands)."""

import streamlit as st


def render() -> None:
    st.title("Models")
    st.info("This step is coming in a later release.")
