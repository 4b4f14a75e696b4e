# client-confluent-kafka-rebalance-eager.sh: librdkafka consumer groups, eager (range, then roundrobin): five
# members join and leave at chosen moments while records flow, one leaving mid-rebalance; every record read
# exactly once across the members, ownership handed over (never two owners), committed() and lag right after
# (parity/clients/confluent_kafka_conformance.py rebalance).
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check rebalance range roundrobin
pass
