from qg_studio.ui.pages.ask import render

render()
