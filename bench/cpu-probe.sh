#!/usr/bin/env bash
# bench/cpu-probe.sh BROKER OUT : BROKER = apache (Apache 3.7.2 defaults) or a kaas jar; FLUSH env: kaas flush.messages (1).
# Fixed work, so CPU per record is comparable even when the machine is loaded and the rate is not:
# warm-up 100k x 1 KiB + 500k x 100 B, then 100k x 1 KiB acks=all and 1M x 100 B linger 5 acks=all, 6 partitions.
# Prints broker CPU seconds (user+sys from /proc) and context switches per 100k records, and the client's rate;
# THREADS=1 also prints each pass's context switches per 100k records per thread group (bench/thread-switches.sh).
set -uo pipefail
KIND=$1; OUT=$2; PORT=${PORT:-41801}
K="${KAFKA_SH:-$(cd "$(dirname "$0")/.." && pwd)/../shared/tools/peer-kafka.sh}"
DATA=$(mktemp -d /tmp/kaas-cpu-probe-XXXX)
if [ "$KIND" = apache ]; then
  $K start $PORT $DATA/k > $DATA.out 2>&1
  B=$(ss -ltnpH "sport = :$PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  stop() { $K stop $DATA/k >/dev/null 2>&1; rm -rf $DATA; }
else
  KAAS_PORT=$PORT KAAS_HEALTH_PORT=$((PORT+7)) KAAS_DATA_DIR=$DATA KAAS_FLUSH_INTERVAL_MESSAGES=${FLUSH:-1} \
    KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 setsid java -Xmx1g -jar "$KIND" > $DATA.out 2>&1 < /dev/null &
  B=$!
  stop() { kill $B; wait $B 2>/dev/null; rm -rf $DATA; }
fi
trap stop EXIT
for _ in $(seq 1 90); do timeout 30 $K tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT --list >/dev/null 2>&1 && break; sleep 1; done
[ -z "${B:-}" ] && B=$(ss -ltnpH "sport = :$PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
for t in w k h; do $K tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT --create --topic $t --partitions 6 --replication-factor 1 >/dev/null; done
p() { $K tool org.apache.kafka.tools.ProducerPerformance --topic $1 --num-records $2 --record-size $3 --throughput -1 --producer-props bootstrap.servers=127.0.0.1:$PORT acks=all "${@:4}" | tail -1; }
sw() { local s=0; for t in /proc/$B/task/*; do s=$((s + $(awk '/ctxt_switches/{x+=$2} END{print x}' $t/status 2>/dev/null || echo 0))); done; echo $s; }
ticks() { awk '{print $14+$15}' /proc/$B/stat; }
p w 100000 1024 >/dev/null; p w 500000 100 linger.ms=5 batch.size=65536 >/dev/null
groups() { [ -n "${THREADS:-}" ] && "$(dirname "$0")/thread-switches.sh" $B; }
m() { # name topic n size extra
  local c0 s0 c1 s1 g0 line; g0=$(groups); c0=$(ticks); s0=$(sw); line=$(p $2 $3 $4 "${@:5}"); c1=$(ticks); s1=$(sw)
  [ -n "${THREADS:-}" ] && join -a2 -e0 -o 0,1.2,2.2 <(echo "$g0") <(groups) \
    | awk -v n=$3 -v k="$KIND $1" '{d=($3-$2)*1e5/n; if (d >= 1) printf "%s threads %s switches_per_100k=%.0f\n", k, $1, d}' | tee -a $OUT
  python3 -c "import os,sys; hz=os.sysconf('SC_CLK_TCK'); n=$3; c=($c1-$c0)/hz; print(f'$KIND ${FLUSH:-} $1 cpu_s_per_100k={c*1e5/n:.3f} switches_per_100k={($s1-$s0)*1e5/n:.0f} load={os.getloadavg()[0]:.1f} rate={\"$line\".split(\",\")[1].strip()}')" | tee -a $OUT
}
m p1k k 100000 1024
m p100b h 1000000 100 linger.ms=5 batch.size=65536
