"""The cost of a password hash: argon2-cffi's default (RFC 9106), unless the operator
sets PELISALI_ARGON2 (the suite sets the least, tests/conftest.py)."""

import os
import subprocess
import sys

import pytest
from argon2 import PasswordHasher, extract_parameters

from pelisali.platform.logins import hash_password, hasher_from_environment

SCRIPT = """
from argon2 import extract_parameters
from pelisali.platform.logins import hash_password
p = extract_parameters(hash_password("a long enough password, this one"))
print(p.type.name, p.time_cost, p.memory_cost, p.parallelism)
"""


def cost_in_a_process(setting: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PELISALI_ARGON2"}
    if setting is not None:
        env["PELISALI_ARGON2"] = setting
    return subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          check=True, env=env).stdout.split()


def test_an_operator_gets_rfc_9106_s_cost_unless_they_set_another() -> None:
    default = PasswordHasher()
    assert cost_in_a_process(None) == [
        "ID", str(default.time_cost), str(default.memory_cost), str(default.parallelism)]
    assert (default.time_cost, default.memory_cost, default.parallelism) == (3, 65536, 4)
    assert cost_in_a_process("2,19456,1") == ["ID", "2", "19456", "1"]


def test_the_suite_hashes_at_the_least_cost_and_still_with_argon2id() -> None:
    p = extract_parameters(hash_password("a long enough password, this one"))
    assert (p.type.name, p.time_cost, p.memory_cost, p.parallelism) == ("ID", 1, 8, 1)


@pytest.mark.parametrize("bad", ["3", "3,65536", "0,65536,4", "3,16,4", "a,b,c", "3,65536,0"])
def test_a_malformed_cost_is_refused_with_the_form(bad: str) -> None:
    with pytest.raises(ValueError, match="passes, KiB and lanes"):
        hasher_from_environment(bad)
