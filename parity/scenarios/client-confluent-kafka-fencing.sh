# client-confluent-kafka-fencing.sh: librdkafka (confluent-kafka-python) transactional fencing: the
# producer a newer one fenced must fail fatally with _FENCED on its next Produce, as against Apache
# (parity/clients/confluent_kafka_fencing.py).
. "$(dirname "$0")/../lib.sh"
PY="${PARITY_PYTHON:-/usr/bin/python3}"
"$PY" -c 'import confluent_kafka' 2>/dev/null \
  || absent "confluent-kafka-python is not installed for $PY (apt-get install python3-confluent-kafka)"
SHOW_LINES=40 program "$PY" "$(dirname "$0")/../clients/confluent_kafka_fencing.py" "$BOOTSTRAP" "$$"
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
pass
