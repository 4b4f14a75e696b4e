# kafka-configs.sh: describe, set and delete a topic config; describe the broker.
. "$(dirname "$0")/../lib.sh"
requires_api DescribeConfigs "describing configs"
requires_api IncrementalAlterConfigs "altering configs"
T=$(topic_name t)
create_topic "$T" 1
tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type topics --entity-name "$T" \
  --alter --add-config retention.ms=3600000,max.message.bytes=2000000
expect_ok
tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type topics --entity-name "$T" --describe
expect "retention.ms=3600000" ; expect "max.message.bytes=2000000"
tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type topics --entity-name "$T" \
  --alter --delete-config retention.ms
expect_ok
tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type topics --entity-name "$T" --describe --all
expect "retention.ms=604800000" "retention.ms must be back to its default"
tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type topics --entity-name "$T" \
  --alter --add-config retention.ms=not-a-number
expect "Invalid|invalid" "a bad value must be refused"
tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type brokers --entity-default --describe
expect_ok
SHOW_LINES=5 tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type brokers --describe --all
expect_ok; expect "All configs for broker [0-9]+ are:"
expect "message.max.bytes=[0-9]+ " "the broker's message.max.bytes must be reported"
expect "log.dirs=/" "the broker's log directory must be reported"
pass
