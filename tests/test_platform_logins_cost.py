"""The cost of a password hash: argon2-cffi's default (RFC 9106), unless the operator
sets PELISALI_ARGON2 (the suite sets the least, tests/conftest.py)."""

import pytest
from argon2 import extract_parameters

from pelisali.platform.logins import hash_password, hasher_from_environment


def test_an_operator_gets_rfc_9106_s_cost_unless_they_set_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PELISALI_ARGON2")
    default = hasher_from_environment()
    assert (default.time_cost, default.memory_cost, default.parallelism) == (3, 65536, 4)
    assert default.type.name == "ID"
    monkeypatch.setenv("PELISALI_ARGON2", "2,19456,1")
    owasp = hasher_from_environment()
    assert (owasp.time_cost, owasp.memory_cost, owasp.parallelism) == (2, 19456, 1)
    p = extract_parameters(owasp.hash("a long enough password, this one"))
    assert (p.type.name, p.time_cost, p.memory_cost, p.parallelism) == ("ID", 2, 19456, 1)


def test_the_suite_hashes_at_the_least_cost_and_still_with_argon2id() -> None:
    p = extract_parameters(hash_password("a long enough password, this one"))
    assert (p.type.name, p.time_cost, p.memory_cost, p.parallelism) == ("ID", 1, 8, 1)


@pytest.mark.parametrize("bad", ["3", "3,65536", "0,65536,4", "3,16,4", "a,b,c", "3,65536,0"])
def test_a_malformed_cost_is_refused_with_the_form(bad: str) -> None:
    with pytest.raises(ValueError, match="passes, KiB and lanes"):
        hasher_from_environment(bad)
