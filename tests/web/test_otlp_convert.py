"""The receiver's pure parts: ids, splitting, merging, the touchpoint, the no-question grade."""

from __future__ import annotations

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from tests.web._otlp_bodies import (
    GENAI_TRACE,
    TRACE,
    attributes,
    genai_request,
    json_export,
    json_span,
    openinference_spans,
)
from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_trace
from tracegrade.verdicts import Grade
from tracegrade.web._intake_grade import grade_received
from tracegrade.web._otlp_convert import (
    SpanEntry,
    entries_of,
    export_of,
    merge_entries,
    parse_protobuf_export,
    read_received,
    split_export,
    touchpoint_of,
)


def test_protobuf_ids_become_the_hex_of_otlp_json() -> None:
    export = parse_protobuf_export(genai_request())
    spans = export["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert {span["traceId"] for span in spans} == {GENAI_TRACE.hex()}
    assert spans[0]["spanId"] == "b000000000000001"
    assert "parentSpanId" not in spans[0]  # a root: empty bytes are left out
    assert spans[1]["parentSpanId"] == "b000000000000001"
    assert spans[1]["kind"] == 3  # enums as numbers, as OTLP JSON writes them


def test_a_protobuf_link_id_is_hex_too() -> None:
    span = Span(
        trace_id=b"\x01" * 16, span_id=b"\x02" * 8, links=[Span.Link(trace_id=b"\x03" * 16)]
    )
    body = ExportTraceServiceRequest(
        resource_spans=[ResourceSpans(scope_spans=[ScopeSpans(spans=[span])])]
    ).SerializeToString()
    link = parse_protobuf_export(body)["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["links"][0]
    assert link["traceId"] == "03" * 16


def test_spans_are_grouped_by_trace_and_ids_lowered() -> None:
    other = "ab" * 16
    spans = [
        json_span("A000000000000001", "x", {}, trace_id=TRACE.upper()),
        json_span("a000000000000002", "y", {}, trace_id=other, parent="B000000000000001"),
        json_span("a000000000000003", "z", {}),
    ]
    batch = split_export(json_export(spans))
    assert list(batch.traces) == [TRACE, other]
    assert [entry.span_id for entry in batch.traces[TRACE]] == [
        "a000000000000001",
        "a000000000000003",
    ]
    assert batch.traces[other][0].span["parentSpanId"] == "b000000000000001"
    assert batch.rejected == 0


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"spanId": "123"}, "'spanId' must be 16 hex digits"),
        ({"spanId": "0" * 16}, "'spanId' is all zeros"),
        ({"traceId": None}, "'traceId' must be 32 hex digits"),
        ({"parentSpanId": "zz"}, "'parentSpanId' must be 16 hex digits or empty"),
        ({"attributes": [{"key": 1, "value": {}}]}, "'attributes' must be a list"),
        ({"events": {}}, "'events' must be a list"),
        ({"events": [{"name": "e", "attributes": {"a": 1}}]}, "'events' must be a list"),
        ({"startTimeUnixNano": "soon"}, "'startTimeUnixNano' must be an integer"),
    ],
)
def test_a_malformed_span_is_rejected_and_named(change: dict[str, object], said: str) -> None:
    good = json_span("a000000000000001", "good", {})
    bad = {**json_span("a000000000000002", "bad", {}), **change}
    batch = split_export(json_export([good, bad]))
    assert batch.rejected == 1
    assert batch.problems[0].startswith("resourceSpans 0, scopeSpans 0, span 1: ")
    assert said in batch.problems[0]
    assert [entry.span_id for entry in batch.traces[TRACE]] == ["a000000000000001"]


@pytest.mark.parametrize(
    "export",
    [
        {"resourceSpans": [{"resource": "r", "scopeSpans": []}]},
        {"resourceSpans": [{"scopeSpans": [{"scope": 3, "spans": []}]}]},
    ],
)
def test_a_resource_or_scope_that_is_not_an_object_is_not_otlp(export: dict[str, object]) -> None:
    with pytest.raises(TraceFormatError, match="must be an object"):
        split_export(export)


def test_a_span_that_is_not_an_object_is_rejected() -> None:
    batch = split_export({"resourceSpans": [{"scopeSpans": [{"spans": ["x"]}]}]})
    assert (batch.rejected, batch.traces) == (1, {})


def test_a_merge_keeps_stored_spans_and_replaces_a_resent_one() -> None:
    def entry(span_id: str, name: str) -> SpanEntry:
        return SpanEntry({}, {}, json_span(span_id, name, {}))

    stored = [entry("a000000000000001", "one"), entry("a000000000000002", "two")]
    merged = merge_entries(
        stored, [entry("a000000000000002", "two again"), entry("a0000000000000ff", "new")]
    )
    assert [(e.span_id, e.span["name"]) for e in merged] == [
        ("a000000000000001", "one"),
        ("a000000000000002", "two again"),
        ("a0000000000000ff", "new"),
    ]


def test_an_export_of_entries_reads_back_the_same_entries() -> None:
    first = split_export(json_export(openinference_spans(), {"service.name": "a"})).traces[TRACE]
    second = split_export(json_export(openinference_spans(), {"service.name": "b"})).traces[TRACE]
    mixed = [first[0], second[1], first[2], second[3]]
    export = export_of(mixed)
    assert len(export["resourceSpans"]) == 2  # one block per resource
    assert sorted(e.span_id for e in entries_of(export)) == sorted(e.span_id for e in mixed)


def _entries(resource: dict[str, object], span: dict[str, object] | None = None) -> list[SpanEntry]:
    values = attributes(span or {})
    return [
        SpanEntry({"attributes": attributes(resource)}, {}, {"spanId": "1", "attributes": values})
    ]


def test_the_touchpoint_attribute_wins_then_a_registry_service_name() -> None:
    ids = {"weather"}
    assert (
        touchpoint_of(_entries({"tracegrade.touchpoint": "t", "service.name": "weather"}), ids)
        == "t"
    )
    assert (
        touchpoint_of(_entries({"service.name": "weather"}, {"tracegrade.touchpoint": "s"}), ids)
        == "s"
    )
    assert touchpoint_of(_entries({"service.name": "weather"}), ids) == "weather"
    assert touchpoint_of(_entries({"service.name": "weather"}), set()) is None
    assert touchpoint_of(_entries({"service.name": "other"}), ids) is None
    assert touchpoint_of(_entries({"tracegrade.touchpoint": ""}), ids) is None  # blank: none


def test_spans_without_known_attributes_are_not_a_run() -> None:
    entries = split_export(json_export([json_span("a000000000000001", "x", {"k": 1})])).traces[
        TRACE
    ]
    with pytest.raises(TraceFormatError, match="no span carries OpenInference"):
        read_received(entries)


def test_received_spans_read_as_the_reader_reads_the_export_file() -> None:
    export = json_export(openinference_spans())
    entries = split_export(export).traces[TRACE]
    import orjson  # noqa: PLC0415

    assert read_received(entries) == read_trace(
        orjson.dumps(export_of(entries)), format_name="openinference"
    )


def test_a_received_grade_extracts_the_answers_claims_with_no_question() -> None:
    trace = read_received(split_export(json_export(openinference_spans())).traces[TRACE])
    grade = Grade.model_validate(grade_received(trace))
    assert (grade.question_id, grade.answer, grade.claims) == ("-", "ungraded", ())
    figures = [(c.raw, c.support, c.evidence) for c in grade.extracted if c.kind == "figure"]
    assert figures == [("45 days", "read", ("f2",)), ("$500", "unsupported", ())]
    assert [c.raw for c in grade.unsupported_claims if c.kind == "figure"] == ["$500"]
