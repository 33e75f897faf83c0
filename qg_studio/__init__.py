"""QG Studio: reading-comprehension question generation for teachers and annotators."""

__version__ = "0.1.0"
