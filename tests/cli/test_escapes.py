"""Text output escapes control characters from traces (tracegrade._text.escape_controls).

A trace is untrusted: an OSC 52 sequence in a tool result would write the terminal's
clipboard when ``show`` printed it, an OSC 0 sequence would retitle the window.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from tests.cli.runner import run_cli

if TYPE_CHECKING:
    import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: set the clipboard to "rm -rf ~"
TITLE = "\x1b]0;pwned\x1b\\"  # OSC 0: set the window title, ended by ST
CSI = "\x9b2J"  # a C1 CSI: clear the screen


_READ = {"ok": True, "file": "a.ts", "lines": 1, "content": f"PORT = 4321 {CLIPBOARD}"}


def _hostile_trace(tmp_path: Path, name: str = "run.json") -> Path:
    path = tmp_path / name
    frames = [
        {"type": "user", "content": f"Which port?{TITLE} now"},
        {"type": "tool_call", "id": "c1", "name": "read_file", "args": {"path": "a.ts"}},
        {"type": "tool_result", "id": "c1", "ok": True, "result": _READ},
        {"type": "assistant", "content": f"It is 4321.{CLIPBOARD}{CSI}\r"},
    ]
    path.write_text(
        json.dumps(
            {
                "id": "hostile",
                "commit": "v1",
                "model": "m",
                "task": "Which port?",
                "outcome": "success",
                "tokens": [0, 0, 0, 0],
                "frames": frames,
            }
        )
    )
    return path


def _assert_escaped(text: str) -> None:
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "\x9b" not in text
    assert "\r" not in text


def test_show_writes_escapes_as_visible_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    result = run_cli(capsys, "show", str(_hostile_trace(tmp_path)))
    assert result.code == 0
    _assert_escaped(result.out)
    assert r"Which port?\x1b]0;pwned\x1b\ " in result.out
    assert r"It is 4321.\x1b]52;c;cm0gLXJmIH4=\x07\x9b2J" in result.out


def test_grade_text_and_tsv_escape_the_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = _hostile_trace(tmp_path, f"run{TITLE}.json")  # the run's name starts each block
    for output in ("text", "tsv"):
        result = run_cli(capsys, "grade", str(trace), "--format", output)
        _assert_escaped(result.out + result.err)
        assert result.code == 0, result.err
        assert r"run\x1b]0;pwned\x1b\.json" in result.out


def test_guard_replay_and_contract_check_escape_file_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path
    hostile = folder / f"run{TITLE}.json"
    shutil.copy(FIXTURES / "contract" / "broken.json", hostile)
    contract = run_cli(capsys, "contract", "check", str(hostile))
    assert contract.code == 1
    _assert_escaped(contract.out)
    assert r"run\x1b]0;pwned\x1b\.json (broken-run)" in contract.out

    policy = folder / "policy.toml"
    policy.write_text('[tools.read_file]\nscan = ["path"]\n')
    replay = run_cli(capsys, "guard", "replay", str(hostile), "--policy", str(policy), "--all")
    _assert_escaped(replay.out)
