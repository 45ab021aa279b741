"""The failure messages of the assertions: each claim with its span and what the tools showed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.figures import extract_figures
from tracegrade.observations import LineObservation, PathObservation

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations import Observations
    from tracegrade.verdicts import Grade, GradedAnswerClaim, GradedFigure, Sighting

__all__ = ["explain_claims", "explain_figures", "explain_provenance"]

_CONTEXT = 40  # characters of the answer shown on each side of a claim
_SHOWN = 5  # evidence items listed per claim; the rest are counted
_EXCERPT = 80


def _clip(text: str, width: int = _EXCERPT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else f"{flat[: width - 1]}…"


def _in_answer(answer: str, start: int, end: int) -> str:
    """The claim in its sentence: ``…window is [45 days] and…`` on one line."""
    lead = "…" if start > _CONTEXT else ""
    tail = "…" if end + _CONTEXT < len(answer) else ""
    around = f"{answer[max(0, start - _CONTEXT) : start]}[{answer[start:end]}]"
    return lead + " ".join(f"{around}{answer[end : end + _CONTEXT]}".split()) + tail


def _listed(items: Sequence[str]) -> str:
    shown = list(items[:_SHOWN])
    if len(items) > _SHOWN:
        shown.append(f"and {len(items) - _SHOWN} more")
    return "; ".join(shown)


def _line_source(line: LineObservation) -> str:
    return f"{line.id} {line.tool} {line.file}:{line.line}"


def _figures_shown(kind: str, observations: Observations) -> list[str]:
    """Figures of one kind in the lines the tools returned, each with where it was."""
    found: dict[str, str] = {}
    for observation in observations:
        if isinstance(observation, LineObservation):
            for figure in extract_figures(observation.text):
                if figure.kind == kind and figure.value not in found:
                    found[figure.value] = f"{figure.raw} ({_line_source(observation)})"
    return list(found.values())


def _tool_results(observations: Observations) -> list[str]:
    """One line per tool result: its frame, tool, and what it showed (lines or names)."""
    by_frame: dict[int, list[LineObservation | PathObservation]] = {}
    for observation in observations:
        by_frame.setdefault(observation.frame, []).append(observation)
    lines = []
    for frame, shown in sorted(by_frame.items()):
        tool = shown[0].tool
        texts = [o for o in shown if isinstance(o, LineObservation)]
        names = [o.file for o in shown if isinstance(o, PathObservation)]
        parts = []
        if texts:
            first = next((o.text for o in texts if o.text.strip()), "")
            parts.append(f"{len(texts)} line(s), first: {_clip(first, 60)!r}")
        if names:
            parts.append(f"{len(names)} name(s): {_listed(names)}")
        lines.append(f"    f{frame} {tool}: {'; '.join(parts)}")
    return lines or ["    (no tool result showed anything)"]


def _claim_lines(
    claim: GradedAnswerClaim, answer: str, observations: Observations, by_id: dict[str, object]
) -> list[str]:
    hedged = ", hedged" if claim.hedged else ""
    head = f"  {claim.kind} {claim.raw!r} at {claim.start}-{claim.end}: {claim.support}{hedged}"
    lines = [head, f"    in the answer: {_in_answer(answer, claim.start, claim.end)}"]
    if claim.support == "named-only":
        names = [
            f"{o.id} {o.tool} (a name in its result: {o.file})"
            for o in map(by_id.get, claim.evidence)
            if isinstance(o, PathObservation)
        ]
        lines.append(f"    only named, never read: {_listed(names or list(claim.evidence))}")
    elif claim.kind == "figure":
        # Its figure kind (money, period, ...) says which of the tools' figures to show.
        figure_kind = next((f.kind for f in extract_figures(claim.raw)), None)
        shown = _figures_shown(figure_kind, observations) if figure_kind else []
        what = f"{figure_kind} figures" if figure_kind else "figures"
        lines.append(f"    the tools showed {what}: {_listed(shown) if shown else 'none'}")
    else:
        lines.append("    no tool result holds it, in any written form")
    return lines


def explain_claims(
    grade: Grade, failing: Sequence[GradedAnswerClaim], observations: Observations, answer: str
) -> str:
    """Why ``assert_grounded`` failed: every failing claim, then what each tool returned.

    ``answer`` is the run's final answer as written (the claims' offsets index it).
    """
    by_id: dict[str, object] = {o.id: o for o in observations}
    counted = sum(claim.counted for claim in grade.extracted)
    lines = [
        (
            f"{len(failing)} of {counted} claim(s) in the answer of run {grade.trace_id!r} are not"
            " grounded in what its tools returned:"
        )
    ]
    for claim in failing:
        lines.extend(_claim_lines(claim, answer, observations, by_id))
    lines.append("  the tool results:")
    lines.extend(_tool_results(observations))
    return "\n".join(lines)


def explain_figures(
    grade: Grade, failing: Sequence[GradedFigure], observations: Observations, answer: str
) -> str:
    """Why ``assert_no_unsourced_figures`` failed: each figure, and the tools' figures."""
    lines = [
        (
            f"{len(failing)} of {len(grade.figures)} figure(s) in the answer of run"
            f" {grade.trace_id!r} came from no tool result or user message:"
        )
    ]
    for figure in failing:
        shown = _figures_shown(figure.kind, observations)
        lines.append(
            f"  {figure.kind} {figure.raw!r} (= {figure.value}) at {figure.start}-{figure.end}"
        )
        lines.append(f"    in the answer: {_in_answer(answer, figure.start, figure.end)}")
        lines.append(
            f"    the tools showed {figure.kind} figures: {_listed(shown) if shown else 'none'}"
        )
    lines.append("  the tool results:")
    lines.extend(_tool_results(observations))
    return "\n".join(lines)


def _sightings(sightings: Sequence[Sighting]) -> str:
    return _listed([f"{s.observation} {s.file}:{s.line} {_clip(s.text, 50)!r}" for s in sightings])


def explain_provenance(
    grade: Grade, expected: str, truth_file: str | None, tell: str | None
) -> str:
    """Why ``assert_provenance`` failed: the verdict, the question's source, the sightings."""
    lines = [
        (
            f"run {grade.trace_id!r} against question {grade.question_id!r}: provenance is"
            f" {grade.provenance}, expected {expected}"
        ),
        f"  true source: {truth_file or '(none: the question has no truth_file)'}",
        f"  tell: {tell!r}" if tell else "  tell: (none: the question has no tell)",
        f"  seen in the true source: {_sightings(grade.truth) or 'never'}",
        f"  seen elsewhere (copies): {_sightings(grade.copies) or 'never'}",
    ]
    return "\n".join(lines)
