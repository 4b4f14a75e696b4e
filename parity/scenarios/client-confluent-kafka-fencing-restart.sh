# client-confluent-kafka-fencing-restart.sh: zombie fencing across a broker restart through librdkafka
# (confluent-kafka-python): producer A opens a transaction and writes, the broker restarts (graceful),
# producer B with the same transactional.id initialises; A's next Produce must fail fatally with _FENCED
# and read_committed sees B's committed records exactly once, none of A's
# (parity/clients/confluent_kafka_fencing.py restart).
. "$(dirname "$0")/../lib.sh"
requires_restart
TOOL_TIMEOUT=240 SHOW_LINES=40 confluent_kafka_program confluent_kafka_fencing.py restart
pass
