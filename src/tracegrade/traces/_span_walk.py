"""Walk one trace's span tree into frames (shared by the OpenInference and OTel GenAI readers).

Spans are visited depth first, siblings by start time (ties in file order). An LLM span
contributes the messages of its input that no earlier LLM span of the same conversation
sent (each call re-sends the whole history), then its output messages. A tool span
contributes a ``tool_call`` (unless an LLM output already announced that call id), then its
children, then the ``tool_result``. A result's value is what the model saw: the tool
message of a later LLM input when there is one, else the tool span's own output.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import orjson

from tracegrade._text import is_blank
from tracegrade.errors import TraceFormatError
from tracegrade.traces._limits import MAX_DEPTH
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame, text_frame
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._reading import build_trace, parse_arguments, trace_stem
from tracegrade.traces._spans import load_span_lines, load_spans

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from tracegrade.traces._model import Frame, Trace
    from tracegrade.traces._spans import Span, SpanGroup

__all__ = [
    "Call",
    "Convention",
    "Message",
    "Reply",
    "ToolRun",
    "read_span_file",
    "read_span_lines",
    "spans_trace",
]

SpanRole = Literal["llm", "tool", "other"]


@dataclass(slots=True, unsafe_hash=True)  # not frozen: see Message
class Call:
    """A tool call a message announces."""

    id: str | None
    name: str
    args: Any


@dataclass(slots=True, unsafe_hash=True)  # not frozen: see Message
class Reply:
    """A tool result a ``tool`` message carries."""

    id: str | None
    value: Any


# Not frozen, though never changed: moved() builds one per re-sent message, and a frozen
# dataclass's __init__ costs three times as much. unsafe_hash keeps it hashable as before.
@dataclass(slots=True, unsafe_hash=True)
class Message:
    """One chat message of an LLM span, in either convention."""

    role: Literal["system", "user", "assistant", "tool"]
    text: str
    origin: str
    calls: tuple[Call, ...] = ()
    replies: tuple[Reply, ...] = ()
    # key(), once computed, shared with moved() copies: every LLM span re-sends the history,
    # and each message's key is compared again.
    _key: list[bytes] = field(default_factory=list, repr=False, compare=False)

    def key(self) -> bytes:
        """What makes two messages the same message (the origin does not)."""
        if not self._key:
            body = [self.role, self.text, [[c.id, c.name, c.args] for c in self.calls]]
            body.append([[r.id, r.value] for r in self.replies])
            self._key.append(orjson.dumps(body, option=orjson.OPT_SORT_KEYS, default=str))
        return self._key[0]

    def same(self, other: Message) -> bool:
        """``key() == other.key()``; a moved() copy is known to be the same without a key."""
        return self._key is other._key or self.key() == other.key()

    def moved(self, origin: str) -> Message:
        """The same message read at another place (a re-sent history); it shares the key."""
        return Message(self.role, self.text, origin, self.calls, self.replies, self._key)


@dataclass(slots=True, unsafe_hash=True)  # not frozen: see Message
class ToolRun:
    """What a tool span says about one tool execution."""

    id: str | None
    name: str
    args: Any
    result: Any
    ok: bool
    # The args and result as written: a JSON string is parsed (parse_arguments) only where
    # it is used. A call an LLM output announced and a result a later input showed are not.
    parse_json: bool = False


class Convention(Protocol):
    """How one attribute convention spells LLM and tool spans."""

    def role(self, span: Span) -> SpanRole:
        """Whether the span is a model call, a tool execution or neither."""
        ...

    def messages(self, span: Span, name: str) -> tuple[list[Message], list[Message]]:
        """The input and output messages of an LLM span."""
        ...

    def tool(self, span: Span, name: str) -> ToolRun:
        """The execution a tool span records."""
        ...

    def model(self, span: Span) -> str | None:
        """The model an LLM span called."""
        ...

    def usage(self, span: Span) -> tuple[int | None, int | None]:
        """Input and output tokens of an LLM span."""
        ...

    def text_io(self, span: Span) -> tuple[str | None, str | None]:
        """A root span's plain-text input and output (the user's request, the answer)."""
        ...


@dataclass
class _Walk:
    convention: Convention
    name: str
    seen_replies: dict[str, list[Any]]
    ledger: CallLedger = field(default_factory=CallLedger)
    frames: list[Frame] = field(default_factory=list)
    threads: list[list[Message]] = field(default_factory=list)
    called: set[str] = field(default_factory=set)
    awaiting_span: Counter[str] = field(default_factory=Counter)
    awaiting_result: Counter[str] = field(default_factory=Counter)
    span_runs: Counter[str] = field(default_factory=Counter)

    def conversation(self, inputs: list[Message], outputs: list[Message]) -> None:
        best, common = None, 0
        for thread in self.threads:
            shared = 0
            for old, new in zip(thread, inputs, strict=False):
                if not old.same(new):
                    break
                shared += 1
            if shared > common:
                best, common = thread, shared
        for message in inputs[common:]:
            self.message(message, announced=False)
        for message in outputs:
            self.message(message, announced=True)
        sequence = inputs + outputs
        if best is not None and common == len(best):
            best[:] = sequence
        else:
            self.threads.append(sequence)

    def message(self, message: Message, *, announced: bool) -> None:
        origin = message.origin
        if message.role == "system":
            if not is_blank(message.text):
                self.frames.append(text_frame(SystemFrame, message.text, origin))
        elif message.role == "user":
            if not is_blank(message.text) or not message.calls:
                self.frames.append(text_frame(UserFrame, message.text, origin))
        elif message.role == "assistant" and not is_blank(message.text):
            self.frames.append(text_frame(AssistantFrame, message.text, origin))
        for call in message.calls:
            # A call in an output is new; a call in a re-sent history is new only once.
            if not announced and call.id and call.id in self.called:
                continue
            self.call(call.id, call.name, call.args, origin)
            if call.id:
                self.awaiting_span[call.id] += 1
        for reply in message.replies:
            if reply.id and reply.id in self.called and not self.awaiting_result[reply.id]:
                continue  # a tool span already gave this call its result
            self.result(reply.id, reply.value, ok=True, origin=origin, where=origin)

    def call(self, source_id: str | None, tool: str, args: Any, origin: str) -> None:  # noqa: ANN401 - any JSON value
        self.frames.append(self.ledger.call(source_id, tool, args, origin=origin))
        if source_id:
            self.called.add(source_id)
            self.awaiting_result[source_id] += 1

    def result(
        self,
        source_id: str | None,
        value: Any,  # noqa: ANN401 - any JSON value
        *,
        ok: bool,
        origin: str,
        where: str,
    ) -> None:
        frame = self.ledger.result(source_id, ok=ok, result=value, origin=origin)
        if frame is None:
            raise TraceFormatError(
                f"{where}: a tool result with no call id and no call waiting for a result",
                fix="give the tool message the id of the call it answers",
                path=self.name,
            )
        self.frames.append(frame)
        if source_id and self.awaiting_result[source_id]:
            self.awaiting_result[source_id] -= 1

    def tool_span(self, span: Span, children: list[Span], visit: Any) -> None:  # noqa: ANN401 - the visitor
        run = self.convention.tool(span, self.name)
        # A span with no call id gets one of its own, so its result finds its call.
        source_id = run.id or f"span-{span.span_id}"
        if run.id and self.awaiting_span[run.id]:
            self.awaiting_span[run.id] -= 1  # an LLM output announced this call
        else:
            args = parse_arguments(run.args) if run.parse_json else run.args
            self.call(source_id, run.name, args, span.origin)
        for child in children:
            visit(child)
        value = run.result
        shown = False
        if run.id:
            seen = self.seen_replies.get(run.id, [])
            if self.span_runs[run.id] < len(seen):
                value, shown = seen[self.span_runs[run.id]], True  # the string the model saw
            self.span_runs[run.id] += 1
        if self.awaiting_result[source_id]:
            if run.parse_json and not shown:
                value = parse_arguments(value)
            self.result(source_id, value, ok=run.ok, origin=span.origin, where=span.where)


def _in_visit_order(children: dict[str | None, list[Span]], name: str) -> list[Span]:
    """Every span, depth first from the roots, each span's children in time order.

    Raises:
        TraceFormatError: A span is reached twice: its id repeats an ancestor's, so the
            parent links form a cycle (walking it would never end).
    """
    ordered: list[Span] = []
    visited: set[int] = set()
    pending = [(span, 1) for span in reversed(children.get(None, []))]
    while pending:
        span, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise TraceFormatError(
                f"{span.where}: spans nest more than {MAX_DEPTH} levels deep",
                fix="a span tree that deep is damaged or not a trace; re-export the trace",
                path=name,
            )
        if id(span) in visited:
            raise TraceFormatError(
                f"{span.where}: the spans' parent links loop: this span is reached twice, under"
                " a span whose id repeats one of its ancestors'",
                fix="span ids must be unique within a trace; re-export the trace",
                path=name,
            )
        visited.add(id(span))
        ordered.append(span)
        below = children.get(span.span_id)
        if below:  # most spans are leaves: no generator for them
            pending.extend([(child, depth + 1) for child in reversed(below)])
    return ordered


def _seen_replies(said: dict[int, tuple[list[Message], list[Message]]]) -> dict[str, list[Any]]:
    """Each call id's results as later LLM inputs showed them, in conversation order."""
    found: dict[tuple[str, int], Any] = {}
    for inputs, _ in said.values():
        for index, message in enumerate(inputs):
            for reply in message.replies:
                if reply.id:
                    found.setdefault((reply.id, index), reply.value)
    replies: dict[str, list[Any]] = {}
    for (call_id, _), value in sorted(found.items(), key=lambda item: item[0][1]):
        replies.setdefault(call_id, []).append(value)
    return replies


def spans_trace(group: SpanGroup, convention: Convention, name: str) -> Trace:
    """The trace of one span group.

    Raises:
        TraceFormatError: A span is malformed, or the trace has nothing to read.
    """
    spans = list(group.spans)
    ids = {span.span_id for span in spans}
    children: dict[str | None, list[Span]] = {}
    for span in spans:
        parent = span.parent_id if span.parent_id in ids else None
        children.setdefault(parent, []).append(span)
    for siblings in children.values():
        siblings.sort(key=lambda s: (s.start is None, s.start or 0, s.order))
    # Each LLM span's messages, read once (by id(span)) for both passes, in the order the
    # walk visits the spans: reading them is most of the cost, as every call re-sends the
    # whole history, and a convention may hand back a message it read in an earlier span.
    in_order = _in_visit_order(children, name)  # raises on a cycle, before the recursive walk
    roles = {id(span): convention.role(span) for span in in_order}  # asked once per span
    said = {
        id(span): convention.messages(span, name) for span in in_order if roles[id(span)] == "llm"
    }
    walk = _Walk(convention, name, _seen_replies(said))
    models: list[str] = []
    tokens = [0, 0, 0]  # input, output, spans that reported any

    def visit(span: Span) -> None:
        role = roles[id(span)]
        if role == "tool":
            walk.tool_span(span, children.get(span.span_id, []), visitor[0])
            return
        if role == "llm":
            walk.conversation(*said[id(span)])
            model = convention.model(span)
            if model and model not in models:
                models.append(model)
            used = convention.usage(span)
            if used != (None, None):
                tokens[0] += used[0] or 0
                tokens[1] += used[1] or 0
                tokens[2] += 1
        for child in children.get(span.span_id, []):
            visitor[0](child)

    visitor: list[Callable[[Span], None]] = [visit]
    roots = children.get(None, [])
    try:
        for root in roots:
            visit(root)
    finally:
        # visit calls itself through this list, emptied here: as a closure over its own name it
        # was a cycle, leaving each trace's spans and messages to the collector (item 8 ai-sdk).
        visitor.clear()
    frames = walk.frames
    task = _add_root_text(frames, roots[0] if roots else None, convention)
    metadata: dict[str, Any] = {"spans": len(spans)}
    if group.label is not None:
        metadata["span_list"] = group.label
    if roots and roots[0].name:
        metadata["root_span"] = roots[0].name
    session = next(
        (s.attributes.get("session.id") for s in spans if "session.id" in s.attributes), None
    )
    if isinstance(session, str):
        metadata["session_id"] = session
    if len(models) > 1:
        metadata["models"] = models
    if tokens[2]:
        metadata["usage"] = {"input_tokens": tokens[0], "output_tokens": tokens[1]}
    return build_trace(
        trace_id=group.trace_id,
        frames=frames,
        ledger=walk.ledger,
        name=name,
        where=f"trace {group.trace_id}",
        model=models[0] if models else None,
        metadata=metadata,
        task=task,  # given, not copied in after: a copy per trace
    )


def read_span_file(data: bytes, name: str, convention: Callable[[], Convention]) -> Iterator[Trace]:
    """Every trace of one span document, a trace id each, read with a new ``convention()``.

    Raises:
        TraceFormatError: The document or a span is malformed.
    """
    for group in load_spans(data, name, trace_stem(name)):
        yield spans_trace(group, convention(), name)


def read_span_lines(
    lines: Iterable[bytes], name: str, convention: Callable[[], Convention]
) -> Iterator[Trace]:
    """Every trace of a span file read a line at a time (JSONL), with a new ``convention()``."""
    for group in load_span_lines(lines, name, trace_stem(name)):
        yield spans_trace(group, convention(), name)


def _add_root_text(frames: list[Frame], root: Span | None, convention: Convention) -> str | None:
    """Use the root span's text when the LLM spans gave no user message or no answer.

    Returns:
        The root's input when it is one of the user messages: the run's task.
    """
    if root is None or convention.role(root) != "other":
        return None  # an LLM or tool root is read as such, not as the user's request
    request, answer = convention.text_io(root)
    users = [f.content for f in frames if isinstance(f, UserFrame) and not is_blank(f.content)]
    if request and not is_blank(request) and not users:
        frames.insert(0, UserFrame(content=request, origin=f"{root.origin}, input"))
        users.append(request)
    has_answer = any(isinstance(f, AssistantFrame) and not is_blank(f.content) for f in frames)
    if answer and not is_blank(answer) and not has_answer:
        frames.append(AssistantFrame(content=answer, origin=f"{root.origin}, output"))
    return request if request in users else None
