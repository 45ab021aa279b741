"""Grounding artifacts: the minimal, validated proof of what a tool touched and served.

A tool result may carry an artifact for the program (LangChain's ``ToolMessage.artifact``):
never shown to the model, kept in state and checkpoints, read by the validator. Two kinds:

- a **touch** (search, email-thread tools): the query and the result ids it returned, in
  rank order, optionally the candidates of each retrieval stage;
- a **document read**: which document (type, key, title, total length) and which characters
  were actually served, after capping: one range for a direct read, or every range served
  by a deep read (merged and sorted).

Nothing else: no document text, versions, manifests, markup ids or content maps. Invalid
artifacts are rejected when created, naming the tool call.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from tracegrade.errors import ArtifactError

__all__ = [
    "ARTIFACT_SCHEMA_VERSION",
    "Artifact",
    "DocumentRead",
    "ServedRange",
    "Stage",
    "Touch",
    "merge_ranges",
    "parse_artifact",
]

ARTIFACT_SCHEMA_VERSION = 1
_NonEmpty = Annotated[StrictStr, Field(min_length=1)]
_Count = Annotated[StrictInt, Field(ge=0)]
_FROZEN = ConfigDict(frozen=True, extra="forbid")

ServedRange = tuple[_Count, _Count]
"""A half-open character range ``[start, end)`` of a document."""


def merge_ranges(
    ranges: list[tuple[int, int]] | tuple[tuple[int, int], ...],
) -> tuple[tuple[int, int], ...]:
    """Sort ranges and merge the ones that overlap or touch."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


def _unique_ids(ids: tuple[str, ...], what: str) -> None:
    seen: set[str] = set()
    for result_id in ids:
        if result_id in seen:
            msg = f"{what}: result id {result_id!r} appears twice; ids must be unique"
            raise ValueError(msg)
        seen.add(result_id)


class Stage(BaseModel):
    """One retrieval stage's candidates, in its order (title match, fused pool, rerank...)."""

    model_config = _FROZEN
    name: _NonEmpty
    result_ids: tuple[_NonEmpty, ...]

    @model_validator(mode="after")
    def _unique(self) -> Stage:
        _unique_ids(self.result_ids, f"stage {self.name!r}")
        return self


class Touch(BaseModel):
    """What a search (or email-thread) tool returned: result ids in rank order.

    Attributes:
        schema_version: Version of the artifact schema.
        kind: ``touch``.
        tool: The tool that searched.
        query: What it searched for.
        result_ids: The ids it returned, in rank order; non-empty strings, unique.
        stages: Optionally, each retrieval stage's candidates, to say where an expected
            document dropped out.
    """

    model_config = _FROZEN
    schema_version: Literal[1] = 1
    kind: Literal["touch"] = "touch"
    tool: _NonEmpty
    query: StrictStr
    result_ids: tuple[_NonEmpty, ...]
    stages: tuple[Stage, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> Touch:
        _unique_ids(self.result_ids, "result_ids")
        return self


class DocumentRead(BaseModel):
    """Which document a read served, and which characters of it.

    Exactly one of ``body_served_range`` (a direct read: the range actually served after
    capping, not the range requested) and ``coverage_mode = "deep-read"`` with
    ``read_evidence`` (every range served, merged and sorted).

    Attributes:
        schema_version: Version of the artifact schema.
        kind: ``document_read``.
        resource_type: What kind of document (``loan_agreement``, ``email``...).
        resource_key: The document's key; what answers cite as ``[key]``.
        title: The document's title.
        total_chars: The document's length.
        body_served_range: For a direct read, ``[start, end)`` served.
        coverage_mode: ``deep-read`` for a read served in several ranges.
        read_evidence: For a deep read, the served ranges, merged and sorted.
    """

    model_config = _FROZEN
    schema_version: Literal[1] = 1
    kind: Literal["document_read"] = "document_read"
    resource_type: _NonEmpty
    resource_key: _NonEmpty
    title: StrictStr
    total_chars: _Count
    body_served_range: ServedRange | None = None
    coverage_mode: Literal["deep-read"] | None = None
    read_evidence: tuple[ServedRange, ...] = ()

    @model_validator(mode="after")
    def _one_mode(self) -> DocumentRead:
        if (self.body_served_range is None) == (self.coverage_mode is None):
            msg = "give either body_served_range (a direct read) or coverage_mode 'deep-read'"
            raise ValueError(msg)
        if self.coverage_mode is None and self.read_evidence:
            msg = "read_evidence belongs to a deep read (coverage_mode 'deep-read')"
            raise ValueError(msg)
        ranges = (
            [self.body_served_range] if self.body_served_range is not None else self.read_evidence
        )
        for start, end in ranges:
            if not start <= end <= self.total_chars:
                msg = f"served range [{start}, {end}) is not inside [0, {self.total_chars}]"
                raise ValueError(msg)
        if self.read_evidence and merge_ranges(self.read_evidence) != self.read_evidence:
            msg = "read_evidence must be merged and sorted (use merge_ranges)"
            raise ValueError(msg)
        return self

    @property
    def served(self) -> tuple[tuple[int, int], ...]:
        """Every range served, merged and sorted."""
        if self.body_served_range is not None:
            return (self.body_served_range,)
        return self.read_evidence

    @property
    def complete(self) -> bool:
        """The whole document was served: one range from 0 to ``total_chars``."""
        return self.served == ((0, self.total_chars),) or self.total_chars == 0


Artifact = Annotated[Touch | DocumentRead, Field(discriminator="kind")]


def parse_artifact(data: Any, *, tool: str, call_id: str) -> Touch | DocumentRead:  # noqa: ANN401 - any JSON
    """Validate an artifact given as a dict (as stored in a trace or a checkpoint).

    Raises:
        ArtifactError: The artifact is invalid; the message names the tool call and the field.
    """
    if isinstance(data, Touch | DocumentRead):
        return data
    if not isinstance(data, dict) or data.get("kind") not in ("touch", "document_read"):
        raise ArtifactError(
            f"artifact of call {call_id!r}: an artifact is an object with kind 'touch' or"
            " 'document_read'",
            fix="see docs/contract.md for the two artifact kinds",
            tool=tool,
        )
    model = Touch if data["kind"] == "touch" else DocumentRead
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in error["loc"]) or "artifact"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "is not allowed in an artifact (keep artifacts minimal)"
        raise ArtifactError(
            f"artifact of call {call_id!r}: {where}: {message}",
            fix="see docs/contract.md for the two artifact kinds",
            tool=tool,
        ) from exc
