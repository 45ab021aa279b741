"""The filled store of the web-latency benchmark: 100,000 case results, received traces.

The example project (``examples/project``) is run once into an in-memory store; its case
results (payloads as the runner writes them), run report, file hashes and versions are the
templates. Each of its touchpoints gets clones (``ID-1``, ``ID-2``, ...) so the registry has
``TOUCHPOINTS`` of them, and runs of every touchpoint are written through the store API, one
batch of case results per run, about one result in twelve turned into a failure (seeded),
until ``RESULTS`` results are stored. The first run is promoted as the baseline. Then
``RECEIVED`` OpenInference runs are received as ``POST /v1/traces`` receives them (merged,
read, graded and stored).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from benchmarks._common import REPO
from tracegrade.evals import load_project, run_evals
from tracegrade.store import (
    CaseResultRecord,
    InMemoryStore,
    RunRecord,
    TouchpointVersionRecord,
)
from tracegrade.web._intake import receive
from tracegrade.web._otlp_convert import split_export

if TYPE_CHECKING:
    from tracegrade.store import Store

RESULTS = 100_000
RECEIVED = 1_000  # traces received over OTLP, besides the case results
TOUCHPOINTS = 20
FAIL_SHARE = 1 / 12
SEED = 20_260_301
BATCH = 5_000  # case results per add_case_results call
EXAMPLE = REPO / "examples" / "project" / "tracegrade.toml"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Templates:
    """What one real run of the example project stored: the fill's templates."""

    results: tuple[CaseResultRecord, ...]
    summary: dict[str, Any]
    versions: tuple[TouchpointVersionRecord, ...]
    failure_details: dict[str, str]


def example_templates() -> Templates:
    """Run the example project once, in memory, and keep what it stored."""
    project = load_project(EXAMPLE, registered=())
    store = InMemoryStore()
    run_evals(project, store, run_id="template", backoff=0.0)
    results = tuple(store.case_results("template"))
    run = store.get_run("template")
    if run is None or not results:
        msg = "the example project stored no run"
        raise RuntimeError(msg)
    versions = tuple(v for t in project.touchpoints for v in store.touchpoint_versions(t.id))
    details = {
        r.touchpoint: str(r.payload.get("detail"))
        for r in results
        if r.outcome == "failed" and r.payload.get("detail")
    }
    return Templates(results, dict(run.summary), versions, details)


def touchpoint_ids(templates: Templates) -> list[tuple[str, str]]:
    """``(clone id, template id)`` for every touchpoint of the fill, the real ones first."""
    real = list(dict.fromkeys(result.touchpoint for result in templates.results))
    clones = [(name, name) for name in real]
    copy = 1
    while len(clones) < TOUCHPOINTS:
        clones.extend((f"{name}-{copy}", name) for name in real)
        copy += 1
    return clones[:TOUCHPOINTS]


def _renamed(value: Any, old: str, new: str) -> Any:  # noqa: ANN401 - any JSON value
    """A JSON value with every string mentioning touchpoint ``old`` rewritten for ``new``."""
    if isinstance(value, str):
        return value.replace(old, new) if old in value else value
    if isinstance(value, list):
        return [_renamed(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, old, new) for key, item in value.items()}
    return value


def _summary(templates: Templates, ids: list[tuple[str, str]], run_id: str) -> dict[str, Any]:
    summary = _renamed(templates.summary, "template", run_id)
    report = summary.get("report", {})
    items = {item["touchpoint"]: item for item in report.get("touchpoints", [])}
    report["touchpoints"] = [
        _renamed(items[real], real, clone) for clone, real in ids if real in items
    ]
    plan = summary.get("plan", {})
    plan["touchpoints"] = [clone for clone, _ in ids]
    return dict(summary)


def _run_results(
    templates: Templates, ids: list[tuple[str, str]], run_id: str, at: datetime, rng: random.Random
) -> list[CaseResultRecord]:
    results = []
    for clone, real in ids:
        for template in templates.results:
            if template.touchpoint != real:
                continue
            payload = _renamed(template.payload, real, clone)
            outcome, metric = template.outcome, template.metric
            if rng.random() < FAIL_SHARE:
                outcome, metric = "failed", 0.0
                payload["detail"] = templates.failure_details.get(real, "failed in the fill")
            results.append(
                CaseResultRecord(
                    run_id=run_id,
                    touchpoint=clone,
                    case_id=template.case_id,
                    repeat=template.repeat,
                    outcome=outcome,
                    metric=metric,
                    payload=payload,
                    recorded_at=at,
                )
            )
    return results


def _value(text: str) -> dict[str, Any]:
    return {"stringValue": text}


def otlp_export(trace_id: str, number: int, touchpoint: str) -> dict[str, Any]:
    """An OpenInference run as an OTLP JSON export: a TOOL span and the LLM span answering."""
    result = f"REFUND_WINDOW = '{30 + number % 30} days'  # ticket {10_000 + number}"
    answer = (
        f"The refund window is {30 + number % 30} days (billing/config.py); refunds over"
        f" ${100 + number % 900} need a manager."
    )
    history = {
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "How long is the refund window?",
        "llm.input_messages.1.message.role": "assistant",
        "llm.input_messages.1.message.tool_calls.0.tool_call.id": "call_1",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "read_file",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments": "{}",
        "llm.input_messages.2.message.role": "tool",
        "llm.input_messages.2.message.tool_call_id": "call_1",
        "llm.input_messages.2.message.content": result,
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": answer,
    }
    tool = {
        "openinference.span.kind": "TOOL",
        "tool.name": "read_file",
        "tool_call.id": "call_1",
        "output.value": result,
    }
    llm = {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o", **history}

    def span(span_id: str, name: str, values: dict[str, str], at: int) -> dict[str, Any]:
        return {
            "traceId": trace_id,
            "spanId": span_id,
            "name": name,
            "startTimeUnixNano": str(1_767_000_000_000_000_000 + at),
            "attributes": [{"key": k, "value": _value(v)} for k, v in values.items()],
        }

    resource = {"service.name": "refund-agent", "tracegrade.touchpoint": touchpoint}
    return {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": [{"key": k, "value": _value(v)} for k, v in resource.items()]
                },
                "scopeSpans": [
                    {
                        "scope": {"name": "benchmarks"},
                        "spans": [
                            span("00000000000000a1", "read_file", tool, 1),
                            span("00000000000000a2", "ChatCompletion", llm, 2),
                        ],
                    }
                ],
            }
        ]
    }


def fill_received(store: Store, touchpoints: list[str], count: int = RECEIVED) -> None:
    """Receive ``count`` runs as the OTLP receiver does (merged, read, graded, stored)."""
    for number in range(count):
        export = otlp_export(f"{number + 1:032x}", number, touchpoints[number % len(touchpoints)])
        receive(store, split_export(export), now=T0 + timedelta(minutes=number))


def fill(store: Store, templates: Templates, results: int = RESULTS) -> list[str]:
    """Write runs of every touchpoint until ``results`` case results are stored; the run ids."""
    ids = touchpoint_ids(templates)
    rng = random.Random(SEED)
    registry = str(templates.summary.get("report", {}).get("registry_version", "fill"))
    for version in templates.versions:
        for clone, real in ids:
            if real == version.touchpoint:
                store.record_touchpoint_version(version.model_copy(update={"touchpoint": clone}))
    stored = 0
    run_ids: list[str] = []
    number = 0
    while stored < results:
        run_id = f"fill-{number:05d}"
        at = T0 + timedelta(hours=number)
        batch = _run_results(templates, ids, run_id, at, rng)[: results - stored]
        store.start_run(
            RunRecord(run_id=run_id, started_at=at, lane="pr", registry_version=registry)
        )
        for start in range(0, len(batch), BATCH):
            stored += store.add_case_results(batch[start : start + BATCH])
        store.finish_run(
            run_id,
            summary=_summary(templates, ids, run_id),
            finished_at=at + timedelta(minutes=5),
        )
        if number == 0:
            store.promote_baseline(run_id, promoted_at=at + timedelta(minutes=6))
        run_ids.append(run_id)
        number += 1
    return run_ids
