"""A server process's collector, set once it has started (pelisali.platform.heap)."""

import subprocess
import sys

SCRIPT = """
import gc
from pelisali.platform.heap import YOUNG_GENERATIONS, settle_heap
before = gc.get_freeze_count()
settle_heap()
frozen = gc.get_freeze_count()
settle_heap()
print(before, frozen > 1000, gc.get_freeze_count() == frozen,
      gc.get_threshold() == YOUNG_GENERATIONS)
"""


def test_settle_heap_freezes_what_start_up_built_once_a_process() -> None:
    # In a process of its own: the suite's workers keep CPython's collector.
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["0", "True", "True", "True"]
