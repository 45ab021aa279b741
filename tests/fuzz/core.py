"""Coverage-guided fuzzing of the compiled core's Python-facing functions, with atheris.

    python -m tests.fuzz.core -max_total_time=30 CORPUS     # what tests/fuzz/test_core.py runs
    python -m tests.fuzz.core -max_total_time=3600 -artifact_prefix=crashes/ CORPUS

Arguments are libFuzzer's; CORPUS is a folder, seeded with generated traces when empty (and
where libFuzzer keeps the inputs that found new coverage). The first byte of an input picks
a target, the rest is its data:

- ``TextIndex``: pieces, counts and needles; the core's hits must equal the reference's;
- ``lower``: the core must lower-case like ``str.lower``;
- ``present_needles``: the core's triggers must equal the reference's;
- the public path under the compiled engine: the bytes read as a trace file, every trace
  graded with no question; a TracegradeError is a refusal, anything else a crash;
- ``json_depth_within``: any bytes are counted without a crash, and on JSON the verdict
  (confirmed on the value when too deep, as ``parsed_depth_within`` does) is the walk's;
- ``redaction_scan``: the triggers and keys of any JSON value must equal the reference's.

A PanicException (a Rust panic, which PyO3 raises as a BaseException) or any other
exception escapes, and libFuzzer reports it as a crash and exits non-zero. The seeds are
generated traces (tests/engines/_generate.py). tracegrade's Python code is instrumented
for coverage; the Rust code is not (that needs a sanitizer-coverage build of the crate),
so inside the core the search is random mutation guided by the Python around it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import atheris
import orjson

os.environ["TRACEGRADE_CORE"] = "compiled"
with atheris.instrument_imports(include=["tracegrade"]):
    from tracegrade import _core
    from tracegrade.errors import TracegradeError
    from tracegrade.observations._index import TextIndex, entry_text
    from tracegrade.redact._scan import scan_values
    from tracegrade.traces import read_traces, trace_readers
    from tracegrade.traces._limits import depth_within
    from tracegrade.verdicts import grade

    for _reader in trace_readers():  # the lazily imported readers, instrumented too
        with contextlib.suppress(TracegradeError):
            list(read_traces(b"{}", format_name=_reader.name))

from tests.engines._generate import generated_inputs

if TYPE_CHECKING:
    from collections.abc import Callable

_MAX_LEN = 65_536
_SEEDS = 300


def _texts(data: atheris.FuzzedDataProvider, most: int) -> list[str]:
    return [data.ConsumeUnicodeNoSurrogates(24) for _ in range(data.ConsumeIntInRange(0, most))]


def _index(data: atheris.FuzzedDataProvider) -> None:
    segments = [_texts(data, 4) for _ in range(data.ConsumeIntInRange(0, 4))]
    pieces = [entry_text(entries)[0] for entries in segments]  # as Observations builds them
    counts = [len(entries) for entries in segments]
    reference, compiled = TextIndex(pieces, counts), _core.TextIndex(pieces, counts)
    for needle in _texts(data, 6):
        if compiled.search(needle) != reference.search(needle):
            msg = f"TextIndex({pieces!r}, {counts!r}).search({needle!r}) differs"
            raise AssertionError(msg)


def _lower(data: atheris.FuzzedDataProvider) -> None:
    text = data.ConsumeUnicodeNoSurrogates(data.remaining_bytes())
    if _core.lower(text) != text.lower():
        msg = f"lower({text!r}) differs from str.lower"
        raise AssertionError(msg)


def _needles(data: atheris.FuzzedDataProvider) -> None:
    needles = _texts(data, 6)
    text = data.ConsumeUnicodeNoSurrogates(data.remaining_bytes())
    lowered = text.lower()
    found = {needles[index] for index in _core.present_needles(text, needles)}
    if found != {needle for needle in needles if needle in lowered}:
        msg = f"present_needles({text!r}, {needles!r}) differs"
        raise AssertionError(msg)


def _pipeline(data: atheris.FuzzedDataProvider) -> None:
    try:
        for trace in read_traces(data.ConsumeBytes(data.remaining_bytes())):
            grade(trace)
    except TracegradeError:
        pass  # refused, with a message naming the input


def _depth(data: atheris.FuzzedDataProvider) -> None:
    limit = data.ConsumeIntInRange(0, 260)
    raw = data.ConsumeBytes(data.remaining_bytes())
    counted = _core.json_depth_within(raw, limit)  # any bytes: counted, never a crash
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return
    if counted and not depth_within(value, limit):  # too deep is confirmed on the value
        msg = f"json_depth_within({raw!r}, {limit}) passed a value nested too deeply"
        raise AssertionError(msg)


def _scan(data: atheris.FuzzedDataProvider) -> None:
    needles = tuple(_texts(data, 6))
    try:
        values = [orjson.loads(data.ConsumeBytes(data.remaining_bytes()))]
    except orjson.JSONDecodeError:
        return
    compiled = scan_values(values, needles)
    os.environ["TRACEGRADE_CORE"] = "python"
    try:
        reference = scan_values(values, needles)
    finally:
        os.environ["TRACEGRADE_CORE"] = "compiled"
    if compiled != reference:
        msg = f"redaction_scan({values!r}, {needles!r}) differs"
        raise AssertionError(msg)


# New targets go last: a seed's first byte keeps picking the target it was written for.
_TARGETS: tuple[Callable[[atheris.FuzzedDataProvider], None], ...] = (
    _index,
    _lower,
    _needles,
    _pipeline,
    _depth,
    _scan,
)


def one_input(raw: bytes) -> None:
    """Run one input through the target its first byte picks."""
    if not raw:
        return
    _TARGETS[raw[0] % len(_TARGETS)](atheris.FuzzedDataProvider(raw[1:]))


def _seed_corpus(folder: Path) -> None:
    for item in generated_inputs(_SEEDS):
        if len(item.data) < _MAX_LEN:
            (folder / f"{item.number:05d}").write_bytes(b"\x03" + item.data)
    for target in range(3):
        (folder / f"primitive-{target}").write_bytes(bytes([target]) + "İK Σ ß sk- bearer".encode())
    json = '{"max_tokens": [[1], {"k]": "İK Σ \\"[ bearer"}], "a": "sk-"}'.encode()
    for target in (4, 5):
        (folder / f"primitive-{target}").write_bytes(bytes([target, 3]) + json)


def main() -> None:
    """Seed the corpus folder, then fuzz until libFuzzer's limits (its arguments) stop it."""
    folders = [Path(arg) for arg in sys.argv[1:] if not arg.startswith("-")]
    if not folders or not folders[0].is_dir():
        sys.exit("usage: python -m tests.fuzz.core [libFuzzer flags] CORPUS_FOLDER")
    if not any(folders[0].iterdir()):
        _seed_corpus(folders[0])
    atheris.Setup([sys.argv[0], f"-max_len={_MAX_LEN}", "-timeout=10", *sys.argv[1:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
