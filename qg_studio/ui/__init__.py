"""The Streamlit app: the only package of QG Studio that imports streamlit."""
