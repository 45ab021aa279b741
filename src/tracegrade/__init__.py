"""tracegrade: grade AI agent runs from what their tools actually returned.

The pipeline, one subpackage per stage (data flows one way)::

    traces -> observations -> claims -> support -> verdicts -> report
    (read)    (decode)        (assert)  (evidence) (grade)     (render)

``suites`` reads suite files and runs their cases; ``cli`` is the command line.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
