"""Shared test settings. Area-specific fixtures live in each tests/<area>/conftest.py."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "long", deadline=None, suppress_health_check=list(HealthCheck), max_examples=100_000
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Kivy must never open a window or read argv in tests that merely import it.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
