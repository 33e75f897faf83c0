from qg_studio.ui.pages.story import render

render()
