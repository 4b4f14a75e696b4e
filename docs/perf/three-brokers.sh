# Sourced by the docs/perf/run-*.sh drivers: builds the driver classpath and starts three brokers side
# by side on loopback — Apache Kafka 3.7.2 as configured by default, Apache with
# log.flush.interval.messages=1 (fsynced like kaas), and kaas — stopping them when the script exits.
# The caller sets OUT (a fresh results folder) and A_PORT, F_PORT, K_PORT; KAAS_ENV may add
# variables for kaas ("KAAS_X=1 KAAS_Y=2"). Afterwards CP is the driver classpath and
# broker_port NAME maps apache / apache-fsync / kaas to its port.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
PEER="$(cd .. && pwd)/shared/tools/peer-kafka.sh"
rm -rf "$OUT"; mkdir -p "$OUT"
mvn -B -q -o package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/perf-cp.txt \
    -Dmdep.includeScope=test -pl bootstrap -am >/dev/null
CP="bootstrap/target/test-classes:bootstrap/target/classes:$(cat bootstrap/target/perf-cp.txt)"

start_apache() {
  bash "$PEER" start "$A_PORT" "$OUT/apache" >/dev/null
  bash "$PEER" start "$F_PORT" "$OUT/apache-fsync" log.flush.interval.messages=1 >/dev/null
}
stop_apache() { bash "$PEER" stop "$OUT/apache"; bash "$PEER" stop "$OUT/apache-fsync"; }
start_kaas() {
  env KAAS_PORT="$K_PORT" KAAS_DATA_DIR="$OUT/kaas-data" ${KAAS_ENV:-} \
    setsid java -jar bootstrap/target/kaas.jar >"$OUT/kaas.log" 2>&1 &
  echo $! >"$OUT/kaas.pid"
  for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/"$K_PORT") 2>/dev/null && return; sleep 0.2; done
  echo "kaas did not start (see $OUT/kaas.log)" >&2; exit 1
}
stop_kaas() { kill "$(cat "$OUT/kaas.pid")"; wait "$(cat "$OUT/kaas.pid")" 2>/dev/null || true; }
broker_port() {
  case "$1" in apache) echo "$A_PORT" ;; apache-fsync) echo "$F_PORT" ;; kaas) echo "$K_PORT" ;; esac
}
trap 'stop_kaas 2>/dev/null || true; stop_apache 2>/dev/null || true' EXIT
start_apache; start_kaas
