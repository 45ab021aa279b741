"""The answer's claims on the native fast path against the Python pipeline (issue #15).

Extraction with no question file, as ``grade(trace)`` runs it: the answer's figures, then
``extract_answer_claims(answer, asked=asked_texts(trace), figures=...)`` (the reference: the
compiled scanners and figure extractor under Python glue) against one core call,
``_core.native_answer_claims`` (rust/src/native/answer_claims.rs), which declines an answer
with accented claims: the reference then runs, and its time is counted. Both engines over
every nine-commits final answer and every FaithBench summary (its source as what was asked),
alternated pass by pass in CPU time of this process. Then the claims with their support from
a nine-commits trace's bytes: the reference's ``parse_native_trace``, ``observe``,
``grade_figures`` and ``grade_extracted`` against ``_core.native_extracted`` (parse,
validation, observations, figure evidence, claims and support in one call; the final answer
handed in, as the integrated fast path finds it itself).

Run alone: ``python -m benchmarks._native_claims [--repeats N]``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING

from benchmarks._common import corpus_traces, paired, table
from benchmarks._faithbench import corpus_file
from tracegrade import _core
from tracegrade.claims import extract_answer_claims
from tracegrade.claims._scan_core import compiled_scanner
from tracegrade.figures import extract_figures
from tracegrade.figures._find import compiled_extractor
from tracegrade.observations import observe
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import asked_texts
from tracegrade.verdicts._grade import grade_extracted, grade_figures

if TYPE_CHECKING:
    from collections.abc import Sequence

Answers = list[tuple[str, tuple[str, ...]]]


def _corpora() -> dict[str, Answers]:
    found: dict[str, Answers] = {}
    folder = corpus_traces()
    if folder.is_dir():
        traces = [parse_native_trace(p.read_bytes()) for p in sorted(folder.rglob("*.json"))]
        found["nine-commits final answers"] = [(t.final_answer, asked_texts(t)) for t in traces]
    path = corpus_file()
    if path.is_file():
        with path.open(encoding="utf-8") as lines:
            samples = [json.loads(line)["sample"] for line in lines]
        found["FaithBench summaries"] = [(s["summary"], (s["source"],)) for s in samples]
    return found


def _measure(answers: Answers, repeats: int) -> list[object]:
    extractor, scanner = compiled_extractor(), compiled_scanner()
    if extractor is None or scanner is None:
        raise SystemExit("the compiled core is off (TRACEGRADE_CORE=python): nothing to compare")

    def reference() -> None:
        for answer, asked in answers:
            extract_answer_claims(answer, asked=asked, figures=extract_figures(answer))

    def core() -> None:
        for answer, asked in answers:
            found = _core.native_answer_claims(answer, list(asked), extractor, scanner)
            if isinstance(found, str):  # declined: the reference runs
                extract_answer_claims(answer, asked=asked, figures=extract_figures(answer))

    declined = sum(
        isinstance(_core.native_answer_claims(a, list(q), extractor, scanner), str)
        for a, q in answers
    )
    for _ in range(2):
        reference()
        core()
    ref, fast, ratios = paired(reference, core, repeats, time.process_time)
    return [
        len(answers),
        declined,
        f"{ref.median * 1e3:,.1f}",
        f"{fast.median * 1e3:,.1f}",
        f"**{ratios.median:.2f}x**",
        f"{ratios.best:.2f}x to {ratios.worst:.2f}x",
    ]


def _measure_support(blobs: list[bytes], repeats: int) -> list[object]:
    extractor, scanner = compiled_extractor(), compiled_scanner()
    if extractor is None or scanner is None:
        raise SystemExit("the compiled core is off (TRACEGRADE_CORE=python): nothing to compare")
    answers = [parse_native_trace(blob).final_answer for blob in blobs]

    def reference() -> None:
        for blob in blobs:
            trace = parse_native_trace(blob)
            observations = observe(trace)
            found = extract_figures(trace.final_answer)
            figures = grade_figures(trace, trace.final_answer, found=found)
            grade_extracted(trace, observations, figures, found=found)

    def core() -> None:
        for blob, answer in zip(blobs, answers, strict=True):
            _core.native_extracted(blob, answer, extractor, scanner)

    declined = sum(
        isinstance(_core.native_extracted(b, a, extractor, scanner), str)
        for b, a in zip(blobs, answers, strict=True)
    )
    for _ in range(2):
        reference()
        core()
    ref, fast, ratios = paired(reference, core, repeats, time.process_time)
    return [
        len(blobs),
        declined,
        f"{ref.median * 1e3:,.1f}",
        f"{fast.median * 1e3:,.1f}",
        f"**{ratios.median:.2f}x**",
        f"{ratios.best:.2f}x to {ratios.worst:.2f}x",
    ]


def run_native_claims(repeats: int) -> list[str]:
    """The report's lines: one row per corpus found."""
    rows: list[Sequence[object]] = [
        [f"claims: {label}", *_measure(answers, repeats)] for label, answers in _corpora().items()
    ]
    if corpus_traces().is_dir():
        blobs = [path.read_bytes() for path in sorted(corpus_traces().rglob("*.json"))]
        rows.append(["claims + support: nine-commits traces", *_measure_support(blobs, repeats)])
    if not rows:
        return [f"no corpus at {corpus_traces()} nor {corpus_file()}: set TRACEGRADE_CORPUS"]
    headers = ["answers", "count", "declined", "reference, ms", "core, ms", "core / ref",
               "range"]  # fmt: skip
    return table(headers, rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks._native_claims", description=__doc__
    )
    parser.add_argument("--repeats", type=int, default=15, help="alternated pairs of passes")
    print("\n".join(run_native_claims(parser.parse_args().repeats)))


if __name__ == "__main__":
    main()
