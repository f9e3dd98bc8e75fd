"""The cache files of the exact counts written by several writers at once: each through a
temporary file of its own, so none trips on another's and the target is always whole."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from pelisali.games.cache_files import save_arrays_atomically, write_text_atomically


def test_writers_of_one_file_at_once_leave_it_whole_and_nothing_else(tmp_path: Path) -> None:
    target, arrays = tmp_path / "figures.json", tmp_path / "plays.npz"

    def write(n: int) -> None:
        write_text_atomically(target, json.dumps({"writer": n, "padding": "x" * 10_000}))
        save_arrays_atomically(arrays, flop=np.full(1000, n % 2 == 0))

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(write, range(40)))
    assert json.loads(target.read_text())["writer"] in range(40)
    with np.load(arrays) as kept:
        assert kept["flop"].shape == (1000,)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figures.json", "plays.npz"]
