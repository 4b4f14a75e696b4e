#!/usr/bin/env bash
# Where a TLS Produce wakes the broker, for two kaas jars side by side (issue 14: the event loop woke once per TLS
# record a Java producer writes). Per jar, one broker with a PLAINTEXT and an mTLS listener (no fsync: flush interval
# 10^9, as bench/security.sh); per listener, ProducerPerformance of RECORDS x 1 KiB acks=all into 6 partitions. For
# each pass: records/s, the broker's CPU seconds (utime+stime from /proc) and its context switches per thread group
# (bench/thread-switches.sh) before and after. Jars alternate A B B A ...; each broker gets an uncounted warm-up pass.
#   bench/tls-wakeups.sh JAR_A JAR_B [ROUNDS=3] [RECORDS=300000]
# Prints a line per pass and writes them to OUT (default a fresh /tmp/kaas-tls-wakeups-*/passes.txt).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
K="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
JAR_A=$1; JAR_B=$2; ROUNDS=${3:-3}; RECORDS=${4:-300000}
OUT="${OUT:-$(mktemp -d /tmp/kaas-tls-wakeups-XXXX)}"; mkdir -p "$OUT"
PORT=${PORT:-41980}
PKI="$OUT/pki"
"$ROOT/bench/lib/bench-pki.sh" "$PKI" > "$OUT/pki.log" 2>&1 \
  || { echo "certificate generation failed: $OUT/pki.log" >&2; exit 2; }
pem_line() { awk '{printf "%s\\n", $0}' "$1"; }
: > "$OUT/client-plain.properties"
{ echo "security.protocol=SSL"
  echo "ssl.truststore.type=PEM"; echo "ssl.truststore.certificates=$(pem_line "$PKI/ca.crt")"
  echo "ssl.keystore.type=PEM"; echo "ssl.keystore.certificate.chain=$(pem_line "$PKI/client.crt")"
  echo "ssl.keystore.key=$(pem_line "$PKI/client.key")"
} > "$OUT/client-mtls.properties"
declare -A LISTENER_PORT=([plain]=$PORT [mtls]=$((PORT + 1)))

B=""
stop() { [ -n "$B" ] && { kill "$B" 2>/dev/null; wait "$B" 2>/dev/null; }; B=""; rm -rf "$OUT/data"; }
trap stop EXIT
start() { # JAR
  mkdir -p "$OUT/data"
  KAAS_LISTENERS="[{\"name\":\"plain\",\"port\":$PORT,\"tls\":false},
    {\"name\":\"mtls\",\"port\":$((PORT + 1)),\"tls\":true,\"authentication\":{\"type\":\"mtls\"},
     \"tlsConfiguration\":{\"certFile\":\"$PKI/tls.crt\",\"keyFile\":\"$PKI/tls.key\",\"caFile\":\"$PKI/ca.crt\"}}]" \
  KAAS_HEALTH_PORT=$((PORT + 7)) KAAS_DATA_DIR="$OUT/data" KAAS_FLUSH_INTERVAL_MESSAGES=1000000000 \
    setsid java -Xmx1g -jar "$1" > "$OUT/broker.log" 2>&1 < /dev/null &
  B=$!
  for _ in $(seq 1 90); do
    timeout 30 "$K" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT --list >/dev/null 2>&1 \
      && return 0
    sleep 1
  done
  echo "$1 does not answer" >&2; exit 2
}
# pass LABEL TAG: per listener, a fresh topic and RECORDS x 1 KiB
pass() {
  local label=$1 tag=$2 l t line g0 g1 c0 c1
  for l in plain mtls; do
    t="w-$tag-$l"
    "$K" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT --create --topic "$t" \
      --partitions 6 --replication-factor 1 > /dev/null
    g0=$("$ROOT/bench/thread-switches.sh" "$B"); c0=$(awk '{print $14 + $15}' /proc/$B/stat)
    line=$("$K" tool org.apache.kafka.tools.ProducerPerformance --topic "$t" --num-records "$RECORDS" --record-size 1024 \
      --throughput -1 --producer.config "$OUT/client-$l.properties" \
      --producer-props bootstrap.servers=127.0.0.1:${LISTENER_PORT[$l]} acks=all | tail -1)
    c1=$(awk '{print $14 + $15}' /proc/$B/stat); g1=$("$ROOT/bench/thread-switches.sh" "$B")
    [ "$tag" = warmup ] && continue
    echo "$label $tag $l rate=$(echo "$line" | cut -d, -f2 | awk '{print $1}') cpu_s=$(python3 -c \
      "import os; print(f'{($c1 - $c0) / os.sysconf(\"SC_CLK_TCK\"):.2f}')") switches: $(join -a2 -e0 -o 0,1.2,2.2 \
      <(echo "$g0") <(echo "$g1") | awk '{d = $3 - $2; if (d >= 100) printf "%s=%d ", $1, d}')" | tee -a "$OUT/passes.txt"
  done
}
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then order="A B"; else order="B A"; fi
  for side in $order; do
    if [ $side = A ]; then jar=$JAR_A; else jar=$JAR_B; fi
    start "$jar"; pass "$side" warmup; pass "$side" "r$r"; stop
  done
done
echo "passes: $OUT/passes.txt"
