"""Benchmark item 13 on a tiny input: its runs are real intake input, every one is stored
read and graded over the served app, and the grading share it reports is a share."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import pytest

from benchmarks._otlp_grading import stored_runs
from benchmarks._otlp_intake import measure
from benchmarks._otlp_runs import JSON, PROTOBUF, Request, make_runs, requests
from tracegrade.store import open_store
from tracegrade.traces import ToolCallFrame
from tracegrade.web._intake import receive
from tracegrade.web._otlp_convert import parse_json_export, parse_protobuf_export, split_export

if TYPE_CHECKING:
    from pathlib import Path


def _receive_all(url: str, bodies: list[Request]) -> None:
    store = open_store(url)
    try:
        for request in bodies:
            parse = parse_json_export if request.content_type == JSON else parse_protobuf_export
            assert receive(store, split_export(parse(request.body))) == ()
    finally:
        store.close()


def test_the_runs_read_as_runs_with_their_tool_calls_and_answers(tmp_path: Path) -> None:
    runs = make_runs(8)
    bodies = requests(runs, 2)
    assert {request.content_type for request in bodies} == {JSON, PROTOBUF}
    url = f"sqlite:///{tmp_path / 'intake.db'}"
    _receive_all(url, bodies)
    stored = {trace.id: trace for trace in stored_runs(url)}
    assert len(stored) == len(runs)
    formats = set()
    for run in runs:
        trace = next(t for t in stored.values() if run.answer == t.final_answer)
        formats.add(trace.source_format)
        calls = [frame for frame in trace.frames if isinstance(frame, ToolCallFrame)]
        assert [call.name for call in calls] == [call.tool for call in run.calls]
    assert formats == {"openinference", "otel-genai"}


def test_a_run_stored_unread_is_not_counted_as_graded(tmp_path: Path) -> None:
    # The item's "every run stored read and graded" check: a run whose spans carry no
    # OpenInference or GenAI attributes is stored with a problem and must not count.
    bodies = requests(make_runs(2), 2)
    export = {
        "resourceSpans": [
            {
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": "f" * 32,
                                "spanId": "e" * 16,
                                "name": "plain",
                                "startTimeUnixNano": "1",
                                "attributes": [],
                            }
                        ]
                    }
                ]
            }
        ]
    }
    bare = Request(JSON, orjson.dumps(export), ("f" * 32,))
    url = f"sqlite:///{tmp_path / 'intake.db'}"
    _receive_all(url, [*bodies, bare])
    assert len(stored_runs(url)) == 2


@pytest.mark.slow
def test_the_item_stores_every_run_and_reports_a_share() -> None:
    bodies, seconds, grading = measure(runs=4, per_request=2)
    assert len(bodies) == 2
    assert grading.runs == 4 + 2  # the warm-up request's runs too
    intake_ms = seconds * 1000 / 4
    for label in ("compiled core", "Python reference"):
        assert 0 < grading.grade_ms[label] / intake_ms < 1
    assert grading.bounded_ms > 0
