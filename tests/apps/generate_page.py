from qg_studio.ui.pages.generate import render

render()
