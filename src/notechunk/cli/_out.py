"""What the CLI prints to a terminal: one line on stderr, control characters escaped."""

from __future__ import annotations

import re
import sys

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with control characters escaped (\\n, \\x1b, ...): a file name can then
    neither forge a second line nor send escape sequences to the terminal."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_safe(text: str) -> str:
    """JSON text for a terminal: the characters JSON leaves raw that a terminal acts on
    (C1 controls such as CSI, bidirectional overrides, line separators) written as
    `\\uXXXX` escapes, which read back as the same strings."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def say(message: str) -> None:
    """One line on stderr, prefixed and made terminal-safe."""
    print(f"notechunk: {terminal_safe(message)}", file=sys.stderr)
