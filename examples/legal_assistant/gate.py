"""Run the agent-quality gate over the legal assistant.

    python -m examples.legal_assistant.gate [--repeats 3] [--baseline FILE] [--save FILE]

The scripted model drives each case unless ``TRACEGRADE_MODEL`` names a real one
(``provider:model``). Exit code 0 when every case passed on every repeat, 1 when one failed,
2 on bad input (an invalid artifact, an unreadable baseline).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_core.messages import HumanMessage, UsageMetadata

from examples.legal_assistant.cases import CASES, SCRIPTS
from examples.legal_assistant.graph import build_agent, model_from_environment
from tracegrade.contract import GateResult, GateRun, compare_gate, render_gate, run_gate
from tracegrade.contract.langgraph import GroundingSplit, ModelInputRecorder, read_transcript
from tracegrade.cost import current_run_id
from tracegrade.cost.langchain import CostCallbackHandler
from tracegrade.errors import InputError, TracegradeError
from tracegrade.guard.langgraph import ScriptedChatModel

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.language_models import BaseChatModel
    from langchain_core.runnables import RunnableConfig

    from tracegrade.contract import GateCase

BASELINE = Path(__file__).resolve().parent / "baseline.json"
SCRIPTED_MODEL = "gpt-4o-mini"
"""The model the scripted replies say they came from, so `tracegrade run` prices them."""
SCRIPTED_USAGE: UsageMetadata = {
    "input_tokens": 1200,
    "output_tokens": 90,
    "total_tokens": 1290,
    "input_token_details": {"cache_read": 1024},
}
"""The usage each scripted reply reports: a typical turn of this agent, prompt mostly cached."""


def scripted_model(case: GateCase) -> ScriptedChatModel:
    """A fresh scripted model for one run of a case; its replies report usage and a model."""
    return ScriptedChatModel(
        responses=[message.model_copy() for message in SCRIPTS[case.name]],
        model_name=SCRIPTED_MODEL,
        usage=SCRIPTED_USAGE,
    )


def run_case(
    case: GateCase,
    repeat: int,
    *,
    model: Callable[[GateCase], BaseChatModel] = scripted_model,
    split: GroundingSplit | None = None,
    project: bool = True,
) -> GateRun:
    """Run the agent once on a case; the trace is read back from the checkpoint.

    Inside ``tracegrade run`` every model call is also recorded with its tokens and cost.
    """
    app, _ = build_agent(model(case), split=split, project=project)
    recorder = ModelInputRecorder()
    callbacks: list[BaseCallbackHandler] = [recorder]
    if current_run_id() is not None:
        callbacks.append(CostCallbackHandler())  # the unit's touchpoint, in the current run
    thread: RunnableConfig = {"configurable": {"thread_id": f"{case.name}-{repeat}"}}
    app.invoke({"messages": [HumanMessage(case.question)]}, {**thread, "callbacks": callbacks})
    trace = read_transcript(app.get_state(thread))
    return GateRun(trace=trace, artifacts_shown=len(recorder.artifacts_seen()))


def run(
    cases: Sequence[GateCase] = CASES,
    *,
    repeats: int = 3,
    model: Callable[[GateCase], BaseChatModel] | None = None,
    split: GroundingSplit | None = None,
    project: bool = True,
) -> GateResult:
    """Run the gate: every case, ``repeats`` times, with the scripted model by default."""
    if model is None:
        real = model_from_environment()
        model = scripted_model if real is None else (lambda case: real)
    chosen = model
    return run_gate(
        cases,
        lambda case, repeat: run_case(case, repeat, model=chosen, split=split, project=project),
        repeats=repeats,
    )


def load_result(path: Path) -> GateResult:
    """A stored gate result.

    Raises:
        InputError: The file is unreadable or not a gate result.
    """
    try:
        return GateResult.model_validate_json(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise InputError(
            f"not a readable gate result ({exc.__class__.__name__})",
            fix="pass a file written by --save, or leave --baseline out",
            path=str(path),
        ) from exc


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m examples.legal_assistant.gate")
    parser.add_argument("--repeats", type=int, default=3, help="runs per case (default 3)")
    parser.add_argument(
        "--baseline", type=Path, help=f"an earlier result (default {BASELINE.name} if present)"
    )
    parser.add_argument("--save", type=Path, help="write this result as JSON")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    args = parser.parse_args(argv)
    cases = [case for case in CASES if not args.case or case.name in args.case]
    try:
        baseline_path = args.baseline or (BASELINE if BASELINE.exists() else None)
        baseline = load_result(baseline_path) if baseline_path else None
        result = run(cases, repeats=args.repeats)
    except TracegradeError as exc:
        print(f"gate: error: {exc}", file=sys.stderr)  # noqa: T201 - the CLI's output
        return exc.exit_code
    delta = compare_gate(result, baseline) if baseline else None
    print(render_gate(result, delta))  # noqa: T201 - the CLI's output
    if args.save:
        args.save.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main())
