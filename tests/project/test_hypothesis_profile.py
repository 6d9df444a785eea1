"""The Hypothesis profile of a run (tests/conftest.py): reproducible examples in CI."""
from __future__ import annotations

from hypothesis import settings

from conftest import CI_MAX_EXAMPLES, hypothesis_profile


def test_ci_set_chooses_the_ci_profile() -> None:
    assert hypothesis_profile({"CI": "true"}) == "ci"
    assert hypothesis_profile({"CI": "1"}) == "ci"


def test_no_ci_chooses_the_local_profile() -> None:
    assert hypothesis_profile({}) == "local"
    assert hypothesis_profile({"CI": ""}) == "local"
    assert hypothesis_profile({"CI": "false"}) == "local"
    assert hypothesis_profile({"CI": "0"}) == "local"


def test_no_profile_has_a_deadline() -> None:
    """A deadline is a wall-clock assertion: a busy machine would fail a correct property."""
    for name in ("ci", "local"):
        assert settings.get_profile(name).deadline is None, name


def test_an_explicit_profile_wins() -> None:
    assert hypothesis_profile({"CI": "true", "HYPOTHESIS_PROFILE": "default"}) == "default"


def test_the_ci_profile_is_derandomized_without_deadline() -> None:
    ci = settings.get_profile("ci")
    assert ci.derandomize is True
    assert ci.deadline is None
    assert ci.max_examples == CI_MAX_EXAMPLES
    assert ci.database is None


def test_this_run_uses_the_profile_of_its_environment() -> None:
    import os
    chosen = settings.get_profile(hypothesis_profile(os.environ))
    assert settings.default.derandomize == chosen.derandomize
    assert settings.default.max_examples == chosen.max_examples
