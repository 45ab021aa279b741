"""File views: text results that name their file become that file's numbered lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import corpus_root
from tests.helpers.builders import assistant, call, make_trace, result, user
from tracegrade.claims import Fact, Question
from tracegrade.errors import UnreadableResultError
from tracegrade.observations import LineObservation, observe
from tracegrade.traces import read_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

# The shapes SWE-agent writes (tools/windowed): CRLF inside the window, LF before its footer.
FOOTER = "\n(Open file: /repo/src/app/config.py)\n(Current directory: /repo)\nbash-$"
WINDOW = (
    "[File: src/app/config.py (212 lines total)]\r\n(39 more lines above)\r\n"
    "40:TIMEOUT_MS = 4500\r\n41:\r\n42:def load(path):\r\n(170 more lines below)" + FOOTER
)
EDITED = (
    "File updated. Please review the changes and make sure they are correct\r\n"
    "(correct indentation, no duplicate lines, etc). Edit the file again if necessary.\r\n"
    "[File: /repo/src/app/config.py (212 lines total)]\r\n(39 more lines above)\r\n"
    "40:TIMEOUT_MS = 5000\r\n(172 more lines below)\r\n" + FOOTER
)
FAILED_EDIT = (
    "Your proposed edit has introduced new syntax error(s).\r\n\r\n"
    "This is how your edit would have looked if applied\r\n"
    "-------------------------------------------------\r\n"
    "[File: /repo/src/app/config.py (212 lines total)]\r\n40:TIMEOUT_MS = = 5000\r\n"
    "-------------------------------------------------\r\n\r\n"
    "This is the original code before your edit\r\n"
    "-------------------------------------------------\r\n"
    "[File: /repo/src/app/config.py (212 lines total)]\r\n40:TIMEOUT_MS = 4500\r\n"
    "-------------------------------------------------\r\n" + FOOTER
)
FILE_TEXT = "import os\n\nTIMEOUT_MS = 4500\n"
MARSHMALLOW = "marshmallow-code__marshmallow-1867.function_calling.traj"


def _observed(tool: str, args: Any, body: Any) -> list[LineObservation]:
    trace = make_trace([user(), call("c1", tool, args), result("c1", True, body), assistant("ok")])
    return [obs for obs in observe(trace, strict=False) if isinstance(obs, LineObservation)]


def _lines(observations: list[LineObservation]) -> list[tuple[str, int | float, str]]:
    return [(obs.file, obs.line, obs.text) for obs in observations]


def test_a_window_gives_the_files_lines_with_their_numbers() -> None:
    observed = _observed("open", {"path": "src/app/config.py", "line_number": 40}, WINDOW)
    assert _lines(observed) == [
        ("src/app/config.py", 40, "TIMEOUT_MS = 4500"),
        ("src/app/config.py", 41, ""),
        ("src/app/config.py", 42, "def load(path):"),
        ("open", 1, "(Open file: /repo/src/app/config.py)"),
        ("open", 2, "(Current directory: /repo)"),
        ("open", 3, "bash-$"),
    ]


def test_a_made_edit_shows_the_file_under_the_current_directory_relative() -> None:
    observed = _observed("edit", {"replacement_text": "TIMEOUT_MS = 5000"}, EDITED)
    files = [(obs.file, obs.line) for obs in observed if obs.file != "edit"]
    assert files == [("src/app/config.py", 40)]
    assert observed[0].file == "edit"  # the message before the window is the tool's text
    assert observed[0].text.startswith("File updated.")


def test_a_failed_edit_quoting_views_is_text() -> None:
    observed = _observed("edit", {"replacement_text": "TIMEOUT_MS = = 5000"}, FAILED_EDIT)
    assert {obs.file for obs in observed} == {"edit"}


@pytest.mark.parametrize(
    ("command", "output", "expected"),
    [
        ("cat src/app/config.py", FILE_TEXT,
         [(1, "import os"), (2, ""), (3, "TIMEOUT_MS = 4500")]),
        ("cat -n src/app/config.py", "     1\timport os\n     2\t\n     3\tTIMEOUT_MS = 4500\n",
         [(1, "import os"), (2, ""), (3, "TIMEOUT_MS = 4500")]),
        ("nl -ba src/app/config.py", "     1\timport os\n     2\t\n     3\tTIMEOUT_MS = 4500\n",
         [(1, "import os"), (2, ""), (3, "TIMEOUT_MS = 4500")]),
        ("sed -n '40p' src/app/config.py", "TIMEOUT_MS = 4500\n", [(40, "TIMEOUT_MS = 4500")]),
        ("sed -n '40,42p' src/app/config.py", "TIMEOUT_MS = 4500\n\ndef load(path):\n",
         [(40, "TIMEOUT_MS = 4500"), (41, ""), (42, "def load(path):")]),
        ("nl -ba src/app/config.py | sed -n '40,41p'", "    40\tTIMEOUT_MS = 4500\n    41\t\n",
         [(40, "TIMEOUT_MS = 4500"), (41, "")]),
        ("cat /repo/src/app/config.py", "import os" + FOOTER, [(1, "import os")]),
    ],
)  # fmt: skip
def test_a_command_that_shows_one_file_names_it(
    command: str, output: str, expected: list[tuple[int, str]]
) -> None:
    observed = _observed("bash", {"command": command}, output)
    shown = [(obs.line, obs.text) for obs in observed if obs.file == "src/app/config.py"]
    assert shown == expected
    assert all(obs.file in ("src/app/config.py", "bash") for obs in observed)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("cat src/app/config.py", "cat: src/app/config.py: No such file or directory\n"),
        ("cat a.py b.py", FILE_TEXT),
        ("cat src/app/config.py | grep TIMEOUT", "TIMEOUT_MS = 4500\n"),
        ("cat src/app/config.py > copy.py", ""),
        ("nl -ba src/app/config.py", "import os\n"),  # a line without its number
        ("sed -n '40,40p' src/app/config.py", "TIMEOUT_MS = 4500\nx\n"),  # more than asked
        ("grep -n TIMEOUT src/app/config.py", "3:TIMEOUT_MS = 4500\n"),
        ("cat 'unterminated", FILE_TEXT),
    ],
)
def test_anything_else_stays_text(command: str, output: str) -> None:
    observed = _observed("bash", {"command": command}, output)
    assert {obs.file for obs in observed} <= {"bash"}


def test_a_view_is_not_read_as_text() -> None:
    trace = make_trace(
        [user(), call("c1", "open", {"path": "src/app/config.py"}), result("c1", True, WINDOW)]
    )
    assert observe(trace, strict=False).as_text == ()


def test_strict_mode_keeps_the_reference_rules() -> None:
    trace = make_trace([user(), call("c1", "open", {}), result("c1", True, WINDOW)])
    with pytest.raises(UnreadableResultError, match="unreadable result"):
        observe(trace)


def test_a_view_of_the_truth_file_grounds_the_run() -> None:
    trace = make_trace(
        [
            user("What is the timeout?"),
            call("c1", "bash", {"command": "nl -ba src/app/config.py | sed -n '40,41p'"}),
            result("c1", True, "    40\tTIMEOUT_MS = 4500\n    41\t\n" + FOOTER),
            assistant("TIMEOUT_MS is 4500, in src/app/config.py."),
        ]
    )
    question = Question(
        id="timeout",
        facts=(Fact(id="file", text="src/app/config.py"), Fact(id="value", text="4500")),
        truth_file="src/app/config.py",
        tell="TIMEOUT_MS = 4500",
    )
    graded = grade(trace, question, strict=False)
    assert graded.provenance == "grounded"
    assert [(s.file, s.line) for s in graded.truth] == [("src/app/config.py", 40)]
    assert graded.unread == ()


@pytest.fixture(scope="module")
def swe_agent_folder() -> Path:
    folder = corpus_root() / "trace_fixtures" / "swe_agent_traj"
    if not (folder / "function_calling_simple.traj").is_file():
        pytest.skip(
            f"real SWE-agent trajectories not found in {folder}: set TRACEGRADE_CORPUS to the"
            " folder that holds trace_fixtures/ to run this test"
        )
    return folder


@pytest.mark.corpus
def test_a_real_swe_agent_run_that_opened_the_file_is_grounded(swe_agent_folder: Path) -> None:
    trace = read_trace(swe_agent_folder / "function_calling_simple.traj")
    question = Question(
        id="division",
        facts=(Fact(id="file", text="tests/missing_colon.py"),),
        truth_file="tests/missing_colon.py",
        tell="print(division(123, 15))",
    )
    graded = grade(trace, question)
    # open (frame 7) and the made edit (frame 10) both show line 9 of the file.
    assert graded.provenance == "grounded"
    assert [(s.frame, s.file, s.line) for s in graded.truth] == [
        (7, "tests/missing_colon.py", 9),
        (10, "tests/missing_colon.py", 9),
    ]


@pytest.mark.corpus
def test_a_real_window_keeps_the_files_own_line_numbers(swe_agent_folder: Path) -> None:
    trace = read_trace(
        swe_agent_folder / "marshmallow-code__marshmallow-1867.function_calling.traj"
    )
    observations = observe(trace)
    opened = [
        obs
        for obs in observations
        if isinstance(obs, LineObservation) and obs.frame == 19 and obs.file != "open"
    ]
    assert {obs.file for obs in opened} == {"src/marshmallow/fields.py"}
    numbers = [int(obs.line) for obs in opened]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert numbers[0] == 1457  # "(1456 more lines above)"
    assert (19, "open") not in observations.as_text
