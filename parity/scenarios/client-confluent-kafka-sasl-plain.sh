# client-confluent-kafka-sasl-plain.sh: librdkafka through confluent-kafka-python over SASL_SSL with PLAIN (kaas
# checks the password against the user's stored SCRAM credential, Apache against its JAAS users): the CA-checked
# TLS handshake, AdminClient, a producer, a committing consumer group with the values read back, a topic outside
# the user's ACLs refused, and a wrong password reported as an authentication error, the broker's answers compared
# with Apache 3.7.2's (parity/clients/confluent_kafka_secured.py, parity/outcomes/).
. "$(dirname "$0")/../lib.sh"
requires_secure_listener SASL_SSL_PLAIN_BOOTSTRAP SSL_CA_PEM SASL_USERNAME SASL_PASSWORD
requires_confluent_kafka
allow_prefix "User:$SASL_USERNAME" "parity-secured-$$"
SHOW_LINES=60 program "$PY" "$PARITY_DIR/clients/confluent_kafka_secured.py" "$$" password PLAIN
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
same_as_apache
pass
