# client-kafkajs-timestamps.sh: KafkaJS fetchTopicOffsetsByTimestamp on one batch of 2000
# records with out-of-order timestamps, and timestamp -3 (the largest timestamp).
. "$(dirname "$0")/../lib.sh"
kafkajs_check timestamps
pass
