"""Item 14: the compiled core's native path, stage by stage, against the Python pipeline.

Each stage of ``grade_native``'s one call (rust/src/native) timed against the pipeline of
``Trace`` objects it replaces, in the same run, alternating: parse and validate, observe and
the searches, the figures' evidence, the claims extracted from the answer with their support.
Items 1, 2 and 12 time the whole call; this says where its time goes.
"""

from __future__ import annotations

from benchmarks._common import Section, corpus_traces
from benchmarks._native_claims import run_native_claims
from benchmarks._native_figures import run_native_figures
from benchmarks._native_observe import run_native_observe
from benchmarks._native_parse import run_native_parse

TITLE = "14. The compiled core's native path, stage by stage"


def run_native_stages() -> Section:
    """The four stage measurements as one section (skipped without the real traces)."""
    folder = corpus_traces()
    if not folder.is_dir():
        return Section(TITLE, (f"Skipped: no real corpus at {folder} (set TRACEGRADE_CORPUS).",))
    parse = run_native_parse(folder)
    observe = run_native_observe(1.0)
    body = [
        f"### {parse.title}",
        "",
        *parse.body,
        "",
        f"### {observe.title}",
        "",
        *observe.body,
        "",
        "### Native fast path: figure evidence",
        "",
        *run_native_figures(),
        "",
        "### Native fast path: claims extracted from the answer, and their support",
        "",
        *run_native_claims(7),
    ]
    return Section(TITLE, tuple(body), (*parse.checks, *observe.checks))
