from qg_studio.ui.pages.models import render

render()
