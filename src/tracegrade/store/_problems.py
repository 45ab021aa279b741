"""The errors the store raises for calls the stored data refuses, worded once."""

from __future__ import annotations

from tracegrade.errors import InputError


def run_exists(run_id: str) -> InputError:
    """A run with this id is already stored."""
    return InputError(
        f"run {run_id!r} already exists in the store",
        fix="pick a new run id, or resume that run",
    )


def unknown_run(run_id: str) -> InputError:
    """No run has this id."""
    return InputError(
        f"run {run_id!r} does not exist in the store",
        fix="start the run first, or pick an id from the stored runs",
    )


def not_finished(run_id: str, status: str) -> InputError:
    """Only a finished run can be promoted."""
    return InputError(
        f"run {run_id!r} is {status}, not finished",
        fix="promote a run that finished (resume it to completion first)",
    )


def nothing_to_promote(run_id: str, touchpoint: str | None) -> InputError:
    """The run has no results (for the touchpoint)."""
    what = "no case results" if touchpoint is None else f"no results for touchpoint {touchpoint!r}"
    return InputError(
        f"run {run_id!r} has {what}",
        fix="promote a run that graded the touchpoint",
    )


def hashes_changed(touchpoint: str, version: str) -> InputError:
    """A recorded version reappears with other file hashes."""
    return InputError(
        f"touchpoint {touchpoint!r} version {version!r} is already recorded with other file hashes",
        fix="bump the touchpoint's version whenever its files change",
    )


SHADOW_LANE = "shadow"
"""The lane of shadow runs (``tracegrade.evals.SHADOW_LANE``): trials, never baselines."""


def shadow_baseline(run_id: str) -> InputError:
    """A shadow run is a trial of a proposal, never a baseline."""
    return InputError(
        f"run {run_id!r} is a shadow run (a trial of a proposal), not a baseline",
        fix="promote a run of `tracegrade run`",
    )
