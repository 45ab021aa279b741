"""The error tree: builtin bases, exit codes and messages that say where."""

from __future__ import annotations

import pytest

from tracegrade.errors import (
    InfrastructureError,
    InputError,
    RegistryError,
    SuiteError,
    TraceFormatError,
    TracegradeError,
    UnknownQuestionError,
    UnreadableResultError,
)


@pytest.mark.parametrize(
    ("error", "bases", "exit_code"),
    [
        (InputError, (TracegradeError, ValueError), 2),
        (TraceFormatError, (InputError, ValueError), 2),
        (UnreadableResultError, (InputError, ValueError), 2),
        (SuiteError, (InputError, ValueError), 2),
        (UnknownQuestionError, (SuiteError, KeyError, ValueError), 2),
        (RegistryError, (InputError, ValueError), 2),
        (InfrastructureError, (TracegradeError, RuntimeError), 3),
        (TracegradeError, (Exception,), 3),
    ],
)
def test_tree_bases_and_exit_codes(error, bases, exit_code) -> None:
    assert all(issubclass(error, base) for base in bases)
    assert error.exit_code == exit_code


def test_message_names_file_case_frame_and_tool_then_the_fix() -> None:
    error = UnreadableResultError(
        "unreadable result", fix="Fix it", path="t.json", case="04/a", frame=3, tool="read_file"
    )
    assert str(error) == "t.json: case 04/a: frame 3: tool 'read_file': unreadable result. Fix it"


def test_message_without_context_is_the_bare_text() -> None:
    assert str(TracegradeError("boom")) == "boom"


def test_frame_zero_is_still_named() -> None:
    assert str(TraceFormatError("bad", frame=0)) == "frame 0: bad"


def test_in_file_adds_the_path_once() -> None:
    error = TraceFormatError("bad", frame=1)
    assert error.in_file("a.json") is error
    error.in_file("b.json")
    assert error.path == "a.json"
    assert str(error) == "a.json: frame 1: bad"


def test_unknown_question_message_is_not_a_repr() -> None:
    error = UnknownQuestionError("no question 'x'", case="c1")
    assert str(error) == "case c1: no question 'x'"
