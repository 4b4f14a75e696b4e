# client-kafkajs-records.sh: KafkaJS headers (duplicate keys, empty values, binary), plain
# and gzip, read back byte for byte (KafkaJS sends no null header value and no snappy/lz4/zstd without plugins).
. "$(dirname "$0")/../lib.sh"
kafkajs_check records
pass
