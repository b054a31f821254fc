"""The timing rule of ragtag's own anchors, as the shared workload's: the best of `reps` runs
after one warm-up, in seconds."""
import time


def best(fn, reps=5):
    fn()
    t = 1e9
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - s)
    return t
