# client-confluent-kafka-records.sh: headers (duplicate keys, null and empty values, binary)
# through librdkafka with every codec (none, gzip, snappy, lz4, zstd; its debug log shows each went on the
# wire), read back byte for byte. client-kcat-compression checks the codecs through kcat.
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check records
pass
