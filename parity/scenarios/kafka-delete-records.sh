# kafka-delete-records.sh: advance a partition's log start offset.
. "$(dirname "$0")/../lib.sh"
requires_api DeleteRecords "deleting records"
T=$(topic_name t)
create_topic "$T" 1
produce_lines "$T" 50
printf '{"partitions":[{"topic":"%s","partition":0,"offset":20}],"version":1}' "$T" > "$WORK/delete.json"
tool org.apache.kafka.tools.DeleteRecordsCommand --bootstrap-server "$BOOTSTRAP" --offset-json-file "$WORK/delete.json"
expect_ok; expect "partition: $T-0[[:space:]]+low_watermark: 20"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time -2
expect "^$T:0:20\$" "the earliest offset must now be 20"
printf '{"partitions":[{"topic":"%s","partition":0,"offset":999}],"version":1}' "$T" > "$WORK/beyond.json"
tool org.apache.kafka.tools.DeleteRecordsCommand --bootstrap-server "$BOOTSTRAP" --offset-json-file "$WORK/beyond.json"
expect "OffsetOutOfRange" "deleting past the high watermark must fail with OffsetOutOfRangeException"
pass
