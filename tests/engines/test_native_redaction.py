"""The core tells whether redaction could change a native trace, and grades it only if not.

``grade_native(data, redactor=R)`` must be ``grade(redact_trace(parse_native_trace(data), R))``
on both engines. The core runs the rules' patterns over the texts redaction reads
(rust/src/native/redaction_rules.rs); whenever ``redact_trace`` changes the trace, the core
must have declined (soundness). It may decline where nothing changes, but not often: every
real trace without a secret and the generated benchmark traces stay on the fast path.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks._generate import SEED, _pools, generate_trace
from tests.helpers.builders import assistant, call, command_body, compaction, result, user
from tests.helpers.engines import engine
from tests.redact.test_redact import ALL_KINDS, ORDINARY
from tracegrade import _core
from tracegrade.errors import TracegradeError
from tracegrade.redact import RedactionRule, Redactor, redact_trace, user_rule
from tracegrade.redact._trace import _values
from tracegrade.traces import default_redactor, parse_native_trace, read_traces
from tracegrade.verdicts import NO_QUESTION, compiled_grade, grade, grade_native
from tracegrade.verdicts._native import native_grader, prepared_question, redaction_patterns

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade._core import RedactionPatterns

PROJECT = Redactor().with_rules([user_rule("employee-id", r"EMP-\d{6}")], names=("x-internal",))
REDACTORS = {"packaged": default_redactor(), "project": PROJECT}
PLACES = ("task", "user", "assistant", "args", "result", "summary")


def _native(text: str, place: str) -> bytes:
    """A native trace with ``text`` in one place (nested, for args and results)."""
    at = dict.fromkeys(PLACES, "ordinary words")
    at[place] = text or "-"  # a task is never empty
    frames = [
        user(at["user"]),
        call("c1", "run_command", {"command": "ls", "env": {"deep": [1, at["args"]]}}),
        result("c1", True, command_body("ls", at["result"])),
        call("c2", "fetch", {"q": "x"}),
        result("c2", False, {"ok": False, "error": [{"text": at["result"]}, None, 2]}),
        compaction(at["summary"]),
        assistant(at["assistant"]),
    ]
    raw = {"id": "r", "commit": "v1", "model": "m", "task": at["task"], "outcome": "success"}
    return orjson.dumps({**raw, "tokens": [0] * len(frames), "frames": frames})


def _declined(data: bytes, redactor: Redactor, patterns: RedactionPatterns) -> bool:
    """Whether ``grade_native`` with these patterns leaves the trace to the reference."""
    grader = native_grader(_core)
    answer = grader.grade(data, prepared_question(grader, NO_QUESTION), True, patterns)
    return answer is None or redactor.names_a_credential(answer[1])


def _unsound(data: bytes, redactor: Redactor, patterns: RedactionPatterns) -> bool:
    """Redaction changes the trace, yet the core would grade it as written."""
    trace = parse_native_trace(data)
    return redact_trace(trace, redactor) is not trace and not _declined(data, redactor, patterns)


def _check(data: bytes, redactor: Redactor) -> bool:
    """The soundness and the grades on both engines; whether the core took the trace."""
    with engine("python"):
        expected = grade(redact_trace(parse_native_trace(data), redactor), None)
        assert grade_native(data, redactor=redactor) == expected
    with engine("compiled"):
        assert not _unsound(data, redactor, redaction_patterns(_core, redactor))
        assert grade_native(data, redactor=redactor) == expected
        return compiled_grade(data, redactor=redactor) is not None


@pytest.mark.parametrize("which", sorted(REDACTORS))
@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_a_secret_of_every_kind_anywhere_sends_the_trace_to_the_reference(
    kind: str, place: str, which: str
) -> None:
    text, _ = ALL_KINDS[kind]
    assert not _check(_native(f"note:\n{text}", place), REDACTORS[which])


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("text", ORDINARY)
def test_text_that_only_looks_like_a_secret_stays_on_the_fast_path(text: str, place: str) -> None:
    assert _check(_native(text, place), default_redactor())


def test_a_project_pattern_and_name_send_the_trace_to_the_reference() -> None:
    assert not _check(_native("employee EMP-123456", "result"), PROJECT)
    assert _check(_native("employee EMP-12345", "result"), PROJECT)
    named = orjson.loads(_native("x", "task"))
    named["frames"][1]["args"] = {"X-Internal": "v"}
    assert not _check(orjson.dumps(named), PROJECT)
    assert _check(orjson.dumps(named), default_redactor())


@pytest.mark.parametrize("key", ["Authorization", "api_\u212aey", "X-CSRF-Token", "password"])
def test_a_key_naming_a_credential_sends_the_trace_to_the_reference(key: str) -> None:
    named = orjson.loads(_native("x", "task"))
    named["frames"][1]["args"]["env"] = {key: "v4lue"}
    assert not _check(orjson.dumps(named), default_redactor())


def test_a_pattern_the_core_cannot_compile_may_match_wherever_it_runs() -> None:
    lenient = Redactor().with_rules([user_rule("emp", r"(?i)emp-\d+")])  # inline flags
    patterns = redaction_patterns(_core, lenient)
    assert patterns.counts == (len(lenient.rules), 1)
    assert patterns.declines(_native("nothing secret", "task")) == "emp"
    assert not _check(_native("nothing secret", "task"), lenient)
    assert not _check(_native("see EMP-42", "user"), lenient)


def test_an_accept_test_the_core_does_not_know_accepts_every_match() -> None:
    never = RedactionRule("odd", re.compile(r"zz\d"), triggers=("zz",), accept=lambda _: False)
    redactor = Redactor().with_rules([never])
    assert redaction_patterns(_core, redactor).declines(_native("a zz1", "user")) == "odd"
    assert not _check(_native("a zz1", "user"), redactor)  # the reference changes nothing
    assert _check(_native("a zz", "user"), redactor)


_PIECES = st.sampled_from(
    [
        *(text for text, _ in ALL_KINDS.values()),
        *ORDINARY,
        "EMP-123456",
        "://",
        "api",
        "token",
        "basic ",
        "Bearer ",
        "secret",
        "cookie",
        "\n",
        " = ",
        '"',
        ":",
        "\u0130",
        "\u212a",
        "[REDACTED:x]",
    ]
)
_TEXTS = st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=8).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS, st.sampled_from(PLACES), st.sampled_from(sorted(REDACTORS)))
def test_any_text_anywhere_is_graded_as_redacted(text: str, place: str, which: str) -> None:
    _check(_native(text, place), REDACTORS[which])


def test_a_core_that_ignores_fold_is_caught() -> None:
    """The mutant: each rule's pattern run on the text as written, not lower-cased."""
    redactor = default_redactor()
    unfolded = Redactor(dataclasses.replace(rule, fold=False) for rule in redactor.rules)
    mutant = redaction_patterns(_core, unfolded)
    data = _native("Authorization: Bearer 9f8e7d6c5b4a39281706", "result")
    assert _unsound(data, redactor, mutant)
    assert not _unsound(data, redactor, redaction_patterns(_core, redactor))


def _files(folder: Path) -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in sorted(folder.rglob("*.json"))]


def test_every_real_trace_without_a_secret_stays_on_the_fast_path(nine_commits: Path) -> None:
    redactor = default_redactor()
    traces = _files(nine_commits)
    assert len(traces) == 18
    unredacted: list[tuple[str, bytes]] = []
    for name, data in traces:
        trace = parse_native_trace(data, name)
        if redact_trace(trace, redactor) is trace:
            unredacted.append((name, data))
        assert not _unsound(data, redactor, redaction_patterns(_core, redactor)), name
    assert len(unredacted) == 18
    fast = [name for name, data in unredacted if compiled_grade(data, redactor=redactor)]
    assert len(fast) == 18, sorted({name for name, _ in unredacted} - set(fast))


def test_the_generated_benchmark_traces_stay_on_the_fast_path() -> None:
    redactor = default_redactor()
    pools = _pools(SEED)
    generated = [generate_trace(index, pools) for index in range(400)]
    patterns = redaction_patterns(_core, redactor)
    with_triggers = 0
    declined: list[str] = []
    for name, data in generated:
        assert not _unsound(data, redactor, patterns), name
        raw = orjson.loads(data)
        lowered = "\x00".join(_strings([raw["task"], raw["frames"]])).lower()
        with_triggers += any(trigger in lowered for trigger in redactor.triggers)
        if compiled_grade(data, redactor=redactor) is None:
            declined.append(name)
    assert with_triggers >= 20  # the corpus does hold triggers: the rules' patterns ran
    assert len(declined) <= 4, f"{len(declined)} of 400 left to the reference: {declined[:5]}"


def _strings(value: Any) -> list[str]:
    """The string values of a JSON value (not its keys)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in _strings(item)]


def _texts_of_fixtures() -> list[str]:
    """Every string redaction reads in the fixture traces and the corpus (unredacted)."""
    from tests.redact.test_engines import _files  # noqa: PLC0415 - the same files it reads

    texts: set[str] = set()
    for path in _files():
        try:
            traces = list(read_traces(path, redactor=Redactor(())))[:40]
        except TracegradeError:
            continue
        for trace in traces:
            texts.update(_strings(orjson.loads(orjson.dumps(_values(trace), default=str))))
    return sorted(texts)


def test_every_text_of_the_fixtures_and_corpus_is_declined_when_redaction_changes_it() -> None:
    redactor = default_redactor()
    patterns = redaction_patterns(_core, redactor)
    found = _texts_of_fixtures()
    assert len(found) >= 1000
    # The fixtures hold no secret: each kind is put into some of their texts too.
    planted = [
        f"{text[:300]}\n{secret}" for text in found[::50] for secret, _ in ALL_KINDS.values()
    ]
    texts = found + planted
    changed = declined = 0
    for text in texts:
        frames = [call("c1", "f", {}), result("c1", False, {"ok": False, "e": text}), user("x")]
        raw = {"id": "r", "commit": "v1", "model": "m", "task": "t", "outcome": "success"}
        data = orjson.dumps({**raw, "tokens": [0] * 3, "frames": frames})
        why = patterns.declines(data)
        assert why != "unread", text[:80]
        declined += why is not None
        if redactor.text(text)[1]:
            changed += 1
            assert why is not None, text[:200]
    assert changed >= len(planted)
    assert declined <= changed + len(texts) // 100, (declined, changed, len(texts))


_NAMES = st.sampled_from(["q", "headers", "Authorization", "api_key", "max_tokens", "env", "url"])
_VALUES = st.recursive(
    st.one_of(_TEXTS, st.integers(-(2**40), 2**40), st.booleans(), st.none()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(_NAMES, inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_VALUES, _VALUES, st.sampled_from(sorted(REDACTORS)))
def test_any_arguments_and_failed_result_are_graded_as_redacted(
    args: Any,
    error: Any,
    which: str,
) -> None:
    frames = [
        user("go"),
        call("c1", "fetch", args),
        result("c1", False, {"ok": False, "error": error}),
        assistant("done"),
    ]
    raw = {"id": "r", "commit": "v1", "model": "m", "task": "t", "outcome": "success"}
    _check(orjson.dumps({**raw, "tokens": [0] * 4, "frames": frames}), REDACTORS[which])
