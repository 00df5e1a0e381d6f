"""A process's memory as Linux counts it: current and peak RSS from
``/proc/<pid>/status``, and the peak set back so one operation can be measured."""

from __future__ import annotations


def status_kb(field: str, pid: int | str = "self") -> int:
    """A ``kB`` field of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def reset_peak_rss(pid: int | str = "self") -> None:
    """Set a process's peak RSS (VmHWM) back to its current RSS (Linux >= 4.0).

    ``getrusage``'s ``ru_maxrss`` cannot be reset and survives ``exec``, so a
    child would report its parent's peak; ``VmHWM`` belongs to the process.
    """
    with open(f"/proc/{pid}/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")
