"""Summarises a JFR recording: the top frames of ExecutionSample (self and with their callers' first
kaas/netty frame) and the allocation rate from ObjectAllocationSample weights."""
import collections
import re
import subprocess
import sys

path = sys.argv[1]
def events(kind):
    text = subprocess.run(["jfr", "print", "--events", kind, "--stack-depth", "12", path],
                          capture_output=True, text=True, check=True).stdout
    return text.split(f"jdk.{kind} {{")[1:]

frame = re.compile(r"^\s+([\w$.<>]+)\(", re.M)
top, kaas = collections.Counter(), collections.Counter()
samples = events("ExecutionSample")
for e in samples:
    frames = frame.findall(e.split("stackTrace = [", 1)[-1])
    if frames:
        top[frames[0]] += 1
        first = next((f for f in frames if f.startswith("io.kaas")), None)
        if first:
            kaas[first] += 1
print(f"ExecutionSample: {len(samples)} samples; top self frames:")
for f, c in top.most_common(15):
    print(f"  {100 * c / len(samples):5.1f}%  {f}")
print("first io.kaas frame on the stack:")
for f, c in kaas.most_common(10):
    print(f"  {100 * c / len(samples):5.1f}%  {f}")
weights, by_class = 0, collections.Counter()
alloc = events("ObjectAllocationSample")
for e in alloc:
    w = re.search(r"weight = ([\d.]+) (bytes|kB|MB|GB)", e)
    c = re.search(r"objectClass = ([\w$.\[\]]+)", e)
    if w:
        scale = {"bytes": 1, "kB": 1024, "MB": 1 << 20, "GB": 1 << 30}[w.group(2)]
        weights += float(w.group(1)) * scale
        if c:
            by_class[c.group(1)] += float(w.group(1)) * scale
print(f"ObjectAllocationSample: {weights / (1 << 20):,.0f} MiB sampled weight (estimate of bytes allocated); top classes:")
for k, v in by_class.most_common(8):
    print(f"  {100 * v / weights:5.1f}%  {k}")
