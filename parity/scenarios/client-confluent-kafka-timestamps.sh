# client-confluent-kafka-timestamps.sh: librdkafka offsets_for_times on batches of 500 records with
# out-of-order timestamps (the first offset at or after each of ~150 timestamps), and timestamp -3 (the
# largest timestamp, KIP-734).
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check timestamps
pass
