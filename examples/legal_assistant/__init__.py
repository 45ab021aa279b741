"""A LangGraph legal assistant over a small fictional loan and mortgage corpus.

It searches (``search_knowledge``), reads (``read_knowledge_document``, capped, with a deep-read
mode) and writes spreadsheets (``create_spreadsheet``, behind the figure guard), with the
grounding split between its tools and its model. ``python -m examples.legal_assistant.gate``
runs the agent-quality gate over it.
"""
