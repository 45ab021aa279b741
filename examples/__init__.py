"""Example agents, importable as packages by their tests."""
