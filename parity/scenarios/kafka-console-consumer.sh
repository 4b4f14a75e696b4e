# kafka-console-consumer.sh: by partition and offset; then in a consumer group from the beginning.
. "$(dirname "$0")/../lib.sh"
T=$(topic_name t)
create_topic "$T" 2
produce_lines "$T" 300 msg
tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --partition 0 --offset earliest \
  --max-messages 10000 --timeout-ms 5000 --property print.offset=true --property print.partition=true
n0=$(count "^Partition:0")
tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --partition 1 --offset earliest \
  --max-messages 10000 --timeout-ms 5000
n1=$(count "^msg-")
[ $((n0 + n1)) = 300 ] || fail "read $n0 + $n1 records by partition, expected 300"
requires_api JoinGroup "consuming with --group needs the group coordinator"
tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --from-beginning \
  --group "parity-console-$$" --max-messages 300 --timeout-ms 20000
expect_ok
[ "$(count '^msg-')" = 300 ] || fail "the group consumer read $(count '^msg-') records, expected 300"
pass
