# kafka-verifiable-consumer.sh: a group member consumes and commits everything.
. "$(dirname "$0")/../lib.sh"
requires_api JoinGroup "the tool consumes in a consumer group"
T=$(topic_name t)
create_topic "$T" 2
SHOW_LINES=2 tool org.apache.kafka.tools.VerifiableProducer --bootstrap-server "$BOOTSTRAP" --topic "$T" --max-messages 100
expect_ok
SHOW_LINES=4 tool org.apache.kafka.tools.VerifiableConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" \
  --group-id "parity-verifiable-$$" --max-messages 100 --reset-policy earliest
expect_ok
consumed=$(grep -oE '"name":"records_consumed","count":[0-9]+' <<<"$OUT" | grep -oE '[0-9]+$' | paste -sd+ | bc)
[ "${consumed:-0}" = 100 ] || fail "consumed ${consumed:-0} records, expected 100"
expect '"name":"offsets_committed".*"success":true' "offsets must be committed"
pass
