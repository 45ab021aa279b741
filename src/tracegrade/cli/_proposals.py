"""``tracegrade proposals``: propose, approve, reject, apply and roll back touchpoint changes."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from tracegrade.cli._options import check_touchpoint, opened, project_store_options
from tracegrade.cli._proposals_try import render_trial, try_command

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.evals import Graduation
    from tracegrade.store import ProposalRecord

__all__ = ["print_json", "proposals_group"]

Format = Literal["text", "json"]


def _by_option(function: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--by",
        metavar="NAME",
        default=lambda: os.environ.get("USER", ""),
        show_default="$USER",
        help="Who does it.",
    )(function)


def print_json(data: Any) -> None:  # noqa: ANN401 - any JSON value
    """Print ``data`` as indented JSON (pydantic models, dataclasses and datetimes too)."""
    import orjson

    def default(value: object) -> object:
        dump = getattr(value, "model_dump", None)
        if callable(dump):
            return dump(mode="json")
        raise TypeError

    text = orjson.dumps(data, default=default, option=orjson.OPT_INDENT_2).decode()
    click.echo(text)


def _named(by: str) -> str:
    if not by.strip():
        from tracegrade.errors import InputError

        raise InputError("who does it is not known", fix="pass --by NAME (or set $USER)")
    return by


def _when(proposal: ProposalRecord) -> str:
    return f"{proposal.created_at:%Y-%m-%d %H:%M}Z"


def _line(proposal: ProposalRecord) -> str:
    drafted = " (judge draft)" if proposal.drafted_by == "judge" else ""
    applied = f" -> {proposal.applied_version}" if proposal.applied_version else ""
    return (
        f"#{proposal.id}  {proposal.status:<8}  {proposal.touchpoint}  {proposal.file}"
        f"  by {proposal.author}{drafted}  {_when(proposal)}{applied}  | {proposal.rationale}"
    )


def _graduation_line(standing: Graduation) -> str:
    bound = "-" if standing.lower_bound is None else f"{standing.lower_bound:.3f}"
    return (
        f"{standing.touchpoint}: auto-apply {'allowed' if standing.graduated else 'not allowed'}"
        f"  ({len(standing.runs)}/{standing.window} runs, {standing.passed}/"
        f"{standing.passed + standing.failed} passed, lower bound {bound},"
        f" threshold {standing.threshold:g})  | {standing.reason}"
    )


@click.group("proposals")
def proposals_group() -> None:
    """Proposed changes to touchpoint files: only a person approves; applying records a version."""


proposals_group.add_command(try_command)


@proposals_group.command("list")
@click.option("--touchpoint", metavar="ID", help="Only this touchpoint's proposals.")
@click.option(
    "--status", type=click.Choice(["proposed", "approved", "rejected", "applied"]), default=None
)
@project_store_options
def list_command(
    *,
    touchpoint: str | None,
    status: str | None,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """The proposals, newest first, and each touchpoint's graduation (may it auto-apply?)."""
    from tracegrade.evals import measure_graduation

    check_touchpoint(project_path, touchpoint)
    with opened(project_path, store_url, need_project=False) as (project, store):
        found = store.proposals(touchpoint, status=status)
        policies = {t.id: t.graduation for t in project.touchpoints} if project else {}
        names = sorted({p.touchpoint for p in found} | ({touchpoint} if touchpoint else set()))
        standings = [measure_graduation(store, name, policies.get(name)) for name in names]
    if output_format == "json":
        print_json({"proposals": found, "graduation": standings})
        return
    for proposal in found:
        click.echo(_line(proposal))
    if not found:
        click.echo("no proposals", err=True)
    for standing in standings:
        click.echo(_graduation_line(standing))


@proposals_group.command("show")
@click.argument("proposal_id", type=int)
@project_store_options
def show_command(
    *, proposal_id: int, project_path: Path, store_url: str | None, output_format: Format
) -> None:
    """One proposal: its status, why, the signals it answers and its diff."""
    from tracegrade.errors import InputError
    from tracegrade.proposals import latest_trial

    with opened(project_path, store_url, need_project=False) as (_, store):
        proposal = store.get_proposal(proposal_id)
        trial = latest_trial(store, proposal_id)
    if proposal is None:
        raise InputError(
            f"no proposal {proposal_id} in the store",
            fix="pass an id that `tracegrade proposals list` shows",
        )
    if output_format == "json":
        print_json({**proposal.model_dump(mode="json"), "shadow": trial})
        return
    click.echo(_describe(proposal), nl=False)
    if trial is not None:
        click.echo("\nnewest shadow run:\n" + render_trial(trial), nl=False)


def _hashes(proposal: ProposalRecord) -> str:
    return f"{proposal.base_sha256[:12]} -> {proposal.proposed_sha256[:12]}"


def _describe(proposal: ProposalRecord) -> str:
    lines = [
        f"proposal #{proposal.id}  {proposal.status}",
        f"touchpoint  {proposal.touchpoint}",
        f"file        {proposal.file}  {_hashes(proposal)}",
        f"author      {proposal.author} ({proposal.drafted_by})  {_when(proposal)}",
        f"rationale   {proposal.rationale}",
    ]
    if proposal.pattern or proposal.signal_ids:
        ids = [str(each) for each in proposal.signal_ids]
        answered = ",".join(ids if len(ids) <= 6 else [*ids[:3], "…", ids[-1]]) or "-"
        lines.append(f"answers     pattern {proposal.pattern or '-'}, signals {answered}")
    if proposal.decided_by:
        lines.append(f"decided     {proposal.decided_by}  {proposal.decided_at:%Y-%m-%d %H:%M}Z")
    if proposal.applied_version:
        by = f" by {proposal.applied_by}" if proposal.applied_by else ""
        at = f"  {proposal.applied_at:%Y-%m-%d %H:%M}Z" if proposal.applied_at else ""
        lines.append(f"applied as  version {proposal.applied_version}{by}{at}")
    return "".join(f"{line}\n" for line in lines) + "\n" + proposal.diff


@proposals_group.command("new")
@click.argument("touchpoint")
@click.argument("file")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="A file holding the whole proposed content.",
)
@click.option("--rationale", required=True, help="Why the change.")
@click.option("--pattern", metavar="FINGERPRINT", help="The pattern it answers.")
@click.option("--signal", "signals", type=int, multiple=True, help="A signal it answers.")
@click.option("--drafted-by", type=click.Choice(["person", "judge"]), default="person")
@click.option(
    "--author",
    metavar="NAME",
    default=lambda: os.environ.get("USER", ""),
    show_default="$USER",
)
@project_store_options
def new_command(
    *,
    touchpoint: str,
    file: str,
    source: Path,
    rationale: str,
    pattern: str | None,
    signals: tuple[int, ...],
    drafted_by: Literal["person", "judge"],
    author: str,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Propose the content of --from for FILE, one of TOUCHPOINT's files.

    \b
    Example:
      tracegrade proposals new answer_prompt prompts/answer.md --from new.md \\
        --rationale "ask for a citation" --pattern 3f9a2c...
    """
    from tracegrade.errors import InputError
    from tracegrade.proposals import propose

    try:
        new_text = source.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {source} as UTF-8 text ({exc})", fix="check --from") from exc
    with opened(project_path, store_url, need_project=True, existing=False) as (project, store):
        if project is None:  # need_project loads it or raises
            raise click.UsageError("a project is needed")
        proposal = propose(
            store,
            project,
            touchpoint,
            file,
            new_text,
            rationale=rationale,
            author=_named(author),
            drafted_by=drafted_by,
            pattern=pattern,
            signal_ids=signals,
        )
    if output_format == "json":
        print_json(proposal)
        return
    answered = f", answering {len(proposal.signal_ids)} signals" if proposal.signal_ids else ""
    click.echo(f"proposal #{proposal.id} proposed for {proposal.file}{answered}")
    click.echo(proposal.diff, nl=False)


def _decide(
    decision: Literal["approve", "reject"],
    proposal_id: int,
    *,
    yes: bool,
    by: str,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
    require_improvement: bool = False,
) -> None:
    from tracegrade.errors import InputError
    from tracegrade.proposals import (
        approve_proposal,
        improvement_problem,
        latest_trial,
        reject_proposal,
    )

    by = _named(by)
    with opened(project_path, store_url, need_project=False) as (_, store):
        proposal = store.get_proposal(proposal_id)
        if proposal is None:
            raise InputError(
                f"no proposal {proposal_id} in the store",
                fix="pass an id that `tracegrade proposals list` shows",
            )
        problem = None  # a person may still approve what shows no gain: warned, not refused
        if decision == "approve" and not require_improvement:
            problem = improvement_problem(proposal_id, latest_trial(store, proposal_id))
        if not yes:
            click.echo(_describe(proposal), nl=False, err=True)
            if problem is not None:
                click.echo(f"warning: {problem}", err=True)
            if not click.confirm(f"{decision} proposal #{proposal_id} as {by}?", err=True):
                click.echo(f"proposal #{proposal_id} left {proposal.status}", err=True)
                sys.exit(1)
        if decision == "approve":
            decided = approve_proposal(
                store, proposal_id, by=by, require_improvement=require_improvement
            )
        else:
            decided = reject_proposal(store, proposal_id, by=by)
    if problem is not None and yes:
        click.echo(f"warning: {problem}", err=True)
    if output_format == "json":
        print_json(decided)
        return
    click.echo(f"proposal #{decided.id} {decided.status} by {decided.decided_by}")


@proposals_group.command("approve")
@click.argument("proposal_id", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--require-improvement",
    is_flag=True,
    help="Refuse (exit 2) unless its newest shadow run (`proposals try`) showed a significant"
    " gain and broke no block case; without it, that is only a warning.",
)
@_by_option
@project_store_options
def approve_command(
    *,
    proposal_id: int,
    yes: bool,
    require_improvement: bool,
    by: str,
    **options: Any,  # noqa: ANN401
) -> None:
    """Approve proposal PROPOSAL_ID (asks first unless --yes); then `apply` writes it.

    Warns when its shadow run (`tracegrade proposals try`) shows no significant gain, a
    broken block case, or when it was never tried.
    """
    _decide(
        "approve",
        proposal_id,
        yes=yes,
        by=by,
        require_improvement=require_improvement,
        **options,
    )


@proposals_group.command("reject")
@click.argument("proposal_id", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_by_option
@project_store_options
def reject_command(*, proposal_id: int, yes: bool, by: str, **options: Any) -> None:  # noqa: ANN401
    """Reject proposal PROPOSAL_ID (asks first unless --yes); rejecting is final."""
    _decide("reject", proposal_id, yes=yes, by=by, **options)


@proposals_group.command("apply")
@click.argument("proposal_id", type=int)
@click.option(
    "--auto",
    is_flag=True,
    help="Nobody confirms now (a scheduled job): refused unless the touchpoint graduated and"
    " the proposal's shadow run showed a significant gain; the next --watch runs are watched.",
)
@click.option(
    "--watch",
    "watch_runs",
    type=int,
    default=3,
    show_default=True,
    metavar="K",
    help="With --auto: runs watched after applying; a drop beyond max_drop + variance_band"
    " rolls the change back.",
)
@_by_option
@project_store_options
def apply_command(
    *,
    proposal_id: int,
    auto: bool,
    watch_runs: int,
    by: str,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Write approved proposal PROPOSAL_ID to its file and record the new touchpoint version."""
    from tracegrade.proposals import apply_proposal

    with opened(project_path, store_url, need_project=True, existing=False) as (project, store):
        if project is None:
            raise click.UsageError("a project is needed")
        applied = apply_proposal(
            store, project, proposal_id, by=_named(by), auto=auto, watch_runs=watch_runs
        )
    if output_format == "json":
        print_json(applied)
        return
    watched = f"; watching the next {watch_runs} runs" if auto else ""
    click.echo(
        f"proposal #{applied.id} applied to {applied.file}:"
        f" {applied.touchpoint} is now version {applied.applied_version}{watched}"
    )


@proposals_group.command("rollback")
@click.argument("touchpoint")
@click.argument("version")
@_by_option
@project_store_options
def rollback_command(
    *,
    touchpoint: str,
    version: str,
    by: str,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Restore every file of TOUCHPOINT's recorded VERSION; the result is recorded as a version.

    `tracegrade proposals versions TOUCHPOINT` lists the recorded versions.
    """
    from tracegrade.proposals import rollback

    with opened(project_path, store_url, need_project=True, existing=False) as (project, store):
        if project is None:
            raise click.UsageError("a project is needed")
        done = rollback(store, project, touchpoint, version, by=_named(by))
    if output_format == "json":
        print_json(done)
        return
    changed = ", ".join(done.changed) or "no file changed"
    click.echo(
        f"{done.touchpoint} rolled back to version {done.restored_from} by {done.by}"
        f" ({changed}); recorded as version {done.version}"
    )


@proposals_group.command("versions")
@click.argument("touchpoint")
@project_store_options
def versions_command(
    *, touchpoint: str, project_path: Path, store_url: str | None, output_format: Format
) -> None:
    """TOUCHPOINT's recorded versions, newest first, with their file hashes."""
    with opened(project_path, store_url, need_project=False) as (_, store):
        versions = store.touchpoint_versions(touchpoint)
        kept = {
            digest: store.file_blob(digest) is not None
            for record in versions
            for digest in record.hashes.values()
        }
    if output_format == "json":
        print_json(versions)
        return
    if not versions:
        click.echo(f"{touchpoint}: no version recorded yet", err=True)
    for record in versions:
        files = ", ".join(
            f"{name} {digest[:12]}{'' if kept[digest] else ' (content not kept)'}"
            for name, digest in sorted(record.hashes.items())
        )
        by = record.recorded_by or "run"
        when = f"{record.recorded_at:%Y-%m-%d %H:%M:%S}Z"
        click.echo(f"{record.version}  {when}  by {by}  {files or '-'}")
