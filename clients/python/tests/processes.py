"""What the tests look at in this process and its children, and a stand-in server that will not end."""
from __future__ import annotations

import os
import pathlib


# A server that ignores SIGTERM, shutdown and the end of its input; it answers the client's first ping once
# it does.
STUBBORN = """
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for line in sys.stdin:
        request = json.loads(line)
        if request['method'] == 'ping':
            answer(request, {})
    time.sleep(60)
"""


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def children() -> list[int]:
    """Processes whose parent is this one, zombies included."""
    mine = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                mine.append(int(entry))
    return mine
