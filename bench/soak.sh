#!/usr/bin/env bash
# Issue 15's soak: kaas with its defaults (an fsync behind every acks=all answer) under 50 producer and 50 consumer
# connections over 60 partitions, at 70 % of the maximum those same clients reach, for 20 minutes.
# First a calibration on a topic of its own (below, at "The maximum"), then the soak on a fresh topic
# (segment.bytes 64 MiB and retention.ms 5 min, so segments roll and retention deletes while it runs).
# Every 5 s the broker's RSS, CPU ticks, threads and open files (OUT/broker.tsv); its GC log gives the heap after
# each collection (OUT/gc.log); bench/SoakProbe.java prints a line per minute: records sent, acknowledged and
# consumed, client errors, acknowledgement and end-to-end p50/p99/max (OUT/soak.jsonl). bench/lib/soak_report.py
# then writes OUT/report.md (a row per minute) and OUT/soak.svg (the four series against time).
# Every 5 minutes the sampler also has the broker run a full collection (jcmd GC.run), whose result in the GC log is
# its live heap: young collections alone leave old garbage until G1 happens to run a mixed one.
#   bench/soak.sh [--minutes 20] [--calibrate 60] [--load 0.7] [--rate RECORDS_PER_S] [--producers 50]
#                 [--consumers 50] [--partitions 60] [--size 1024] [--out DIR]
# --rate skips the calibration and soaks at that rate.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
K="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
MINUTES=20; CALIBRATE=60; LOAD=0.7; RATE=""; PRODUCERS=50; CONSUMERS=50; PARTITIONS=60; SIZE=1024; OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) MINUTES="$2"; shift ;;
    --calibrate) CALIBRATE="$2"; shift ;;
    --load) LOAD="$2"; shift ;;
    --rate) RATE="$2"; shift ;;
    --producers) PRODUCERS="$2"; shift ;;
    --consumers) CONSUMERS="$2"; shift ;;
    --partitions) PARTITIONS="$2"; shift ;;
    --size) SIZE="$2"; shift ;;
    --out) OUT="$2"; shift ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
  shift
done
OUT="${OUT:-$(mktemp -d /tmp/kaas-soak-XXXX)}"
mkdir -p "$OUT"
PORT=${PORT:-41960}
JAR="$ROOT/bootstrap/target/kaas.jar"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bootstrap -am) || exit 2
CP="$("$K" classpath)"
mkdir -p "$OUT/classes" && javac -nowarn -d "$OUT/classes" -cp "$CP" "$ROOT/bench/SoakProbe.java" || exit 2
PROBE=(java -Xmx2g -Dlog4j.configuration="file:${KAAS_PEER_CACHE:-$HOME/.cache/kaas-peer}/3.7.2/tools-log4j.properties"
       -cp "$OUT/classes:$CP" SoakProbe 127.0.0.1:$PORT)

DATA="$OUT/data"; mkdir -p "$DATA"
# the JVM options of ./kaas (none) and a GC log; everything else is the broker's default
KAAS_PORT=$PORT KAAS_HEALTH_PORT=$((PORT+7)) KAAS_DATA_DIR="$DATA" \
  setsid java -Xlog:gc:file="$OUT/gc.log":uptime -jar "$JAR" > "$OUT/broker.log" 2>&1 < /dev/null &
B=$!
date +%s.%N > "$OUT/broker-start"
SAMPLER=""
stop() { [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null; kill $B 2>/dev/null; wait $B 2>/dev/null; rm -rf "$DATA"; }
trap stop EXIT
topics() { timeout 60 "$K" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT "$@"; }
for _ in $(seq 1 90); do topics --list >/dev/null 2>&1 && break; sleep 1; done
topics --create --topic calibrate --partitions "$PARTITIONS" --replication-factor 1 --config retention.ms=60000 \
  --config segment.bytes=67108864 > /dev/null || exit 1
topics --create --topic soak --partitions "$PARTITIONS" --replication-factor 1 --config retention.ms=300000 \
  --config segment.bytes=67108864 > /dev/null || exit 1

# The maximum: unpaced clients batch more than paced ones (a busy sender fills its batches), so what they reach is
# an upper bound only; paced at a fraction of it, linger.ms 0 producers send small requests and fetches return few
# records, and on 2 cores the clients' JVM saturates long before the broker does. So paced steps of 30 s go down
# from half the unpaced rate until one is sustained (its last 10 s acknowledge >= 95 % of its rate with an
# acknowledgement p99 under 500 ms): that rate is the maximum.
UNPACED=""; MAX=""
if [ -z "$RATE" ]; then
  echo "$(date -u +%T) calibrating: $PRODUCERS producers and $CONSUMERS consumers unpaced for ${CALIBRATE}s"
  "${PROBE[@]}" calibrate "$PARTITIONS" "$PRODUCERS" "$CONSUMERS" 0 "$CALIBRATE" $((CALIBRATE / 4)) "$SIZE" \
    > "$OUT/calibrate-unpaced.jsonl" 2> "$OUT/calibrate.err" || exit 1
  UNPACED=$(python3 -c "import json; w = [json.loads(l) for l in open('$OUT/calibrate-unpaced.jsonl')][1:]; \
print(int(sum(x['acked'] for x in w) / (len(w) * $((CALIBRATE / 4)))))")
  for fraction in 0.5 0.35 0.25 0.18 0.12 0.08 0.05 0.03; do
    STEP=$(python3 -c "print(int($UNPACED * $fraction))")
    "${PROBE[@]}" calibrate "$PARTITIONS" "$PRODUCERS" "$CONSUMERS" "$STEP" 30 10 "$SIZE" \
      > "$OUT/calibrate-$STEP.jsonl" 2>> "$OUT/calibrate.err" || exit 1
    VERDICT=$(python3 -c "import json; w = [json.loads(l) for l in open('$OUT/calibrate-$STEP.jsonl')][-1]; \
print('sustained' if w['acked'] >= 0.95 * $STEP * 10 and w['ack']['p99_ms'] < 500 else 'not sustained', \
w['acked'] // 10, 'records/s, ack p99', w['ack']['p99_ms'], 'ms')")
    echo "$(date -u +%T) paced at $STEP records/s: $VERDICT" | tee -a "$OUT/calibration.txt"
    case "$VERDICT" in sustained*) MAX=$STEP; break ;; esac
  done
  [ -n "$MAX" ] || { echo "no paced step was sustained" >&2; exit 1; }
  RATE=$(python3 -c "print(int($MAX * $LOAD))")
  echo "$(date -u +%T) unpaced $UNPACED records/s, maximum sustained $MAX; soaking at $RATE records/s for $MINUTES min"
else
  echo "$(date -u +%T) soaking at $RATE records/s for $MINUTES min (no calibration)"
fi
echo "unpaced_records_per_s=$UNPACED max_records_per_s=$MAX rate=$RATE load=$LOAD producers=$PRODUCERS consumers=$CONSUMERS partitions=$PARTITIONS size=$SIZE minutes=$MINUTES" > "$OUT/settings.txt"

(
  printf 'epoch_s\trss_kb\tcpu_ticks\tthreads\tfds\n'
  while kill -0 $B 2>/dev/null; do
    printf '%s\t%s\t%s\t%s\t%s\n' "$(date +%s)" "$(awk '/^VmRSS/ {print $2}' /proc/$B/status)" \
      "$(awk '{print $14 + $15}' /proc/$B/stat)" "$(awk '/^Threads/ {print $2}' /proc/$B/status)" \
      "$(ls /proc/$B/fd | wc -l)"
    sleep 5
    i=$((${i:-0} + 1)); [ $((i % 60)) = 0 ] && jcmd $B GC.run > /dev/null 2>&1
  done
) > "$OUT/broker.tsv" &
SAMPLER=$!
date +%s > "$OUT/soak-start"
"${PROBE[@]}" soak "$PARTITIONS" "$PRODUCERS" "$CONSUMERS" "$RATE" $((MINUTES * 60)) 60 "$SIZE" \
  > "$OUT/soak.jsonl" 2> "$OUT/soak.err"
date +%s > "$OUT/soak-end"
python3 "$ROOT/bench/lib/soak_report.py" "$OUT" && cat "$OUT/report.md"
