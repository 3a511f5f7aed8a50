"""Logs: one event a line on the stderr of the moment they are logged."""

from __future__ import annotations

import io
import json
import sys

import pytest

from bot.logging import configure_logging, get_logger


def test_an_event_goes_to_the_stderr_of_its_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    first, later = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    configure_logging("INFO", json_output=True)
    first.close()  # e.g. the captured stream of a test that configured logging
    monkeypatch.setattr(sys, "stderr", later)
    get_logger("mjbot.test").warning("still_heard", seat=2)
    line = json.loads(later.getvalue())
    assert (line["event"], line["seat"], line["level"]) == ("still_heard", 2, "warning")


def test_levels_below_the_configured_one_are_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("WARNING", json_output=True)
    get_logger("mjbot.test").info("quiet")
    get_logger("mjbot.test").error("loud")
    lines = capsys.readouterr().err.splitlines()
    assert [json.loads(x)["event"] for x in lines] == ["loud"]


def test_a_logger_nothing_configured_writes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """structlog's own default prints to stdout, which belongs to the protocols and to
    ``--json`` (a Ray worker or a library use configures nothing)."""
    import structlog

    structlog.reset_defaults()
    get_logger("mjbot.test").info("heard")
    out, err = capsys.readouterr()
    assert out == "" and "heard" in err
