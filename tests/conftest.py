"""Shared test settings."""

from hypothesis import settings

# Tables are built on first use, so the first example of a run may be slow: no deadline.
settings.register_profile("studpoker", deadline=None, max_examples=200)
settings.load_profile("studpoker")
