# kafka-producer-perf-test.sh: 20,000 records, acks=all, all acknowledged.
. "$(dirname "$0")/../lib.sh"
T=$(topic_name t)
create_topic "$T" 3
tool org.apache.kafka.tools.ProducerPerformance --topic "$T" --num-records 20000 --record-size 100 --throughput -1 \
  --producer-props bootstrap.servers="$BOOTSTRAP" acks=all
expect_ok; expect "^20000 records sent" "the final summary must count 20000 records"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T"
total=$(awk -F: -v t="$T" '$1==t {s+=$3} END {print s}' <<<"$OUT")
[ "$total" = 20000 ] || fail "the topic holds $total records, expected 20000"
pass
