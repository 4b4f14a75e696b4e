# client-confluent-kafka-python.sh: librdkafka through Debian's confluent-kafka-python: admin, an
# idempotent zstd producer, a consumer group that resumes from its commits, transactions with
# read_committed, offsets by timestamp (parity/clients/confluent_kafka_check.py).
. "$(dirname "$0")/../lib.sh"
requires_confluent_kafka
SHOW_LINES=60 program "$PY" "$(dirname "$0")/../clients/confluent_kafka_check.py" "$BOOTSTRAP" "$$"
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
pass
