"""Rubrics, and the requests built from them (pure).

A :class:`Rubric` asks for a verdict from a closed set; a :class:`ScoringRubric` asks for a
score per criterion on a small fixed scale. :func:`verdict_request` and
:func:`scoring_request` turn a rubric and the material to judge into a
:class:`~tracegrade.judges.JudgeRequest` that names the JSON the reply must hold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.judges._model import SPLIT, JudgeRequest, Message

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "ANSWER_SUPPORT_RUBRIC",
    "TOOL_DESCRIPTION_RUBRIC",
    "Rubric",
    "ScoringRubric",
    "scoring_request",
    "verdict_request",
]


@dataclass(frozen=True, slots=True)
class Rubric:
    """A rubric that asks for one verdict from a closed set.

    Attributes:
        name: The rubric's name (stored with results).
        instructions: What the judge is to decide, for the system message.
        verdicts: The verdicts allowed, at least two; ``split`` is reserved for panels.
    """

    name: str
    instructions: str
    verdicts: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(set(self.verdicts)) < 2 or len(set(self.verdicts)) != len(self.verdicts):
            msg = f"rubric {self.name!r} needs at least two distinct verdicts, got {self.verdicts}"
            raise ValueError(msg)
        if SPLIT in self.verdicts:
            msg = f"rubric {self.name!r} may not use the verdict {SPLIT!r}: panels report ties so"
            raise ValueError(msg)


@dataclass(frozen=True, slots=True)
class ScoringRubric:
    """A rubric that scores criteria, each on the same small scale.

    Attributes:
        name: The rubric's name (stored with the scores).
        instructions: What the judge is scoring, for the system message.
        criteria: Each criterion as ``(key, question)``; the reply must score every key.
        scale: The allowed scores, lowest first (``(0, 1, 2, 3)``).
        scale_meaning: What each score means, one line.
    """

    name: str
    instructions: str
    criteria: tuple[tuple[str, str], ...]
    scale: tuple[int, ...] = (0, 1, 2, 3)
    scale_meaning: str = "0 missing, 1 vague, 2 adequate, 3 complete and precise"

    def __post_init__(self) -> None:
        keys = [key for key, _ in self.criteria]
        if not keys or len(set(keys)) != len(keys):
            msg = f"rubric {self.name!r} needs distinct criteria, got {keys}"
            raise ValueError(msg)
        if len(self.scale) < 2 or list(self.scale) != sorted(set(self.scale)):
            msg = f"rubric {self.name!r} needs an ascending scale of two scores or more"
            raise ValueError(msg)

    @property
    def keys(self) -> tuple[str, ...]:
        """The criteria's keys, in order."""
        return tuple(key for key, _ in self.criteria)


ANSWER_SUPPORT_RUBRIC = Rubric(
    name="answer-support",
    instructions=(
        "You judge one recorded run of an AI agent. Decide whether every claim of the final"
        " answer is supported by what the tools returned (the numbered tool output below),"
        " not by names alone or by guesses. Cite the tool output you relied on, each as"
        " file:line or as the observation id in square brackets."
    ),
    verdicts=("supported", "unsupported"),
)
"""Is every claim of the final answer supported by the tool output? ``supported`` or
``unsupported``, citing ``file:line`` or observation ids."""

TOOL_DESCRIPTION_RUBRIC = ScoringRubric(
    name="tool-description",
    instructions=(
        "You review the description an AI agent is given for one tool. Score how well it"
        " tells the agent each of the points below; judge only the description's text."
    ),
    criteria=(
        ("purpose", "what the tool does"),
        ("when_to_use", "when to use it (and when not to)"),
        ("arguments", "each argument: meaning, type, allowed values"),
        ("side_effects", "its side effects (what it changes, or that it changes nothing)"),
        ("failure_modes", "how it fails and what the agent should do then"),
    ),
)
"""Scores a tool's description on purpose, when to use it, arguments, side effects and
failure modes, each 0-3."""


def _verdict_schema(verdicts: tuple[str, ...]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": list(verdicts)},
            "confidence": {"type": "number"},
            "citations": {"type": "array", "items": {"type": "string"}},
            "reasoning": {"type": "string"},
        },
        "required": ["verdict", "confidence", "citations", "reasoning"],
        "additionalProperties": False,
    }


def _scores_schema(rubric: ScoringRubric) -> dict[str, object]:
    score = {"type": "integer", "enum": list(rubric.scale)}
    return {
        "type": "object",
        "properties": {
            "scores": {
                "type": "object",
                "properties": dict.fromkeys(rubric.keys, score),
                "required": list(rubric.keys),
                "additionalProperties": False,
            },
            "notes": {"type": "string"},
        },
        "required": ["scores", "notes"],
        "additionalProperties": False,
    }


def _messages(preamble: str, shape: Mapping[str, object], content: str) -> tuple[Message, ...]:
    """The prompt: the preamble and the reply's keys (system), then the material (user)."""
    system = (
        f"{preamble}\n\nReply with one JSON object and nothing else, exactly these keys:\n"
        f"{json.dumps(shape, indent=2)}"
    )
    return (Message("system", system), Message("user", content))


def verdict_request(
    case: str, content: str, rubric: Rubric = ANSWER_SUPPORT_RUBRIC
) -> JudgeRequest:
    """The request for a verdict on one case.

    Args:
        case: The case's id.
        content: The material to judge (:func:`~tracegrade.judges.render_trace`).
        rubric: What to decide, and the verdicts allowed.
    """
    shape = {
        "verdict": " | ".join(rubric.verdicts),
        "confidence": "a number from 0 to 1",
        "citations": ["file:line or observation id", "..."],
        "reasoning": "one or two sentences",
    }
    return JudgeRequest(
        case=case,
        messages=_messages(rubric.instructions, shape, content),
        schema="verdict",
        rubric=rubric.name,
        json_schema=_verdict_schema(rubric.verdicts),
        choices=rubric.verdicts,
    )


def scoring_request(
    case: str, content: str, rubric: ScoringRubric = TOOL_DESCRIPTION_RUBRIC
) -> JudgeRequest:
    """The request for a rubric's scores of one item (a tool description).

    Args:
        case: What is scored (the touchpoint id), named in errors.
        content: The text to score.
        rubric: The criteria and the scale.
    """
    points = "\n".join(f"- {key}: {question}" for key, question in rubric.criteria)
    scale = ", ".join(str(score) for score in rubric.scale)
    shape = {"scores": dict.fromkeys(rubric.keys, f"one of {scale}"), "notes": "what to improve"}
    preamble = f"{rubric.instructions}\n\nCriteria:\n{points}\n\nScale: {rubric.scale_meaning}."
    return JudgeRequest(
        case=case,
        messages=_messages(preamble, shape, content),
        schema="rubric-score",
        rubric=rubric.name,
        json_schema=_scores_schema(rubric),
    )
