# client-kafkajs-rebalance.sh: KafkaJS consumer group (eager roundrobin, commit per record): five
# members join and leave at chosen moments while records flow; every record read exactly once, a member
# reads only what it was assigned, committed offsets reach the end (parity/clients/kafkajs/conformance.js).
. "$(dirname "$0")/../lib.sh"
kafkajs_check rebalance
pass
