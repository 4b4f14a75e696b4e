# client-kcat-compression.sh: librdkafka (Debian's kcat) compresses what it is told to with every codec. Before 2.8,
# librdkafka reads "Produce v0 in ApiVersions" as "this broker takes compressed batches" and otherwise sends them
# uncompressed without an error (librdkafka#4956); Kafka 4.0 advertises Produce v0 for that reason (KAFKA-18659).
. "$(dirname "$0")/../lib.sh"
requires_program kcat "apt-get install kcat"
T=$(topic_name t)
create_topic "$T" 1
seq 1 50 | awk '{print "value-" $1 "-the-same-text-again-and-again-and-again"}' > "$WORK/$T.in"
for codec in gzip snappy lz4 zstd; do
  STDIN="$WORK/$T.in" SHOW_LINES=0 program kcat -b "$BOOTSTRAP" -P -t "$T" -z "$codec" -d msg
  expect_ok
  expect_not "does not support compression" "librdkafka sent $codec batches uncompressed: the broker's ApiVersions made it think it cannot"
  expect "Produce MessageSet with [0-9]+ message\(s\) .*, $codec\)" "librdkafka reports no $codec batch"
done
program kcat -b "$BOOTSTRAP" -C -t "$T" -e -q -f '%s\n'
expect_ok
[ "$(count '^value-[0-9]+-the-same-text')" = 200 ] || fail "read back $(count '^value-') records, expected 200 (50 per codec)"
pass
