"""One line per log kind (segments, journal) from the kaas_log_fsync_duration_seconds scrapes bench/run.sh keeps at
each kaas stop (appended, one scrape per broker run): fsyncs, mean, the p99 and p99.9 bucket bounds and the slowest
bucket reached, summed over the runs. Usage: fsync_summary.py FILE"""
import collections
import re
import sys

SAMPLE = re.compile(r'^kaas_log_fsync_duration_seconds_(bucket|count|sum)\{([^}]*)\} (\S+)$')
buckets = collections.defaultdict(lambda: collections.defaultdict(float))  # log -> le -> cumulative count
totals = collections.defaultdict(lambda: {"count": 0.0, "sum": 0.0})
for line in open(sys.argv[1]):
    m = SAMPLE.match(line.strip())
    if not m:
        continue
    kind, labels, value = m.group(1), dict(re.findall(r'(\w+)="([^"]*)"', m.group(2))), float(m.group(3))
    log = labels.get("log", "all")
    if kind == "bucket":
        buckets[log][float(labels["le"])] += value
    else:
        totals[log][kind] += value


def quantile_bound(cumulative, count, q):
    for bound in sorted(cumulative):
        if cumulative[bound] >= q * count:
            return bound
    return float("inf")


def ms(bound):
    return "+Inf" if bound == float("inf") else f"{bound * 1000:g} ms"


for log in sorted(totals):
    count = totals[log]["count"]
    if count == 0:
        print(f"{log}: no fsyncs")
        continue
    cumulative = buckets[log]
    bounds = sorted(cumulative)
    slowest = next((b for b in bounds if cumulative[b] >= count), float("inf"))
    lower = max((b for b in bounds if cumulative[b] < count), default=0.0)
    print(f"{log}: {int(count)} fsyncs, mean {totals[log]['sum'] / count * 1000:.2f} ms, "
          f"p99 <= {ms(quantile_bound(cumulative, count, 0.99))}, p99.9 <= {ms(quantile_bound(cumulative, count, 0.999))}, "
          f"slowest in ({ms(lower)}, {ms(slowest)}]")
