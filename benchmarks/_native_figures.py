"""The native path's figure evidence: one core call against the pipeline it replaces.

``python -m benchmarks._native_figures``, and in item 14. On the 18 real nine-commits traces
(skipped without ``$TRACEGRADE_CORPUS``), each figure's evidence as grading needs it: the
pipeline of today (``parse_native_trace``, then
``FigureSources(lines_matching=anchor_pattern(figures))`` over the frames, the core
extracting figures inside ``FigureIndex.add``) against ``_core.native_figure_evidence``
(bytes in, evidence out), in the same run, alternating; the answers are each trace's final
answer, and every assistant text and tool result of the run (many figures). Then the anchor
scan's throughput: one run whose tool results are megabytes of JSON with digits everywhere,
looked up for one figure, against ``orjson.loads`` of the same bytes, and less what parsing
and validating alone take. CPU time (the machine is shared), medians.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

import orjson

from benchmarks._common import MB, corpus_traces, paired, rate, size_text, table
from tracegrade._engine import compiled_core
from tracegrade.figures import FigureSources, anchor_pattern, extract_figures
from tracegrade.figures._find import compiled_extractor
from tracegrade.traces import AssistantFrame, ToolResultFrame, parse_native_trace

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.traces import Trace

REPEATS = 7


def every_text(trace: Trace) -> str:
    """Every assistant text and tool result of the trace: an answer with many figures."""
    texts = [frame.content for frame in trace.frames if isinstance(frame, AssistantFrame)]
    texts += [
        frame.result if isinstance(frame.result, str) else orjson.dumps(frame.result).decode()
        for frame in trace.frames
        if isinstance(frame, ToolResultFrame)
    ]
    return "\n".join(texts)


def _pipeline(cases: list[tuple[bytes, str]]) -> Callable[[], object]:
    def run() -> object:
        found = []
        for data, answer in cases:
            trace = parse_native_trace(data)
            figures = extract_figures(answer)
            anchors = anchor_pattern(figures)
            sources = FigureSources(lines_matching=anchors, bare_numbers=False).extend(trace.frames)
            found.append([sources.index.evidence_for(figure) for figure in figures])
        return found

    return run


def _core(cases: list[tuple[bytes, str]]) -> Callable[[], object]:
    module, extractor = compiled_core(), compiled_extractor()
    if module is None or extractor is None:
        raise SystemExit("the compiled core is not built (or TRACEGRADE_CORE=python)")

    def run() -> object:
        found = [
            module.native_figure_evidence(d, a, humans=True, extractor=extractor) for d, a in cases
        ]
        declined = [item for item in found if isinstance(item, str)]
        if declined:
            raise SystemExit(f"the core declined a real trace: {declined[0]}")
        return found

    return run


def _big_run(size: int) -> bytes:
    """One run whose tool results are JSON records full of numbers, ``size`` bytes or so."""
    record = {
        "flight_number": "HAT170",
        "date": "2024-05-16",
        "prices": {"economy": 122, "business": 466},
        "available_seats": {"economy": 9, "business": 3},
        "status": "available",
        "note": "Departs 10:15, arrives 13:40; gate 23, terminal 2, 1,250 miles.",
    }
    text = orjson.dumps([record] * 200).decode()
    frames: list[dict[str, Any]] = [{"type": "user", "content": "Find me a flight."}]
    for call in range(max(size // len(text), 1)):
        frames.append({"type": "tool_call", "id": f"c{call}", "name": "search", "args": {}})
        frames.append({"type": "tool_result", "id": f"c{call}", "ok": True, "result": text})
    header = {"id": "big", "commit": "c", "model": "m", "task": "Find", "outcome": "success"}
    return orjson.dumps({**header, "tokens": [], "frames": frames})


def run_native_figures(repeats: int = REPEATS) -> list[str]:
    """The report's lines: the table, then the anchor scan's throughput."""
    rows: list[list[object]] = []
    lines: list[str] = []
    paths = sorted(corpus_traces().rglob("*.json"))
    if paths:
        blobs = [path.read_bytes() for path in paths]
        traces = [parse_native_trace(data) for data in blobs]
        for name, answers in (
            ("final answers", [trace.final_answer for trace in traces]),
            ("every text of the run", [every_text(trace) for trace in traces]),
        ):
            cases = list(zip(blobs, answers, strict=True))
            if _pipeline(cases)() != _core(cases)():
                msg = f"the core and the pipeline differ on {name}"
                raise SystemExit(msg)
            old, new, ratio = paired(_pipeline(cases), _core(cases), repeats, time.process_time)
            size = sum(len(data) for data in blobs)
            rows.append(
                [
                    f"{len(paths)} nine-commits traces, {name}",
                    size_text(size),
                    f"{old.median * 1000:.2f}",
                    f"{new.median * 1000:.2f}",
                    f"{1 / ratio.median:.1f}x",
                ]
            )
        lines += [*table(["workload", "size", "pipeline CPU ms", "core CPU ms", "speed-up"], rows)]
    else:
        lines.append(f"nine-commits traces not found at {corpus_traces()}: set TRACEGRADE_CORPUS")
    big = _big_run(20 * MB)
    cases = [(big, "It costs $466.75.")]
    module = compiled_core()
    if module is None:
        msg = "the compiled core is not built (or TRACEGRADE_CORE=python)"
        raise SystemExit(msg)
    loads, core, ratio = paired(lambda: orjson.loads(big), _core(cases), repeats, time.process_time)
    parse, _, _ = paired(
        lambda: module.native_trace_frames(big), _core(cases), repeats, time.process_time
    )
    scan = core.median - parse.median
    lines += [
        "",
        (
            f"Anchor scan: {size_text(len(big))} of tool results, one figure: core"
            f" {core.median * 1000:.1f} ms ({rate(len(big), core.median)} MB/s), of which parsing"
            f" and validating (`native_trace_frames`) {parse.median * 1000:.1f} ms, the figure"
            f" evidence {scan * 1000:.1f} ms ({rate(len(big), scan)} MB/s); `orjson.loads`"
            f" {loads.median * 1000:.1f} ms ({rate(len(big), loads.median)} MB/s): the whole call"
            f" {ratio.median:.2f}x `orjson.loads`."
        ),
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks._native_figures", description=__doc__
    )
    parser.add_argument("--repeats", type=int, default=REPEATS, help=f"default {REPEATS}")
    print("\n".join(run_native_figures(parser.parse_args().repeats)))


if __name__ == "__main__":
    main()
