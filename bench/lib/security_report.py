"""The table of bench/security.sh: per listener and scenario, both brokers' medians over the counted rounds
(min..max beside them), kaas over Apache, and what TLS costs each broker relative to its own plaintext.
Usage: security_report.py OUT ROUNDS; reads OUT/logs/r<round>-<A|B>-<listener>-<scenario>.{log,meta} (SCENARIOS),
writes OUT/results.json, prints the table."""
import json
import os
import re
import statistics
import sys

out, rounds = sys.argv[1], int(sys.argv[2])
SIDES = {"A": "Apache", "B": "kaas"}
LISTENERS = {"plain": "PLAINTEXT", "scram": "SASL_SSL SCRAM-SHA-512", "mtls": "SSL mTLS"}
SCENARIOS = ("produce", "consume", "warm-consume", "auth")
HZ = os.sysconf("SC_CLK_TCK")


def meta(name):
    values = {}
    with open(f"{out}/logs/{name}.meta") as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            values[key] = float(value) if key != "rc" else int(value)
    return values


def rate_and_count(scenario, name):
    """The tool's own rate, the work it did (records or connections) and, for the probes, the broker CPU seconds
    of their timed part; None when it did not finish."""
    text = open(f"{out}/logs/{name}.log").read()
    if scenario == "produce":
        m = re.findall(r"^(\d+) records sent, ([\d.]+) records/sec .*ms max latency", text, re.M)
        return (float(m[-1][1]), int(m[-1][0]), None) if m else (None, None, None)
    if scenario == "consume":
        lines = [l for l in text.splitlines() if re.match(r"^\d{4}-\d\d-\d\d ", l)]
        header = [l for l in text.splitlines() if l.startswith("start.time")]
        if not lines or not header:
            return None, None, None
        row = dict(zip([h.strip() for h in header[-1].split(",")], [v.strip() for v in lines[-1].split(",")]))
        return float(row["fetch.nMsg.sec"]), int(float(row["data.consumed.in.nMsg"])), None
    if scenario == "warm-consume":
        m = re.search(r"records=(\d+) seconds=\S+ rec_per_s=([\d.]+) broker_ticks=(\d+)", text)
        return (float(m.group(2)), int(m.group(1)), int(m.group(3)) / HZ) if m else (None, None, None)
    m = re.search(r"connections=(\d+) failures=(\d+) seconds=\S+ conn_per_s=([\d.]+) broker_ticks=(\d+)", text)
    return (float(m.group(3)), int(m.group(1)) - int(m.group(2)), int(m.group(4)) / HZ) if m else (None, None, None)


results = {}
for side in SIDES:
    for listener in LISTENERS:
        for scenario in SCENARIOS:
            runs = []
            for r in range(1, rounds + 1):
                name = f"r{r}-{side}-{listener}-{scenario}"
                m = meta(name)
                rate, count, probe_cpu_s = rate_and_count(scenario, name)
                cpu_s = m["broker_cpu_s"] if probe_cpu_s is None else probe_cpu_s
                per_unit = cpu_s / count if count else None
                runs.append({"rate": rate, "work": count, "broker_cpu_s": cpu_s,
                             "broker_cpu_per_unit": per_unit, "client_cpu_s": m["client_cpu_s"],
                             "other_cpu_pct": m["other_cpu_pct"], "load": m["load"], "rc": m["rc"]})
            results[f"{side}-{listener}-{scenario}"] = runs

with open(f"{out}/results.json", "w") as f:
    json.dump(results, f, indent=1)


def median(side, listener, scenario, key):
    values = [run[key] for run in results[f"{side}-{listener}-{scenario}"] if run[key] is not None]
    return (statistics.median(values), min(values), max(values)) if values else (None, None, None)


def fmt(value, digits):
    return "-" if value is None else f"{value:.{digits}f}"


def cell(stats, digits):
    med, lo, hi = stats
    return f"{fmt(med, digits)} ({fmt(lo, digits)}..{fmt(hi, digits)})"


def ratio(b, a):
    return None if a in (None, 0) or b is None else b / a


UNITS = {"produce": ("records/s", "broker CPU us/record", 1e6),
         "consume": ("records/s", "broker CPU us/record", 1e6),
         "warm-consume": ("records/s", "broker CPU us/record", 1e6),
         "auth": ("connections/s", "broker CPU ms/connection", 1e3)}
rows = [("listener", "scenario", "metric", "Apache median (min..max)", "kaas median (min..max)", "kaas/Apache", "better")]
for listener, label in LISTENERS.items():
    for scenario in SCENARIOS:
        rate_unit, cpu_unit, scale = UNITS[scenario]
        a, b = median("A", listener, scenario, "rate"), median("B", listener, scenario, "rate")
        rows.append((label, scenario, rate_unit, cell(a, 0), cell(b, 0), fmt(ratio(b[0], a[0]), 2), "higher"))
        a, b = (tuple(None if v is None else v * scale for v in median(s, listener, scenario, "broker_cpu_per_unit"))
                for s in ("A", "B"))
        rows.append((label, scenario, cpu_unit, cell(a, 1), cell(b, 1), fmt(ratio(b[0], a[0]), 2), "lower"))

widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
print("kaas (B) against Apache Kafka 3.7.2 (A), medians of the counted rounds")
for row in rows:
    print("  ".join(value.ljust(width) for value, width in zip(row, widths)))

print()
print("What TLS costs each broker: the rate kept over TLS relative to its own plaintext (medians), and the broker CPU")
print("per unit of work over TLS relative to its plaintext. Goal: kaas keeps at least as much as Apache (kept ratio >= 1).")
cost = [("listener", "scenario", "Apache kept", "kaas kept", "kaas kept / Apache kept", "Apache CPU x", "kaas CPU x")]
for listener in ("scram", "mtls"):
    for scenario in SCENARIOS:
        kept = {s: ratio(median(s, listener, scenario, "rate")[0], median(s, "plain", scenario, "rate")[0]) for s in SIDES}
        cpu = {s: ratio(median(s, listener, scenario, "broker_cpu_per_unit")[0],
                        median(s, "plain", scenario, "broker_cpu_per_unit")[0]) for s in SIDES}
        cost.append((LISTENERS[listener], scenario, fmt(kept["A"], 2), fmt(kept["B"], 2),
                     fmt(ratio(kept["B"], kept["A"]), 2), fmt(cpu["A"], 2), fmt(cpu["B"], 2)))
widths = [max(len(row[i]) for row in cost) for i in range(len(cost[0]))]
for row in cost:
    print("  ".join(value.ljust(width) for value, width in zip(row, widths)))

incomplete = [f"r{r + 1}-{key}" for key, runs in results.items() for r, run in enumerate(runs)
              if run["rc"] != 0 or run["rate"] is None]
loads = [run["load"] for runs in results.values() for run in runs]
others = [run["other_cpu_pct"] for runs in results.values() for run in runs]
print()
print(f"load average before each step: {min(loads):.1f}..{max(loads):.1f}; other processes' share of the CPUs meanwhile: "
      f"{min(others):.0f}..{max(others):.0f} %")
if incomplete:
    print("INCOMPLETE (tool failed or no rate, see logs/): " + ", ".join(incomplete))
