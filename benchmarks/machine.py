"""What a benchmark ran on, printed beside its figures: the CPU model (from
``/proc/cpuinfo`` where there is one), its logical CPUs, the system and CPython.

>>> "CPython" in cpu_line()
True
"""

from __future__ import annotations

import os
import platform


def cpu_line() -> str:
    """The CPU model, logical CPUs, system and CPython of this run."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} logical CPUs, {platform.machine()}, "
            f"{platform.system()} {platform.release()}, CPython {platform.python_version()}")
