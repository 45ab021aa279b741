"""Start-up: a command imports what it runs, not what the other commands need.

benchmarks/_cli.py (item 3) times ``tracegrade grade SUITE --format tsv``; these tests pin
the import set behind that time, so a module-level import that drags the store, the web
app or the claim scanners back into the grade command turns them red.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click  # noqa: TID251 - the test asks the CLI's own group
import pytest

from tests.cli.runner import run_cli
from tracegrade.cli import cli
from tracegrade.cli._main import _COMMANDS

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "examples" / "suite.toml"

# Imported only by other commands or other formats: never by a suite graded as TSV.
NOT_FOR_A_TSV_SUITE = (
    "sqlalchemy",
    "starlette",
    "uvicorn",
    "httpx",
    "rich",
    "xml.etree.ElementTree",
    "tracegrade.store",
    "tracegrade.web",
    "tracegrade.evals",
    "tracegrade.contract",
    "tracegrade.judges",
    "tracegrade.proposals",
    "tracegrade.cli._baseline",
    "tracegrade.cli._proposals",
    "tracegrade.cli._run",
    "tracegrade.cli._serve",
    "tracegrade.cli._show",
    "tracegrade.claims._scan",
    "tracegrade.traces._openai",
)


def _modules_after(*args: str) -> set[str]:
    """``sys.modules`` after ``tracegrade ARGS`` ran in a fresh interpreter, and its exit code 0."""
    script = (
        "import json, sys\n"
        "from tracegrade.cli import main\n"
        "code = 0\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(json.dumps({'code': code, 'modules': sorted(sys.modules)}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.splitlines()[-1])
    assert last["code"] == 0, done.stderr
    return set(last["modules"])


def _loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(module.startswith(f"{name}.") for module in modules)


def test_a_tsv_suite_grade_imports_none_of_the_other_commands_modules():
    modules = _modules_after("grade", str(SUITE), "--format", "tsv")

    assert "tracegrade.verdicts" in modules  # it did grade
    assert [name for name in NOT_FOR_A_TSV_SUITE if _loaded(modules, name)] == []


@pytest.mark.parametrize(
    ("args", "needed"),
    [
        (("grade", str(SUITE), "--format", "junit"), "xml.etree.ElementTree"),
        # A lenient run is the reference's (the core grades strictly): it scans in Python.
        (("grade", str(REPO / "examples" / "traces"), "--lenient"), "tracegrade.claims._scan"),
        (("grade", str(REPO / "examples" / "traces")), "tracegrade.suites._bulk"),
        (("show", str(REPO / "examples" / "traces" / "grep-only.json")), "tracegrade.cli._show"),
    ],
)
def test_the_check_sees_a_module_a_command_does_import(args: tuple[str, ...], needed: str):
    # The other side of the test above: the same check finds what a command does need.
    assert _loaded(_modules_after(*args), needed)


def test_grading_native_traces_leaves_the_python_claim_scanners_unloaded():
    # Each file is graded by the core's one call (docs/design/0019), claims included.
    modules = _modules_after("grade", str(REPO / "examples" / "traces"))

    assert "tracegrade.suites._bulk" in modules  # it did grade the folder
    assert not _loaded(modules, "tracegrade.claims._scan")


def test_every_command_loads_under_the_name_it_is_listed_by():
    ctx = click.Context(cli)

    assert cli.list_commands(ctx) == sorted(_COMMANDS)
    for name in _COMMANDS:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command), name
        assert command.name == name


def test_an_unknown_command_is_still_a_usage_error(capsys: pytest.CaptureFixture[str]):
    outcome = run_cli(capsys, "grades", str(SUITE))

    assert outcome.code == 2
    assert "No such command 'grades'" in outcome.err
