"""What the store keeps: runs, case results, baselines and touchpoint versions.

Every record is a frozen pydantic model, so SQLite and PostgreSQL hand back equal
values. Timestamps are timezone-aware UTC; they default to now when a record
is built, and a caller that needs determinism passes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Literal, TypeVar

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

if TYPE_CHECKING:
    from collections.abc import Iterable

RunStatus = Literal["running", "finished", "killed"]
"""A run is ``running`` until it is finished, or marked ``killed`` when it was stopped."""

Outcome = Literal["passed", "failed", "infra", "error"]
"""How one repeat of one case ended: graded pass or fail, an infrastructure failure, or a bug."""

JsonObject = dict[str, JsonValue]
"""A JSON object as stored: summaries, payloads, file hashes."""


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive value (SQLite hands those back) is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


UtcDatetime = Annotated[AwareDatetime, AfterValidator(as_utc)]
"""A record's time: timezone-aware on the way in, held (and stored) in UTC."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RunRecord(_Record):
    """One run of an eval: which cases ran under which registry, and how it ended.

    Attributes:
        run_id: Unique id of the run, chosen by the runner.
        started_at: When the run started.
        finished_at: When it finished or was killed; ``None`` while it runs.
        lane: The lane it ran in (for example ``fast`` or ``nightly``).
        registry_version: The touchpoint registry version it ran against.
        status: ``running``, ``finished`` or ``killed``.
        summary: Free JSON the runner writes when it finishes (counts, metrics).
    """

    run_id: str = Field(min_length=1)
    started_at: UtcDatetime = Field(default_factory=utc_now)
    finished_at: UtcDatetime | None = None
    lane: str
    registry_version: str
    status: RunStatus = "running"
    summary: JsonObject = Field(default_factory=dict)


@dataclass(frozen=True, slots=True, order=True)
class CaseKey:
    """What makes a case result unique within a run: touchpoint, case and repeat."""

    touchpoint: str
    case_id: str
    repeat: int


class CaseResultRecord(_Record):
    """The result of one repeat of one case of one touchpoint in a run.

    Attributes:
        run_id: The run it belongs to.
        touchpoint: The touchpoint the case exercises.
        case_id: The case within the touchpoint.
        repeat: 0-based repeat number.
        outcome: ``passed``, ``failed``, ``infra`` or ``error``.
        metric: The case's metric value; ``None`` when there is none (never a stand-in zero).
        payload: The verdicts and their evidence, as JSON.
        recorded_at: When the result was written.
    """

    run_id: str = Field(min_length=1)
    touchpoint: str = Field(min_length=1)
    case_id: str = Field(min_length=1)
    repeat: int = Field(default=0, ge=0)
    outcome: Outcome
    metric: float | None = None
    payload: JsonObject = Field(default_factory=dict)
    recorded_at: UtcDatetime = Field(default_factory=utc_now)

    @property
    def key(self) -> CaseKey:
        """The (touchpoint, case_id, repeat) key that is unique within the run."""
        return CaseKey(self.touchpoint, self.case_id, self.repeat)


class BaselineRecord(_Record):
    """A touchpoint's baseline: a finished run's results promoted as the reference.

    Attributes:
        touchpoint: The touchpoint.
        run_id: The run whose results were promoted.
        metric: Mean of the run's case metric values for the touchpoint, skipping the
            ``None`` ones; ``None`` when no case had a value.
        promoted_at: When it was promoted; the newest promotion is the current baseline.
        outcomes: Per case id, its outcomes in repeat order.
    """

    touchpoint: str = Field(min_length=1)
    run_id: str = Field(min_length=1)
    metric: float | None
    promoted_at: UtcDatetime = Field(default_factory=utc_now)
    outcomes: dict[str, tuple[Outcome, ...]]


class TouchpointVersionRecord(_Record):
    """A version of a touchpoint and the sha256 of each of its files.

    Attributes:
        touchpoint: The touchpoint.
        version: Its declared version.
        registry_version: The registry version it was seen in.
        hashes: File path to sha256 hex digest.
        recorded_at: When it was first recorded.
        recorded_by: The person who made it (applied a proposal, rolled back); ``None``
            when a run found it.
    """

    touchpoint: str = Field(min_length=1)
    version: str = Field(min_length=1)
    registry_version: str
    hashes: dict[str, str]
    recorded_at: UtcDatetime = Field(default_factory=utc_now)
    recorded_by: str | None = None


RecordT = TypeVar("RecordT", bound=_Record)


def build_baselines(
    run_id: str,
    results: Iterable[CaseResultRecord],
    *,
    touchpoint: str | None,
    promoted_at: datetime,
) -> list[BaselineRecord]:
    """The baselines a promotion of ``run_id`` writes, one per touchpoint (pure).

    Args:
        run_id: The promoted run.
        results: Its case results.
        touchpoint: Only this touchpoint; every touchpoint of the run when ``None``.
        promoted_at: The promotion time.

    Returns:
        One record per touchpoint, sorted by touchpoint; empty when nothing matched.
    """
    by_touchpoint: dict[str, list[CaseResultRecord]] = {}
    for result in results:
        if touchpoint is None or result.touchpoint == touchpoint:
            by_touchpoint.setdefault(result.touchpoint, []).append(result)
    baselines = []
    for name in sorted(by_touchpoint):
        chosen = sorted(by_touchpoint[name], key=lambda result: result.key)
        outcomes: dict[str, list[Outcome]] = {}
        for result in chosen:
            outcomes.setdefault(result.case_id, []).append(result.outcome)
        values = [result.metric for result in chosen if result.metric is not None]
        baselines.append(
            BaselineRecord(
                touchpoint=name,
                run_id=run_id,
                metric=sum(values) / len(values) if values else None,
                promoted_at=promoted_at,
                outcomes={case: tuple(each) for case, each in outcomes.items()},
            )
        )
    return baselines


def validated(record: RecordT) -> RecordT:
    """``record`` validated again: ``model_copy(update=...)`` skips validation (and UTC)."""
    return type(record).model_validate(record.model_dump())
