"""Item 11: zero-config grading — claims extracted from the answer with no question file.

Three corpora, each read in place: FaithBench (summaries with human span labels: how often an
unsupported claim is a labelled error, and how well "some claim unsupported" separates
hallucinated from consistent summaries, beside the detectors the corpus ships); nine-commits
(every hand-written fact the answer holds must come out of extraction with the fact's own
support); tau-bench and tau2 (what the final answers claim, by kind and support). Then the
cost of extraction and support against grading with a question file, on the real traces and
on generated ones: the one measurement of that cost (item 12 measures speed only).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tests.claims.facts import nine_commits_coverage

from benchmarks._claims_faithbench import (
    BINARY_DETECTORS,
    SCORED_DETECTORS,
    Binary,
    ClaimScore,
    load_detectors,
    score,
    split_samples,
)
from benchmarks._common import (
    DATA,
    MB,
    QUESTION,
    REPO,
    Check,
    Section,
    Spread,
    corpus_traces,
    paired,
    size_text,
    table,
)
from benchmarks._faithbench import corpus_file
from benchmarks._generate import ensure_corpus
from tracegrade.traces import read_traces
from tracegrade.verdicts import grade, grade_native

if TYPE_CHECKING:
    from collections.abc import Sequence

BALANCED_TARGET = 0.581  # GPT-4-turbo's balanced accuracy on the shared split
PRECISION_TARGET = 0.9
COST_TARGET = 1.5
COST_REPEATS = 31  # pairs of passes over the 18 real traces (about 15 ms a pair)
GENERATED_MB = 10  # item 12's generated traces, the first 10 MB of the same sequence
GENERATED_REPEATS = 5
TAU_FILES = ("taubench_gpt-4o_airline.sample.json", "tau2_whissle-agent_airline.sample.json")


# --- tau-bench and tau2: what final answers claim ----------------------------------------------


def tau_counts(folder: Path) -> tuple[int, Counter[tuple[str, str]], list[tuple[str, str, str]]]:
    """Runs read, the claims of their final answers by (kind, support), and each unsupported
    id, figure or date as (run, kind, raw)."""
    counts: Counter[tuple[str, str]] = Counter()
    unsupported: list[tuple[str, str, str]] = []
    runs = 0
    for name in TAU_FILES:
        for trace in read_traces(folder / name):
            runs += 1
            for claim in grade(trace).extracted:
                counts[claim.kind, "given" if claim.given else claim.support] += 1
                counted = claim.support == "unsupported" and not claim.given
                if counted and claim.kind in ("id", "figure", "date"):
                    unsupported.append((f"`{name.split('_')[0]}` {trace.id}", claim.kind,
                                        claim.raw))  # fmt: skip
    return runs, counts, unsupported


# --- Cost -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    """Grading the same traces with no question and with the benchmark question."""

    label: str
    files: int
    size: int
    question: Spread  # seconds per pass over the traces
    zero: Spread
    ratios: Spread  # zero / question, per alternated pair


def grading_cost(label: str, paths: Sequence[Path], repeats: int) -> Cost:
    """CPU time of grading every trace (parse included) with no question and with the
    benchmark question, the two alternated under the same load (the ratio of each pair kept)."""
    blobs = [path.read_bytes() for path in paths]

    def with_question() -> None:
        for blob in blobs:
            grade_native(blob, QUESTION)

    def without() -> None:
        for blob in blobs:
            grade_native(blob)

    for _ in range(2):
        with_question()
        without()
    # CPU time: grading is one thread, and on a shared machine wall time also counts the
    # waits for a CPU (ratios from 0.6x to 5x under a load of 7 on 2 CPUs).
    question, zero, ratios = paired(with_question, without, repeats, time.process_time)
    return Cost(label, len(blobs), sum(map(len, blobs)), question, zero, ratios)


def _costs(real: Path) -> tuple[list[str], list[Check]]:
    """Item 11's cost: the real traces against the target, a generated sample beside them."""
    generated = ensure_corpus(DATA / f"bulk-{GENERATED_MB}", GENERATED_MB * MB)
    sample = grading_cost(f"generated (item 12's first {GENERATED_MB} MB)", generated.files,
                          GENERATED_REPEATS)  # fmt: skip
    checks = [Check(f"zero-config grading cost vs with a question: {sample.label}",
                    f"{sample.ratios.median:.2f}x")]  # fmt: skip
    costs = [sample]
    if real.is_dir():
        paths = sorted(real.rglob("*.json"))
        costs.insert(0, grading_cost("nine-commits (real)", paths, COST_REPEATS))
        ratio = costs[0].ratios.median
        metric = f"zero-config grading cost vs with a question: {costs[0].label}"
        checks.insert(0, Check(metric, f"{ratio:.2f}x", f"<= {COST_TARGET}x", ratio <= COST_TARGET))
    rows = [
        [cost.label, cost.files, size_text(cost.size), f"{cost.question.median * 1e3:,.1f}",
         f"{cost.zero.median * 1e3:,.1f}", f"**{cost.ratios.median:.2f}x**",
         f"{cost.ratios.best:.2f}x to {cost.ratios.worst:.2f}x"]
        for cost in costs
    ]  # fmt: skip
    headers = ["traces", "files", "size", "with the question, ms", "no question, ms",
               "no question / with", "range"]  # fmt: skip
    body = [
        (
            "Cost: grading the same traces (parse included) with no question"
            " (`grade_native(data)`:"
            " claims extracted from the answer, each supported) against grading them with the"
            " benchmark question, the two alternated pass by pass under the same load, in CPU"
            " time of this process (`time.process_time`: grading is one thread, and wall time"
            " on a shared machine also counts waiting for a CPU); the ratio is the median of the"
            f" pairs ({COST_REPEATS} on the real traces, {GENERATED_REPEATS} on the generated"
            " ones), times are the medians of a pass."
            f" Target on the real traces: <= {COST_TARGET}x."
        ),
        "",
        *table(headers, rows),
    ]
    return body, checks


# --- Report -----------------------------------------------------------------------------------


def _rate(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.3f}" if whole else "-"


def _binary_row(name: str, tally: Binary) -> list[object]:
    return [
        name,
        f"{tally.balanced_accuracy:.3f}",
        _rate(tally.caught, tally.flagged) if tally.flagged else "-",
        _rate(tally.caught, tally.hallucinated),
        _rate(tally.false_flags, tally.consistent),
    ]


def _faithbench_body(shared: ClaimScore, heldout: ClaimScore | None) -> list[str]:
    header = ["detector", "balanced accuracy", "precision (flagged)", "hallucinated flagged",
              "consistent flagged"]  # fmt: skip
    rows = [_binary_row("tracegrade, zero-config (any unsupported claim)", shared.summary),
            _binary_row("tracegrade, hedged claims left out", shared.unhedged_summary)]  # fmt: skip
    rows += [_binary_row(name, shared.detectors[name]) for name in
             (*SCORED_DETECTORS, *BINARY_DETECTORS)]  # fmt: skip
    kinds = sorted({kind for kind, _ in shared.claims})
    supports = ("read", "named-only", "unsupported", "given")
    claim_rows = [[kind, *(shared.claims[kind, s] for s in supports)] for kind in kinds]
    flagged = sum(shared.false_flags.values())
    held = (
        "Heldout split: not in this corpus copy (the copy holds the 500 shared records)."
        if heldout is None or not heldout.samples
        else "Heldout split, summary level: balanced accuracy "
        f"{heldout.summary.balanced_accuracy:.3f}, precision {heldout.summary.precision:.3f}."
    )
    return [
        (
            "FaithBench shared split (`i % 3 != 2`), each sample graded as a trace with"
            " `grade(trace)` and no question. Summary level: hallucinated = some `Unwanted`"
            " label, consistent = no annotation, the rest left out; a summary is flagged when"
            " it has at least one unsupported claim that the prompt did not give (hedged"
            " claims count: docs/claims.md). Detectors from the records' `metadata`"
            " (`hhem*` below 0.5, binary ones 0 = hallucinated), on the same samples."
        ),
        "",
        *table(header, rows),
        "",
        held,
        "",
        (
            f"Claim level: {_rate(shared.unsupported_in_span, shared.unsupported)} unsupported"
            " claims (not hedged) lie in a labelled span of any label (precision);"
            f" {_rate(shared.hedged_in_span, shared.hedged_unsupported)} of the hedged ones;"
            f" {_rate(shared.unwanted_caught, shared.unwanted_spans)} `Unwanted` spans are"
            " overlapped by an unsupported claim (recall; most Unwanted spans are wording and"
            " relations, which hold no checkable claim)."
        ),
        "",
        "Claims extracted on the shared split, by kind and support:",
        "",
        *table(["kind", *supports], claim_rows),
        "",
        f"Errors by cause. Unsupported claims outside every labelled span ({flagged}), by kind: "
        + ", ".join(f"{k} {n}" for k, n in shared.false_flags.most_common())
        + ". Claims that flagged a consistent summary, by kind: "
        + ", ".join(f"{k} {n}" for k, n in shared.consistent_flags.most_common())
        + ". Hallucinated summaries not flagged, by cause:",
        "",
        *table(["cause", "summaries"], shared.misses.most_common()),
    ]


def _faithbench(path: Path) -> tuple[list[str], list[Check]]:
    if not path.is_file():
        return [f"FaithBench: skipped, not at `{path}` (set `TRACEGRADE_CORPUS`)."], []
    shared_samples, heldout_samples = split_samples(path)
    detectors = load_detectors(path)
    shared = score(shared_samples, detectors)
    heldout = score(heldout_samples, detectors) if heldout_samples else None
    summary = shared.summary
    checks = [
        Check("zero-config FaithBench balanced accuracy, shared",
              f"{summary.balanced_accuracy:.3f}", f"> {BALANCED_TARGET}",
              summary.balanced_accuracy > BALANCED_TARGET),
        Check("zero-config FaithBench precision of flagged summaries, shared",
              f"{summary.precision:.3f}", f">= {PRECISION_TARGET}",
              summary.precision >= PRECISION_TARGET),
    ]  # fmt: skip
    return _faithbench_body(shared, heldout), checks


def _nine_commits(folder: Path) -> tuple[list[str], list[Check]]:
    if not folder.is_dir():
        return [f"nine-commits: skipped, not at `{folder}`."], []
    found = nine_commits_coverage(folder)
    held = sum(item.held for item in found)
    rows = [
        [item.trace, item.fact, f"`{item.text}`", item.fact_support,
         "-" if item.claim is None else f"{item.claim.kind} `{item.claim.raw}`",
         "-" if item.claim is None else item.claim.support, "yes" if item.held else "**no**"]
        for item in found
    ]  # fmt: skip
    body = [
        (
            "nine-commits: every hand-written fact (the post-5 suite, tests/suites/"
            "nine_commits.py) that the final answer holds, against the extracted claims of"
            " `grade(trace, question, auto=True)`: some claim must hold the fact text and get"
            " the fact's support."
        ),
        "",
        *table(["trace", "fact", "text", "fact support", "claim", "claim support", "held"], rows),
    ]
    check = Check("nine-commits facts found by extraction, same support", _rate(held, len(found)),
                  "1.000", held == len(found))  # fmt: skip
    return body, [check]


def _tau(folder: Path) -> list[str]:
    if not folder.is_dir():
        return [f"tau-bench / tau2: skipped, not at `{folder}`."]
    runs, counts, unsupported = tau_counts(folder)
    kinds = sorted({kind for kind, _ in counts})
    supports = ("read", "named-only", "unsupported", "given")
    rows = [[kind, *(counts[kind, s] for s in supports)] for kind in kinds]
    return [
        (
            f"tau-bench and tau2 airline runs ({runs}, read by their readers): the claims of each"
            " final answer by kind and support (ids are reservation and user ids, figures the"
            " amounts, dates the flight dates and times)."
        ),
        "",
        *table(["kind", *supports], rows),
        "",
        (
            "Each unsupported id, figure and date (most figures are totals and refunds the"
            " agent computed; no calculator tool returned them):"
        ),
        "",
        *table(["run", "kind", "claim"], unsupported),
    ]


def run_claims() -> Section:
    """Measure zero-config grading on every corpus present."""
    root = Path(os.environ.get("TRACEGRADE_CORPUS", REPO.parent / "shared" / "corpus"))
    faith_body, checks = _faithbench(corpus_file())
    nine_body, nine_checks = _nine_commits(corpus_traces())
    body = [
        (__doc__ or "").strip().split("\n\n", 1)[1],
        "",
        *faith_body,
        "",
        *nine_body,
        "",
        *_tau(root / "tau_bench"),
    ]
    checks += nine_checks
    cost_body, cost_checks = _costs(corpus_traces())
    body += ["", *cost_body]
    checks += cost_checks
    return Section("11. Zero-config grading: extracted claims", tuple(body), tuple(checks))
