# client-confluent-kafka-idempotence-restart.sh: an idempotent librdkafka producer (confluent-kafka-python)
# produces to three partitions without pause while the broker is killed (SIGKILL: requests in flight
# lose their answers, librdkafka retries them) and comes back: every record is acknowledged and in the
# log exactly once, at its acknowledged offset, in the order produced (parity/clients/
# confluent_kafka_conformance.py idempotence-restart).
. "$(dirname "$0")/../lib.sh"
requires_restart
TOOL_TIMEOUT=240 confluent_kafka_check idempotence-restart kill
pass
