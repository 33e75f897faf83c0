from qg_studio.ui.pages.annotate import render

render()
