"""Zero-config grading on FaithBench: every sample graded as a trace with no question.

Each sample becomes one trace (a user turn asking for a summary, one tool call whose result is
the source as plain text, the summary as the final answer) and goes through
``tracegrade.verdicts.grade(trace)``. Labels, splits and detector thresholds are those of
``faithbench/SOURCE.md`` ("Summary-level labels, as every check of this project defines
them"). Records are named by split index only (licence CC BY-NC-SA 4.0; nothing is copied).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from benchmarks._faithbench import BATCH_SIZE, BATCHES, Sample, load_samples
from tracegrade.traces import AssistantFrame, ToolCallFrame, ToolResultFrame, Trace, UserFrame
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.verdicts import GradedAnswerClaim

PROMPT = "Summarise the document the tool returns, keeping its core facts."
# hhem* are consistency scores (below 0.5: hallucinated); the others binary (0: hallucinated).
SCORED_DETECTORS = ("hhemv1", "hhem-2.1", "hhem-2.1-english")
BINARY_DETECTORS = ("trueteacher", "true_nli", "gpt-3.5-turbo", "gpt-4-turbo", "gpt_4o")
# Whether an unsupported claim in a hedged sentence flags a summary: yes. A summary that
# guesses a name or a date the source never wrote still asserts it to its reader; hedges are
# reported apart so the choice can be seen (docs/claims.md).
HEDGED_FLAGS = True


def as_trace(sample: Sample) -> Trace:
    """The sample as a run: asked for a summary, read the source with one tool, answered."""
    return Trace(
        id=f"faithbench-{sample.index}",
        task=PROMPT,
        frames=(
            UserFrame(content=PROMPT),
            ToolCallFrame(id="read-1", name="read_document", args={"document": sample.index}),
            ToolResultFrame(id="read-1", ok=True, result=sample.source),
            AssistantFrame(content=sample.summary),
        ),
        source_format="faithbench",
    )


def load_detectors(path: Path) -> dict[int, dict[str, float]]:
    """Each record's detector outputs from ``metadata``, by split index (as load_samples)."""
    rank = {batch: position for position, batch in enumerate(BATCHES)}
    found: dict[int, dict[str, float]] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            batch = int(re.findall(r"\d+", record["source_file"])[-1])
            sample = record["sample"]
            index = rank[batch] * BATCH_SIZE + int(sample["sample_id"])
            metadata = sample["metadata"]
            found[index] = {
                name: float(metadata[name])
                for name in (*SCORED_DETECTORS, *BINARY_DETECTORS)
                if metadata.get(name) is not None
            }
    return found


def detector_flags(scores: dict[str, float], name: str) -> bool | None:
    """Whether detector ``name`` calls the summary hallucinated; ``None`` when it gave no score."""
    if name not in scores:
        return None
    threshold = 0.5 if name in SCORED_DETECTORS else 1.0
    return scores[name] < threshold


def label(sample: Sample) -> str | None:
    """``hallucinated`` (some Unwanted label), ``consistent`` (no annotation), else ``None``."""
    if not sample.spans:
        return "consistent"
    if any(name.startswith("Unwanted") for span in sample.spans for name in span.labels):
        return "hallucinated"
    return None


@dataclass(slots=True)
class Binary:
    """Summary-level counts of one detector over hallucinated and consistent summaries."""

    hallucinated: int = 0
    consistent: int = 0
    caught: int = 0
    false_flags: int = 0
    skipped: int = 0

    def add(self, truth: str, *, flagged: bool | None) -> None:
        if flagged is None:
            self.skipped += 1
            return
        if truth == "hallucinated":
            self.hallucinated += 1
            self.caught += flagged
        else:
            self.consistent += 1
            self.false_flags += flagged

    @property
    def balanced_accuracy(self) -> float:
        if not self.hallucinated or not self.consistent:
            return 0.0
        recall = self.caught / self.hallucinated
        specificity = 1 - self.false_flags / self.consistent
        return (recall + specificity) / 2

    @property
    def flagged(self) -> int:
        return self.caught + self.false_flags

    @property
    def precision(self) -> float:
        return self.caught / self.flagged if self.flagged else 0.0


@dataclass(slots=True)
class ClaimScore:
    """Claim- and summary-level counts of zero-config grading over one split."""

    samples: int = 0
    claims: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, support)
    unsupported: int = 0
    unsupported_in_span: int = 0
    hedged_unsupported: int = 0
    hedged_in_span: int = 0
    unwanted_spans: int = 0
    unwanted_caught: int = 0
    summary: Binary = field(default_factory=Binary)
    unhedged_summary: Binary = field(default_factory=Binary)
    detectors: dict[str, Binary] = field(default_factory=dict)
    # Errors by cause: (truth, kind) of claims flagged outside every labelled span, and why
    # hallucinated summaries went unflagged.
    false_flags: Counter[str] = field(default_factory=Counter)
    consistent_flags: Counter[str] = field(default_factory=Counter)
    misses: Counter[str] = field(default_factory=Counter)
    flagged_records: list[tuple[int, str, str]] = field(default_factory=list)


def _inside(claim: GradedAnswerClaim, sample: Sample, *, unwanted: bool = False) -> bool:
    return any(
        claim.start < span.end
        and span.start < claim.end
        and (not unwanted or any(name.startswith("Unwanted") for name in span.labels))
        for span in sample.spans
    )


def _miss_cause(sample: Sample, extracted: tuple[GradedAnswerClaim, ...]) -> str:
    unwanted = [s for s in sample.spans if any(n.startswith("Unwanted") for n in s.labels)]
    held = [
        claim
        for claim in extracted
        if any(claim.start < s.end and s.start < claim.end for s in unwanted)
    ]
    if not held:
        return "no checkable claim in any Unwanted span (wording, relations, reasoning)"
    if all(claim.given for claim in held):
        return "the claims in the Unwanted spans were given in the prompt"
    return "every claim in the Unwanted spans is written in the source (a wrong relation)"


def _count_claims(
    result: ClaimScore, sample: Sample, extracted: tuple[GradedAnswerClaim, ...]
) -> list[GradedAnswerClaim]:
    """Claim-level counts of one sample; its unsupported claims the prompt did not give."""
    unsupported = [c for c in extracted if c.support == "unsupported" and not c.given]
    for claim in extracted:
        result.claims[claim.kind, "given" if claim.given else claim.support] += 1
    for claim in unsupported:
        inside = _inside(claim, sample)
        if claim.hedged:
            result.hedged_unsupported += 1
            result.hedged_in_span += inside
        else:
            result.unsupported += 1
            result.unsupported_in_span += inside
        if not inside:
            result.false_flags[claim.kind] += 1
    for span in sample.spans:
        if any(name.startswith("Unwanted") for name in span.labels):
            result.unwanted_spans += 1
            result.unwanted_caught += any(
                c.start < span.end and span.start < c.end for c in unsupported
            )
    return unsupported


def score(
    samples: list[Sample], detectors: dict[int, dict[str, float]], *, hedged_flags: bool = True
) -> ClaimScore:
    """Grade every sample with no question and count against the human labels."""
    result = ClaimScore(detectors={name: Binary() for name in (*SCORED_DETECTORS,
                                                              *BINARY_DETECTORS)})  # fmt: skip
    for sample in samples:
        result.samples += 1
        extracted = grade(as_trace(sample)).extracted
        unsupported = _count_claims(result, sample, extracted)
        truth = label(sample)
        if truth is None:
            continue
        counted = [c for c in unsupported if hedged_flags or not c.hedged]
        result.summary.add(truth, flagged=bool(counted))
        result.unhedged_summary.add(truth, flagged=any(not c.hedged for c in unsupported))
        for name, tally in result.detectors.items():
            tally.add(truth, flagged=detector_flags(detectors.get(sample.index, {}), name))
        if counted:
            kinds = ",".join(sorted({c.kind for c in counted}))
            result.flagged_records.append((sample.index, truth, kinds))
            if truth == "consistent":
                result.consistent_flags.update(claim.kind for claim in counted)
        elif truth == "hallucinated":
            result.misses[_miss_cause(sample, extracted)] += 1
    return result


def split_samples(path: Path) -> tuple[list[Sample], list[Sample]]:
    """The shared and heldout samples (SOURCE.md "Split": ``i % 3 == 2`` is heldout)."""
    samples = load_samples(path)
    return [s for s in samples if not s.heldout], [s for s in samples if s.heldout]
