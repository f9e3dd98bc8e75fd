"""Writing the exact counts' files in the user's cache so that a reader never sees half
a file, and two processes counting the same thing at once never trip on each other: each
writes a temporary file of its own beside the target, then renames it over the target.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "figures.json"
...     write_text_atomically(path, '{"edge": "1/50"}')
...     save_arrays_atomically(Path(folder) / "plays.npz", flop=np.array([True, False]))
...     path.read_text(), sorted(p.name for p in Path(folder).iterdir())
('{"edge": "1/50"}', ['figures.json', 'plays.npz'])
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt

_T = TypeVar("_T")


def cache_folder(directory: Path | None = None) -> Path:
    """Where the counts are kept: ``directory``, else ``$XDG_CACHE_HOME/pelisali`` (by
    default ``~/.cache/pelisali``)."""
    return directory or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
        / "pelisali"


def read_kept(path: Path, read: Callable[[Path], _T]) -> _T | None:
    """``read(path)`` where the file is there and whole; ``None`` where it is missing or
    damaged (it is then counted again).

    >>> read_kept(Path("/nonexistent/figures.json"), lambda p: p.read_text()) is None
    True
    """
    if not path.exists():
        return None
    try:
        return read(path)
    except (ValueError, KeyError, TypeError, OSError):
        return None


def _temporary(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    return Path(name)


def write_text_atomically(path: Path, text: str) -> None:
    """``text`` written to ``path`` through a temporary file of this process's own."""
    partial = _temporary(path)
    try:
        partial.write_text(text)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def save_arrays_atomically(path: Path, **arrays: npt.ArrayLike) -> None:
    """``arrays`` saved compressed (``.npz``) to ``path`` through a temporary file of this
    process's own."""
    partial = _temporary(path)
    try:
        with partial.open("wb") as out:
            np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
