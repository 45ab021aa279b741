"""Panels: K judges x N repeats per case, a strict-plurality verdict, stability, controls.

The panel is a pure flow (:func:`panel_flow`): for each case it yields the case's calls (one
:class:`PanelCall` per judge and repeat) and is sent their
:class:`~tracegrade.judges.JudgeReply` values, then returns the :class:`PanelResult`.
:func:`~tracegrade.judges.run_panel` drives it one call after another and
:func:`~tracegrade.judges.arun_panel` a case's calls concurrently; any other driver (batched,
replayed from a log) sends the same replies and gets the same result.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from tracegrade.errors import InputError
from tracegrade.judges._model import SPLIT
from tracegrade.judges._parse import parse_verdict
from tracegrade.judges._rubrics import ANSWER_SUPPORT_RUBRIC, Rubric, verdict_request

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Sequence

    from tracegrade.judges._cases import PanelCase
    from tracegrade.judges._model import JudgeReply, JudgeRequest

__all__ = [
    "CaseVerdict",
    "JudgeCall",
    "PanelCall",
    "PanelResult",
    "Vote",
    "judge_call",
    "panel_flow",
    "plurality",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class JudgeCall(_Frozen):
    """The usage of one judge call, kept so its cost can be recorded (role ``judge``).

    Attributes:
        judge: The judge's name.
        model: The model that answered.
        case: The case judged.
        repeat: The repeat (from 0).
        input_tokens: Prompt tokens.
        output_tokens: Completion tokens.
        cached_input_tokens: Of ``input_tokens``, those read from the provider's cache.
        cache_write_input_tokens: Of ``input_tokens``, those written to the provider's cache.
        latency_seconds: Wall time of the call.
    """

    judge: str
    model: str
    case: str
    repeat: int
    input_tokens: int
    output_tokens: int
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0
    latency_seconds: float


class Vote(_Frozen):
    """One judge's verdict on a case in one repeat.

    Attributes:
        judge: The judge's name.
        repeat: The repeat (from 0).
        verdict: Its verdict.
        confidence: Its confidence, in [0, 1].
        citations: What it cited.
        bad_citations: The citations the run never observed.
        reasoning: Its reasoning.
    """

    judge: str
    repeat: int
    verdict: str
    confidence: float
    citations: tuple[str, ...]
    bad_citations: tuple[str, ...]
    reasoning: str


class CaseVerdict(_Frozen):
    """The panel's verdict on one case.

    Attributes:
        case: The case id.
        verdict: The verdict with a strict plurality of the votes, else ``split``.
        votes: Every vote, judge by judge within each repeat.
        counts: Votes per verdict.
        stability: How many distinct verdicts the votes hold (1: every vote agreed).
        mean_confidence: The votes' mean confidence.
        control: A known-answer case.
        expected: The known answer of a control case.
        correct: Whether a control's verdict is its known answer (``split`` is not);
            ``None`` for an open case.
        citations_checked: Whether citations were checked (the case has a trace).
        bad_citations: Each citation no observation backs, once, in the order first cited.
        bad_citation_count: Bad citations over all votes, repeats counted.
    """

    case: str
    verdict: str
    votes: tuple[Vote, ...]
    counts: dict[str, int]
    stability: int
    mean_confidence: float
    control: bool
    expected: str | None
    correct: bool | None
    citations_checked: bool
    bad_citations: tuple[str, ...]
    bad_citation_count: int


class PanelResult(_Frozen):
    """What a panel concluded.

    Attributes:
        rubric: The rubric's name.
        judges: The judges' names, in panel order.
        repeats: Repeats per judge and case.
        cases: One verdict per case, in the order given.
        calls: Every judge call's usage, in call order.
        controls: Control cases run.
        controls_correct: Controls whose verdict was their known answer.
        control_accuracy: ``controls_correct / controls``; ``None`` with no controls.
        split_cases: Cases whose verdict is ``split``.
        unstable_cases: Cases whose votes were not unanimous.
        bad_citations: Bad citations over every case and vote.
    """

    rubric: str
    judges: tuple[str, ...]
    repeats: int
    cases: tuple[CaseVerdict, ...]
    calls: tuple[JudgeCall, ...]
    controls: int
    controls_correct: int
    control_accuracy: float | None
    split_cases: int
    unstable_cases: int
    bad_citations: int


@dataclass(frozen=True, slots=True)
class PanelCall:
    """One call the panel needs: which judge, which repeat, what to ask.

    Attributes:
        judge: The judge's position in the panel.
        repeat: The repeat (from 0).
        request: The request to send it.
    """

    judge: int
    repeat: int
    request: JudgeRequest


def plurality(verdicts: Iterable[str]) -> str:
    """The verdict with strictly more votes than any other; ``split`` on a tie or no votes."""
    ranked = Counter(verdicts).most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return SPLIT
    return ranked[0][0]


def judge_call(reply: JudgeReply, *, judge: str, case: str, repeat: int) -> JudgeCall:
    """The usage of the call that gave ``reply``, for the cost ledger."""
    return JudgeCall(
        judge=judge,
        model=reply.model,
        case=case,
        repeat=repeat,
        input_tokens=reply.input_tokens,
        output_tokens=reply.output_tokens,
        cached_input_tokens=reply.cached_input_tokens,
        cache_write_input_tokens=reply.cache_write_input_tokens,
        latency_seconds=reply.latency_seconds,
    )


def _check_panel(
    judges: Sequence[str], cases: Sequence[PanelCase], repeats: int, rubric: Rubric
) -> None:
    if not judges or repeats < 1:
        raise InputError(
            f"a panel needs at least one judge and one repeat, got {len(judges)} and {repeats}"
        )
    duplicated = sorted(name for name, n in Counter(judges).items() if n > 1)
    if duplicated:
        raise InputError(
            f"judges {', '.join(duplicated)} appear twice in the panel",
            fix="give each judge its own name",
        )
    ids = Counter(case.id for case in cases)
    repeated = sorted(case for case, n in ids.items() if n > 1)
    if repeated:
        raise InputError(f"case ids {', '.join(repeated)} appear twice in the panel")
    for case in cases:
        if case.expected is not None and case.expected not in rubric.verdicts:
            raise InputError(
                f"control case {case.id!r} expects {case.expected!r}, which rubric"
                f" {rubric.name!r} cannot give",
                fix=f"expect one of {', '.join(rubric.verdicts)}",
                case=case.id,
            )


def _case_verdict(case: PanelCase, votes: list[Vote]) -> CaseVerdict:
    verdict = plurality(vote.verdict for vote in votes)
    counts = Counter(vote.verdict for vote in votes)
    bad = [citation for vote in votes for citation in vote.bad_citations]
    return CaseVerdict(
        case=case.id,
        verdict=verdict,
        votes=tuple(votes),
        counts=dict(sorted(counts.items())),
        stability=len(counts),
        mean_confidence=sum(vote.confidence for vote in votes) / len(votes),
        control=case.control,
        expected=case.expected,
        correct=None if case.expected is None else verdict == case.expected,
        citations_checked=case.citations is not None,
        bad_citations=tuple(dict.fromkeys(bad)),
        bad_citation_count=len(bad),
    )


def panel_flow(
    judges: Sequence[str],
    cases: Sequence[PanelCase],
    *,
    repeats: int = 1,
    rubric: Rubric = ANSWER_SUPPORT_RUBRIC,
) -> Generator[tuple[PanelCall, ...], Sequence[JudgeReply], PanelResult]:
    """The panel as a flow: yields each case's calls, is sent their replies, returns the result.

    For each case in turn it yields the case's calls, repeat by repeat and judge by judge
    within a repeat, and must be sent one reply per call, in the same order (so a scripted
    judge's n-th reply answers the n-th case-and-repeat). Each reply is parsed strictly
    (:func:`~tracegrade.judges.parse_verdict`) and its citations checked against the case's
    trace.

    Args:
        judges: The judges' names, unique.
        cases: Open and control cases.
        repeats: Calls per judge and case.
        rubric: What the judges decide.

    Raises:
        InputError: No judge, no repeat, a name or case id twice, or a control expecting a
            verdict the rubric cannot give.
        JudgeOutputError: A reply is malformed (raised where the replies are sent in).
        ValueError: A driver sent a different number of replies than there were calls.
    """
    _check_panel(judges, cases, repeats, rubric)
    verdicts: list[CaseVerdict] = []
    calls: list[JudgeCall] = []
    for case in cases:
        request = verdict_request(case.id, case.content, rubric)
        asked = tuple(
            PanelCall(index, repeat, request)
            for repeat in range(repeats)
            for index in range(len(judges))
        )
        replies = yield asked
        if len(replies) != len(asked):
            msg = f"case {case.id!r}: {len(asked)} calls were asked, {len(replies)} replies sent"
            raise ValueError(msg)
        votes: list[Vote] = []
        for call, reply in zip(asked, replies, strict=True):
            name = judges[call.judge]
            parsed = parse_verdict(reply)
            checks = case.citations.check_all(parsed.citations) if case.citations else ()
            votes.append(
                Vote(
                    judge=name,
                    repeat=call.repeat,
                    verdict=parsed.verdict,
                    confidence=parsed.confidence,
                    citations=parsed.citations,
                    bad_citations=tuple(c.citation for c in checks if not c.observed),
                    reasoning=parsed.reasoning,
                )
            )
            calls.append(judge_call(reply, judge=name, case=case.id, repeat=call.repeat))
        verdicts.append(_case_verdict(case, votes))
    controls = [verdict for verdict in verdicts if verdict.control]
    correct = sum(1 for verdict in controls if verdict.correct)
    return PanelResult(
        rubric=rubric.name,
        judges=tuple(judges),
        repeats=repeats,
        cases=tuple(verdicts),
        calls=tuple(calls),
        controls=len(controls),
        controls_correct=correct,
        control_accuracy=correct / len(controls) if controls else None,
        split_cases=sum(1 for verdict in verdicts if verdict.verdict == SPLIT),
        unstable_cases=sum(1 for verdict in verdicts if verdict.stability > 1),
        bad_citations=sum(verdict.bad_citation_count for verdict in verdicts),
    )
