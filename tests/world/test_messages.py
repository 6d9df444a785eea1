"""The message catalog's rendering: durations are written as people read them (issue 12)."""
from __future__ import annotations

import pytest

from lobby.text.messages import CATALOGS, duration, text


@pytest.mark.parametrize("seconds, shown", [
    (0, "0 seconds"), (1, "1 second"), (2.5, "2.5 seconds"), (8, "8 seconds"),
    (0.133333, "0.1 seconds"), (59.94, "59.9 seconds"), (60, "1 minute"), (90, "1 minute 30 seconds"),
    (120, "2 minutes"), (120.4, "2 minutes"), (3600, "1 hour"), (7500, "2 hours 5 minutes"),
    (86400, "24 hours"), ("30", "30 seconds"),
])
def test_a_duration_reads_as_people_say_it(seconds: float, shown: str) -> None:
    assert duration(seconds) == shown


def test_every_duration_in_the_catalog_is_written_with_its_unit() -> None:
    """No template writes a bare number of seconds or minutes (`5 s`, `{minutes} minutes`)."""
    for key, template in CATALOGS["en"].items():
        assert "} s " not in template and "} s." not in template and "} s)" not in template \
            and "} s;" not in template and "{minutes}" not in template, key
    assert text("idle-timeout", seconds=8) == "Disconnected after 8 seconds without input."
    assert text("idle-timeout", seconds=120) == "Disconnected after 2 minutes without input."
    assert text("bomb-window", seconds=1) == \
        "Wait 1 second before you go on: the others may still bomb the trick."
    assert text("table-vanished", name="Bob", grace=120.0).startswith(
        "Bob has vanished; the game waits for them. After 2 minutes the other")


def test_a_template_with_a_bad_duration_falls_back_to_the_template() -> None:
    assert text("bomb-window", seconds="soon") == CATALOGS["en"]["bomb-window"]
