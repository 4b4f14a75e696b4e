#!/usr/bin/env bash
# Recovery time of a kaas broker holding a ~1 GiB active segment: start-to-listening after a clean stop, after
# kill -9 with the checkpoint current, after kill -9 with 60 MB past the checkpoint, and with no checkpoint at all.
#   bench/recovery.sh        (needs bootstrap/target/kaas.jar and ../shared/tools/peer-kafka.sh for the client tools)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR=$ROOT/bootstrap/target/kaas.jar
P=${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}
W=$(mktemp -d /tmp/kaas-recovery-XXXX); D=$W/data; PORT=39492
start() { # prints ms until the listening line
  local t0=$(date +%s%N)
  KAAS_PORT=$PORT KAAS_DATA_DIR=$D KAAS_FLUSH_INTERVAL_MESSAGES=1000000000 java -Xmx1g -jar $JAR > $W/kaas.log 2>&1 &
  echo $! > $W/pid
  until grep -q "listening on" $W/kaas.log; do sleep 0.05; done
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
}
stop_clean() { kill $(cat $W/pid); while kill -0 $(cat $W/pid) 2>/dev/null; do sleep 0.1; done; }
stop_kill() { kill -9 $(cat $W/pid); while kill -0 $(cat $W/pid) 2>/dev/null; do sleep 0.1; done; }
rm -rf $D
echo "empty start: $(start) ms"
$P tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT --create --topic big --partitions 1 >/dev/null 2>&1
$P tool org.apache.kafka.tools.ProducerPerformance --topic big --num-records 1000000 --record-size 1000 --throughput -1 \
  --producer-props bootstrap.servers=127.0.0.1:$PORT acks=1 linger.ms=10 batch.size=262144 2>/dev/null | tail -1
ls -la $D/big/0/ | grep "\.log"
stop_clean
echo "after clean stop: $(start) ms"
stop_kill
echo "after kill -9 (clean checkpoint from the previous stop): $(start) ms"
# write more after the restart, then kill -9: the tail past the last checkpoint must be scanned
$P tool org.apache.kafka.tools.ProducerPerformance --topic big --num-records 60000 --record-size 1000 --throughput -1 \
  --producer-props bootstrap.servers=127.0.0.1:$PORT acks=1 linger.ms=10 batch.size=262144 2>/dev/null | tail -1
stop_kill
echo "after kill -9 mid-life: $(start) ms"
cat $D/big/0/recovery-checkpoint.json; ls -la $D/big/0/ | grep "\.log"
# no checkpoint at all: full scan of the active segment
stop_kill; rm -f $D/big/0/recovery-checkpoint.json
echo "after kill -9 with no checkpoint (full CRC scan): $(start) ms"
stop_clean
rm -rf "$W"
