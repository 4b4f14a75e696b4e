# client-confluent-kafka-quick-join.sh: two librdkafka consumers subscribe within milliseconds and only
# the second is polled: it must get partitions within 15 s, five times out of five (issue 18; on Apache both
# join one generation or the first is revoked at once).
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check quick-join
pass
