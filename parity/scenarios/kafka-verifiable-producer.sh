# kafka-verifiable-producer.sh: 200 messages, every one acknowledged.
. "$(dirname "$0")/../lib.sh"
T=$(topic_name t)
create_topic "$T" 2
SHOW_LINES=4 tool org.apache.kafka.tools.VerifiableProducer --bootstrap-server "$BOOTSTRAP" --topic "$T" \
  --max-messages 200 --acks -1
expect_ok
expect '"name":"shutdown_complete"'
expect '"name":"tool_data".*"acked":200' "all 200 messages must be acked"
expect_not '"name":"producer_send_error"' "no send may fail"
pass
