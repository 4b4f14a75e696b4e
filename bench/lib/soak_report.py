"""bench/soak.sh's report: a row per soak minute (OUT/report.md) and the series against time (OUT/soak.svg).

Per minute: records acknowledged and consumed per second, client errors (failed sends and polls), acknowledgement
and end-to-end p99, the broker's RSS at the minute's end, the lowest heap a garbage collection left in the minute
(from the GC log), and its CPU. Flatness: each series' least-squares slope over the run and its first-5 and
last-5-minute means.
    python3 bench/lib/soak_report.py OUT
"""
import json
import os
import re
import sys

HZ = os.sysconf("SC_CLK_TCK")
out = sys.argv[1]
settings = dict(kv.split("=") for kv in open(f"{out}/settings.txt").read().split())
windows = [json.loads(line) for line in open(f"{out}/soak.jsonl")]
start = float(open(f"{out}/soak-start").read())
broker_start = float(open(f"{out}/broker-start").read())
samples = [line.split("\t") for line in open(f"{out}/broker.tsv").read().splitlines()[1:]]
samples = [(float(t), int(rss), int(ticks)) for t, rss, ticks, *_ in samples if rss]
# "[123.456s] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 210M->48M(1024M) 3.1ms": heap after = 48M
gcs, mixed_flags = [], []
for line in open(f"{out}/gc.log"):
    m = re.match(r"\[(\d+\.\d+)s\].*Pause.*\s(\d+)M->(\d+)M\((\d+)M\)", line)
    if m:
        gcs.append((broker_start + float(m.group(1)), int(m.group(3))))
        mixed_flags.append("(Mixed)" in line or "Pause Full" in line)

rows = []
for w in windows:
    t0, t1 = start + (w["end_s"] - 60), start + w["end_s"]
    inside = [s for s in samples if t0 <= s[0] <= t1]
    # the lowest heap left by a collection in the minute: young collections leave old garbage behind until a
    # mixed one, so their last value climbs and drops; the lowest is the closest to the live set
    during = [g[1] for g in gcs if t0 < g[0] <= t1] or [g[1] for g in gcs if g[0] <= t1][-1:]
    cpu = (inside[-1][2] - inside[0][2]) / HZ / (inside[-1][0] - inside[0][0]) if len(inside) > 1 else float("nan")
    rows.append({
        "minute": w["end_s"] // 60,
        "acked_per_s": w["acked"] / 60, "consumed_per_s": w["consumed"] / 60,
        "errors": w["send_errors"] + w["poll_errors"],
        "ack_p99": w["ack"]["p99_ms"], "e2e_p99": w["e2e"]["p99_ms"],
        "rss_mib": inside[-1][1] / 1024 if inside else float("nan"),
        "heap_after_gc_mib": min(during) if during else float("nan"),
        "gcs": sum(1 for g in gcs if t0 < g[0] <= t1),
        "cpu_cores": cpu,
    })


def slope(key):
    xs = [r["minute"] for r in rows]
    ys = [r[key] for r in rows]
    if len(xs) < 2:
        return float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def mean(key, part):
    values = [r[key] for r in part]
    return sum(values) / len(values)


SERIES = [("rss_mib", "broker RSS, MiB"), ("heap_after_gc_mib", "heap after GC, MiB"),
          ("ack_p99", "ack p99, ms"), ("e2e_p99", "end-to-end p99, ms"), ("errors", "client errors / min"),
          ("acked_per_s", "acknowledged records/s"), ("cpu_cores", "broker CPU, cores")]
with open(f"{out}/report.md", "w") as f:
    f.write(f"Settings: {' '.join(f'{k}={v}' for k, v in settings.items())}\n\n")
    f.write("| minute | acked/s | consumed/s | client errors | ack p99 ms | e2e p99 ms | RSS MiB | lowest heap after GC MiB"
            " | GCs | broker CPU (cores) |\n|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        f.write(f"| {r['minute']} | {r['acked_per_s']:,.0f} | {r['consumed_per_s']:,.0f} | {r['errors']} "
                f"| {r['ack_p99']:.1f} | {r['e2e_p99']:.1f} | {r['rss_mib']:,.0f} | {r['heap_after_gc_mib']:,.0f} "
                f"| {r['gcs']} | {r['cpu_cores']:.2f} |\n")
    f.write("\n| series | minutes 1-5 mean | last 5 minutes mean | least-squares slope per minute |\n|---|---|---|---|\n")
    for key, label in SERIES:
        f.write(f"| {label} | {mean(key, rows[:5]):,.1f} | {mean(key, rows[-5:]):,.1f} | {slope(key):+,.2f} |\n")
    # a mixed collection also frees old regions: what it leaves is the closest a G1 log gets to the live set
    mixed = [(t, after) for (t, after), line in zip(gcs, mixed_flags) if line]
    f.write("\nHeap left by the mixed collections (the live set's upper bound), soak minute: MiB: "
            + (", ".join(f"{(t - start) / 60:.1f}: {after}" for t, after in mixed if t >= start) or "none") + "\n")
    total = sum(w["sent"] for w in windows), sum(w["acked"] for w in windows), sum(w["consumed"] for w in windows)
    f.write(f"\nTotals: sent {total[0]:,}, acknowledged {total[1]:,}, consumed {total[2]:,}, client errors "
            f"{sum(r['errors'] for r in rows)}.\n")

# one panel per series, minutes on x, from 0 to the series' maximum on y
W, H, LEFT, TOP, GAP = 720, 120, 70, 24, 40
panels = SERIES[:6]
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W + LEFT + 20}" height="{len(panels) * (H + GAP) + 30}"'
       ' font-family="sans-serif" font-size="11">', '<rect width="100%" height="100%" fill="white"/>']
last = rows[-1]["minute"]
for i, (key, label) in enumerate(panels):
    y0 = TOP + i * (H + GAP)
    top = max(r[key] for r in rows) * 1.1 or 1
    points = " ".join(f"{LEFT + W * r['minute'] / last:.1f},{y0 + H - H * r[key] / top:.1f}" for r in rows)
    svg += [f'<text x="{LEFT}" y="{y0 - 6}" font-weight="bold">{label}</text>',
            f'<rect x="{LEFT}" y="{y0}" width="{W}" height="{H}" fill="none" stroke="#999"/>',
            f'<text x="{LEFT - 6}" y="{y0 + 4}" text-anchor="end">{top:,.0f}</text>',
            f'<text x="{LEFT - 6}" y="{y0 + H}" text-anchor="end">0</text>',
            f'<polyline points="{points}" fill="none" stroke="#1f77b4" stroke-width="2"/>']
    for m in range(0, last + 1, 5):
        svg.append(f'<text x="{LEFT + W * m / last:.1f}" y="{y0 + H + 13}" text-anchor="middle">{m} min</text>')
svg.append("</svg>")
open(f"{out}/soak.svg", "w").write("\n".join(svg))
