"""The improvement loop's store API, the same on SQLite (in memory, a file) and PostgreSQL."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest

from tracegrade.errors import InputError
from tracegrade.store import ProposalRecord, RubricScoreRecord, SignalRecord, Store

T0 = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
BASE = "first line\n"
NEW = "first line, better\n"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def signal(touchpoint: str = "refunds", minutes: int = 0, **changes: object) -> SignalRecord:
    values: dict[str, object] = {
        "touchpoint": touchpoint,
        "kind": "gate_failure",
        "fingerprint": "fp-1",
        "payload": {"rule": "source-bearing-read", "case": "c1"},
        "run_id": "run-1",
        "recorded_at": T0 + timedelta(minutes=minutes),
    }
    return SignalRecord.model_validate({**values, **changes})


def proposal(touchpoint: str = "refunds", minutes: int = 0) -> ProposalRecord:
    return ProposalRecord(
        touchpoint=touchpoint,
        file="prompts/refunds.md",
        base_sha256=sha(BASE),
        proposed_sha256=sha(NEW),
        diff="-first line\n+first line, better\n",
        rationale="name the window",
        author="ana",
        drafted_by="person",
        pattern="fp-1",
        signal_ids=[1, 2],
        created_at=T0 + timedelta(minutes=minutes),
    )


def test_signals_read_back_oldest_first_with_their_ids(store: Store) -> None:
    later = store.add_signal(signal(minutes=5))
    earlier = store.add_signal(signal(minutes=1, kind="feedback", run_id=None))
    other = store.add_signal(signal("search", minutes=3))
    assert len({later, earlier, other}) == 3
    everything = store.signals()
    assert [each.id for each in everything] == [earlier, other, later]
    assert everything[0] == signal(minutes=1, kind="feedback", run_id=None).model_copy(
        update={"id": earlier}
    )
    assert [each.id for each in store.signals("refunds")] == [earlier, later]


def test_marking_signals_processed_filters_them(store: Store) -> None:
    first = store.add_signal(signal())
    second = store.add_signal(signal(minutes=1))
    store.mark_signals_processed([first])
    assert [each.id for each in store.signals(processed=False)] == [second]
    assert [each.id for each in store.signals(processed=True)] == [first]
    assert store.signals(processed=True)[0].processed is True


def test_marking_an_unknown_signal_marks_none(store: Store) -> None:
    first = store.add_signal(signal())
    with pytest.raises(InputError, match="no signal with id 999"):
        store.mark_signals_processed([first, 999])
    assert store.signals(processed=True) == []


def test_a_proposal_reads_back_equal_and_newest_first(store: Store) -> None:
    older = store.add_proposal(proposal(minutes=1))
    newer = store.add_proposal(proposal(minutes=2))
    store.add_proposal(proposal("search", minutes=3))
    assert store.get_proposal(older) == proposal(minutes=1).model_copy(update={"id": older})
    assert store.get_proposal(12345) is None
    assert [each.id for each in store.proposals("refunds")] == [newer, older]
    assert len(store.proposals()) == 3
    assert store.proposals(status="approved") == []


def test_a_proposal_moves_proposed_approved_applied(store: Store) -> None:
    number = store.add_proposal(proposal())
    approved = store.update_proposal(number, status="approved", decided_by="ana")
    assert (approved.status, approved.decided_by) == ("approved", "ana")
    assert approved.decided_at is not None
    applied = store.update_proposal(
        number, status="applied", decided_by="nightly", applied_version="v2"
    )
    assert (applied.status, applied.applied_version) == ("applied", "v2")
    assert (applied.decided_by, applied.decided_at) == ("ana", approved.decided_at)
    assert store.get_proposal(number) == applied
    assert [each.id for each in store.proposals(status="applied")] == [number]


@pytest.mark.parametrize(
    ("moves", "refused"),
    [
        (["approved"], "approved"),  # approve twice
        ([], "applied"),  # apply what nobody approved
        (["rejected"], "approved"),  # approve a rejected one
        (["rejected"], "applied"),
        (["approved"], "rejected"),  # reject after approval
        (["approved", "applied"], "applied"),  # apply twice
        ([], "proposed"),
    ],
)
def test_a_move_the_lifecycle_forbids_is_refused(
    store: Store, moves: list[str], refused: str
) -> None:
    number = store.add_proposal(proposal())
    for move in moves:
        store.update_proposal(number, status=move, decided_by="ana", applied_version="v2")  # type: ignore[arg-type]
    before = store.get_proposal(number)
    with pytest.raises(InputError, match=f"proposal {number} is .*cannot become {refused}"):
        store.update_proposal(number, status=refused, decided_by="bo", applied_version="v3")  # type: ignore[arg-type]
    assert store.get_proposal(number) == before


def test_moving_an_unknown_proposal_is_refused(store: Store) -> None:
    with pytest.raises(InputError, match="no proposal 7"):
        store.update_proposal(7, status="approved", decided_by="ana")


def test_applying_needs_the_recorded_version_and_deciding_needs_a_name(store: Store) -> None:
    number = store.add_proposal(proposal())
    with pytest.raises(InputError, match="must be named"):
        store.update_proposal(number, status="approved", decided_by=" ")
    store.update_proposal(number, status="approved", decided_by="ana")
    with pytest.raises(InputError, match="needs the version"):
        store.update_proposal(number, status="applied", decided_by="ana")
    assert store.get_proposal(number).status == "approved"  # type: ignore[union-attr]


def test_file_blobs_are_kept_by_sha256_once(store: Store) -> None:
    store.put_file_blob(sha(BASE), BASE)
    store.put_file_blob(sha(BASE), BASE)  # idempotent
    assert store.file_blob(sha(BASE)) == BASE
    assert store.file_blob(sha(NEW)) is None


def test_a_blob_under_another_hash_is_refused(store: Store) -> None:
    with pytest.raises(InputError, match="does not match its content"):
        store.put_file_blob(sha(NEW), BASE)
    assert store.file_blob(sha(NEW)) is None


def test_rubric_scores_read_back_newest_first(store: Store) -> None:
    def score(version: str, minutes: int) -> RubricScoreRecord:
        return RubricScoreRecord(
            touchpoint="search",
            version=version,
            rubric="tool-description",
            judge="fake",
            scores={"what": 4, "when": 2},
            recorded_at=T0 + timedelta(minutes=minutes),
        )

    store.add_rubric_score(score("v1", 1))
    store.add_rubric_score(score("v2", 2))
    assert store.rubric_scores("search") == [score("v2", 2), score("v1", 1)]
    assert store.rubric_scores("refunds") == []
