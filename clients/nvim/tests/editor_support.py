"""Process checks for the editor tests."""
from __future__ import annotations

import pathlib


def alive(pid: int) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def postgres():
    """A throwaway PostgreSQL (clients/python/tests/postgres_cluster.py)."""
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
    from postgres_cluster import Cluster

    return Cluster()
