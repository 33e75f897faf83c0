from qg_studio.ui.pages.export import render

render()
