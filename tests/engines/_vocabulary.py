"""The strings generated traces are made of: every claim kind, Unicode edges, secrets.

Each list is a kind of thing a rule of the grading core looks for (figures, paths, URLs,
identifiers, dates, names, quotes, counted quantities, secrets the redaction triggers find),
or a piece of text whose lower case is special. Traces draw their tool results and answers
from here, so an answer often repeats what a tool showed, in another case or spelling.
"""

from __future__ import annotations

from tests.helpers.strategies import TEXT_PIECES

FILES = (
    "src/server.ts",
    "src/a.ts",
    "agent/src/config.ts",
    "README.md",
    "docs/guide.md",
    "config/app.yaml",
    "lib/deep/nested/path/mod.rs",
    "/etc/hosts",
    "C:\\Users\\ada\\notes.txt",
    "src/\u00fcn\u00efc\u00f6d\u00e9/\u00e7a.py",
    "docs/\u0130stanbul.md",
    "tests/test_\u212aelvin.py",
    "src/server.ts.bak",
)
URLS = (
    "https://example.org/wiki/Port_number",
    "http://docs.example.com/a/b?c=1&d=2",
    "https://ex.example/%E2%82%AC/price",
    "https://\u00fcber.example.de/stra\u00dfe",
)
FIGURES = (
    "$1,500,000", "1500000", "$1.5 million", "12.5%", "12.5 percent", "3 days", "14 months",
    "2 years", "section 4.2", "\u00a7 12", "2024", "1,234", "\u20ac2.5 million", "\u00a3300",
    "0.75", "-42", "4321", "forty-two", "twelve thousand", "\u0663\u0664\u0665\u0666",
    "\uff11\uff12\uff13\uff14", "10,000 users", "3rd", "1e6", "99.9%", "$0.50",
)  # fmt: skip
IDENTIFIERS = (
    "call_abc123", "a1b2c3d4e5f6", "9579f08", "PR-1234", "#4321", "ISSUE-15",
    "550e8400-e29b-41d4-a716-446655440000", "user_id=77", "MAX_DEPTH", "getConfig()",
    "TRACEGRADE_CORE", "v2.3.1",
)  # fmt: skip
DATES = ("2024-03-01", "March 3, 2024", "3 March 2024", "12/05/2023", "Q3 2025", "last Tuesday")
NAMES = (
    "Alice Smith", "Western Australia", "O'Brien", "Bolton-born", "Zo\u00eb \u00c5ngstr\u00f6m",
    "\u0130smail Kaya", "New York", "Dr. Jane Doe", "GPT-5-mini", "the Port Authority",
)  # fmt: skip
QUOTES = ('"exact phrase"', "\u201ccurly quoted\u201d", "'single quoted'", "`const PORT`")
QUANTITIES = ("3 files", "12 tests", "two errors", "seven calls", "1 line", "40 matches")
CODE = (
    "export const PORT = 4321;",
    'export const MODEL = "gpt-5-mini";',
    "const PORT = process.env.PORT ?? 8080",
    "def main() -> None:",
    "    return total * 1.5",
    "SELECT * FROM users WHERE id = 42;",
)
UNICODE = (
    *TEXT_PIECES,
    "\u212a",
    "\u0130stanbul",
    "\u03a3\u0391\u03a3",
    "stra\u00dfe",
    "\ufb01le",
    "\U0001f642",
    "\u202e",
    "\u00ad",
    "\u1e9e",
    "e\u0301",
    "\u2028",
    "\x1b]52;c;aGVsbG8=\x07",
)
SECRETS = (
    "sk-proj-abcDEF1234567890ghijKLMNOP",
    "sk-ant-api03-0123456789abcdefGHIJ",
    "Bearer abc123def456ghi789jkl",
    "Authorization: Basic dXNlcjpwYXNzd29yZA==",
    "AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_0123456789abcdefghijABCDEFGHIJ",
    "xoxb-1234567890-abcdefghij",
    "password=hunter2hunter2",
    '"api_key": "zx81-spectrum-1982"',
    "https://ada:s3cret@db.example.com/prod",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    "cookie: session=abcdef123456",
    "TOKEN = 'tok_live_0123456789'",
    "sk_live_0123456789abcdefghij",
    "AIzaSyA-0123456789abcdefghijklmnopqrstu",
    # Found only once lower-cased by str.lower: the Kelvin sign lower-cases to "k".
    "TO\u212aEN=abcdef0123456789",
    "API_\u212aEY: zx81spectrum1982",
    "COO\u212aIE: session=abcdef123456",
)
SECRET_KEYS = ("api_key", "Authorization", "password", "client_secret", "access_token", "cookie")
WORDS = (
    "the", "port", "is", "set", "in", "and", "it", "listens", "on", "model", "config",
    "PORT", "Port", "server", "value", "file", "returns", "not", "found", "a", "of",
)  # fmt: skip
HEDGES = ("probably", "I think", "it seems", "maybe", "likely", "I could not confirm")

CLAIMS = (FILES, URLS, FIGURES, IDENTIFIERS, DATES, NAMES, QUOTES, QUANTITIES, CODE)
"""Pools of things the answer's claim scanners extract."""
