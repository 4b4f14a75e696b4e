# client-confluent-kafka-static-membership.sh: three static members (group.instance.id); one restarts
# within session.timeout.ms and gets its own partitions back while the others see no rebalance.
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check static-membership
pass
