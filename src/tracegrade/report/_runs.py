"""Render runs graded with no question file: text blocks, TSV rows, JSON objects, a tally.

Per run: its claims counted by kind and support, the grounded share, then every claim with
its kind and position in the final answer, unsupported first. Everything here works one run
at a time, so a report of any number of runs is written as the runs come.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

from tracegrade._text import collapse, escape_controls
from tracegrade.claims import ClaimKind

if TYPE_CHECKING:
    from collections.abc import Collection

    from tracegrade.suites import GradedRun
    from tracegrade.support import Support
    from tracegrade.verdicts import GradedAnswerClaim

__all__ = [
    "RUNS_SCHEMA_VERSION",
    "RUN_TSV_COLUMNS",
    "RunTally",
    "run_json",
    "run_text_block",
    "run_tsv_row",
]

RUNS_SCHEMA_VERSION = 1

RUN_TSV_COLUMNS = (
    "run",
    "format",
    "claims",
    "read",
    "named_only",
    "unsupported",
    "given",
    "grounded_share",
    "unsupported_claims",
)

_KINDS: tuple[ClaimKind, ...] = get_args(ClaimKind)
_SUPPORTS: tuple[Support, ...] = ("unsupported", "named-only", "read")
"""Listing order: what most needs a look first."""


def _label(name: str, value: str) -> str:
    return f"  {name:<13}{value}"


def _share(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


def _ordered(claims: Collection[GradedAnswerClaim]) -> list[GradedAnswerClaim]:
    """Claims the user did not give by support (unsupported first), then the given ones."""
    rank = {support: number for number, support in enumerate(_SUPPORTS)}
    return sorted(claims, key=lambda c: (c.given, rank[c.support], c.start))


def _by_kind(claims: Collection[GradedAnswerClaim]) -> dict[str, dict[str, int]]:
    """Counts per kind (in ClaimKind order), then per support (unsupported first)."""
    counts: dict[str, dict[str, int]] = {}
    for kind in _KINDS:
        of_kind = [claim for claim in claims if claim.kind == kind]
        if of_kind:
            counts[kind] = {
                support: n
                for support in (*_SUPPORTS, "given")
                if (n := sum(_bucket(claim) == support for claim in of_kind))
            }
    return counts


def _bucket(claim: GradedAnswerClaim) -> str:
    return "given" if claim.given else claim.support


def _claim_line(claim: GradedAnswerClaim) -> str:
    hedged = " (hedged)" if claim.hedged else ""
    where = f"{claim.start}-{claim.end}"
    return _label(_bucket(claim), f'{claim.kind} {where} "{collapse(claim.raw)}"{hedged}')


def run_text_block(run: GradedRun) -> str:
    """The block of one graded run (an error entry has none: it goes to stderr)."""
    grade = run.grade
    if grade is None:
        return ""
    claims = grade.extracted
    counted = [claim for claim in claims if claim.counted]
    read = sum(claim.support == "read" for claim in counted)
    if counted:
        grounded = f"{_share(grade.grounded_share)} ({read} of {len(counted)} claims read)"
    else:
        grounded = "- (no claims to check)"
    kinds = ", ".join(
        f"{sum(per.values())} {kind} ("
        + ", ".join(f"{n} {support}" for support, n in per.items())
        + ")"
        for kind, per in _by_kind(claims).items()
    )
    lines = [
        run.run,
        _label("claims", kinds or "(none found)"),
        _label("grounded", grounded),
    ]
    lines.extend(_claim_line(claim) for claim in _ordered(claims))
    return escape_controls("\n".join(lines))


def _tsv_cell(value: str) -> str:
    return escape_controls(value.replace("\t", " ").replace("\r", " ").replace("\n", " "))


def run_tsv_row(run: GradedRun) -> str:
    """One tab-separated row of a graded run, in :data:`RUN_TSV_COLUMNS` order."""
    grade = run.grade
    claims = grade.extracted if grade is not None else ()
    buckets = [_bucket(claim) for claim in claims]
    unsupported = "; ".join(f"{c.kind}:{collapse(c.raw)}" for c in run.unsupported())
    cells = (
        run.run,
        run.source_format or "-",
        str(len(claims)),
        str(buckets.count("read")),
        str(buckets.count("named-only")),
        str(buckets.count("unsupported")),
        str(buckets.count("given")),
        "-" if grade is None or grade.grounded_share is None else f"{grade.grounded_share:.4f}",
        unsupported or "-",
    )
    return "\t".join(_tsv_cell(cell) for cell in cells)


def _claim_json(claim: GradedAnswerClaim) -> dict[str, Any]:
    return {
        "kind": claim.kind,
        "raw": claim.raw,
        "text": claim.text,
        "start": claim.start,
        "end": claim.end,
        "support": claim.support,
        "given": claim.given,
        "hedged": claim.hedged,
        "evidence": list(claim.evidence),
    }


def run_json(run: GradedRun) -> dict[str, Any]:
    """One run as a JSON-ready object; an error entry has ``error`` set and no grade."""
    grade = run.grade
    if grade is None:
        return {"run": run.run, "path": run.path, "trace_id": run.trace_id, "error": run.error}
    return {
        "run": run.run,
        "path": run.path,
        "trace_id": run.trace_id,
        "format": run.source_format,
        "grounded_share": grade.grounded_share,
        "claims_by_kind": _by_kind(grade.extracted),
        "unsupported": [_claim_json(claim) for claim in run.unsupported()],
        "claims": [_claim_json(claim) for claim in grade.extracted],
        "tools": list(grade.tools),
        "observations": grade.observations,
        "error": None,
    }


class RunTally:
    """Totals over the runs of a report, kept as the runs come (nothing else is held)."""

    def __init__(self, files: int) -> None:
        self.files = files
        self.graded = 0
        self.errors = 0
        self.with_unsupported = 0
        self.failing = 0
        self.claims: dict[str, int] = dict.fromkeys((*_SUPPORTS, "given"), 0)

    def add(self, run: GradedRun, *, failing: bool = False) -> None:
        """Count one run; ``failing``: it broke the ``--fail-on`` rule."""
        if run.grade is None:
            self.errors += 1
            return
        self.graded += 1
        self.failing += failing
        self.with_unsupported += bool(run.unsupported())
        for claim in run.grade.extracted:
            self.claims[_bucket(claim)] += 1

    @property
    def grounded_share(self) -> float | None:
        """Read claims over every claim the user did not give, over all runs."""
        counted = sum(self.claims[support] for support in _SUPPORTS)
        return self.claims["read"] / counted if counted else None

    def summary_json(self) -> dict[str, Any]:
        """The ``summary`` object of the JSON report."""
        return {
            "files": self.files,
            "runs": self.graded,
            "errors": self.errors,
            "claims": dict(self.claims),
            "grounded_share": self.grounded_share,
            "runs_with_unsupported": self.with_unsupported,
            "failing": self.failing,
        }

    def summary_text(self) -> str:
        """The closing line on stderr."""
        total = sum(self.claims.values())
        parts = ", ".join(f"{self.claims[name]} {name}" for name in (*_SUPPORTS, "given"))
        line = (
            f"{self.graded} run(s) from {self.files} file(s): {total} claim(s), {parts}"
            f" ({_share(self.grounded_share)} grounded); {self.with_unsupported} run(s) with"
            " unsupported claims"
        )
        if self.errors:
            line += f"; {self.errors} could not be read or graded"
        return line + "."
