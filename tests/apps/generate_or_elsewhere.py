import streamlit as st

from qg_studio.ui.pages.generate import render

# A run that draws another page draws none of Generate's widgets, as st.navigation does.
if st.session_state.get("elsewhere"):
    st.write("another page")
else:
    render()
