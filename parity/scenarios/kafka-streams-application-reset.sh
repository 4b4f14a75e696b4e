# kafka-streams-application-reset.sh: resets a (never-run) Streams application's group and input offsets.
. "$(dirname "$0")/../lib.sh"
requires_api DescribeGroups "the tool inspects the application's consumer group"
T=$(topic_name in)
create_topic "$T" 1
tool org.apache.kafka.tools.StreamsResetter --bootstrap-server "$BOOTSTRAP" --application-id "parity-app-$$" \
  --input-topics "$T" --to-earliest
expect_ok; expect "Done."
pass
