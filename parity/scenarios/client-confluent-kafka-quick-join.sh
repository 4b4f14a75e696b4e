# client-confluent-kafka-quick-join.sh: two librdkafka consumers subscribe within milliseconds (issue 18). When
# both are polled the second gets partitions; when only the second is polled it gets them, or the group waits
# for the unpolled first and answers its heartbeats REBALANCE_IN_PROGRESS, as Apache 3.7 does.
# Eight attempts of up to 10 s each (one whose group waits always takes the full 10 s): more than the default
# 90 s on a loaded machine.
. "$(dirname "$0")/../lib.sh"
TOOL_TIMEOUT=180 confluent_kafka_check quick-join
pass
