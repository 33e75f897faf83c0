"""Entry point: ``streamlit run streamlit_app.py``."""

from qg_studio.ui.app import main

main()
