"""One line of bench/durable-probe.sh: a scenario's counts from the broker's /metrics (before/after),
/proc CPU ticks and perf stat's context switches."""
import os
import re
import sys

name, n, partitions, t0, t1, c0, c1, out = sys.argv[1:9]
n, partitions, wall = int(n), int(partitions), float(t1) - float(t0)
hz = os.sysconf("SC_CLK_TCK")
(u0, s0), (u1, s1) = ([int(x) for x in c.split()] for c in (c0, c1))
user, system = (u1 - u0) / hz, (s1 - s0) / hz

def prom(path):
    values = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        key, _, value = line.rpartition(" ")
        values[key] = float(value)
    return values

a, b = prom(f"{out}/{name}.before.prom"), prom(f"{out}/{name}.after.prom")
def delta(pattern):
    rx = re.compile(pattern)
    return sum(v - a.get(k, 0.0) for k, v in b.items() if rx.fullmatch(k))

fsyncs = delta(r"kaas_log_fsync_duration_seconds_count(\{.*\})?")
fsync_s = delta(r"kaas_log_fsync_duration_seconds_sum(\{.*\})?")
fsync_bytes = delta(r"kaas_log_fsync_bytes(_bytes)?_sum")
acked = delta(r"kaas_log_group_commit_appends_sum")
requests = delta(r'kaas_request_duration_seconds_count\{api="Produce"\}')
request_s = delta(r'kaas_request_duration_seconds_sum\{api="Produce"\}')
stages = {s: (delta(rf'kaas_produce_step_duration_seconds_sum\{{step="{s}"\}}'),
              delta(rf'kaas_produce_step_duration_seconds_count\{{step="{s}"\}}'))
          for s in ("queue", "append", "fsync_wait")}
before_sync = delta(r"kaas_produce_acks_before_sync(_total)?")
switches = 0
for line in open(f"{out}/{name}.perfstat"):
    m = re.match(r"\s*([\d,]+)\s+context-switches", line)
    if m:
        switches = int(m.group(1).replace(",", ""))
rate = 0.0
for f in os.listdir(out):
    if f.startswith(f"{name}-") and f.endswith(".log"):
        for line in open(f"{out}/{f}"):
            m = re.match(r"\d+ records sent, ([\d.]+) records/sec", line)
            if m and "50th" in line:  # the tool's final summary, not its 5-second windows
                rate += float(m.group(1))
per100k = 100000 / n
ms = lambda s, c: 1000 * s / c if c else 0.0
print(f"{name}: {n} records, {partitions} partitions, wall {wall:.1f} s, {rate:,.0f} rec/s (client)")
print(f"  broker CPU {user + system:.2f} s (user {user:.2f}, sys {system:.2f}) = {(user + system) * per100k:.3f} s/100k records;"
      f" context switches {switches:,} = {switches * per100k:,.0f}/100k records")
print(f"  fsyncs {fsyncs:,.0f} = {fsyncs / wall:,.0f}/s ({fsyncs / wall / partitions:,.0f}/s per partition), mean {ms(fsync_s, fsyncs):.2f} ms;"
      f" {fsync_bytes / fsyncs if fsyncs else 0:,.0f} B and {acked / fsyncs if fsyncs else 0:.2f} appends per fsync")
print(f"  Produce requests {requests:,.0f}, mean {ms(request_s, requests):.2f} ms; per acks=-1 append: "
      + ", ".join(f"{s} {ms(*stages[s]):.2f} ms" for s in stages)
      + f" ({stages['queue'][1]:,.0f} appends); acks before sync: {before_sync:.0f}")
