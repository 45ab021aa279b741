"""The compiled core decides redaction as the Python reference does.

Three rules are ported: which triggers a text holds (``present_triggers``), which triggers a
trace's string values hold and which keys its objects have (``scan_values``, what
``redact_trace`` narrows its rules by), both checked here on generated values and on every
fixture and corpus file; the redacted traces themselves must come out the same.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import REPO, corpus_root
from tests.helpers.builders import call, make_trace, result, user
from tests.helpers.engines import both_engines
from tracegrade.errors import TracegradeError
from tracegrade.redact import Redactor, redact_trace
from tracegrade.redact._redactor import present_triggers
from tracegrade.redact._scan import scan_values
from tracegrade.redact._trace import _values
from tracegrade.traces import read_traces

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from tracegrade.traces import Trace

TRIGGERS = Redactor().triggers  # the packaged rules' own triggers
T = TypeVar("T")


def _reference(text: str, triggers: tuple[str, ...]) -> set[str]:
    lowered = text.lower()
    return {trigger for trigger in triggers if trigger in lowered}


def _on_both(run: Callable[[], T]) -> T:
    """``run()`` with the compiled core, which must equal ``run()`` with the reference."""
    reference, compiled = both_engines(run)
    assert compiled == reference
    return compiled


def _both(text: str, triggers: tuple[str, ...]) -> set[str]:
    found = _on_both(lambda: present_triggers(text, triggers))
    assert found == _reference(text, triggers)
    return found


_PIECES = st.sampled_from([*TRIGGERS, "SK-", "Bearer ", "\u0130", "\u212aey", "TOKEN", "x", " "])
_TEXTS = st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=30).map("".join)


@given(_TEXTS)
def test_any_text_gives_the_same_triggers_on_both_engines(text: str) -> None:
    _both(text, TRIGGERS)


def test_triggers_are_found_case_folded_and_absent_ones_not() -> None:
    found = _both("Authorization: Bearer SK-abc \u212aey", ("bearer", "sk-", "xox", "key"))
    assert found == {"bearer", "sk-", "key"}


def test_a_lone_surrogate_is_read_by_the_reference() -> None:
    assert _both("token \ud800", ("token",)) == {"token"}


# -- the trace scan: triggers in string values, and object keys ---------------------------

# Strings and keys that JSON escapes (quotes, backslashes, control characters), cased and
# non-ASCII ones, triggers and credential names, so escapes and lower-casing are exercised.
_NAMES = st.sampled_from(
    ["api_key", "Authorization", "max_tokens", "q", 'say "hi"', "a\\b", "t\tab", "\u212aey"]
)
_STRINGS = st.one_of(_TEXTS, _NAMES, st.text(alphabet=st.characters(codec="utf-8"), max_size=6))
_VALUES = st.recursive(
    st.one_of(_STRINGS, st.integers(), st.floats(allow_nan=False), st.booleans(), st.none()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.one_of(_NAMES, _STRINGS), inner, max_size=4)
    ),
    max_leaves=20,
)
# Needles the packaged rules never use: a quote, a backslash, a NUL spanning two values.
_ODD_TRIGGERS = (*TRIGGERS, '"', "\\", "\t", "\x00", "n\x00t", "\u0131", "i\u0307", "", "KEY")


@given(st.lists(_VALUES, max_size=5))
def test_any_values_give_the_same_scan_on_both_engines(values: list[Any]) -> None:
    _on_both(lambda: scan_values(values, _ODD_TRIGGERS))


def test_triggers_in_keys_do_not_count_and_keys_are_listed() -> None:
    values = ["Task", {"usage": {"max_tokens": 5}, "note": ["Bearer x"]}]
    present, keys = _on_both(lambda: scan_values(values, ("token", "bearer")))
    assert present == {"bearer"}
    assert keys == {"usage", "max_tokens", "note"}


def test_text_that_json_escapes_is_scanned_as_it_reads() -> None:
    values = [{'a "quoted" \\ key': 'say "SK-1"\n\u212a'}]
    present, keys = _on_both(lambda: scan_values(values, ('"sk-1"', "\nk", "\\")))
    assert present == {'"sk-1"', "\nk"}
    assert keys == {'a "quoted" \\ key'}


def test_a_trace_whose_keys_alone_hold_triggers_is_left_as_it_was() -> None:
    trace = make_trace(
        [user("go"), call("c1", "search", {"max_tokens": 5}), result("c1", True, "done")],
        metadata={"usage": {"input_tokens": 3}},
    )
    assert redact_trace(trace, Redactor()) is trace


def _files() -> list[Path]:
    found = sorted(p for p in (REPO / "tests" / "fixtures").rglob("*") if p.is_file())
    corpus = corpus_root()
    if corpus.is_dir():
        found += sorted(p for p in corpus.rglob("*") if p.is_file())
    return found


def _params() -> list[object]:
    return [
        pytest.param(p, marks=[pytest.mark.corpus] if corpus_root() in p.parents else [])
        for p in _files()
    ]


def _read(path: Path) -> list[Trace] | tuple[str, str]:
    """The file's traces redacted by no rule (names still apply), or its error."""
    try:
        return list(read_traces(path, redactor=Redactor(())))[:40]
    except TracegradeError as error:
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("path", _params(), ids=lambda p: str(p.relative_to(p.parents[2])))
def test_every_file_is_read_scanned_and_redacted_alike_by_both_engines(path: Path) -> None:
    read = _on_both(lambda: _read(path))  # the depth verdicts among the rest
    for trace in read if isinstance(read, list) else []:
        values = _values(trace)
        _on_both(partial(scan_values, values, _ODD_TRIGGERS))
        redacted = _on_both(partial(redact_trace, trace, Redactor()))
        # Narrowed by the scan or not, the redaction is the one every rule makes.
        assert redacted == redact_trace(trace, Redactor().narrowed_to(set(TRIGGERS)))


def test_a_secret_in_a_corpus_like_trace_is_found_by_both() -> None:
    body = {"headers": {"Authorization": "Bearer 9f8e7d6c5b4a39281706"}, "key": "sk-" + "a1" * 12}
    trace = make_trace([user("go"), call("c1", "fetch", body), result("c1", True, "ok")])
    redacted = _on_both(lambda: redact_trace(trace, Redactor()))
    dumped = orjson.dumps(redacted.model_dump(mode="json")).decode()
    assert "9f8e7d6c5b4a39281706" not in dumped
    assert "a1a1a1" not in dumped
