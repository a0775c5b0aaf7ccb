"""The GIL is released while a run simulates."""

import threading
import time

import ledbat
from conftest import SCENARIOS


def test_a_thread_keeps_running_python_while_another_simulates():
    sc = ledbat.Scenario.from_toml(SCENARIOS / "seed003" / "target-sweep.toml")
    sc.set({"duration": "300s", "warmup": "1s"})
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    t0 = time.perf_counter()
    sc.run(seed=1)
    t1 = time.perf_counter()
    done.set()
    t.join()
    inside = [x for x in ticks if t0 < x < t1]
    # A native call holding the GIL would let the ticker in at most at its two ends.
    assert t1 - t0 > 0.02, "run too short to tell"
    assert len(inside) >= 5, (len(inside), t1 - t0)
