"""Read ``tracegrade.toml``: store settings and the touchpoint registry (the edge: files).

Paths in the file are relative to it. Errors name the file, the touchpoint and the field.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracegrade._toml import array_table_lines
from tracegrade.errors import ProjectError
from tracegrade.evals._contract import ProjectConfig, registry_version
from tracegrade.evals._errors import contract_error
from tracegrade.evals._registry import TouchpointEntry, registered_touchpoints

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.evals._contract import Lane, SuiteKind, Touchpoint
    from tracegrade.redact import Redactor

__all__ = ["PROJECT_FILE", "Project", "file_hashes", "infer_suite_kind", "load_project"]

PROJECT_FILE = "tracegrade.toml"
_FIX = "see docs/evals.md for the tracegrade.toml format"


@dataclass(frozen=True, slots=True)
class Project:
    """A loaded project: its settings and every touchpoint, from the file and from Python.

    Attributes:
        path: The project file.
        config: What the file declares.
        entries: Every touchpoint, the file's first (in file order), then the
            Python-declared ones (in registration order).
    """

    path: Path
    config: ProjectConfig
    entries: tuple[TouchpointEntry, ...]

    @property
    def root(self) -> Path:
        """The folder every relative path is resolved against."""
        return self.path.parent

    @property
    def touchpoints(self) -> tuple[Touchpoint, ...]:
        """Every contract."""
        return tuple(entry.touchpoint for entry in self.entries)

    @property
    def redactor(self) -> Redactor:
        """The packaged redaction rules with the file's ``[redact]`` patterns and names."""
        return self.config.redact.redactor()

    @property
    def version(self) -> str:
        """The registry version (:func:`registry_version` of every contract)."""
        return registry_version(self.touchpoints)

    @property
    def store_url(self) -> str:
        """The store URL, a relative SQLite path resolved against the project folder."""
        url = self.config.store.url
        prefix = "sqlite:///"
        rest = url.removeprefix(prefix)
        if url.startswith(prefix) and rest and not rest.startswith(("/", ":memory:")):
            return prefix + (self.root / rest).as_posix()
        return url

    def touchpoint_lines(self) -> dict[str, int]:
        """The line of each file-declared touchpoint's ``[[touchpoints]]`` header, by id.

        Touchpoints declared in Python, or tables whose ``id`` is not written on a line of
        its own, have none; an unreadable file gives none.
        """
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return {}
        return {name: line for line, name in array_table_lines(text, "touchpoints") if name}

    def entry(self, touchpoint_id: str) -> TouchpointEntry:
        """The touchpoint with this id.

        Raises:
            ProjectError: No touchpoint has it; the message lists the known ids.
        """
        for entry in self.entries:
            if entry.touchpoint.id == touchpoint_id:
                return entry
        known = ", ".join(entry.touchpoint.id for entry in self.entries) or "none"
        raise ProjectError(
            f"no touchpoint {touchpoint_id!r}",
            fix=f"known touchpoints: {known}",
            path=str(self.path),
        )

    def in_lane(self, lane: Lane) -> tuple[TouchpointEntry, ...]:
        """The touchpoints that run in ``lane``."""
        return tuple(entry for entry in self.entries if lane in entry.touchpoint.lanes)

    def resolve(self, relative: str) -> Path:
        """A path of the file (suite, traces, files, output) as a path on disk."""
        return self.root / relative

    def trace_files(self, touchpoint: Touchpoint) -> tuple[Path, ...]:
        """The trace files a guard or contract touchpoint's ``traces`` glob matches, sorted."""
        if touchpoint.traces is None:
            return ()
        return tuple(sorted(path for path in self.root.glob(touchpoint.traces) if path.is_file()))


def _read_toml(
    path: Path, *, origin: str, touchpoint: str | None = None, field: str | None = None
) -> dict[str, Any]:
    where: dict[str, Any] = {"path": origin, "touchpoint": touchpoint, "field": field}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ProjectError(
            f"{path} does not exist",
            fix="check the path; paths are relative to the project file",
            **where,
        ) from exc
    except OSError as exc:
        raise ProjectError(
            f"cannot read {path} ({exc.strerror or exc})",
            fix="check that the file is readable",
            **where,
        ) from exc
    except UnicodeDecodeError as exc:
        raise ProjectError(f"{path} is not UTF-8 text", fix="save it as UTF-8", **where) from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProjectError(
            f"{path} is not valid TOML ({exc})", fix="fix the TOML syntax at that place", **where
        ) from exc


def infer_suite_kind(data: dict[str, Any]) -> SuiteKind | None:
    """The suite kind a parsed suite file is, when its tables make it obvious.

    ``[[cases]]`` or ``[[questions]]``: a trace-grader suite (``grade``); ``[tools]`` or
    ``[sources]``: a guard policy (``guard``); ``[contract]``: grounding-contract rules
    (``contract``). Anything else (or a mix) is not obvious: ``None``.
    """
    found: set[SuiteKind] = set()
    if "cases" in data or "questions" in data:
        found.add("grade")
    if "tools" in data or "sources" in data:
        found.add("guard")
    if "contract" in data:
        found.add("contract")
    return found.pop() if len(found) == 1 else None


def _fill_suite_kind(item: dict[str, Any], label: str, root: Path, file: str) -> None:
    """Infer a missing ``suite_kind`` from the ``command`` field or the suite file."""
    if "suite_kind" in item:
        return
    if "command" in item:
        item["suite_kind"] = "command"
        return
    suite = item.get("suite")
    if not isinstance(suite, str) or not suite:
        return  # validation reports suite_kind missing
    kind = infer_suite_kind(_read_toml(root / suite, origin=file, touchpoint=label, field="suite"))
    if kind is None:
        raise ProjectError(
            f"suite_kind is not set and {suite} does not show it",
            fix="set suite_kind to grade, guard, contract, gate, command or callable",
            path=file,
            touchpoint=label,
            field="suite_kind",
        )
    item["suite_kind"] = kind


def _check_paths(touchpoint: Touchpoint, root: Path, origin: str) -> None:
    label = repr(touchpoint.id)
    if touchpoint.suite is not None and not (root / touchpoint.suite).is_file():
        raise ProjectError(
            f"the suite file {touchpoint.suite} does not exist",
            fix="check the path; it is relative to the project file",
            path=origin,
            touchpoint=label,
            field="suite",
        )
    for name in touchpoint.files:
        if not (root / name).is_file():
            raise ProjectError(
                f"{name} does not exist",
                fix="list the files that define the touchpoint, relative to the project file",
                path=origin,
                touchpoint=label,
                field="files",
            )
    if touchpoint.traces is not None and not any(
        path.is_file() for path in root.glob(touchpoint.traces)
    ):
        raise ProjectError(
            f"the glob {touchpoint.traces!r} matches no file",
            fix="check the pattern; it is relative to the project file",
            path=origin,
            touchpoint=label,
            field="traces",
        )


def load_project(
    path: str | Path, *, registered: Sequence[TouchpointEntry] | None = None
) -> Project:
    """Read and validate a project file and merge the Python-declared touchpoints into it.

    Args:
        path: The project file (``tracegrade.toml``).
        registered: Python-declared touchpoints to merge; by default every ``@touchpoint``
            registered so far (:func:`registered_touchpoints`). Pass ``()`` for the file's
            touchpoints only.

    Raises:
        ProjectError: The file is unreadable, not TOML, or breaks the contract schema; a
            suite file, a listed file or a traces glob is missing; the suite kind cannot be
            inferred; an id is declared twice (in the file or in the file and in Python); or
            the file is empty and no touchpoint is declared in Python.
            The message names the file, the touchpoint and the field.
    """
    file = Path(path)
    origin = str(file)
    data = _read_toml(file, origin=origin)
    items = data.get("touchpoints")
    if isinstance(items, list):
        data = {**data, "touchpoints": [dict(i) if isinstance(i, dict) else i for i in items]}
        for index, item in enumerate(data["touchpoints"]):
            if isinstance(item, dict):
                name = item.get("id")
                label = repr(name) if isinstance(name, str) and name else f"#{index + 1}"
                _fill_suite_kind(item, label, file.parent, origin)
    try:
        config = ProjectConfig.model_validate(data)
    except ValidationError as exc:
        raise contract_error(exc, data, path=origin) from exc
    entries = [
        TouchpointEntry(touchpoint, f"{origin}, touchpoint {number}")
        for number, touchpoint in enumerate(config.touchpoints, start=1)
    ]
    for touchpoint in config.touchpoints:
        _check_paths(touchpoint, file.parent, origin)
    seen = {entry.touchpoint.id: entry for entry in entries}
    for entry in registered_touchpoints() if registered is None else registered:
        old = seen.get(entry.touchpoint.id)
        if old is not None:
            raise ProjectError(
                f"is declared twice: in {old.origin} and in {entry.origin}",
                fix="give one of them another id",
                path=origin,
                touchpoint=repr(entry.touchpoint.id),
                field="id",
            )
        _check_paths(entry.touchpoint, file.parent, entry.origin)
        seen[entry.touchpoint.id] = entry
        entries.append(entry)
    if not data and not entries:  # an empty file and no @touchpoint: a project of nothing
        raise ProjectError(
            "the project file is empty and no @touchpoint is declared",
            fix="declare a [[touchpoints]] table (docs/evals.md), or delete the file",
            path=origin,
        )
    return Project(file, config, tuple(entries))


def file_hashes(touchpoint: Touchpoint, root: str | Path) -> dict[str, str]:
    """The sha256 (hex) of each of a touchpoint's ``files``, keyed by the path as written.

    Args:
        touchpoint: The contract.
        root: The folder its paths are relative to (:attr:`Project.root`).

    Raises:
        ProjectError: A file is missing or unreadable; names the touchpoint and ``files``.
    """
    hashes = {}
    for name in touchpoint.files:
        digest = hashlib.sha256()
        try:
            with (Path(root) / name).open("rb") as handle:
                while block := handle.read(1 << 16):
                    digest.update(block)
        except OSError as exc:
            raise ProjectError(
                f"cannot read {name} ({exc.strerror or exc})",
                fix="restore the file or remove it from the contract",
                touchpoint=repr(touchpoint.id),
                field="files",
            ) from exc
        hashes[name] = digest.hexdigest()
    return hashes
