"""Scoring a tool touchpoint's description with a rubric, and keeping the scores per version.

:func:`score_tool_description` asks one judge for the
:data:`~tracegrade.judges.TOOL_DESCRIPTION_RUBRIC` scores (purpose, when to use it, each
argument, side effects, failure modes; 0-3 each) and parses them as strictly as verdicts.
:func:`rubric_score_record` turns a score into the store's record for one touchpoint
version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from tracegrade.judges._panel import JudgeCall, judge_call
from tracegrade.judges._parse import load_reply_object, reply_error, text_field
from tracegrade.judges._rubrics import TOOL_DESCRIPTION_RUBRIC, ScoringRubric, scoring_request

if TYPE_CHECKING:
    from tracegrade.judges._model import Judge, JudgeReply
    from tracegrade.store import JsonObject, RubricScoreRecord

__all__ = [
    "RubricScore",
    "parse_rubric_score",
    "rubric_score_record",
    "score_tool_description",
]


class RubricScore(BaseModel):
    """A rubric's scores of one touchpoint, by one judge.

    Attributes:
        touchpoint: The touchpoint scored.
        rubric: The rubric's name.
        judge: The judge's name.
        scores: One score per criterion, in the rubric's order.
        scale: The rubric's scale, lowest first.
        notes: The judge's notes (what to improve).
        call: The judge call's usage, for the cost ledger.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    touchpoint: str
    rubric: str
    judge: str
    scores: dict[str, int]
    scale: tuple[int, ...]
    notes: str
    call: JudgeCall

    @property
    def total(self) -> int:
        """The sum of the scores."""
        return sum(self.scores.values())

    @property
    def maximum(self) -> int:
        """The highest total the rubric allows."""
        return self.scale[-1] * len(self.scores)

    @property
    def weakest(self) -> tuple[str, ...]:
        """The criteria with the lowest score, in the rubric's order."""
        low = min(self.scores.values())
        return tuple(key for key, score in self.scores.items() if score == low)


def parse_rubric_score(reply: JudgeReply, rubric: ScoringRubric) -> RubricScore:
    """Parse a rubric reply strictly.

    Args:
        reply: A judge's answer to a :func:`~tracegrade.judges.scoring_request`.
        rubric: The rubric asked.

    Raises:
        JudgeOutputError: The reply is not exactly ``{"scores", "notes"}``, ``scores`` does
            not score exactly the rubric's criteria, a score is not an integer on the scale,
            or the notes are not a string.
    """
    data = load_reply_object(reply, ("scores", "notes"))
    scores = data["scores"]
    if not isinstance(scores, dict):
        raise reply_error(reply, f"scores {scores!r} is not an object", "scores not an object")
    missing = [key for key in rubric.keys if key not in scores]
    extra = sorted(key for key in scores if key not in rubric.keys)
    if missing:
        raise reply_error(reply, f"scores lack {', '.join(missing)}", "missing criterion")
    if extra:
        raise reply_error(reply, f"scores have unknown criteria {', '.join(extra)}", "extra field")
    scale = ", ".join(str(score) for score in rubric.scale)
    for key in rubric.keys:
        value = scores[key]
        if isinstance(value, bool) or not isinstance(value, int) or value not in rubric.scale:
            raise reply_error(
                reply, f"score {key} = {value!r} is not one of {scale}", "score off the scale"
            )
    notes = text_field(reply, data, "notes")
    return RubricScore(
        touchpoint=reply.request.case,
        rubric=rubric.name,
        judge=reply.judge,
        scores={key: scores[key] for key in rubric.keys},
        scale=rubric.scale,
        notes=notes,
        call=judge_call(reply, judge=reply.judge, case=reply.request.case, repeat=0),
    )


def score_tool_description(
    judge: Judge,
    touchpoint: str,
    description: str,
    *,
    rubric: ScoringRubric = TOOL_DESCRIPTION_RUBRIC,
) -> RubricScore:
    """Ask a judge to score a tool's description, and parse its reply strictly.

    Args:
        judge: The judge.
        touchpoint: The tool touchpoint's id.
        description: The description the agent is given for the tool.
        rubric: The rubric (default: purpose, when to use, arguments, side effects,
            failure modes, each 0-3).

    Raises:
        JudgeOutputError: The judge's reply is malformed.
        InfrastructureError: A provider failed for a reason worth retrying.
    """
    content = f"Tool: {touchpoint}\n\nDescription:\n{description}"
    reply = judge.complete(scoring_request(touchpoint, content, rubric))
    return parse_rubric_score(reply, rubric)


def rubric_score_record(score: RubricScore, version: str) -> RubricScoreRecord:
    """The store's record of a score, for one touchpoint version (``Store.add_rubric_score``).

    The record's ``scores`` hold the scores, the scale, the notes, the total and the model.
    """
    from tracegrade.store import RubricScoreRecord  # noqa: PLC0415 - judges import without the database layer

    payload: JsonObject = {
        "scores": dict(score.scores),
        "scale": list(score.scale),
        "total": score.total,
        "maximum": score.maximum,
        "notes": score.notes,
        "model": score.call.model,
    }
    return RubricScoreRecord(
        touchpoint=score.touchpoint,
        version=version,
        rubric=score.rubric,
        judge=score.judge,
        scores=payload,
    )
