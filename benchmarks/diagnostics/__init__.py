"""Diagnostics: where a step's time goes, and experiments that informed the design (each script's
docstring says what it measures; docs/design/ records what the figures decided)."""
