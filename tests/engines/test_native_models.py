"""The core builds each `Grade` as `model_construct` would, and refuses models it cannot build.

The core's values are not validated again (rust/src/py_models.rs): each model instance must be
what pydantic's validation of the same values gives, down to the order of ``__dict__`` (the
order of ``model_dump``) and the fields set; a model the core does not know is refused when
the grader is made, never built wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import BaseModel, ConfigDict, PrivateAttr

from tests.helpers.builders import (
    COPY_MATCH,
    TRUTH_MATCH,
    assistant,
    call,
    fixture_question,
    result,
    search_body,
    user,
)
from tracegrade import _core
from tracegrade.claims._scan_core import compiled_scanner
from tracegrade.figures._find import compiled_extractor
from tracegrade.verdicts import (
    Grade,
    GradedAnswerClaim,
    GradedClaim,
    GradedFigure,
    Sighting,
    grade_native,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "traces"


def _models(**changes: type[BaseModel]) -> Any:
    models = {
        "grade": Grade,
        "claim": GradedClaim,
        "sighting": Sighting,
        "figure": GradedFigure,
        "extracted": GradedAnswerClaim,
    }
    models.update(changes)
    return tuple(models.values())


def _grader(**changes: type[BaseModel]) -> Any:
    extractor, scanner = compiled_extractor(), compiled_scanner()
    assert extractor is not None
    assert scanner is not None
    return _core.NativeGrader(extractor, scanner, _models(**changes))


def _instances(model: BaseModel) -> list[BaseModel]:
    """The model and every model inside it, depth first."""
    found = [model]
    for value in model.__dict__.values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, BaseModel):
                found.extend(_instances(item))
    return found


def _a_trace_with_every_model() -> bytes:
    """A run whose grade holds claims, sightings (truth and copy), figures and extracted claims."""
    matches = [TRUTH_MATCH, COPY_MATCH, {"file": "notes.md", "line": 2.5, "text": "costs $1,200"}]
    frames = [
        user("Which file sets the port, and what does the plan cost?"),
        call("c1", "search_files", {"query": "4321"}),
        result("c1", True, search_body(matches)),
        assistant("The port is set in src/server.ts: it is 4321. It costs $1,200, maybe $1,500."),
    ]
    raw = {"id": "r", "commit": "v1", "model": "m", "task": "t", "outcome": "partial"}
    return orjson.dumps({**raw, "tokens": [0] * len(frames), "frames": frames})


def test_every_instance_is_the_one_validation_gives():
    graded = grade_native(_a_trace_with_every_model(), fixture_question(), auto=True)
    kinds = {type(model) for model in _instances(graded)}
    assert kinds == {Grade, GradedClaim, Sighting, GradedFigure, GradedAnswerClaim}, kinds
    for model in _instances(graded):
        validated = type(model).model_validate(model.model_dump())
        assert model == validated
        assert list(model.__dict__) == list(type(model).model_fields)
        assert model.__pydantic_extra__ is None
        assert model.__pydantic_private__ is None
        assert model.model_dump_json() == validated.model_dump_json()
    # The fields the core gives are set; the defaults it leaves are not.
    assert graded.model_fields_set == set(Grade.model_fields) - {"schema_version", "turn"}
    assert graded.schema_version == 1
    assert graded.turn is None
    # Frozen as validated ones are; each instance has its own fields set.
    with pytest.raises(ValueError, match="frozen"):
        graded.trace_id = "changed"
    again = grade_native(_a_trace_with_every_model(), fixture_question(), auto=True)
    assert again.model_fields_set is not graded.model_fields_set


def test_every_example_trace_grades_as_validation_would():
    for path in sorted(EXAMPLES.glob("*.json")):
        graded = grade_native(path.read_bytes())
        assert Grade.model_validate(graded.model_dump()) == graded, path.name


class _Reordered(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    observation: str
    file: str  # before frame
    frame: int
    line: int | float
    text: str


class _Sighting(BaseModel):
    """The fields in the order the core builds them: each variant below changes one thing."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    observation: str
    frame: int
    file: str
    line: int | float
    text: str


class _WithPostInit(_Sighting):
    def model_post_init(self, context: Any, /) -> None:
        del context


class _WithPrivate(_Sighting):
    _seen: int = PrivateAttr(default=0)


class _KeepsExtra(_Sighting):
    model_config = ConfigDict(frozen=True, extra="allow")


def test_the_known_models_are_accepted():
    assert _grader() is not None
    assert _grader(sighting=_Sighting) is not None  # each variant below differs by one thing


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (
            _Reordered,
            (
                "_Reordered has the fields observation, file, frame, line, text; the compiled"
                " core builds observation, frame, file"
            ),
        ),
        (_WithPostInit, "_WithPostInit has a model_post_init, private attributes or extra"),
        (_WithPrivate, "_WithPrivate has a model_post_init, private attributes or extra"),
        (_KeepsExtra, "_KeepsExtra has a model_post_init, private attributes or extra"),
    ],
)
def test_a_model_the_core_cannot_build_is_refused_by_name(model: type[BaseModel], message: str):
    with pytest.raises(TypeError, match=message):
        _grader(sighting=model)
