"""tracegrade's benchmark suite: grading speed against JSON parsing, memory, CLI start-up.

Run it from the repository root with ``.venv/bin/python -m benchmarks``; it prints a
Markdown report and writes it to ``benchmarks/RESULTS.md``. See ``__main__.py`` for options.
"""
