# client-kafkajs-large-messages.sh: KafkaJS: batches of exactly message.max.bytes and of a topic's
# max.message.bytes accepted and read back, one byte more refused MESSAGE_TOO_LARGE.
. "$(dirname "$0")/../lib.sh"
kafkajs_check large-messages
same_as_apache
pass
