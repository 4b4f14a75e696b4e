# client-confluent-kafka-rebalance-cooperative.sh: as client-confluent-kafka-rebalance-eager, with
# cooperative-sticky (incremental) rebalancing.
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check rebalance cooperative-sticky
pass
