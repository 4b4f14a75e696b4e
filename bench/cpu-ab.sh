#!/usr/bin/env bash
# bench/cpu-ab.sh OUT ORDER... : bench/cpu-probe.sh over a list of brokers in the given order (alternate them,
# e.g. old new new old), FLUSH as for cpu-probe.sh; writes each run's 1-minute load before it, then its lines.
#   FLUSH=1000000000 bench/cpu-ab.sh /tmp/ab.txt /tmp/old.jar /tmp/new.jar /tmp/new.jar /tmp/old.jar apache
set -uo pipefail
OUT=$1; shift
for broker in "$@"; do
  echo "# $(date -u +%H:%M:%S) before $broker FLUSH=${FLUSH:-1}: $(uptime | sed 's/.*load average/load average/')" | tee -a "$OUT"
  "$(dirname "$0")/cpu-probe.sh" "$broker" "$OUT"
done
