"""Time to estimate a cheating-detection or lie-detector question from its counts.

Each case is the full estimate (maximum likelihood on the triangle, standard
errors, a profile-likelihood interval per parameter and the compliance test),
reported as its median time per call and as a ratio to the baseline measured
in the same run: ``estimate_question`` for Warner p = 0.75 at n = 10^3, the
baseline of ``benchmarks.estimate``. Rounds interleave the cases in a shuffled
order so that a noisy neighbour slows all of them alike.

    python -m benchmarks.cheating [--rounds N]

Target: no case above ``MAX_RATIO`` times the baseline.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable

from estimation import Warner, estimate_question
from estimation.kinds.instructed.designs import CheatingDetection, StochasticLieDetector

MAX_RATIO = 20.0
CDM = CheatingDetection(p1=0.3, p2=0.7)
SLD = StochasticLieDetector(p1=2 / 12, p2=10 / 12)
WARNER = Warner(p=0.75)
CASES: dict[str, Callable[[], object]] = {
    "baseline: warner n=1e3": lambda: estimate_question([620, 380], WARNER),
    "cdm interior n=200": lambda: CDM.estimate([60, 40, 30, 70]),
    "cdm boundary n=200": lambda: CDM.estimate([80, 20, 50, 50]),
    "cdm interior n=1e9": lambda: CDM.estimate([295e6, 205e6, 155e6, 345e6]),
    "sld interior n=1621": lambda: SLD.estimate([412, 398, 520, 291]),
    "sld t undefined n=200": lambda: SLD.estimate([17, 83, 83, 17]),
}


def sample(call: Callable[[], object], calls: int) -> float:
    gc.disable()
    try:
        start = time.perf_counter_ns()
        for _ in range(calls):
            call()
        return (time.perf_counter_ns() - start) / calls / 1e6
    finally:
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {name: [] for name in CASES}
    order = list(CASES)
    for _ in range(args.rounds):
        random.shuffle(order)
        for name in order:
            times[name].append(sample(CASES[name], 20))
    baseline = statistics.median(times["baseline: warner n=1e3"])
    failed = False
    print(f"{'case':28} {'median ms':>10} {'ratio':>7}")
    for name, values in times.items():
        median = statistics.median(values)
        ratio = median / baseline
        failed |= ratio > MAX_RATIO
        print(f"{name:28} {median:10.3f} {ratio:7.2f}")
    print(
        ("FAIL" if failed else "PASS")
        + f": every case within {MAX_RATIO:g}x the baseline"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
