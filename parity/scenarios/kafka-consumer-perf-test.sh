# kafka-consumer-perf-test.sh: reads a topic from the beginning in a fresh group.
. "$(dirname "$0")/../lib.sh"
requires_api JoinGroup "the tool consumes in a consumer group"
T=$(topic_name t)
create_topic "$T" 3
tool org.apache.kafka.tools.ProducerPerformance --topic "$T" --num-records 5000 --record-size 100 --throughput -1 \
  --producer-props bootstrap.servers="$BOOTSTRAP"
expect_ok
tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" --topic "$T" --messages 5000 \
  --group "parity-perf-$$" --timeout 20000
expect_ok
rows=$(awk -F', ' 'NF > 5 && $0 ~ /^[0-9][0-9][0-9][0-9]-/ {print $5}' <<<"$OUT")
[ "$rows" = 5000 ] || fail "consumed '$rows' records, expected 5000"
pass
