"""Write CI cases as a JUnit XML report, as Jenkins, GitLab and other CI servers read it.

The layout is that of the Jenkins/Ant JUnit schema (junit-10.xsd, which the tests validate
against): ``<testsuites>`` holding one ``<testsuite>``, one ``<testcase classname name
[time]>`` per case with a ``<failure>``, ``<error>`` or ``<skipped>`` element when it did not
pass, and its text block in ``<system-out>``. Each testcase also carries ``file`` (and
``line`` when known), the two attributes beyond that schema which pytest's xunit1 reports
write and GitLab shows; servers that do not know them ignore them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade._lazy_pattern import LazyPattern

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET
    from collections.abc import Sequence

    from tracegrade.report._ci import CiCase

__all__ = ["junit_xml"]

# Characters XML 1.0 cannot hold at all, even escaped (trace text can contain them).
_NOT_XML = LazyPattern("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def _seconds(time: float) -> str:
    return f"{time:.3f}"


def _counts(cases: Sequence[CiCase]) -> dict[str, str]:
    outcomes = [case.outcome for case in cases]
    return {
        "tests": str(len(cases)),
        "failures": str(outcomes.count("failed")),
        "errors": str(outcomes.count("error")),
    }


def _testcase(parent: ET.Element, case: CiCase) -> None:
    import xml.etree.ElementTree as ET  # noqa: PLC0415 - only a JUnit report loads it

    attributes = {"classname": _xml_text(case.classname), "name": _xml_text(case.name)}
    if case.time is not None:
        attributes["time"] = _seconds(case.time)
    if case.file is not None:
        attributes["file"] = _xml_text(case.file)
    if case.line is not None:
        attributes["line"] = str(case.line)
    element = ET.SubElement(parent, "testcase", attributes)
    tag = {"failed": "failure", "error": "error", "skipped": "skipped"}.get(case.outcome)
    if tag is not None:
        first = case.message.partition("\n")[0] or case.title
        detail = ET.SubElement(element, tag, {"message": _xml_text(first)})
        detail.text = _xml_text(case.message) or None
    if case.output:
        ET.SubElement(element, "system-out").text = _xml_text(case.output)


def junit_xml(name: str, cases: Sequence[CiCase], *, time: float | None = None) -> str:
    """The JUnit XML document of one test suite named ``name``; ``time``: its seconds."""
    import xml.etree.ElementTree as ET  # noqa: PLC0415 - only a JUnit report loads it

    root = ET.Element("testsuites", {"name": _xml_text(name), **_counts(cases)})
    suite = ET.SubElement(
        root,
        "testsuite",
        {
            "name": _xml_text(name),
            **_counts(cases),
            "skipped": str(sum(case.outcome == "skipped" for case in cases)),
        },
    )
    if time is not None:
        root.set("time", _seconds(time))
        suite.set("time", _seconds(time))
    for case in cases:
        _testcase(suite, case)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"
