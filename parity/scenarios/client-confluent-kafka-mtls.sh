# client-confluent-kafka-mtls.sh: librdkafka through confluent-kafka-python on an mTLS listener: its client
# certificate (CN=parity-mtls-client) is the principal, User:CN=parity-mtls-client as Apache's DEFAULT mapping
# names it, whose ACLs allow AdminClient, a producer and a committing group, with the values read back; a topic
# outside them refused; a client without a certificate served nothing (parity/clients/confluent_kafka_secured.py).
. "$(dirname "$0")/../lib.sh"
requires_secure_listener SSL_MTLS_BOOTSTRAP SSL_CA_PEM SSL_CLIENT_CERT SSL_CLIENT_KEY SSL_CLIENT_PRINCIPAL
requires_confluent_kafka
allow_prefix "$SSL_CLIENT_PRINCIPAL" "parity-secured-$$"
SHOW_LINES=60 program "$PY" "$PARITY_DIR/clients/confluent_kafka_secured.py" "$$" mtls
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
same_as_apache
pass
