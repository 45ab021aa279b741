"""validate_grounding_contract(): do the answer's citations rest on what the tools served?

The validator reads only the trace: the artifacts of tool results (what a tool proves it
touched and served), the results themselves (what the model received) and the final answer
(sentences holding a citation marker). No provenance is parsed from text: a citation is
backed only by an artifact. The rules, with examples, are in docs/contract.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade._text import is_blank
from tracegrade.contract._artifacts import DocumentRead, Touch, merge_ranges, parse_artifact
from tracegrade.contract._claims import cited_claims, fold, phrase_fragments, quoted_phrases
from tracegrade.contract._rules import ContractRules
from tracegrade.contract._served import served_text, text_of_hit
from tracegrade.errors import ArtifactError
from tracegrade.figures import FigureIndex, extract_figures
from tracegrade.traces import AssistantFrame, ToolCallFrame, ToolResultFrame

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.contract._claims import CitedClaim
    from tracegrade.traces import Trace

__all__ = [
    "ContractFailure",
    "ContractRule",
    "collect_artifacts",
    "validate_grounding_contract",
]

ContractRule = Literal[
    "cited-source-unbacked",
    "search-without-ids",
    "ambiguous-title",
    "incomplete-deep-read",
    "whole-document-claim-unread",
    "claim-not-served",
]

# The runtime figure guard marks its denial messages with an artifact under this key
# (tracegrade.guard.langgraph.DENIAL_ARTIFACT_KEY, not imported: that module needs LangGraph).
# Such an artifact belongs to the guard, not to the grounding contract.
_GUARD_ARTIFACT_KEY = "tracegrade_guard"


@dataclass(frozen=True, slots=True)
class ContractFailure:
    """One breach of the grounding contract.

    Attributes:
        rule: Which rule failed.
        frame: The frame the failure is about: the answer's frame for a claim, the read's
            frame for an incomplete deep read.
        claim: The claim (the answer sentence holding the citation), when about a claim.
        source: The cited key, result id or document key concerned (several joined by
            ``", "`` when a claim cites several sources).
        detail: One sentence: what is wrong and how to fix it.
    """

    rule: ContractRule
    frame: int | None
    claim: str | None
    source: str | None
    detail: str


def collect_artifacts(trace: Trace) -> list[tuple[int, str, Touch | DocumentRead]]:
    """Every tool result's artifact, validated: ``(frame, tool, artifact)`` in frame order.

    The runtime guard's own denial artifacts are not grounding artifacts and are skipped.

    Raises:
        ArtifactError: An artifact is invalid; ``frame`` and ``tool`` name the result.
    """
    tools: dict[str, str] = {}
    collected: list[tuple[int, str, Touch | DocumentRead]] = []
    for index, frame in enumerate(trace.frames):
        if isinstance(frame, ToolCallFrame):
            tools[frame.id] = frame.name
            continue
        if not isinstance(frame, ToolResultFrame) or frame.artifact is None:
            continue
        if isinstance(frame.artifact, dict) and _GUARD_ARTIFACT_KEY in frame.artifact:
            continue
        tool = tools.get(frame.id, "unknown")
        try:
            artifact = parse_artifact(frame.artifact, tool=tool, call_id=frame.id)
        except ArtifactError as exc:
            exc.frame = index
            raise
        collected.append((index, tool, artifact))
    return collected


@dataclass(frozen=True, slots=True)
class _Served:
    """One tool result's text as the model received it."""

    frame: int
    tool: str
    text: str


@dataclass(frozen=True, slots=True)
class _Read:
    frame: int
    artifact: DocumentRead
    text: str


class _Sources:
    """What the run's tool results back and serve, looked up by key, title or result id."""

    def __init__(self, trace: Trace) -> None:
        self.reads: dict[str, list[_Read]] = {}
        self.titles: dict[str, dict[str, None]] = {}
        self.hits: dict[str, list[_Served]] = {}
        self.touch_texts: list[_Served] = []
        self.plain: list[_Served] = []  # results without an artifact
        self._indexes: dict[str, FigureIndex] = {}
        artifacts = {frame: (tool, artifact) for frame, tool, artifact in collect_artifacts(trace)}
        tools: dict[str, str] = {}
        for index, frame in enumerate(trace.frames):
            if isinstance(frame, ToolCallFrame):
                tools[frame.id] = frame.name
            if not isinstance(frame, ToolResultFrame):
                continue
            found = artifacts.get(index)
            if found is None:
                self.plain.append(
                    _Served(index, tools.get(frame.id, "unknown"), served_text(frame.result))
                )
                continue
            tool, artifact = found
            if isinstance(artifact, DocumentRead):
                read = _Read(index, artifact, served_text(frame.result))
                self.reads.setdefault(artifact.resource_key, []).append(read)
                self.titles.setdefault(fold(artifact.title), {})[artifact.resource_key] = None
                continue
            self.touch_texts.append(_Served(index, tool, served_text(frame.result)))
            for result_id in artifact.result_ids:
                text = text_of_hit(frame.result, result_id)
                self.hits.setdefault(result_id, []).append(_Served(index, tool, text))

    def texts(self, key: str) -> list[str]:
        """The texts served from a backed key: its reads and its search hits."""
        return [read.text for read in self.reads.get(key, [])] + [
            hit.text for hit in self.hits.get(key, [])
        ]

    def index(self, key: str) -> FigureIndex:
        """The figures served from a backed key, indexed once."""
        index = self._indexes.get(key)
        if index is None:
            index = FigureIndex(bare_numbers=False)
            for text in self.texts(key):
                index.add(text, key)
            self._indexes[key] = index
        return index


def validate_grounding_contract(
    trace: Trace,
    rules: ContractRules = ContractRules(),  # noqa: B008 - frozen: one shared default is safe
) -> tuple[ContractFailure, ...]:
    """Check a run's citations and reads against the grounding contract.

    Args:
        trace: The run, with artifacts on its tool results.
        rules: How answers cite, and which phrases make a claim about a whole document.

    Returns:
        The failures, in frame order (claims in answer order); empty when the contract held.

    Raises:
        ArtifactError: An artifact is invalid; ``frame`` names its tool result.
    """
    sources = _Sources(trace)
    failures: list[ContractFailure] = []
    for reads in sources.reads.values():
        failures.extend(_incomplete(read) for read in reads if _is_incomplete(read.artifact))
    answer_frame = _answer_frame(trace)
    if answer_frame is not None:
        whole_document = tuple(phrase.casefold() for phrase in rules.whole_document)
        for claim in cited_claims(trace.final_answer, rules.marker_pattern):
            failures.extend(_check_claim(claim, answer_frame, sources, whole_document))
    failures.sort(key=lambda failure: -1 if failure.frame is None else failure.frame)
    return tuple(failures)


def _answer_frame(trace: Trace) -> int | None:
    for index in range(len(trace.frames) - 1, -1, -1):
        frame = trace.frames[index]
        if isinstance(frame, AssistantFrame) and not is_blank(frame.content):
            return index
    return None


def _check_claim(
    claim: CitedClaim, frame: int, sources: _Sources, whole_document: tuple[str, ...]
) -> list[ContractFailure]:
    failures: list[ContractFailure] = []

    def fail(rule: ContractRule, source: str, detail: str) -> None:
        failures.append(ContractFailure(rule, frame, claim.text, source, detail))

    backed: list[str] = []
    for key in claim.keys:
        resolved = _resolve(key, sources, fail)
        if resolved is not None:
            backed.append(resolved)
    is_whole = any(phrase in claim.body.casefold() for phrase in whole_document)
    if is_whole:
        for key in backed:
            detail = _unread_whole(key, sources)
            if detail is not None:
                fail("whole-document-claim-unread", key, detail)
    elif backed:
        missing = _not_served(claim, backed, sources)
        if missing:
            cited = ", ".join(backed)
            fail(
                "claim-not-served",
                cited,
                f"{'; '.join(missing)} not in the text served from {cited}; state only what"
                " the cited source served, or cite the source that served it",
            )
    return failures


def _resolve(
    key: str, sources: _Sources, fail: Callable[[ContractRule, str, str], None]
) -> str | None:
    """The backed key a citation stands for, or ``None`` after recording why it is not backed."""
    if key in sources.reads or key in sources.hits:
        return key
    titled = list(sources.titles.get(fold(key), {}))
    if len(titled) > 1:
        fail(
            "ambiguous-title",
            key,
            f"{len(titled)} documents read in this run have the title {key!r}"
            f" ({', '.join(titled)}); cite the document by its key",
        )
        return None
    if titled:
        return titled[0]
    pattern = re.compile(rf"(?<![\w-]){re.escape(key)}(?![\w-])")
    plain = next((served for served in sources.plain if pattern.search(served.text)), None)
    if plain is not None:
        fail(
            "search-without-ids",
            key,
            f"{key!r} appears only in the result of {plain.tool!r} at frame {plain.frame},"
            " which carries no touch artifact; have the tool return a touch artifact listing"
            " its result ids",
        )
        return None
    touched = next((t for t in sources.touch_texts if pattern.search(t.text)), None)
    where = (
        f" ({key!r} appears in the text of frame {touched.frame}, but not among its touch's"
        " result ids)"
        if touched is not None
        else ""
    )
    fail(
        "cited-source-unbacked",
        key,
        f"no document read or search result in this run has key, title or id {key!r}{where};"
        " cite a key the agent read or a result id a search returned",
    )
    return None


def _not_served(claim: CitedClaim, keys: list[str], sources: _Sources) -> list[str]:
    """What the claim states that none of its cited sources served."""
    missing: list[str] = []
    seen: set[str] = set()
    for figure in extract_figures(claim.body):
        if figure.key in seen:
            continue
        seen.add(figure.key)
        if all(sources.index(key).evidence_for(figure) is None for key in keys):
            missing.append(f"figure {figure.raw}")
    texts = [fold(text) for key in keys for text in sources.texts(key)]
    for phrase in quoted_phrases(claim.body):
        fragments = phrase_fragments(phrase)
        if not any(all(part in text for part in fragments) for text in texts):
            missing.append(f'phrase "{phrase}"')
    return missing


def _unread_whole(key: str, sources: _Sources) -> str | None:
    """Why the run did not read all of ``key``, or ``None`` when some read was complete."""
    reads = sources.reads.get(key, [])
    if any(read.artifact.complete for read in reads):
        return None
    if not reads:
        return (
            f"a claim about the whole document needs a complete read of {key!r}, but only a"
            " search result of it was served; read the whole document before saying what it"
            " lacks"
        )
    served = merge_ranges([r for read in reads for r in read.artifact.served])
    total = max(read.artifact.total_chars for read in reads)
    return (
        f"a claim about the whole document needs a complete read of {key!r}, but the reads"
        f" served {_ranges(served, ' and ')} of {total} chars; read it whole (a deep read up"
        " to total_chars) before saying what it lacks"
    )


def _is_incomplete(artifact: DocumentRead) -> bool:
    return artifact.coverage_mode == "deep-read" and not artifact.complete


def _incomplete(read: _Read) -> ContractFailure:
    artifact = read.artifact
    served = artifact.served
    gaps: list[tuple[int, int]] = []
    position = 0
    for start, end in served:
        if start > position:
            gaps.append((position, start))
        position = max(position, end)
    if position < artifact.total_chars:
        gaps.append((position, artifact.total_chars))
    return ContractFailure(
        "incomplete-deep-read",
        read.frame,
        None,
        artifact.resource_key,
        f"deep read of {artifact.resource_key!r} served {_ranges(served, ' and ')} of"
        f" {artifact.total_chars} chars: gaps {_ranges(gaps, ', ')}; serve the missing ranges"
        " so the merged ranges reach total_chars with no gap",
    )


def _ranges(ranges: tuple[tuple[int, int], ...] | list[tuple[int, int]], last: str) -> str:
    """``0-4000, 5000-6000 and 7000-9000`` (``last`` joins the last two); ``nothing`` if none."""
    texts = [f"{start}-{end}" for start, end in ranges]
    if not texts:
        return "nothing"
    if len(texts) == 1 or last == ", ":
        return ", ".join(texts)
    return f"{', '.join(texts[:-1])}{last}{texts[-1]}"
