"""Pair tool results with their calls when a source format reuses or omits call ids.

The grader pairs a ``tool_result`` with the latest earlier ``tool_call`` of the same
id. Real files break that: one id for two different calls, every call to a tool
under the same id, results with no id. :class:`CallLedger` gives every call a
unique frame id (the source id the first time, then ``id#2``, ``id#3``...) and
gives each result the id of the call it answers: by id while that id has one
unanswered call, by position (the earliest unanswered call) when it has several
or the result names none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracegrade.traces._model import ToolCallFrame, ToolResultFrame

__all__ = ["CallLedger"]


@dataclass(slots=True)
class _Call:
    source_id: str | None
    frame_id: str
    answered: bool = False


# The frames' validators, called with the fields: what ``ToolCallFrame(**fields)`` runs, without
# the call through the class and ``BaseModel.__init__`` (a fifth of building a frame).
_NEW_CALL = ToolCallFrame.__pydantic_validator__.validate_python
_NEW_RESULT = ToolResultFrame.__pydantic_validator__.validate_python


@dataclass(slots=True)
class CallLedger:
    """The calls of one run so far, in order, and which of them have a result.

    Attributes:
        renamed: Frame id -> source id, for every call whose id was rewritten
            (reused or missing in the source); kept in the trace's metadata.
    """

    renamed: dict[str, str | None] = field(default_factory=dict)
    _calls: list[_Call] = field(default_factory=list)
    _by_source: dict[str, list[_Call]] = field(default_factory=dict)  # its calls so far, per id
    _used: set[str] = field(default_factory=set)
    _first_open: int = 0  # every call before this index has a result

    def call(
        self,
        source_id: str | None,
        name: str,
        args: Any,  # noqa: ANN401 - any JSON value
        *,
        origin: str | None = None,
    ) -> ToolCallFrame:
        """Record a call and return its frame, with an id no earlier call has.

        ``origin``, when given, is set as the frame is built (not placed() after it).
        """
        used = self._used
        same = self._by_source.get(source_id) if source_id else None
        if source_id and same is None and source_id not in used:  # most calls: a new id
            frame_id = source_id
            call = _Call(source_id, frame_id)
            self._by_source[source_id] = [call]
        else:
            if source_id:
                count = 1 if same is None else len(same) + 1
                frame_id = source_id if count == 1 else f"{source_id}#{count}"
            else:
                count = len(self._calls) + 1
                frame_id = f"call-{count}"
            while frame_id in used:
                count += 1
                frame_id = f"{source_id}#{count}" if source_id else f"call-{count}"
            if frame_id != source_id:
                self.renamed[frame_id] = source_id or None
            call = _Call(source_id or None, frame_id)
            if source_id:
                if same is None:
                    self._by_source[source_id] = [call]
                else:
                    same.append(call)
        used.add(frame_id)
        self._calls.append(call)
        fields = {"id": frame_id, "name": name, "args": args}
        if origin is not None:
            fields["origin"] = origin
        frame: ToolCallFrame = _NEW_CALL(fields)
        return frame

    def result(
        self,
        source_id: str | None,
        *,
        ok: bool,
        result: Any,  # noqa: ANN401 - any JSON value
        artifact: Any = None,  # noqa: ANN401 - any JSON value
        origin: str | None = None,
    ) -> ToolResultFrame | None:
        """Return the result frame, carrying the frame id of the call it answers (and ``origin``).

        A result whose id no call had keeps that id (the grader reports it as an
        orphan). A second result for an answered call goes to the latest call of
        that id.

        Returns:
            ``None`` when the result names no id and no call is waiting for one.
        """
        if source_id:
            same = self._by_source.get(source_id)
            if same is None:  # no call had this id: an orphan, kept as it is
                orphan: ToolResultFrame = _NEW_RESULT(
                    {"id": source_id, "ok": ok, "result": result, "artifact": artifact}
                )
                return orphan
            target = same[-1]
            for call in same:
                if not call.answered:
                    target = call
                    break
        else:
            calls = self._calls
            while self._first_open < len(calls) and calls[self._first_open].answered:
                self._first_open += 1
            if self._first_open == len(calls):
                return None
            target = calls[self._first_open]
        target.answered = True
        fields = {"id": target.frame_id, "ok": ok, "result": result, "artifact": artifact}
        if origin is not None:
            fields["origin"] = origin
        frame: ToolResultFrame = _NEW_RESULT(fields)
        return frame
