"""Inspect AI eval logs, ``.json`` and ``.eval`` (docs/formats/inspect.md).

Each sample (one epoch of one dataset item) is one trace, read from its
``messages``. When inspect_ai is installed (``tracegrade[inspect]``) its own log
reader loads the file (it migrates old log versions and resolves attachments);
otherwise the JSON, or the ``.eval`` zip (``header.json`` and
``samples/<id>_epoch_<n>.json``), is read with the standard library.
"""

from __future__ import annotations

import importlib
import io
import os
import re
import zipfile
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tracegrade._text import is_blank
from tracegrade.errors import InputError, TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import placed, require_list, require_object, text_or_none
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    load_json,
    parse_arguments,
    parts_text,
    starts_with,
    suffix_ok,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Frame, Outcome, Trace

__all__: list[str] = []

_FIX = "see docs/formats/inspect.md for the log fields read"
_KNOWN_VERSIONS = (1, 2, 3)
_ZIP_MAGIC = b"PK\x03\x04"
_EVAL_MEMBERS = (b"header.json", b"_journal/", b"samples/")
_SAMPLE_MEMBER = re.compile(r"^samples/.+\.json$")
_ATTACHMENT = "attachment://"
READER_VARIABLE = "TRACEGRADE_INSPECT_READER"
"""``builtin`` reads Inspect logs without inspect_ai even where it is installed."""
_READER_CHOICES = ("", "inspect_ai", "builtin")
_READ_FIELDS = ("content", "tool_calls", "error")  # what a message's frames are made of
# Inspect's score constants (CORRECT, INCORRECT, PARTIAL, NOANSWER) and booleans; any
# other value (a number, a dict) says nothing about success on its own.
_SCORE_OUTCOMES: dict[Any, Outcome] = {"C": "success", "I": "failure", "P": "partial"}


def _looks_inspect(name: str, head: bytes) -> bool:
    if name.lower().endswith(".eval"):
        return True
    if head.startswith(_ZIP_MAGIC):
        return not name and any(member in head for member in _EVAL_MEMBERS)
    return (
        suffix_ok(name, ".json")
        and starts_with(head, rb"\{")
        and b'"eval"' in head
        and any(key in head for key in (b'"run_id"', b'"task_id"', b'"eval_id"'))
    )


@dataclass(frozen=True, slots=True)
class _Log:
    """The parts of a log the reader uses, as JSON values."""

    header: dict[str, Any]
    samples: Iterator[tuple[str, Any]]  # (where, sample)


@reader(
    "inspect",
    description="Inspect AI eval logs: a .eval zip or a .json log; each sample is one trace",
    can_read=_looks_inspect,
    priority=10,
)
def _read_inspect(data: bytes, name: str) -> Iterator[Trace]:
    is_zip = data.startswith(_ZIP_MAGIC) or name.lower().endswith(".eval")
    log = _load_with_inspect(data, name, is_zip=is_zip)
    if log is None:
        log = _load_zip(data, name) if is_zip else _load_json_log(data, name)
    count = 0
    for where, sample in log.samples:
        count += 1
        yield _sample_trace(sample, where, log.header, name)
    if count == 0:
        status = log.header.get("status")
        raise TraceFormatError(
            f"the log holds no samples (status {status!r})",
            fix="a log written with header_only, or a run that never finished a sample, has"
            " no messages to read; read the full log",
            path=name,
        )


# --- loading -------------------------------------------------------------------------


def inspect_log_module() -> Any | None:  # noqa: ANN401 - an optional module, untyped here
    """``inspect_ai.log`` when inspect_ai is installed and not turned off, else ``None``.

    ``TRACEGRADE_INSPECT_READER=builtin`` reads with the standard-library reader even where
    inspect_ai is installed: inspect_ai's ``read_eval_log`` validates the whole log and took
    about ten times ``orjson.loads`` of it (benchmarks/RESULTS.md, item 8).

    Raises:
        InputError: The variable has another value.
    """
    choice = os.environ.get(READER_VARIABLE, "").strip().lower()
    if choice not in _READER_CHOICES:
        raise InputError(
            f"{READER_VARIABLE}={os.environ[READER_VARIABLE]!r} is not a reader choice",
            fix="set it to 'inspect_ai' (the default when installed) or 'builtin', or unset it",
        )
    if choice == "builtin":
        return None
    try:
        return importlib.import_module("inspect_ai.log")
    except ImportError:
        return None


def _load_with_inspect(data: bytes, name: str, *, is_zip: bool) -> _Log | None:
    """Load through inspect_ai's reader, or ``None`` when it is absent or cannot read it.

    When inspect_ai fails, the standard-library reader runs instead: it reads
    what it can and names the position of what it cannot.
    """
    module = inspect_log_module()
    if module is None:
        return None
    try:
        log = module.read_eval_log(io.BytesIO(data), format="eval" if is_zip else "json")
        header = log.model_dump(mode="json", exclude={"samples"})
        samples = [sample.model_dump(mode="json") for sample in log.samples or []]
    except Exception:  # noqa: BLE001 - any inspect_ai failure falls back to the stdlib reader
        return None
    zipped = [
        (f"samples/{s.get('id')}_epoch_{s.get('epoch')}.json" if is_zip else f"sample {i}", s)
        for i, s in enumerate(samples)
    ]
    return _Log(header, iter(zipped))


def _check_version(header: dict[str, Any], name: str) -> None:
    version = header.get("version")
    if version is not None and version not in _KNOWN_VERSIONS:
        known = ", ".join(str(v) for v in _KNOWN_VERSIONS)
        raise TraceFormatError(
            f"log version {version!r} is not one this reader knows ({known})",
            fix="install tracegrade[inspect] so inspect_ai reads (and migrates) the log, or"
            " convert it with 'inspect log convert'",
            path=name,
        )


def _load_json_log(data: bytes, name: str) -> _Log:
    raw = require_object(load_json(data, name), "an Inspect .json log", name, _FIX)
    _check_version(raw, name)
    samples = raw.get("samples")
    if samples is None:
        samples = []
    require_list(samples, "'samples'", name, _FIX)
    header = {k: v for k, v in raw.items() if k != "samples"}
    return _Log(header, ((f"sample {i}", s) for i, s in enumerate(samples)))


def _load_zip(data: bytes, name: str) -> _Log:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, NotImplementedError, ValueError, EOFError) as exc:
        raise TraceFormatError(
            f"not a readable .eval zip ({exc})",
            fix="the log may be truncated or still being written; re-copy it once the run ends",
            path=name,
        ) from exc
    names = list(dict.fromkeys(archive.namelist()))
    member = next((m for m in ("header.json", "_journal/start.json") if m in names), None)
    if member is None:
        raise TraceFormatError(
            "the .eval zip has neither header.json nor _journal/start.json",
            fix="this is not an Inspect .eval log, or it is damaged; re-export it",
            path=name,
        )
    header = require_object(_member_json(archive, member, name), member, name, _FIX)
    _check_version(header, name)
    samples = [(m, _member_json(archive, m, name)) for m in names if _SAMPLE_MEMBER.match(m)]
    # Inspect's own order (inspect_ai.log sort_samples): by epoch, then by id.
    samples.sort(key=lambda item: _sample_order(item[1]))
    return _Log(header, iter(samples))


# What a damaged member raises: bad offsets, corrupt deflate, a compression zipfile lacks.
_DAMAGED_MEMBER = (
    zipfile.BadZipFile,
    OSError,
    EOFError,
    zlib.error,
    NotImplementedError,
    ValueError,
)


_ENCRYPTED = 0x1  # bit 0 of a zip member's general-purpose flags


def _member_json(archive: zipfile.ZipFile, member: str, name: str) -> Any:  # noqa: ANN401 - any JSON value
    if archive.getinfo(member).flag_bits & _ENCRYPTED:  # zipfile would ask for a password
        raise TraceFormatError(
            f"{member}: the member is encrypted",
            fix="Inspect writes its .eval logs unencrypted; pass the log as Inspect wrote it",
            path=name,
        )
    try:
        data = archive.read(member)
    except _DAMAGED_MEMBER as exc:
        raise TraceFormatError(
            f"{member}: cannot be read from the zip ({exc})",
            fix="the log may be truncated; re-copy it once the run ends",
            path=name,
        ) from exc
    return load_json(data, name, member)


def _sample_order(sample: Any) -> tuple[int, str]:  # noqa: ANN401 - any JSON value
    if not isinstance(sample, dict):
        return (0, "")
    epoch, sample_id = sample.get("epoch"), sample.get("id")
    order_id = sample_id if isinstance(sample_id, str) else str(sample_id).zfill(20)
    return (epoch if isinstance(epoch, int) else 0, order_id)


# --- one sample -----------------------------------------------------------------------


def _sample_trace(sample: Any, where: str, header: dict[str, Any], name: str) -> Trace:  # noqa: ANN401 - any JSON value
    sample = require_object(sample, where, name, _FIX)
    messages = sample.get("messages")
    if not isinstance(messages, list) or not messages:
        raise TraceFormatError(
            f"{where}: 'messages' must be a non-empty list, got {json_type(messages)}",
            fix=_FIX,
            path=name,
        )
    attachments = sample.get("attachments")
    attachments = attachments if isinstance(attachments, dict) else {}
    ledger = CallLedger()
    frames: list[Frame] = []
    for index, message in enumerate(messages):
        at = f"{where}, message {index}"
        if not isinstance(message, dict):
            raise TraceFormatError(
                f"{at}: a message must be a JSON object, got {json_type(message)}",
                fix=_FIX,
                path=name,
            )
        resolved = _attachments_resolved(message, attachments) if attachments else message
        frames.extend(placed(f, at) for f in _message_frames(resolved, name, at, ledger))
    spec = header.get("eval")
    spec = spec if isinstance(spec, dict) else {}
    task = text_or_none(spec.get("task")) or "sample"
    sample_id, epoch = sample.get("id"), sample.get("epoch")
    scores = sample.get("scores")
    scores = scores if isinstance(scores, dict) else {}
    values = {k: v.get("value") for k, v in scores.items() if isinstance(v, dict)}
    error = sample.get("error")
    metadata: dict[str, Any] = {
        "task": spec.get("task"),
        "eval_id": spec.get("eval_id"),
        "run_id": spec.get("run_id"),
        "sample_id": sample_id,
        "epoch": epoch,
        "target": sample.get("target"),
        "scores": values,
    }
    if isinstance(error, dict):
        metadata["error"] = error.get("message")
    if sample.get("limit") is not None:
        metadata["limit"] = sample.get("limit")
    trace = build_trace(
        trace_id=f"{task}-{sample_id}-epoch-{epoch}",
        model=text_or_none(spec.get("model")),
        frames=frames,
        ledger=ledger,
        name=name,
        where=where,
        outcome=_outcome(values),
        metadata=metadata,
    )
    revision = spec.get("revision")
    commit = text_or_none(revision.get("commit")) if isinstance(revision, dict) else None
    return trace.model_copy(update={"commit": commit}) if commit else trace


def _outcome(values: dict[str, Any]) -> Outcome | None:
    """The outcome every scorer agrees on, when each score says success or failure."""
    outcomes: set[Outcome] = set()
    for value in values.values():
        if isinstance(value, bool):
            outcomes.add("success" if value else "failure")
        elif isinstance(value, str) and value in _SCORE_OUTCOMES:
            outcomes.add(_SCORE_OUTCOMES[value])
        else:
            return None
    return outcomes.pop() if len(outcomes) == 1 else None


def _attachments_resolved(message: dict[str, Any], attachments: dict[str, Any]) -> dict[str, Any]:
    """The message with its attachment references replaced, in the fields frames are made of.

    Inspect moves long text into ``attachments`` from a message's content, its tool calls
    and their arguments (inspect_ai.log._condense); ids, sources and metadata are left as
    they are, as walking them cost a fifth of reading a log.
    """
    resolved = dict(message)
    for field in _READ_FIELDS:
        if field in message:
            resolved[field] = _resolve(message[field], attachments)
    return resolved


def _resolve(value: Any, attachments: dict[str, Any]) -> Any:  # noqa: ANN401 - any JSON value
    """Replace ``attachment://<hash>`` strings with the sample's attachment text."""
    if isinstance(value, str):
        if value.startswith(_ATTACHMENT):
            found = attachments.get(value[len(_ATTACHMENT) :])
            return found if isinstance(found, str) else value
        return value
    if isinstance(value, list):
        return [_resolve(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, attachments) for k, v in value.items()}
    return value


def _message_frames(message: dict[str, Any], name: str, at: str, ledger: CallLedger) -> list[Frame]:
    role = message.get("role")
    if role == "system":
        return [SystemFrame(content=_text(message, name, at))]
    if role == "user":
        return [UserFrame(content=_text(message, name, at))]
    if role == "assistant":
        frames: list[Frame] = []
        text = _text(message, name, at)
        if text:
            frames.append(AssistantFrame(content=text))
        calls = message.get("tool_calls")
        for number, call in enumerate(require_list(calls or [], f"{at}: 'tool_calls'", name, _FIX)):
            frames.append(_call(call, name, f"{at}, tool call {number}", ledger))
        return frames
    if role == "tool":
        return [_result(message, name, at, ledger)]
    shown = "no 'role'" if role is None else f"unknown role {role!r}"
    raise TraceFormatError(
        f"{at}: {shown}", fix="a message's role is one of: system, user, assistant, tool", path=name
    )


def _call(call: Any, name: str, at: str, ledger: CallLedger) -> Frame:  # noqa: ANN401 - any JSON value
    call = require_object(call, at, name, _FIX)
    function = call.get("function")
    if isinstance(function, dict):  # OpenAI's {name, arguments}, seen in hand-made logs
        function = function.get("name")
    if not isinstance(function, str) or not function:
        raise TraceFormatError(
            f"{at}: the tool call has no 'function' name",
            fix="each tool call needs 'function' (the tool's name, a non-empty string)",
            path=name,
        )
    call_id = call.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: the call 'id' must be a string, got {json_type(call_id)}", fix=_FIX, path=name
        )
    return ledger.call(call_id, function, parse_arguments(call.get("arguments")))


def _result(message: dict[str, Any], name: str, at: str, ledger: CallLedger) -> Frame:
    call_id, error = message.get("tool_call_id"), message.get("error")
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: 'tool_call_id' must be a string, got {json_type(call_id)}",
            fix="a tool message's tool_call_id is the id of the call it answers",
            path=name,
        )
    if error is not None and not isinstance(error, dict):
        raise TraceFormatError(
            f"{at}: 'error' must be null or an object {{type, message}}, got {json_type(error)}",
            fix=_FIX,
            path=name,
        )
    value = _text(message, name, at)
    if error is not None and is_blank(value) and isinstance(error.get("message"), str):
        value = error["message"]  # what the model is shown for a failed call
    frame = ledger.result(call_id, ok=error is None, result=value)
    if frame is None:
        raise TraceFormatError(
            f"{at}: a tool message with no tool_call_id and no call waiting for a result",
            fix="give the tool message the tool_call_id of the call it answers",
            path=name,
        )
    return frame


def _text(message: dict[str, Any], name: str, at: str) -> str:
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return parts_text(content)  # reasoning, image and audio parts carry no text
    raise TraceFormatError(
        f"{at}: 'content' must be a string or a list of content parts, got {json_type(content)}",
        fix=_FIX,
        path=name,
    )
