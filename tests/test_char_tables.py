"""The build-time checks of rust/char_tables.py: each one passes on this interpreter and
fails the build when the definition it guards is broken."""

import _sre  # type: ignore[import-not-found]  # re's own case tables, as the script reads
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "rust" / "char_tables.py"


@pytest.fixture(scope="module")
def tables() -> ModuleType:
    spec = importlib.util.spec_from_file_location("char_tables", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tables_are_written_with_every_class(tables: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "char_tables.rs"
    tables.main(str(out))
    names = re.findall(r"pub static (\w+):", out.read_text(encoding="utf-8"))
    assert names == [
        "WORD", "SPACE", "DECIMAL", "DECIMAL_ZEROS", "ALPHA", "UPPER", "LOWER", "TITLE",
        "FOLD", "SRE_CASED", "NORMAL", "COMBINING", "DECOMPOSE", "COMPOSE", "ASCII_KEY",
        "SRE_LOWER", "SRE_GROUP",
    ]  # fmt: skip


def test_a_class_unlike_its_str_rule_fails(tables: ModuleType) -> None:
    assert tables.read_off_re(r"\s", "str.isspace()", str.isspace)[:2] == [0x9, 0xA]
    with pytest.raises(SystemExit, match=r"re's \\w and str.isalnum\(\) part at U\+005F"):
        tables.read_off_re(r"\w", "str.isalnum()", str.isalnum)


def test_a_digit_off_its_run_fails(tables: ModuleType) -> None:
    digits = list(range(0x30, 0x3A))
    assert tables.decimal_zeros(digits) == [0x30]
    with pytest.raises(SystemExit, match=r"U\+0031 is not its distance"):
        tables.decimal_zeros(digits[1:])  # no zero before "1"


def test_a_wrong_literal_rule_fails(tables: ModuleType) -> None:
    cased = {c for c in tables.CODES if _sre.unicode_iscased(c)}
    lower = {c: low for c in tables.CODES if (low := _sre.unicode_tolower(c)) != c}
    group = tables.groups()
    tables.check_folds(tables.folds(), lower, group)
    with pytest.raises(SystemExit, match=r"re matches U\+"):
        tables.check_literals(cased, lower, {})  # without re's extra cases (s and U+017F)
    with pytest.raises(SystemExit, match=r"\[a-z\].*literal rule.*disagree"):
        tables.check_folds([(0x17F, "s")], lower, group)  # U+0131, U+0130, U+212A left out
