# client-confluent-kafka-large-messages.sh: batches of exactly message.max.bytes (the broker default) and of a
# topic's max.message.bytes are accepted and read back, one byte more is MSG_SIZE_TOO_LARGE; a 1.5 MB value
# gzip-compressed under the limit is accepted.
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check large-messages
same_as_apache
pass
