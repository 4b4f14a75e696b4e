#!/usr/bin/env bash
# Context switches (voluntary + involuntary) of a running broker, summed per thread group (kaas-io, kaas-net,
# kaas-scheduler ...): run before and after a pass and subtract, to see which threads the wake-ups land on.
#   bench/thread-switches.sh PID
pid=$1
for t in /proc/$pid/task/*; do
  n=$(sed 's/-[0-9]*$//; s/[0-9]*$//' "$t/comm" 2>/dev/null)
  v=$(awk '/ctxt_switches/ {s += $2} END {print s + 0}' "$t/status" 2>/dev/null)
  echo "$n $v"
done | awk '{s[$1] += $2} END {for (k in s) print k, s[k]}' | sort
