"""Real third-party span fixtures sent to the receiver as the OTLP JSON an exporter sends.

The fixtures are read in place from $TRACEGRADE_CORPUS (skipped when absent, never
copied). None of them is an OTLP export file: Phoenix's span JSON and the bare attribute
maps are wrapped into OTLP JSON spans, the way an OpenInference or OTel exporter would have
sent the same spans. What the receiver stores must read as the reader reads the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
import pytest

from tests.helpers.readers import real_corpus_file
from tests.web._otlp_bodies import (
    JSON,
    json_body,
    json_export,
    json_span,
    local_client,
    phoenix_as_otlp,
)
from tracegrade.traces import Trace, read_traces
from tracegrade.verdicts import Grade

if TYPE_CHECKING:
    from tracegrade.store import SqlStore

pytestmark = pytest.mark.corpus

_ATTRIBUTE_TRACE = "0123456789abcdef0123456789abcdef"


def frames(trace: Trace) -> list[dict[str, Any]]:
    """The frames without their origin, call ids numbered in order of first use.

    Span ids differ (OTLP ids are hex), and so do the call ids a reader makes from a span
    id when a call has none; which call a result answers must not.
    """
    numbered: dict[str, str] = {}
    out = []
    for frame in trace.frames:
        dumped = frame.model_dump(exclude={"origin"})
        if "id" in dumped:
            dumped["id"] = numbered.setdefault(dumped["id"], f"call-{len(numbered)}")
        out.append(dumped)
    return out


def received(store: SqlStore, trace_id: str) -> Trace:
    record = store.get_received_trace(trace_id)
    assert record is not None, f"trace {trace_id} was not stored"
    assert record.trace["problem"] is None
    assert record.grade is not None
    return Trace.model_validate(record.trace)


@pytest.mark.parametrize(
    "name", ["openinference_client_span_tool_calls.json", "otel_genai_client_span_tool_calls.json"]
)
def test_an_attribute_map_sent_as_one_span_reads_as_the_file(store: SqlStore, name: str) -> None:
    path = real_corpus_file("trace_fixtures", "otel_span_attributes", name)
    values = orjson.loads(path.read_bytes())
    span = json_span("00000000000000a1", "chat", values, trace_id=_ATTRIBUTE_TRACE)
    response = local_client(store).post(
        "/v1/traces", content=json_body(json_export([span])), headers=JSON
    )
    assert response.status_code == 200
    assert response.json() == {}
    (expected,) = read_traces(path)
    got = received(store, _ATTRIBUTE_TRACE)
    assert got.source_format == expected.source_format
    assert frames(got) == frames(expected)
    record = store.get_received_trace(_ATTRIBUTE_TRACE)
    assert record is not None
    grade = Grade.model_validate(record.grade)
    assert (grade.question_id, grade.claims) == ("-", ())  # graded with no question
    # "...is currently rainy with a temperature of 57°F": the tool said "rainy, 57°F", the
    # user named the city; every claim the answer makes came from one or the other.
    assert [
        claim.raw for claim in grade.extracted if claim.support != "read" and claim.counted
    ] == []


@pytest.mark.parametrize("name", ["pxi_turn_subagent_trace.json", "pxi_suggestion_traces.json"])
def test_phoenix_spans_sent_over_otlp_read_as_the_file(store: SqlStore, name: str) -> None:
    from tests.web._otlp_bodies import hex_id  # noqa: PLC0415

    path = real_corpus_file("trace_fixtures", "phoenix_openinference_spans", name)
    raw = orjson.loads(path.read_bytes())
    lists = list(raw.values()) if isinstance(raw, dict) else [raw]
    client = local_client(store)
    for spans in lists:
        response = client.post(
            "/v1/traces", content=json_body(phoenix_as_otlp(spans)), headers=JSON
        )
        assert response.status_code == 200
        assert response.json() == {}
    expected = list(read_traces(path))
    assert len(store.received_traces()) == len(expected)
    for trace in expected:
        got = received(store, hex_id(trace.id, 32))
        assert got.source_format == "openinference"
        assert got.task == trace.task
        assert got.final_answer == trace.final_answer
        assert frames(got) == frames(trace)
