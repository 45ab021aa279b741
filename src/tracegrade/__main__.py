"""``python -m tracegrade``."""

from tracegrade.cli import main

main()
