# client-confluent-kafka-fencing.sh: librdkafka (confluent-kafka-python) transactional fencing: the
# producer a newer one fenced must fail fatally with _FENCED on its next Produce, as against Apache
# (parity/clients/confluent_kafka_fencing.py).
. "$(dirname "$0")/../lib.sh"
SHOW_LINES=40 confluent_kafka_program confluent_kafka_fencing.py
pass
