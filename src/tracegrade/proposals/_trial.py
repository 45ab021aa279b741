"""Trying a proposal before anyone approves it: a shadow run of its touchpoint's suite.

:func:`try_proposal` copies the project to a temporary folder, writes the proposed content
there, and runs the touchpoint's suite on the project as it is and on the copy, interleaved
(:func:`tracegrade.evals.run_shadow`). The comparison is stored with the proposal; the
project's own files are never written. :func:`improvement_problem` says why a comparison
does not show a gain (what ``approve --require-improvement`` and ``apply --auto`` refuse).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.evals import PROJECT_FILE, ShadowComparison, load_project, run_shadow
from tracegrade.proposals._proposals import _contract_file, _proposal, _sha256, _text
from tracegrade.proposals._versions import inside, write_atomically
from tracegrade.store import ShadowComparisonRecord

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.evals import Executor, Project
    from tracegrade.store import ProposalRecord, Store

__all__ = ["COPY_SKIPS", "improvement_problem", "latest_trial", "try_proposal"]

COPY_SKIPS = (".tracegrade", ".git", "__pycache__", ".venv", "node_modules", ".pytest_cache")
"""Folders a shadow copy of the project leaves out (the store, caches, environments)."""


def _current_base(project: Project, proposal: ProposalRecord) -> str:
    """The file's name in the contract; refuses a file that moved on since the proposal."""
    contract = project.entry(proposal.touchpoint).touchpoint
    name = _contract_file(project, contract, proposal.file)
    data, _ = _text(inside(project.root, name), name)
    if _sha256(data) != proposal.base_sha256:
        raise InputError(
            f"{name} changed since proposal {proposal.id} was made (sha256 now"
            f" {_sha256(data)[:12]}, proposed against {proposal.base_sha256[:12]}), so it no"
            " longer applies",
            fix="re-propose the change against the current file",
        )
    return name


def try_proposal(
    store: Store,
    project: Project,
    proposal_id: int,
    *,
    repeats: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, ShadowComparison]:
    """Run the proposal's touchpoint suite on the base and on the proposed version; store it.

    Args:
        store: Where the proposal is, and the shadow runs and the comparison go.
        project: The loaded project (the base version).
        proposal_id: The proposal to try.
        repeats: Repeats per version (default: the touchpoint's ``repeats``).
        executor: Where units run (any executor; default this process).
        progress: Called with (units done, units in all) after each unit.

    Returns:
        The stored comparison's id and the comparison.

    Raises:
        InputError: Unknown proposal, one rejected or applied already, a file that changed
            since the proposal (it no longer applies; names the file), lost content, or a
            suite that cannot be prepared in the copy. Nothing is written then.
    """
    proposal = _proposal(store, proposal_id)
    if proposal.status not in {"proposed", "approved"}:
        raise InputError(
            f"proposal {proposal_id} is {proposal.status}; only a proposed or approved change"
            " can be tried",
            fix="propose the change again",
        )
    name = _current_base(project, proposal)
    content = store.file_blob(proposal.proposed_sha256)
    if content is None:
        raise InputError(
            f"the store lost proposal {proposal_id}'s content (sha256 {proposal.proposed_sha256})",
            fix="propose the change again",
        )
    with tempfile.TemporaryDirectory(prefix="tracegrade-shadow-") as folder:
        copy = Path(folder) / project.root.resolve().name
        shutil.copytree(project.root, copy, ignore=shutil.ignore_patterns(*COPY_SKIPS))
        write_atomically(inside(copy, name), content)
        proposed = load_project(copy / PROJECT_FILE)
        comparison = run_shadow(
            store,
            project,
            proposed,
            proposal.touchpoint,
            repeats=repeats,
            executor=executor,
            progress=progress,
            note={"proposal": proposal_id},
        )
    record = ShadowComparisonRecord(
        proposal_id=proposal_id,
        touchpoint=proposal.touchpoint,
        base_run=comparison.base_run,
        proposed_run=comparison.proposed_run,
        verdict=comparison.verdict,
        comparison=comparison.model_dump(mode="json"),
    )
    return store.add_shadow_comparison(record), comparison


def latest_trial(store: Store, proposal_id: int) -> ShadowComparison | None:
    """The newest stored shadow comparison of a proposal, or ``None`` if it was never tried."""
    found = store.shadow_comparisons(proposal_id=proposal_id)
    return ShadowComparison.model_validate(found[0].comparison) if found else None


def improvement_problem(proposal_id: int, trial: ShadowComparison | None) -> str | None:
    """Why a trial does not show the proposal improves its touchpoint; ``None`` when it does."""
    if trial is None:
        return (
            f"proposal {proposal_id} was never tried: run `tracegrade proposals try"
            f" {proposal_id}` first"
        )
    if trial.broken_block:
        more = len(trial.broken_block) - 5
        shown = ", ".join(trial.broken_block[:5]) + (f" and {more} more" if more > 0 else "")
        return (
            f"proposal {proposal_id} breaks {len(trial.broken_block)} case(s) of block"
            f" touchpoint {trial.touchpoint} ({shown})"
        )
    if trial.verdict != "better":
        what = "significantly worse" if trial.verdict == "worse" else "not better than noise"
        return (
            f"proposal {proposal_id}'s shadow run is {what} (metric {_f(trial.before)} ->"
            f" {_f(trial.after)}, McNemar p = {trial.p_value:.4g}, alpha {trial.alpha:g})"
        )
    return None


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
