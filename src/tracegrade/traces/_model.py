"""The normalised trace: one recorded agent run as a list of frames.

Every input format is read into this model; every later stage reads only this.
The frame union and its rules follow the native trace format (docs/formats/native.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from tracegrade._text import is_blank

__all__ = [
    "ApprovalFrame",
    "AssistantFrame",
    "CompactionFrame",
    "Frame",
    "Outcome",
    "ReplyStatus",
    "SystemFrame",
    "ToolCallFrame",
    "ToolResultFrame",
    "Trace",
    "UserFrame",
    "text_frame",
]

Outcome = Literal["success", "failure", "partial"]
ReplyStatus = Literal["answered", "empty", "interrupted"]
"""How the run's last turn ended: with a reply, with only blank replies, or with none at all
(the run stopped on a tool call or result, or the user's message got no answer)."""

# User-simulator messages that end a conversation rather than ask something (tau-bench, tau2
# and tools built on them): the reply before one is the last turn's answer.
_CLOSING_MARKERS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")

# Strict scalars: a JSON boolean is not a number, 1 is not true and 7 is not "7".
# Extra keys are ignored, as in the native format.
_FRAME_CONFIG = ConfigDict(frozen=True, extra="ignore")


class _FrameBase(BaseModel):
    """What every frame has: where in the user's original file it came from."""

    model_config = _FRAME_CONFIG
    origin: StrictStr | None = None
    """Where the frame came from in its source file ("message 3", "span 9f2c", "step 4"), so a
    verdict can point back into it; ``None`` for native traces (the frame index says it)."""


_NonEmpty = Annotated[StrictStr, Field(min_length=1)]
_Count = Annotated[StrictInt, Field(ge=0)]


class SystemFrame(_FrameBase):
    """The system prompt. Not evidence by default (a policy may opt in for figures).

    Other formats carry it; the native format has no system frame.
    """

    type: Literal["system"] = "system"
    content: StrictStr


class UserFrame(_FrameBase):
    """A human turn. Never evidence: the task text is not something a tool returned."""

    type: Literal["user"] = "user"
    content: StrictStr


class AssistantFrame(_FrameBase):
    """Text the model wrote; the last non-blank one of the last turn is the final answer."""

    type: Literal["assistant"] = "assistant"
    content: StrictStr


class ToolCallFrame(_FrameBase):
    """A call the model asked for. Its arguments are never evidence."""

    type: Literal["tool_call"] = "tool_call"
    id: StrictStr
    name: StrictStr
    args: Any = None


class ToolResultFrame(_FrameBase):
    """What a tool returned for the call with the same ``id``.

    ``result`` is any JSON value; a missing result is kept as ``None`` and
    fails decoding later, naming this frame. ``artifact`` is structured data the
    tool returned for the program, not for the model (LangChain's
    ``ToolMessage.artifact``); it is never shown to the model and never evidence.
    """

    type: Literal["tool_result"] = "tool_result"
    id: StrictStr
    ok: StrictBool
    result: Any = None
    artifact: Any = None


class CompactionFrame(_FrameBase):
    """The context was summarised. The summary is not evidence."""

    type: Literal["compaction"] = "compaction"
    before: _Count
    after: _Count
    summary: StrictStr


class ApprovalFrame(_FrameBase):
    """A human allowed or denied a pending tool call."""

    type: Literal["approval"] = "approval"
    tool: StrictStr
    decision: Literal["allow", "deny"]


Frame = Annotated[
    SystemFrame
    | UserFrame
    | AssistantFrame
    | ToolCallFrame
    | ToolResultFrame
    | CompactionFrame
    | ApprovalFrame,
    Field(discriminator="type"),
]


_FRAME_TYPES = frozenset(
    {SystemFrame, UserFrame, AssistantFrame, ToolCallFrame, ToolResultFrame, CompactionFrame,
     ApprovalFrame}
)  # fmt: skip
_BUILT = object()  # context key: the frames are instances a reader built (see built_frames)

_Text = TypeVar("_Text", SystemFrame, UserFrame, AssistantFrame)
_NEW_TEXT: dict[type[BaseModel], Any] = {
    kind: kind.__pydantic_validator__.validate_python
    for kind in (SystemFrame, UserFrame, AssistantFrame)
}


def text_frame(kind: type[_Text], content: str, origin: str) -> _Text:
    """``kind(content=content, origin=origin)``, built by its validator directly.

    The same frame, validated the same way, without the call through the class and
    ``BaseModel.__init__`` (a fifth of building one; readers build one or more a line).
    """
    frame: _Text = _NEW_TEXT[kind]({"content": content, "origin": origin})
    return frame


def built_frames() -> dict[object, bool]:
    """The validation context under which a trace takes already-built frames as they are."""
    return {_BUILT: True}


class Trace(BaseModel):
    """One recorded agent run.

    Attributes:
        schema_version: Version of this model, for stored traces: 2 (version 1 is the
            reference grader's native format, which the native reader also reads).
        id: The run's id as recorded.
        commit: The agent version that ran (a tag or a commit); ``None`` when the format
            does not record it.
        model: The model that ran, or ``None`` when not recorded.
        task: The prompt the run was given.
        outcome: The grade the recorder wrote at record time, or ``None`` when not recorded;
            an input to compare with, never the answer grade.
        tokens: Context size after each frame; as long as ``frames``, or empty when the
            format does not record it.
        frames: The events of the run, in order.
        metadata: What the source format recorded beside the frames (a reward, a task id),
            as JSON values.
        source_format: The reader that read it (``native``, ``openai-chat``, ...).
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    schema_version: Literal[2] = 2
    id: _NonEmpty
    commit: _NonEmpty | None = None
    model: _NonEmpty | None = None
    task: _NonEmpty
    outcome: Outcome | None = None
    tokens: tuple[_Count, ...] = ()
    frames: Annotated[tuple[Frame, ...], Field(min_length=1)]
    metadata: dict[str, Any] = Field(default_factory=dict)
    source_format: StrictStr = "native"

    @field_validator("frames", mode="wrap")
    @classmethod
    def _frames_built(
        cls,
        value: Any,  # noqa: ANN401 - any JSON value
        handler: ValidatorFunctionWrapHandler,
        info: ValidationInfo,
    ) -> Any:  # noqa: ANN401 - the validated frames
        """Frames a reader built are taken as they are: each was validated when it was made.

        Checking every frame's type again cost a fifth of reading a chat log; a tuple of
        frame instances handed in by :func:`built_frames` is only checked to be that.
        """
        if (
            info.context is not None
            and info.context.get(_BUILT) is True
            and type(value) is tuple
            and value
            and set(map(type, value)) <= _FRAME_TYPES
        ):
            return value
        return handler(value)

    @model_validator(mode="after")
    def _tokens_match_frames(self) -> Trace:
        if self.tokens and len(self.tokens) != len(self.frames):
            msg = (
                f"'tokens' has {len(self.tokens)} entries but 'frames' has {len(self.frames)};"
                " they must be the same length (one token count per frame)"
            )
            raise ValueError(msg)
        return self

    @property
    def tool_path(self) -> tuple[str, ...]:
        """The name of every tool call, in order, including calls that were denied."""
        return tuple(frame.name for frame in self.frames if isinstance(frame, ToolCallFrame))

    @property
    def turn_starts(self) -> tuple[int, ...]:
        """The frame index of every user message that opens a turn, in order.

        A blank message and a user simulator's closing message (``###STOP###``) ask nothing
        and open no turn. A run with none is one turn, from its first frame.
        """
        return tuple(
            index
            for index, frame in enumerate(self.frames)
            if isinstance(frame, UserFrame) and opens_turn(frame.content)
        )

    @property
    def turns(self) -> tuple[tuple[int, int], ...]:
        """Each turn's frames as ``(start, end)`` (end exclusive); at least one turn.

        The first turn also holds what came before its user message (a system prompt, a
        greeting); each turn ends where the next one opens.
        """
        starts = self.turn_starts or (0,)
        ends = (*starts[1:], len(self.frames))
        return tuple(zip((0, *starts[1:]), ends, strict=True))

    def _last_turn(self) -> tuple[Frame, ...]:
        starts = self.turn_starts
        return self.frames[starts[-1] :] if starts else self.frames

    @property
    def final_answer(self) -> str:
        """The last non-blank assistant text of the last turn, untrimmed; ``""`` when none.

        With one turn this is the reference grader's rule (the last non-blank assistant text
        of the run). A last turn with no reply gives ``""``, never an earlier turn's reply:
        :attr:`reply_status` says why.
        """
        for frame in reversed(self._last_turn()):
            if isinstance(frame, AssistantFrame) and not is_blank(frame.content):
                return frame.content
        return ""

    @property
    def reply_status(self) -> ReplyStatus:
        """How the last turn ended: ``answered``, ``empty`` or ``interrupted``.

        ``empty``: its replies are all blank; ``interrupted``: it has none at all.
        """
        replies = [f for f in self._last_turn() if isinstance(f, AssistantFrame)]
        if any(not is_blank(frame.content) for frame in replies):
            return "answered"
        return "empty" if replies else "interrupted"

    @property
    def any_tool_failed(self) -> bool:
        """True when some tool result has ``ok: false`` (a denied approval has no result)."""
        return any(isinstance(frame, ToolResultFrame) and not frame.ok for frame in self.frames)


def opens_turn(content: str) -> bool:
    """Whether a user message asks something: not blank, and not a closing message."""
    return not is_blank(content) and not any(marker in content for marker in _CLOSING_MARKERS)
