"""An existing eval script that knows nothing of tracegrade: it prints JUnit XML.

The ``legacy_evals`` touchpoint runs it (``command``) and reads its standard output.
"""

from __future__ import annotations

import sys
from xml.sax.saxutils import quoteattr

CHECKS = {
    "refund_window_is_45_days": ("45", "REFUND_WINDOW_DAYS = 45"),
    "cure_period_is_10_business_days": ("10 Business Days", "cure period: 10 Business Days"),
    "currency_is_usd": ("USD", "all amounts in USD"),
}


def main() -> int:
    """Check each expected phrase against its text and print one <testcase> per check."""
    cases = []
    for name, (expected, text) in CHECKS.items():
        failure = "" if expected in text else f"<failure message={quoteattr(expected)}/>"
        cases.append(f'  <testcase classname="legacy" name="{name}">{failure}</testcase>')
    body = "\n".join(cases)
    sys.stdout.write(f'<testsuite name="legacy" tests="{len(cases)}">\n{body}\n</testsuite>\n')
    return 0


if __name__ == "__main__":
    sys.exit(main())
