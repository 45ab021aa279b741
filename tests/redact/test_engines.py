"""The compiled core finds the same redaction triggers as the Python reference."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.engines import both_engines
from tracegrade.redact import Redactor
from tracegrade.redact._redactor import present_triggers

TRIGGERS = Redactor()._triggers  # the packaged rules' own triggers


def _reference(text: str, triggers: tuple[str, ...]) -> set[str]:
    lowered = text.lower()
    return {trigger for trigger in triggers if trigger in lowered}


def _both(text: str, triggers: tuple[str, ...]) -> set[str]:
    reference, compiled = both_engines(lambda: present_triggers(text, triggers))
    assert compiled == reference == _reference(text, triggers)
    return compiled


_PIECES = st.sampled_from([*TRIGGERS, "SK-", "Bearer ", "\u0130", "\u212aey", "TOKEN", "x", " "])


@given(st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=30).map("".join))
def test_any_text_gives_the_same_triggers_on_both_engines(text: str) -> None:
    _both(text, TRIGGERS)


def test_triggers_are_found_case_folded_and_absent_ones_not() -> None:
    found = _both("Authorization: Bearer SK-abc \u212aey", ("bearer", "sk-", "xox", "key"))
    assert found == {"bearer", "sk-", "key"}


def test_a_lone_surrogate_is_read_by_the_reference() -> None:
    assert _both("token \ud800", ("token",)) == {"token"}
