#!/usr/bin/env bash
# Prepares the parity broker's secured listeners (the client-*-sasl-*, *-oauthbearer and *-mtls scenarios), with
# openssl only, so that a run by hand and ShellToolParityIT get the same broker:
#   parity/security/setup.sh DIR
# Environment in: PLAIN_PORT (the broker's plaintext listener, KAAS_PORT), SCRAM_SHA_256_PORT,
#   SCRAM_SHA_512_PORT, SASL_PLAIN_PORT, OAUTHBEARER_PORT, MTLS_PORT, JWKS_URL (where DIR/jwks.json will be
#   served, over http),
#   KAAS_JAR and KAAS_DATA_DIR: the SCRAM user is written there with `kaas user add` (JAVA, default java);
#   without them (an Apache peer) parity/security/scram-user.sh creates it once the broker runs.
# Files out, in DIR:
#   ca.crt, tls.crt, tls.key  a CA and the listeners' certificate, for 127.0.0.1 and localhost
#   client.crt, client.key    a client certificate from that CA, CN=parity-mtls-client
#   jwt.key, jwks.json        the OAuth issuer's RS256 signing key and its public half as a JWKS
#   listeners.json            KAAS_LISTENERS: plaintext, SASL_SSL SCRAM-SHA-256, SCRAM-SHA-512, PLAIN and
#                             OAUTHBEARER, mTLS
#   apache.properties         the same listeners for Apache Kafka 3.7.2 (its controller on PLAIN_PORT+1; keystore.pem
#                             the certificate and key in one file), over what parity/broker.sh configures
#   scenario.env              KEY=value lines the scenarios read (lib.sh: requires_secure_listener)
set -euo pipefail
DIR="$(mkdir -p "$1" && cd "$1" && pwd)"
: "${PLAIN_PORT:?}" "${SCRAM_SHA_256_PORT:?}" "${SCRAM_SHA_512_PORT:?}" "${SASL_PLAIN_PORT:?}" "${OAUTHBEARER_PORT:?}"
: "${MTLS_PORT:?}" "${JWKS_URL:?}"
JAVA="${JAVA:-java}"
USERNAME=parity-sasl
PASSWORD="pw-$RANDOM$RANDOM$RANDOM"
ISSUER=https://issuer.parity.kaas.test
KID=parity-rs256
cd "$DIR"

# The CA and the certificate every secured listener serves; librdkafka checks the host name (its default
# ssl.endpoint.identification.algorithm=https), hence the subjectAltNames.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=kaas parity CA" -keyout ca.key -out ca.crt 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout tls.key -out tls.csr 2>/dev/null
openssl x509 -req -in tls.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out tls.crt \
  -extfile <(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n') 2>/dev/null
# The mTLS listener's client; its principal is the subject DN (the DEFAULT principal mapping, as Apache's).
openssl req -newkey rsa:2048 -nodes -subj "/CN=parity-mtls-client" -keyout client.key -out client.csr 2>/dev/null
openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out client.crt \
  -extfile <(printf 'keyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n') 2>/dev/null
rm -f tls.csr client.csr ca.srl

# The issuer's signing key; the JWKS carries its modulus and exponent, unsigned big-endian, base64url.
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
hex_to_bytes() { printf "$(sed 's/../\\x&/g')"; }
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out jwt.key 2>/dev/null
n="$(openssl rsa -in jwt.key -noout -modulus 2>/dev/null | cut -d= -f2 | tr -d '\n' | hex_to_bytes | b64url)"
printf '{"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"%s","n":"%s","e":"AQAB"}]}\n' "$KID" "$n" > jwks.json

files="\"tlsConfiguration\":{\"certFile\":\"$DIR/tls.crt\",\"keyFile\":\"$DIR/tls.key\"}"
cat > listeners.json <<JSON
[{"name":"plain","port":$PLAIN_PORT,"tls":false},
 {"name":"scram256","port":$SCRAM_SHA_256_PORT,"tls":true,"authentication":{"type":"scram-sha-256"},$files},
 {"name":"scram512","port":$SCRAM_SHA_512_PORT,"tls":true,"authentication":{"type":"scram-sha-512"},$files},
 {"name":"saslplain","port":$SASL_PLAIN_PORT,"tls":true,"authentication":{"type":"plain"},$files},
 {"name":"oauth","port":$OAUTHBEARER_PORT,"tls":true,"authentication":{"type":"oauth",
   "validIssuerUri":"$ISSUER","jwksEndpointUri":"$JWKS_URL"},$files},
 {"name":"mtls","port":$MTLS_PORT,"tls":true,"authentication":{"type":"mtls"},
   "tlsConfiguration":{"certFile":"$DIR/tls.crt","keyFile":"$DIR/tls.key","caFile":"$DIR/ca.crt"}}]
JSON

cat tls.key tls.crt > keystore.pem
scram='org.apache.kafka.common.security.scram.ScramLoginModule required;'
cat > apache.properties <<PROPERTIES
listeners=PLAINTEXT://127.0.0.1:$PLAIN_PORT,CONTROLLER://127.0.0.1:$((PLAIN_PORT + 1)),SCRAM256://127.0.0.1:$SCRAM_SHA_256_PORT,SCRAM512://127.0.0.1:$SCRAM_SHA_512_PORT,OAUTH://127.0.0.1:$OAUTHBEARER_PORT,MTLS://127.0.0.1:$MTLS_PORT,SASLPLAIN://127.0.0.1:$SASL_PLAIN_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PLAIN_PORT,SCRAM256://127.0.0.1:$SCRAM_SHA_256_PORT,SCRAM512://127.0.0.1:$SCRAM_SHA_512_PORT,OAUTH://127.0.0.1:$OAUTHBEARER_PORT,MTLS://127.0.0.1:$MTLS_PORT,SASLPLAIN://127.0.0.1:$SASL_PLAIN_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SCRAM256:SASL_SSL,SCRAM512:SASL_SSL,OAUTH:SASL_SSL,MTLS:SSL,SASLPLAIN:SASL_SSL
ssl.keystore.type=PEM
ssl.keystore.location=$DIR/keystore.pem
listener.name.mtls.ssl.client.auth=required
listener.name.mtls.ssl.truststore.type=PEM
listener.name.mtls.ssl.truststore.location=$DIR/ca.crt
listener.name.scram256.sasl.enabled.mechanisms=SCRAM-SHA-256
listener.name.scram256.scram-sha-256.sasl.jaas.config=$scram
listener.name.scram512.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.scram512.scram-sha-512.sasl.jaas.config=$scram
listener.name.saslplain.sasl.enabled.mechanisms=PLAIN
listener.name.saslplain.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$USERNAME="$PASSWORD";
listener.name.oauth.sasl.enabled.mechanisms=OAUTHBEARER
listener.name.oauth.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
listener.name.oauth.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
sasl.oauthbearer.jwks.endpoint.url=$JWKS_URL
sasl.oauthbearer.expected.issuer=$ISSUER
PROPERTIES

# One user with a credential for each SCRAM mechanism, written before the broker starts (kaas checks PLAIN logins
# against the stored SCRAM credential).
for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
  [ -z "${KAAS_JAR:-}" ] || KAAS_DATA_DIR="${KAAS_DATA_DIR:?}" "$JAVA" -jar "$KAAS_JAR" user add "$USERNAME" \
    --mechanism "$mechanism" --password "$PASSWORD" >/dev/null
done

cat > scenario.env <<ENV
SECURE_LISTENERS_OF=127.0.0.1:$PLAIN_PORT
SASL_SSL_SCRAM_SHA_256_BOOTSTRAP=127.0.0.1:$SCRAM_SHA_256_PORT
SASL_SSL_SCRAM_SHA_512_BOOTSTRAP=127.0.0.1:$SCRAM_SHA_512_PORT
SASL_SSL_PLAIN_BOOTSTRAP=127.0.0.1:$SASL_PLAIN_PORT
SASL_SSL_OAUTHBEARER_BOOTSTRAP=127.0.0.1:$OAUTHBEARER_PORT
SSL_MTLS_BOOTSTRAP=127.0.0.1:$MTLS_PORT
SSL_CLIENT_CERT=$DIR/client.crt
SSL_CLIENT_KEY=$DIR/client.key
SSL_CLIENT_PRINCIPAL=User:CN=parity-mtls-client
SSL_CA_PEM=$DIR/ca.crt
SASL_USERNAME=$USERNAME
SASL_PASSWORD=$PASSWORD
OAUTH_SIGNING_KEY=$DIR/jwt.key
OAUTH_KEY_ID=$KID
OAUTH_ISSUER=$ISSUER
ENV
