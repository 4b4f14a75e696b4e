#!/usr/bin/env bash
# kaas against Apache Kafka 3.7.2 over security protocols (issue 14, "Measure"): both brokers run side by side,
# each with three listeners on the same certificates - PLAINTEXT, SASL_SSL with SCRAM-SHA-512, and SSL with
# required client certificates (mTLS). Per broker x listener, driven by Apache's own tools with the listener's
# client settings: ProducerPerformance (1 KiB, acks=all, 6 partitions, fixed count), ConsumerPerformance of those
# records, bench/WarmConsumeProbe.java (the same records read again by one consumer whose JVM has warmed up: a fresh
# ConsumerPerformance run of a few seconds is largely its own JIT warm-up), and bench/AuthRateProbe.java (new
# connections through the whole TLS + SASL handshake and one request).
# Records records/s and connections/s, and the broker's CPU seconds (utime+stime from /proc) for the same work
# (for the probe: over its timed connections only, after its untimed warm-up).
# Same durability on both: Apache's default (acknowledge from the page cache), kaas with a flush interval so large
# that acks=all never waits for an fsync. Passes alternate A B B A ...; a warm-up pass per broker is discarded.
#   bench/security.sh [--rounds N] [--records N] [--warm-passes N] [--connections N] [--concurrency N]
#                     [--tls-sessions fresh|reuse] [--out DIR]
# Defaults: 2 rounds, 300000 records, 4 warm passes (the first one uncounted), 400 connections, 4 at a time, fresh
# (full handshakes). Prints the table
# and writes OUT/summary.txt + OUT/results.json; raw tool output is in OUT/logs.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
K="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
ROUNDS=2; RECORDS=300000; WARM_PASSES=4; CONNECTIONS=400; CONCURRENCY=4; SESSIONS=fresh; OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift ;;
    --records) RECORDS="$2"; shift ;;
    --warm-passes) WARM_PASSES="$2"; shift ;;
    --connections) CONNECTIONS="$2"; shift ;;
    --concurrency) CONCURRENCY="$2"; shift ;;
    --tls-sessions) SESSIONS="$2"; shift ;;
    --out) OUT="$2"; shift ;;
    *) sed -n '2,15p' "$0" >&2; exit 2 ;;
  esac
  shift
done
OUT="${OUT:-$(mktemp -d /tmp/kaas-security-bench-XXXX)}"
mkdir -p "$OUT/logs"
JAR="$ROOT/bootstrap/target/kaas.jar"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bootstrap -am) || exit 2
CP="$("$K" classpath)"
PEER="${KAAS_PEER_CACHE:-$HOME/.cache/kaas-peer}/3.7.2"
mkdir -p "$OUT/classes" && javac -nowarn -d "$OUT/classes" -cp "$CP" "$ROOT/bench/AuthRateProbe.java" \
  "$ROOT/bench/WarmConsumeProbe.java" "$ROOT/bench/ProcessTicks.java" || exit 2

# Ports: A = Apache (plain, its controller, scram, mtls), B = kaas (plain, scram, mtls; health on +7).
A_PORT=${A_PORT:-41910}; B_PORT=${B_PORT:-41930}
declare -A PORT=([A-plain]=$A_PORT [A-scram]=$((A_PORT+2)) [A-mtls]=$((A_PORT+3))
                 [B-plain]=$B_PORT [B-scram]=$((B_PORT+1)) [B-mtls]=$((B_PORT+2)))
for p in $A_PORT $((A_PORT+1)) $((A_PORT+2)) $((A_PORT+3)) $B_PORT $((B_PORT+1)) $((B_PORT+2)) $((B_PORT+7)); do
  if ss -ltnH "sport = :$p" | grep -q .; then echo "port $p is in use: pick A_PORT / B_PORT" >&2; exit 2; fi
done
LISTENERS=(plain scram mtls)
USER=bench; PASSWORD=bench-secret; STOREPASS=benchpass

# --- one CA, one server certificate (SAN 127.0.0.1) and one client certificate, shared by both brokers ---
PKI="$OUT/pki"
"$ROOT/bench/lib/bench-pki.sh" "$PKI" "$STOREPASS" > "$OUT/logs/pki.log" 2>&1 \
  || { echo "certificate generation failed: $OUT/logs/pki.log" >&2; exit 2; }

# --- client settings per listener, identical for both brokers (PEM inline: no key store to decrypt per connection) ---
pem_line() { awk '{printf "%s\\n", $0}' "$1"; }
: > "$OUT/client-plain.properties"
{ echo "security.protocol=SASL_SSL"; echo "sasl.mechanism=SCRAM-SHA-512"
  echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$USER\" password=\"$PASSWORD\";"
  echo "ssl.truststore.type=PEM"; echo "ssl.truststore.certificates=$(pem_line "$PKI/ca.crt")"
} > "$OUT/client-scram.properties"
{ echo "security.protocol=SSL"
  echo "ssl.truststore.type=PEM"; echo "ssl.truststore.certificates=$(pem_line "$PKI/ca.crt")"
  echo "ssl.keystore.type=PEM"; echo "ssl.keystore.certificate.chain=$(pem_line "$PKI/client.crt")"
  echo "ssl.keystore.key=$(pem_line "$PKI/client.key")"
} > "$OUT/client-mtls.properties"

# --- the brokers ---
A_DIR="$OUT/apache"; B_DIR="$OUT/kaas"; B_PID=""
stop_all() {
  "$K" stop "$A_DIR" >/dev/null 2>&1
  if [ -n "$B_PID" ]; then kill "$B_PID" 2>/dev/null; wait "$B_PID" 2>/dev/null; fi
  rm -rf "$A_DIR/logs" "$B_DIR/data"
}
trap stop_all EXIT

"$K" start $A_PORT "$A_DIR" \
  "listeners=PLAINTEXT://127.0.0.1:$A_PORT,CONTROLLER://127.0.0.1:$((A_PORT+1)),SCRAM://127.0.0.1:${PORT[A-scram]},MTLS://127.0.0.1:${PORT[A-mtls]}" \
  "advertised.listeners=PLAINTEXT://127.0.0.1:$A_PORT,SCRAM://127.0.0.1:${PORT[A-scram]},MTLS://127.0.0.1:${PORT[A-mtls]}" \
  "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SCRAM:SASL_SSL,MTLS:SSL" \
  "inter.broker.listener.name=PLAINTEXT" \
  "sasl.enabled.mechanisms=SCRAM-SHA-512" \
  "listener.name.scram.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;" \
  "ssl.keystore.type=PKCS12" "ssl.keystore.location=$PKI/server.p12" \
  "ssl.keystore.password=$STOREPASS" "ssl.key.password=$STOREPASS" \
  "ssl.truststore.type=PEM" "ssl.truststore.location=$PKI/ca.crt" \
  "listener.name.mtls.ssl.client.auth=required" > "$OUT/logs/apache-start.log" 2>&1 \
  || { echo "Apache did not start: $OUT/logs/apache-start.log, $A_DIR/server.log" >&2; exit 2; }
A_PID="$(cat "$A_DIR/pid")"

TLS_FILES="\"tlsConfiguration\":{\"certFile\":\"$PKI/tls.crt\",\"keyFile\":\"$PKI/tls.key\",\"caFile\":\"$PKI/ca.crt\"}"
mkdir -p "$B_DIR/data"
KAAS_LISTENERS="[{\"name\":\"plain\",\"port\":$B_PORT,\"tls\":false},
  {\"name\":\"scram\",\"port\":${PORT[B-scram]},\"tls\":true,\"authentication\":{\"type\":\"scram-sha-512\"},$TLS_FILES},
  {\"name\":\"mtls\",\"port\":${PORT[B-mtls]},\"tls\":true,\"authentication\":{\"type\":\"mtls\"},$TLS_FILES}]" \
KAAS_HEALTH_PORT=$((B_PORT+7)) KAAS_DATA_DIR="$B_DIR/data" KAAS_FLUSH_INTERVAL_MESSAGES=1000000000 \
KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 setsid java -Xmx1g -jar "$JAR" > "$OUT/logs/kaas.log" 2>&1 < /dev/null &
B_PID=$!
declare -A PID=([A]=$A_PID [B]=$B_PID) NAME=([A]="Apache 3.7.2" [B]=kaas)

tool() { "$K" tool "$@"; }
for side in A B; do
  ok=""
  for _ in $(seq 1 90); do
    timeout 30 "$K" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:${PORT[$side-plain]} --list \
      >/dev/null 2>&1 && { ok=1; break; }
    sleep 1
  done
  [ -n "$ok" ] || { echo "${NAME[$side]} does not answer on ${PORT[$side-plain]}" >&2; exit 2; }
  # the same SCRAM credential (4096 iterations, ConfigCommand's default) through the same Admin API on both
  tool kafka.admin.ConfigCommand --bootstrap-server 127.0.0.1:${PORT[$side-plain]} --alter --entity-type users \
    --entity-name $USER --add-config "SCRAM-SHA-512=[password=$PASSWORD]" >> "$OUT/logs/$side-setup.log" 2>&1
  # no connection-rate quota may slow the authentication probe: show the IP quotas (none expected)
  tool kafka.admin.ConfigCommand --bootstrap-server 127.0.0.1:${PORT[$side-plain]} --describe --entity-type ips \
    >> "$OUT/logs/$side-setup.log" 2>&1
  for l in scram mtls; do   # the TLS the Java client negotiates (its cipher suite order) with each TLS listener
    echo "$side $l: $(openssl s_client -connect 127.0.0.1:${PORT[$side-$l]} -CAfile "$PKI/ca.crt" -cert "$PKI/client.crt" \
      -key "$PKI/client.key" -ciphersuites TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256 \
      < /dev/null 2>/dev/null | grep -m1 -E '^New, ')" >> "$OUT/logs/tls.txt"
  done
done
# a credential reaches the SCRAM listener asynchronously on both: wait until one login works
for side in A B; do
  for _ in $(seq 1 30); do
    java -cp "$CP:$OUT/classes" AuthRateProbe "$OUT/client-scram.properties" 127.0.0.1:${PORT[$side-scram]} 1 1 fresh \
      >/dev/null 2>&1 && break
    sleep 1
  done
done

# --- measurement ---
CLK_TCK=$(getconf CLK_TCK)
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
client_ticks() { awk '{print $16+$17}' "/proc/$$/stat"; }
machine_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
# step NAME SIDE CMD...: runs CMD; NAME.log gets its output, NAME.meta the wall time, the broker's and the
# client's CPU seconds, and the load average before it
step() {
  local name="$1" side="$2"; shift 2
  sync
  local load b0 k0 m0 t0 b1 k1 m1 t1 rc=0
  load=$(cut -d' ' -f1 /proc/loadavg)
  b0=$(ticks "${PID[$side]}"); k0=$(client_ticks); m0=$(machine_ticks); t0=$(date +%s.%N)
  timeout -k 5 300 "$@" > "$OUT/logs/$name.log" 2>&1 || rc=$?
  t1=$(date +%s.%N); m1=$(machine_ticks); k1=$(client_ticks); b1=$(ticks "${PID[$side]}")
  awk -v t0="$t0" -v t1="$t1" -v b0="$b0" -v b1="$b1" -v k0="$k0" -v k1="$k1" -v m0="$m0" -v m1="$m1" -v hz="$CLK_TCK" \
      -v n="$(nproc)" -v rc="$rc" -v load="$load" 'BEGIN { wall = t1 - t0; b = (b1 - b0) / hz; k = (k1 - k0) / hz
      other = (m1 - m0) / hz - b - k; if (other < 0) other = 0
      printf "rc=%s\nload=%s\nwall_s=%.2f\nbroker_cpu_s=%.2f\nclient_cpu_s=%.2f\nother_cpu_pct=%.0f\n", rc, load, wall, b, k, 100 * other / (wall * n) }' \
    > "$OUT/logs/$name.meta"
  [ "$rc" = 0 ] || echo "  $name: exit $rc - see $OUT/logs/$name.log" >&2
}

# pass SIDE TAG RECORDS CONNECTIONS: per listener, produce then consume a fresh topic, then the auth probe
pass() {
  local side="$1" tag="$2" n="$3" c="$4" l t props boot
  for l in "${LISTENERS[@]}"; do
    t="sec-$tag-$l"; props="$OUT/client-$l.properties"; boot="127.0.0.1:${PORT[$side-$l]}"
    echo "  $tag ${NAME[$side]} $l: produce, consume, consume warm, $c connections" >&2
    tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:${PORT[$side-plain]} --create --topic "$t" \
      --partitions 6 --replication-factor 1 >> "$OUT/logs/topics.log" 2>&1
    step "$tag-$side-$l-produce" "$side" "$K" tool org.apache.kafka.tools.ProducerPerformance --topic "$t" \
      --num-records "$n" --record-size 1024 --throughput -1 --producer.config "$props" \
      --producer-props bootstrap.servers="$boot" acks=all
    step "$tag-$side-$l-consume" "$side" "$K" tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$boot" \
      --topic "$t" --messages "$n" --group "$t-group" --timeout 20000 --consumer.config "$props"
    step "$tag-$side-$l-warm-consume" "$side" java -Dlog4j.configuration="file:$PEER/tools-log4j.properties" \
      -cp "$CP:$OUT/classes" WarmConsumeProbe "$props" "$boot" "$t" "$WARM_PASSES" "${PID[$side]}"
    step "$tag-$side-$l-auth" "$side" java -Dlog4j.configuration="file:$PEER/tools-log4j.properties" \
      -cp "$CP:$OUT/classes" AuthRateProbe "$props" "$boot" "$c" "$CONCURRENCY" "$SESSIONS" "${PID[$side]}"
  done
}

echo "security bench: $ROUNDS rounds, $RECORDS x 1 KiB (warm consumer: $WARM_PASSES passes), $CONNECTIONS connections ($CONCURRENCY at a time, $SESSIONS TLS sessions), out $OUT" >&2
START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
pass A warmup $((RECORDS / 3)) $((CONNECTIONS / 4))
pass B warmup $((RECORDS / 3)) $((CONNECTIONS / 4))
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then order="A B"; else order="B A"; fi
  for side in $order; do pass "$side" "r$r" "$RECORDS" "$CONNECTIONS"; done
done

{
  echo "kaas commit: $(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet HEAD -- . || echo ' (with local changes)')"
  echo "machine: $(nproc) cores, load average at start $START_LOAD, at end $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "settings: $ROUNDS rounds (ABBA), $RECORDS x 1 KiB acks=all, 6 partitions; $CONNECTIONS connections, $CONCURRENCY at a time, $SESSIONS TLS sessions"
  echo "durability: the same on both - Apache defaults (no fsync per append), kaas KAAS_FLUSH_INTERVAL_MESSAGES=1000000000"
  echo "kaas TLS provider: $(grep -m1 -o 'TLS with [A-Z]*' "$OUT/logs/kaas.log" || echo '(see logs/kaas.log)')"
  sed 's/^/negotiated (openssl s_client, Java order): /' "$OUT/logs/tls.txt"
} > "$OUT/env.txt"
python3 "$ROOT/bench/lib/security_report.py" "$OUT" "$ROUNDS" | tee "$OUT/summary.txt"
