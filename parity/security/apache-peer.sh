#!/usr/bin/env bash
# Apache Kafka 3.7.2 (../shared/tools/peer-kafka.sh) with the secured listeners of the parity broker, to check
# the client-*-sasl-*, *-oauthbearer and *-mtls scenarios against Apache itself:
#   parity/security/apache-peer.sh start PORT DIR  plaintext on PORT (PORT+1 its controller), SASL_SSL SCRAM-SHA-256,
#                                                  SCRAM-SHA-512 and OAUTHBEARER on PORT+2..PORT+4, the JWKS on PORT+5,
#                                                  mTLS on PORT+6, SASL_SSL PLAIN on PORT+7
#   parity/security/apache-peer.sh stop DIR
# then: set -a; . DIR/security/scenario.env; set +a; parity/run.sh --bootstrap 127.0.0.1:PORT --only 'client-.*(sasl|oauth|mtls).*'
# (ShellToolParityIT runs its Apache peer so too, through parity/broker.sh with DIR/extra.properties.)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PEER="${PEER_KAFKA:-$HERE/../../../shared/tools/peer-kafka.sh}"
case "${1:-}" in
start)
  PORT="$2"; DIR="$(mkdir -p "$3" && cd "$3" && pwd)"
  SEC="$DIR/security"
  PLAIN_PORT=$PORT SCRAM_SHA_256_PORT=$((PORT + 2)) SCRAM_SHA_512_PORT=$((PORT + 3)) OAUTHBEARER_PORT=$((PORT + 4)) \
    MTLS_PORT=$((PORT + 6)) SASL_PLAIN_PORT=$((PORT + 7)) JWKS_URL="http://127.0.0.1:$((PORT + 5))/jwks.json" bash "$HERE/setup.sh" "$SEC"
  nohup python3 -m http.server --bind 127.0.0.1 $((PORT + 5)) --directory "$SEC" > "$DIR/jwks.log" 2>&1 &
  echo $! > "$DIR/jwks.pid"
  mapfile -t listeners < "$SEC/apache.properties"
  bash "$PEER" start "$PORT" "$DIR" "${listeners[@]}" \
    "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer" "super.users=User:ANONYMOUS"
  KAFKA_CP="$(bash "$PEER" classpath)" bash "$HERE/scram-user.sh" "127.0.0.1:$PORT" "$SEC"
  ;;
stop)
  DIR="$2"
  bash "$PEER" stop "$DIR"
  [ ! -f "$DIR/jwks.pid" ] || kill "$(cat "$DIR/jwks.pid")" 2>/dev/null || true
  ;;
*) sed -n '2,7p' "$0"; exit 2 ;;
esac
