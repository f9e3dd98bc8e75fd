"""Which passwords a login may have, as NIST SP 800-63B (5.1.1.2) asks of memorized
secrets: at least :data:`MIN_LENGTH` characters, not one of the commonly used ones
(the blocklist shipped in ``data/common-passwords.txt``, matched whatever the case),
and not one a strength estimator (zxcvbn, given the login's own name) can guess in
fewer than about 10^6 tries. No composition rules (a digit, a capital): NIST advises
against them.

>>> weakness("correct horse battery", "ann") is None
True
>>> weakness("password")
'this password is one of the most common ones: choose another'
>>> weakness("short")
'a password has at least 8 characters'
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from zxcvbn import zxcvbn

MIN_LENGTH = 8
MAX_LENGTH = 200  # longer is refused at the edge (the request schema)
MIN_SCORE = 2  # zxcvbn's scores: 0-1 are guessed in under 10^6 tries, 2 under 10^8


@lru_cache(maxsize=1)
def common() -> frozenset[str]:
    """The blocklist, lower-cased."""
    text = resources.files("pelisali.platform").joinpath(
        "data/common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def weakness(password: str, name: str = "") -> str | None:
    """Why ``password`` may not be kept for the login ``name``, or None.

    >>> weakness("        ")
    'a password of spaces only is refused'
    >>> weakness("abcabcabc")
    'this password is too easy to guess (repeats, sequences, names or words): ...'
    """
    if len(password) < MIN_LENGTH:
        return f"a password has at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"a password has at most {MAX_LENGTH} characters"
    if not password.strip():
        return "a password of spaces only is refused"
    if password.lower() in common() or password.strip().lower() in common():
        return "this password is one of the most common ones: choose another"
    if name and name.lower() in password.lower() and len(password) < 2 * len(name) + 4:
        return "a password is not the login's name: choose another"
    if zxcvbn(password[:100], user_inputs=[name] if name else [])["score"] < MIN_SCORE:
        return ("this password is too easy to guess (repeats, sequences, names or words): "
                "choose a longer one or one less predictable")
    return None
