from qg_studio.ui.pages.curate import render

render()
