#!/usr/bin/env bash
# Apache Kafka 3.7.2 (../shared/tools/peer-kafka.sh) with the secured listeners of the parity broker, to check
# the client-*-sasl-*, *-oauthbearer and *-mtls scenarios against Apache itself:
#   parity/security/apache-peer.sh start PORT DIR  plaintext on PORT (PORT+1 its controller), SASL_SSL SCRAM-SHA-256,
#                                                  SCRAM-SHA-512 and OAUTHBEARER on PORT+2..PORT+4, the JWKS on PORT+5,
#                                                  mTLS on PORT+6, SASL_SSL PLAIN on PORT+7
#   parity/security/apache-peer.sh stop DIR
# then: set -a; . DIR/security/scenario.env; set +a; parity/run.sh --bootstrap 127.0.0.1:PORT --only 'client-.*(sasl|oauth|mtls).*'
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PEER="${PEER_KAFKA:-$HERE/../../../shared/tools/peer-kafka.sh}"
case "${1:-}" in
start)
  PORT="$2"; DIR="$(mkdir -p "$3" && cd "$3" && pwd)"
  SEC="$DIR/security"
  PLAIN_PORT=$PORT SCRAM_SHA_256_PORT=$((PORT + 2)) SCRAM_SHA_512_PORT=$((PORT + 3)) OAUTHBEARER_PORT=$((PORT + 4)) \
    MTLS_PORT=$((PORT + 6)) SASL_PLAIN_PORT=$((PORT + 7)) JWKS_URL="http://127.0.0.1:$((PORT + 5))/jwks.json" bash "$HERE/setup.sh" "$SEC"
  cat "$SEC/tls.key" "$SEC/tls.crt" > "$SEC/keystore.pem"
  nohup python3 -m http.server --bind 127.0.0.1 $((PORT + 5)) --directory "$SEC" > "$DIR/jwks.log" 2>&1 &
  echo $! > "$DIR/jwks.pid"
  scram='org.apache.kafka.common.security.scram.ScramLoginModule required;'
  user="$(sed -n 's/^SASL_USERNAME=//p' "$SEC/scenario.env")"; password="$(sed -n 's/^SASL_PASSWORD=//p' "$SEC/scenario.env")"
  bash "$PEER" start "$PORT" "$DIR" \
    "listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$((PORT + 1)),SCRAM256://127.0.0.1:$((PORT + 2)),SCRAM512://127.0.0.1:$((PORT + 3)),OAUTH://127.0.0.1:$((PORT + 4)),MTLS://127.0.0.1:$((PORT + 6)),SASLPLAIN://127.0.0.1:$((PORT + 7))" \
    "advertised.listeners=PLAINTEXT://127.0.0.1:$PORT,SCRAM256://127.0.0.1:$((PORT + 2)),SCRAM512://127.0.0.1:$((PORT + 3)),OAUTH://127.0.0.1:$((PORT + 4)),MTLS://127.0.0.1:$((PORT + 6)),SASLPLAIN://127.0.0.1:$((PORT + 7))" \
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SCRAM256:SASL_SSL,SCRAM512:SASL_SSL,OAUTH:SASL_SSL,MTLS:SSL,SASLPLAIN:SASL_SSL" \
    "ssl.keystore.type=PEM" "ssl.keystore.location=$SEC/keystore.pem" \
    "listener.name.mtls.ssl.client.auth=required" \
    "listener.name.mtls.ssl.truststore.type=PEM" "listener.name.mtls.ssl.truststore.location=$SEC/ca.crt" \
    "listener.name.scram256.sasl.enabled.mechanisms=SCRAM-SHA-256" \
    "listener.name.scram256.scram-sha-256.sasl.jaas.config=$scram" \
    "listener.name.scram512.sasl.enabled.mechanisms=SCRAM-SHA-512" \
    "listener.name.scram512.scram-sha-512.sasl.jaas.config=$scram" \
    "listener.name.saslplain.sasl.enabled.mechanisms=PLAIN" \
    "listener.name.saslplain.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$user=\"$password\";" \
    "listener.name.oauth.sasl.enabled.mechanisms=OAUTHBEARER" \
    "listener.name.oauth.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;" \
    "listener.name.oauth.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler" \
    "sasl.oauthbearer.jwks.endpoint.url=http://127.0.0.1:$((PORT + 5))/jwks.json" \
    "sasl.oauthbearer.expected.issuer=$(sed -n 's/^OAUTH_ISSUER=//p' "$SEC/scenario.env")" \
    "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer" \
    "super.users=User:ANONYMOUS"
  for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do # one per request: Apache refuses two for one user in one
    bash "$PEER" tool kafka.admin.ConfigCommand --bootstrap-server "127.0.0.1:$PORT" --alter --entity-type users \
      --entity-name "$user" --add-config "$mechanism=[password=$password]"
  done
  ;;
stop)
  DIR="$2"
  bash "$PEER" stop "$DIR"
  [ ! -f "$DIR/jwks.pid" ] || kill "$(cat "$DIR/jwks.pid")" 2>/dev/null || true
  ;;
*) sed -n '2,7p' "$0"; exit 2 ;;
esac
