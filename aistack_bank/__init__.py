"""aistack-bank: a question-bank authoring and translation pipeline."""

__version__ = "0.1.0"

