"""Touchpoint versions on disk: file contents kept by sha256, atomic writes, rollback.

The runner keeps the content of every touchpoint file it hashes (:func:`keep_files`), so
any recorded version can be restored. Applying a proposal or rolling back writes files
atomically (a temporary file in the same folder, then ``os.replace``) and records the
state it leaves as a new touchpoint version.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.evals import file_hashes
from tracegrade.store import TouchpointVersionRecord

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tracegrade.evals import Project, Touchpoint
    from tracegrade.store import Store

__all__ = ["Rollback", "content_version", "keep_files", "rollback"]


@dataclass(frozen=True, slots=True)
class Rollback:
    """What a rollback did.

    Attributes:
        touchpoint: The touchpoint.
        restored_from: The version whose files were restored.
        version: The version recorded for the restored state.
        changed: The files whose content changed, sorted.
        by: Who rolled back.
    """

    touchpoint: str
    restored_from: str
    version: str
    changed: tuple[str, ...]
    by: str


def content_version(touchpoint: Touchpoint, hashes: Mapping[str, str]) -> str:
    """The version the runner names a touchpoint's state by: 16 hex digits of sha256.

    Hashed: the contract and the sha256 of each file (the runner's own rule).
    """
    text = json.dumps(
        {"contract": touchpoint.model_dump(mode="json"), "files": dict(hashes)}, sort_keys=True
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def keep_files(store: Store, root: Path, hashes: Mapping[str, str]) -> tuple[str, ...]:
    """Keep the content of each hashed file in the store, so its version can be restored.

    Files that are not UTF-8 text, or that changed since they were hashed, are skipped.

    Returns:
        The paths kept, in ``hashes`` order.
    """
    kept = []
    for name, digest in hashes.items():
        try:
            data = (root / name).read_bytes()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if hashlib.sha256(data).hexdigest() == digest:
            store.put_file_blob(digest, text)
            kept.append(name)
    return tuple(kept)


def inside(root: Path, name: str) -> Path:
    """``root / name``, refusing a path that leaves the project folder."""
    path = (root / name).resolve()
    if not path.is_relative_to(root.resolve()):
        raise InputError(
            f"{name} is outside the project folder {root}",
            fix="touchpoint files must live under the project folder",
        )
    return path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path``'s content with ``text`` (UTF-8, bytes as given) in one rename."""
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        Path(temporary).chmod(mode)
        Path(temporary).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temporary).unlink()
        raise


def record_state(
    store: Store, project: Project, touchpoint: Touchpoint, *, by: str | None = None
) -> str:
    """Hash the touchpoint's files as they are now and record that state as a new version.

    The version is :func:`content_version`; when that was recorded before (the state
    returns to an earlier one), ``.r1``, ``.r2``, ... is added so the history shows the
    change. ``by`` is who made the change (kept as the version's ``recorded_by``).
    """
    hashes = file_hashes(touchpoint, project.root)
    base = content_version(touchpoint, hashes)
    taken = {record.version for record in store.touchpoint_versions(touchpoint.id)}
    name, number = base, 0
    while name in taken:
        number += 1
        name = f"{base}.r{number}"
    store.record_touchpoint_version(
        TouchpointVersionRecord(
            touchpoint=touchpoint.id,
            version=name,
            registry_version=project.version,
            hashes=hashes,
            recorded_by=by,
        )
    )
    keep_files(store, project.root, hashes)
    return name


def rollback(store: Store, project: Project, touchpoint: str, version: str, *, by: str) -> Rollback:
    """Restore every file of a recorded touchpoint version, and record that state anew.

    Every file's content is looked up before anything is written: a missing one writes
    nothing.

    Args:
        store: Where versions and file contents are kept.
        project: The loaded project.
        touchpoint: The touchpoint id.
        version: A version ``store.touchpoint_versions`` lists for it.
        by: Who rolls back.

    Raises:
        InputError: Unknown touchpoint or version, no stored content for one of the
            version's files (names the file and its sha256), or a file outside the project.
    """
    if not by.strip():
        raise InputError("who rolls back must be named", fix="pass --by NAME")
    contract = project.entry(touchpoint).touchpoint
    versions = store.touchpoint_versions(touchpoint)
    chosen = next((record for record in versions if record.version == version), None)
    if chosen is None:
        known = ", ".join(record.version for record in versions[:5]) or "none recorded"
        raise InputError(
            f"touchpoint {touchpoint} has no version {version!r}",
            fix=f"pick a recorded version (newest first: {known})",
        )
    contents: dict[Path, tuple[str, str]] = {}
    for name, digest in sorted(chosen.hashes.items()):
        text = store.file_blob(digest)
        if text is None:
            raise InputError(
                f"version {version} of {touchpoint} has no stored content for {name}"
                f" (sha256 {digest})",
                fix="it was recorded before file contents were kept; pick a later version",
            )
        contents[inside(project.root, name)] = (name, text)
    changed = []
    for path, (name, text) in contents.items():
        current = path.read_bytes() if path.exists() else None
        if current != text.encode("utf-8"):
            write_atomically(path, text)
            changed.append(name)
    recorded = record_state(store, project, contract, by=by)
    return Rollback(touchpoint, version, recorded, tuple(sorted(changed)), by)
