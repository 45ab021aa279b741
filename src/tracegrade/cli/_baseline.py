"""``tracegrade baseline``: promote, history, compare runs, import JSON baseline files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from tracegrade.cli._options import check_touchpoint, open_store_for, project_store_options

if TYPE_CHECKING:
    from tracegrade.errors import InputError
    from tracegrade.evals import RunComparison
    from tracegrade.store import BaselineRecord, JsonObject, Store

__all__ = ["baseline_group"]

Format = Literal["text", "json"]


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"


def _json(data: Any) -> None:  # noqa: ANN401 - any JSON value
    import orjson

    click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())


@click.group("baseline")
def baseline_group() -> None:
    """Baselines: the stored runs each touchpoint is compared with."""


@baseline_group.command("promote")
@click.argument("run_id")
@click.option("--touchpoint", metavar="ID", help="Promote only this touchpoint's results.")
@project_store_options
def promote_command(
    *,
    run_id: str,
    touchpoint: str | None,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Make finished run RUN_ID the baseline of its touchpoints (or of one).

    \b
    Example:
      tracegrade baseline promote 20250101T120000Z-3f9a2c --touchpoint search_knowledge
    """
    check_touchpoint(project_path, touchpoint)
    store = open_store_for(project_path, store_url)
    try:
        promoted = store.promote_baseline(run_id, touchpoint)
    finally:
        store.close()
    if output_format == "json":
        _json([record.model_dump(mode="json") for record in promoted])
        return
    for record in promoted:
        cases = len(record.outcomes)
        click.echo(
            f"{record.touchpoint}: baseline {_value(record.metric)} from run {record.run_id}"
            f" ({cases} cases)"
        )


@baseline_group.command("history")
@click.argument("touchpoint")
@project_store_options
def history_command(
    *, touchpoint: str, project_path: Path, store_url: str | None, output_format: Format
) -> None:
    """Every baseline TOUCHPOINT had, newest first (the first is the current one)."""
    check_touchpoint(project_path, touchpoint)
    store = open_store_for(project_path, store_url)
    try:
        history = store.baseline_history(touchpoint)
    finally:
        store.close()
    if output_format == "json":
        _json([record.model_dump(mode="json") for record in history])
        return
    if not history:
        click.echo(f"{touchpoint}: no baseline promoted yet", err=True)
        return
    for number, record in enumerate(history):
        current = "  (current)" if number == 0 else ""
        click.echo(
            f"{record.promoted_at:%Y-%m-%d %H:%M:%S}Z  run {record.run_id}"
            f"  metric {_value(record.metric)}  {len(record.outcomes)} cases{current}"
        )


@baseline_group.command("compare")
@click.argument("run_a")
@click.argument("run_b")
@click.option("--all", "show_all", is_flag=True, help="List unchanged cases too (text).")
@project_store_options
def compare_command(
    *,
    run_a: str,
    run_b: str,
    show_all: bool,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Compare RUN_B with RUN_A per touchpoint and per case.

    Each is improved, regressed, unchanged, new (only in RUN_B), gone (only in RUN_A) or
    unmeasured (one side has only infrastructure failures).
    """
    from tracegrade.errors import InputError
    from tracegrade.evals import compare_runs

    store = open_store_for(project_path, store_url)
    try:
        for run_id in (run_a, run_b):
            if store.get_run(run_id) is None:
                raise InputError(f"no run {run_id!r} in the store", fix="pass a stored run id")
        comparison = compare_runs(
            run_a, store.case_results(run_a), run_b, store.case_results(run_b)
        )
    finally:
        store.close()
    if output_format == "json":
        click.echo(comparison.model_dump_json(indent=2))
        return
    click.echo(render_comparison(comparison, show_all=show_all), nl=False)


def render_comparison(comparison: RunComparison, *, show_all: bool = False) -> str:
    """The text of a comparison: a line per touchpoint, then its cases that moved."""
    lines = [f"{comparison.before} -> {comparison.after}"]
    for item in comparison.touchpoints:
        lines.append(
            f"{item.touchpoint}  {item.shift}  {_value(item.before)} -> {_value(item.after)}"
        )
        lines.extend(
            f"  {case.shift:<10}  {case.case}  {_value(case.before)} -> {_value(case.after)}"
            for case in item.cases
            if show_all or case.shift != "unchanged"
        )
    counts = ", ".join(
        f"{comparison.count(shift)} {shift}"
        for shift in ("improved", "regressed", "unchanged", "new", "gone", "unmeasured")
    )
    lines.append(f"cases: {counts}")
    return "".join(f"{line}\n" for line in lines)


_IMPORT_TOLERANCE = 0.0005
"""How far a file's ``metric`` may sit from its cases' pass share (rounding in old tools)."""
_OUTCOMES = ("passed", "failed", "infra", "error")


@dataclass(frozen=True)
class _Imported:
    """One baseline file, read and checked, ready to store."""

    file: Path
    touchpoint: str
    cases: dict[str, tuple[str, ...]]
    metric: float | None
    digest: str


def _import_error(file: Path, problem: str) -> InputError:
    from tracegrade.errors import InputError

    return InputError(
        f"{file}: {problem}",
        fix=(
            'a baseline file is {"touchpoint": ID, "metric": NUMBER, "cases": {CASE_ID:'
            ' "passed" | "failed" | true | false}} (see docs/run.md)'
        ),
    )


def _outcome(file: Path, case: str, value: object) -> str:
    if value is True or value is False:
        return "passed" if value else "failed"
    if isinstance(value, str) and value in _OUTCOMES:
        return value
    raise _import_error(
        file, f"case {case!r} has the outcome {value!r}; use passed, failed, infra, error or a bool"
    )


def _read_baseline_file(file: Path) -> _Imported:
    """Read one baseline file; every problem is an ``InputError`` naming the file."""
    import hashlib

    import orjson

    try:
        data = file.read_bytes()
        document = orjson.loads(data)
    except OSError as exc:
        raise _import_error(file, f"cannot be read ({exc.strerror or exc})") from exc
    except orjson.JSONDecodeError as exc:
        raise _import_error(file, f"is not valid JSON ({exc})") from exc
    if not isinstance(document, dict):
        raise _import_error(file, "is not a JSON object")
    unknown = sorted(set(document) - {"touchpoint", "metric", "cases"})
    if unknown:
        raise _import_error(file, f"has unknown keys {', '.join(unknown)}")
    touchpoint = document.get("touchpoint", file.stem)
    if not isinstance(touchpoint, str) or not touchpoint:
        raise _import_error(file, f"'touchpoint' must be a non-empty string, got {touchpoint!r}")
    raw_cases = document.get("cases")
    if not isinstance(raw_cases, dict) or not raw_cases:
        raise _import_error(file, "'cases' must be a non-empty object of case id to outcome")
    cases: dict[str, tuple[str, ...]] = {}
    for case, value in raw_cases.items():
        if not case:
            raise _import_error(file, "a case id is empty")
        values = value if isinstance(value, list) else [value]
        if not values:
            raise _import_error(file, f"case {case!r} has no outcomes")
        cases[case] = tuple(_outcome(file, case, each) for each in values)
    metric = document.get("metric")
    if metric is not None:
        if isinstance(metric, bool) or not isinstance(metric, int | float):
            raise _import_error(file, f"'metric' must be a number, got {metric!r}")
        metric = float(metric)
        every = [outcome for outcomes in cases.values() for outcome in outcomes]
        measured = [outcome for outcome in every if outcome != "infra"]
        share = measured.count("passed") / len(measured) if measured else None
        if share is None or abs(share - metric) > _IMPORT_TOLERANCE:
            raise _import_error(
                file,
                f"'metric' {metric:g} is not the share of passed cases"
                f" ({'-' if share is None else f'{share:g}'}), which the baseline stores;"
                " fix or drop 'metric'",
            )
    digest = hashlib.sha256(data).hexdigest()[:12]
    return _Imported(file, touchpoint, cases, metric, digest)


def _store_import(store: Store, item: _Imported) -> tuple[list[BaselineRecord], bool]:
    """Store one file as a finished run and promote it; ``False`` when it was imported before."""
    from tracegrade.store import CaseResultRecord, RunRecord

    run_id = f"import-{item.touchpoint}-{item.digest}"
    if store.get_run(run_id) is not None:
        current = store.baseline(item.touchpoint)
        return ([current] if current is not None and current.run_id == run_id else []), False
    summary: JsonObject = {"imported_from": str(item.file), "metric": item.metric}
    store.start_run(RunRecord(run_id=run_id, lane="import", registry_version="import"))
    store.add_case_results(
        [
            CaseResultRecord(
                run_id=run_id,
                touchpoint=item.touchpoint,
                case_id=case,
                repeat=repeat,
                outcome=outcome,  # one of _OUTCOMES, checked when the file was read
                metric=None if outcome == "infra" else float(outcome == "passed"),
                payload={"imported_from": item.file.name},
            )
            for case, outcomes in item.cases.items()
            for repeat, outcome in enumerate(outcomes)
        ]
    )
    store.finish_run(run_id, summary=summary)
    return store.promote_baseline(run_id), True


@baseline_group.command("import")
@click.argument(
    "folder", type=click.Path(exists=True, file_okay=False, dir_okay=True, path_type=Path)
)
@project_store_options
def import_command(
    *, folder: Path, project_path: Path, store_url: str | None, output_format: Format
) -> None:
    """Import a folder of JSON baselines (one file per touchpoint) as promoted baselines.

    Each FOLDER/*.json file becomes a finished run of its cases, promoted as the baseline
    of its touchpoint. Every file is checked before anything is stored; a file already
    imported (same content) is skipped.

    \b
    A file:
      {"touchpoint": "search", "metric": 0.5, "cases": {"c1": "passed", "c2": false}}
    """
    from tracegrade.errors import InputError

    files = sorted(path for path in folder.glob("*.json") if path.is_file())
    if not files:
        raise InputError(f"{folder} holds no .json files", fix="pass the folder of baselines")
    items = [_read_baseline_file(file) for file in files]
    seen: dict[str, Path] = {}
    for item in items:
        if item.touchpoint in seen:
            raise _import_error(
                item.file, f"touchpoint {item.touchpoint!r} is also in {seen[item.touchpoint]}"
            )
        seen[item.touchpoint] = item.file
    store = open_store_for(project_path, store_url, existing=False)
    try:
        imported = [(item, *_store_import(store, item)) for item in items]
    finally:
        store.close()
    if output_format == "json":
        _json(
            [
                {
                    "file": str(item.file),
                    "imported": new,
                    "baselines": [record.model_dump(mode="json") for record in records],
                }
                for item, records, new in imported
            ]
        )
        return
    for item, records, new in imported:
        if not new:
            click.echo(f"{item.touchpoint}: already imported from {item.file.name}, skipped")
        for record in records:
            click.echo(
                f"{record.touchpoint}: baseline {_value(record.metric)} from run {record.run_id}"
                f" ({len(record.outcomes)} cases, {item.file.name})"
            )
