"""Synthetic bed runs for the analysis's unit tests: a `RunResult` with samples computed
from given rate and backlog functions, so that checks can be tested without root."""

from __future__ import annotations

from . import bed, measure
from .topo import Bottleneck


def synthetic(name, flow_list, length, rates, backlog, dt=0.05):
    """A RunResult where flow i sends frames at rates[i](t) bit/s and the backlog is
    backlog(t) bytes; the qdisc sends the sum of the flows."""
    t0 = 1000.0
    qd, ctr = [], []
    acc = [0.0] * len(flow_list)
    sent = 0.0
    n = int((length + 1) / dt)
    for k in range(n + 1):
        t = t0 + k * dt
        if k:
            for i, f in enumerate(flow_list):
                rel = t - t0 - dt / 2
                if f.start <= rel < f.stop:
                    acc[i] += rates[i](rel) * dt / 8
            sent = sum(acc)
        qd.append({"t": t, "backlog": backlog(t - t0), "qlen": 0, "drops": 0,
                   "bytes": sent, "packets": 0})
        # Packets of 1514-byte frames: IP bytes = frames - 14 per packet.
        ctr.append({"t": t, "c": {measure.counter_name(f.name):
                                  [acc[i] / 1514, acc[i] - 14 * acc[i] / 1514]
                                  for i, f in enumerate(flow_list)}})
    runs = [bed.FlowRun(flow=f, kind=f.kind, t_start=t0 + f.start, t_stop=t0 + f.stop)
            for f in flow_list]
    return bed.RunResult(name, t0, length, Bottleneck(), runs, qd, ctr, [], "/tmp")
