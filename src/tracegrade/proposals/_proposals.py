"""Proposals: a change to one file of a touchpoint that a person approves before it applies.

``proposed`` → ``approved`` or ``rejected`` (by a person, even when a judge drafted it) →
``applied``. Applying checks that the file is still the one the change was proposed
against, writes it atomically and records a new touchpoint version. ``auto=True`` (nobody
at the keyboard, e.g. a nightly job) also needs the touchpoint to have graduated.
"""

from __future__ import annotations

import difflib
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.evals import measure_graduation
from tracegrade.proposals._versions import inside, record_state, write_atomically
from tracegrade.proposals._watch import DEFAULT_WATCH_RUNS, current_version, start_watch
from tracegrade.store import ProposalRecord

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.evals import Project, Touchpoint
    from tracegrade.store import DraftedBy, Store

__all__ = ["apply_proposal", "approve_proposal", "propose", "reject_proposal"]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _contract_file(project: Project, touchpoint: Touchpoint, file: str) -> str:
    """The name the contract gives ``file`` (as written there, or a path to the same file)."""
    if file in touchpoint.files:
        return file
    wanted = Path(file).resolve()
    for name in touchpoint.files:
        if project.resolve(name).resolve() == wanted:
            return name
    listed = ", ".join(touchpoint.files) or "none"
    raise InputError(
        f"{file} is not one of touchpoint {touchpoint.id}'s files ({listed})",
        fix="propose changes to a file the touchpoint's contract lists under 'files'",
    )


def _text(path: Path, name: str) -> tuple[bytes, str]:
    try:
        data = path.read_bytes()
        return data, data.decode("utf-8")
    except OSError as exc:
        raise InputError(
            f"cannot read {name} ({exc.strerror or exc})", fix="restore the file"
        ) from exc
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{name} is not UTF-8 text", fix="proposals change text files only"
        ) from exc


def _signal_ids(
    store: Store, touchpoint: str, pattern: str | None, signal_ids: Sequence[int]
) -> list[int]:
    open_ = store.signals(touchpoint, processed=False)
    if pattern is not None and not signal_ids:
        chosen = [signal.id for signal in open_ if signal.fingerprint == pattern]
        if not chosen:
            raise InputError(
                f"touchpoint {touchpoint} has no unprocessed signal with fingerprint {pattern}",
                fix="pick a fingerprint `tracegrade patterns` shows",
            )
        return [each for each in chosen if each is not None]
    known = {signal.id for signal in open_}
    missing = sorted(set(signal_ids) - known)
    if missing:
        raise InputError(
            f"signal {', '.join(map(str, missing))} is not an unprocessed signal of"
            f" touchpoint {touchpoint}",
            fix="pass ids `tracegrade signals list --touchpoint ID` shows as open",
        )
    return list(dict.fromkeys(signal_ids))


def propose(
    store: Store,
    project: Project,
    touchpoint: str,
    file: str,
    new_text: str,
    *,
    rationale: str,
    author: str,
    drafted_by: DraftedBy = "person",
    pattern: str | None = None,
    signal_ids: Sequence[int] = (),
) -> ProposalRecord:
    """Propose new content for one of a touchpoint's files.

    The current and proposed contents are kept in the store (by sha256) and a unified
    diff is stored for display. The signals it answers are marked processed: the given
    ``signal_ids``, or, with only ``pattern``, every unprocessed signal of that
    fingerprint.

    Args:
        store: Where the proposal goes.
        project: The loaded project.
        touchpoint: The touchpoint id.
        file: One of its ``files``, as the contract writes it (or a path to it).
        new_text: The whole proposed content.
        rationale: Why.
        author: Who proposes it (a person, or the judge that drafted it).
        drafted_by: ``person`` or ``judge``; either way a person must approve it.
        pattern: The fingerprint of the pattern it answers.
        signal_ids: The signals it answers.

    Raises:
        InputError: Unknown touchpoint, a file the contract does not list, unreadable or
            non-UTF-8 file, a change that changes nothing, unknown or processed signals,
            empty rationale or author.
    """
    contract = project.entry(touchpoint).touchpoint
    name = _contract_file(project, contract, file)
    if not rationale.strip() or not author.strip():
        raise InputError(
            "a proposal needs a rationale and an author", fix="say why, and who proposes it"
        )
    data, current = _text(inside(project.root, name), name)
    if new_text == current:
        raise InputError(f"the proposed {name} is the same as the current one", fix="change it")
    answered = _signal_ids(store, touchpoint, pattern, signal_ids)
    base, proposed = _sha256(data), _sha256(new_text.encode("utf-8"))
    store.put_file_blob(base, current)
    store.put_file_blob(proposed, new_text)
    diff = "".join(
        difflib.unified_diff(
            current.splitlines(keepends=True),
            new_text.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
        )
    )
    record = ProposalRecord(
        touchpoint=touchpoint,
        file=name,
        base_sha256=base,
        proposed_sha256=proposed,
        diff=diff,
        rationale=rationale,
        author=author,
        drafted_by=drafted_by,
        pattern=pattern,
        signal_ids=answered,
    )
    number = store.add_proposal(record)
    store.mark_signals_processed(answered)
    return record.model_copy(update={"id": number})


def _proposal(store: Store, proposal_id: int) -> ProposalRecord:
    found = store.get_proposal(proposal_id)
    if found is None:
        raise InputError(
            f"no proposal {proposal_id} in the store",
            fix="pass an id that `tracegrade proposals list` shows",
        )
    return found


def _decide(store: Store, proposal_id: int, status: str, by: str) -> ProposalRecord:
    proposal = _proposal(store, proposal_id)
    if not by.strip():
        raise InputError(f"who {status} proposal {proposal_id} must be named", fix="pass --by")
    if proposal.drafted_by == "judge" and by == proposal.author:
        raise InputError(
            f"proposal {proposal_id} was drafted by the judge {by!r}, which cannot decide it",
            fix="a person approves or rejects what a judge drafted",
        )
    if status == "approved":
        return store.update_proposal(proposal_id, status="approved", decided_by=by)
    return store.update_proposal(proposal_id, status="rejected", decided_by=by)


def approve_proposal(
    store: Store, proposal_id: int, *, by: str, require_improvement: bool = False
) -> ProposalRecord:
    """A person approves a proposed change (it can then be applied).

    Args:
        store: Where the proposal is.
        proposal_id: The proposal.
        by: The person.
        require_improvement: Refuse unless the proposal's newest shadow run
            (:func:`try_proposal`) showed a significant gain and broke no ``block`` case.

    Raises:
        InputError: Unknown proposal, not ``proposed`` any more, no name, the judge that
            drafted it trying to approve it, or (``require_improvement``) no shadow run
            showing a gain.
    """
    if require_improvement:
        from tracegrade.proposals._trial import improvement_problem, latest_trial  # noqa: PLC0415

        _proposal(store, proposal_id)  # an unknown id says so first
        problem = improvement_problem(proposal_id, latest_trial(store, proposal_id))
        if problem is not None:
            raise InputError(
                f"not approved: {problem}",
                fix="approve without --require-improvement to decide it anyway",
            )
    return _decide(store, proposal_id, "approved", by)


def reject_proposal(store: Store, proposal_id: int, *, by: str) -> ProposalRecord:
    """A person rejects a proposed change (final).

    Raises:
        InputError: As :func:`approve_proposal`.
    """
    return _decide(store, proposal_id, "rejected", by)


def apply_proposal(
    store: Store,
    project: Project,
    proposal_id: int,
    *,
    by: str,
    auto: bool = False,
    watch_runs: int = DEFAULT_WATCH_RUNS,
) -> ProposalRecord:
    """Write an approved proposal's content to its file and record the new touchpoint version.

    Args:
        store: Where the proposal, versions and file contents are.
        project: The loaded project.
        proposal_id: The proposal.
        by: Who applies it (a person, or the job applying it with ``auto``).
        auto: Nobody confirms at apply time (a scheduled job); refused unless the
            touchpoint has graduated (:func:`tracegrade.evals.measure_graduation`) and the
            proposal's newest shadow run (:func:`try_proposal`) showed a significant gain
            with no ``block`` case broken. The next ``watch_runs`` runs are then watched
            and a drop rolls the change back (:func:`watch_run`).
        watch_runs: How many runs the watch after an auto-apply follows.

    Returns:
        The proposal, ``applied``, with the version it recorded.

    Raises:
        InputError: Unknown proposal; not approved; ``auto`` while the touchpoint has not
            graduated or the shadow run shows no gain; the file changed since the proposal
            (re-propose against it).
    """
    from tracegrade.proposals._trial import improvement_problem, latest_trial  # noqa: PLC0415

    proposal = _proposal(store, proposal_id)
    if proposal.status != "approved":
        then = {"proposed": "approve it first", "applied": "it is applied already"}
        raise InputError(
            f"proposal {proposal_id} is {proposal.status}, not approved",
            fix=then.get(proposal.status, "propose the change again"),
        )
    contract = project.entry(proposal.touchpoint).touchpoint
    trial = None
    if auto:
        standing = measure_graduation(store, contract.id, contract.graduation)
        if not standing.graduated:
            raise InputError(
                f"touchpoint {contract.id} has not earned auto-apply ({standing.reason})",
                fix="apply it by hand (without --auto), or wait until it graduates",
            )
        if watch_runs < 1:
            raise InputError(f"--watch must be at least 1, got {watch_runs}", fix="pass --watch 3")
        trial = latest_trial(store, proposal_id)
        problem = improvement_problem(proposal_id, trial)
        if problem is not None:
            raise InputError(
                f"no auto-apply: {problem}",
                fix="try it (`tracegrade proposals try`) or apply it by hand, without --auto",
            )
    name = _contract_file(project, contract, proposal.file)
    path = inside(project.root, name)
    data, _ = _text(path, name)
    if _sha256(data) != proposal.base_sha256:
        raise InputError(
            f"{name} changed since proposal {proposal_id} was made (sha256 now"
            f" {_sha256(data)[:12]}, proposed against {proposal.base_sha256[:12]})",
            fix="re-propose the change against the current file",
        )
    content = store.file_blob(proposal.proposed_sha256)
    if content is None:
        raise InputError(
            f"the store lost proposal {proposal_id}'s content (sha256 {proposal.proposed_sha256})",
            fix="propose the change again",
        )
    prior = current_version(store, project, contract, by=by) if trial is not None else None
    write_atomically(path, content)
    version = record_state(store, project, contract, by=by)
    applied = store.update_proposal(
        proposal_id, status="applied", decided_by=by, applied_version=version
    )
    if trial is not None and prior is not None:
        start_watch(store, contract, applied, trial, prior_version=prior, runs=watch_runs)
    return applied
