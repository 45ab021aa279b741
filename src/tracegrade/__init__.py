"""tracegrade: grade AI agent runs from what their tools actually returned.

The pipeline, one subpackage per stage (data flows one way)::

    traces -> observations -> claims -> support -> verdicts -> report
    (read)    (decode)        (assert)  (evidence) (grade)     (render)

Beside it: ``figures`` (what a figure is and when it is sourced, shared by the grader and
the guard), ``guard`` (stop an unsourced figure before a tool writes it), ``contract`` (tool
artifacts that prove what was read, their validator and the agent-quality gate), ``suites``
(suite files), ``cli`` (the command line).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
