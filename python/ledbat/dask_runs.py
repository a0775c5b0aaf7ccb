"""`ledbat repro --dask ADDR`'s helper: runs a batch of repro runs on a Dask cluster.

``python -m ledbat.dask_runs --scheduler ADDR --ledbat BIN --jobs FILE --results FILE``
reads one job per line of FILE (JSON written by the Rust side, ``ledbat_repro::remote``),
submits one Dask task per job, each of which pipes its job into ``BIN repro --run-job`` on
a worker, and writes, per job in order, a status byte (0: the run's cache entry, 1: the
simulator's error text), the payload's length (u64 little-endian) and the payload. The
results file appears (renamed into place) only when every task came back; on any failure
it is not written, a one-line ``error:`` goes to stderr and the exit status is 2.
"""

from __future__ import annotations

import argparse
import os
import struct
import subprocess
import sys
import uuid
from typing import List, Optional, Sequence, Tuple


def run_one(ledbat: str, job: bytes) -> Tuple[int, bytes]:
    """One run on a worker: ``ledbat repro --run-job`` with the job on its stdin."""
    p = subprocess.run([ledbat, "repro", "--run-job"], input=job, capture_output=True)
    if p.returncode == 0:
        return 0, p.stdout
    if p.returncode == 3:
        return 1, p.stdout
    message = p.stderr.decode(errors="replace").strip() or f"exit status {p.returncode}"
    raise RuntimeError(f"{ledbat} repro --run-job on worker: {message}")


def encode(results: Sequence[Tuple[int, bytes]]) -> bytes:
    """The results file's bytes."""
    return b"".join(struct.pack("<BQ", s, len(p)) + p for s, p in results)


def run_batch(client, ledbat: str, jobs: List[bytes]) -> List[Tuple[int, bytes]]:
    """Every job as one task of `client`'s cluster, results in the jobs' order."""
    tag = uuid.uuid4().hex[:8]
    futures = [
        client.submit(run_one, ledbat, job, key=f"ledbat-repro-{tag}-{i}", pure=False)
        for i, job in enumerate(jobs)
    ]
    return client.gather(futures)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ledbat.dask_runs", description=__doc__.splitlines()[0])
    ap.add_argument("--scheduler", required=True, help="the Dask scheduler's address")
    ap.add_argument("--ledbat", required=True, help="the ledbat binary, same path on every worker")
    ap.add_argument("--jobs", required=True, help="one job (JSON) per line")
    ap.add_argument("--results", required=True, help="where to write the results")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds to reach the scheduler")
    a = ap.parse_args(argv)

    def fail(message: str) -> int:
        print(f"error: {message}", file=sys.stderr)
        return 2

    try:
        import distributed
    except ImportError:
        return fail("--dask needs Dask in this Python: pip install './python[dask]'")
    try:
        with open(a.jobs, "rb") as f:
            jobs = [line for line in f.read().splitlines() if line.strip()]
    except OSError as e:
        return fail(f"reading the jobs: {e}")
    try:
        client = distributed.Client(a.scheduler, timeout=a.timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        return fail(f"cannot reach the Dask scheduler at {a.scheduler}: {e}")
    try:
        results = run_batch(client, a.ledbat, jobs)
    except Exception as e:  # a task's error, a lost worker: the batch has failed
        return fail(f"a run on the Dask cluster at {a.scheduler} failed: {e}")
    finally:
        client.close()
    tmp = f"{a.results}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(encode(results))
        os.replace(tmp, a.results)
    except OSError as e:
        return fail(f"writing the results: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
