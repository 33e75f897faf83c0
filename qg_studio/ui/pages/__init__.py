"""One module a page; each exposes ``render()``."""
