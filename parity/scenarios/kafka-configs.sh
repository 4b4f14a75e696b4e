# kafka-configs.sh: describe, set and delete a topic config; describe the broker; set, describe and delete
# dynamic broker configs on the broker and as the cluster-wide default.
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
ID=$(grep -oE "All configs for broker [0-9]+" <<<"$OUT" | grep -oE "[0-9]+$")
configs() { tool kafka.admin.ConfigCommand --bootstrap-server "$BOOTSTRAP" --entity-type brokers "$@"; }
# Later scenarios share this broker: leave no dynamic config behind, whatever happens here.
trap 'configs --entity-default --alter --delete-config log.retention.ms,log.cleaner.backoff.ms >/dev/null
      configs --entity-name "$ID" --alter --delete-config sasl.kerberos.min.time.before.relogin >/dev/null' EXIT
configs --entity-default --alter --add-config log.retention.ms=3333333,log.cleaner.backoff.ms=20000
expect_ok "a cluster-wide dynamic default must be accepted"
configs --entity-default --describe
expect "log.retention.ms=3333333 sensitive=false synonyms=\{DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=3333333\}"
configs --entity-default --alter --add-config sasl.kerberos.min.time.before.relogin=70000
expect "Cannot update these configs at default cluster level, broker id must be specified" "per-broker only"
configs --entity-name "$ID" --alter --add-config sasl.kerberos.min.time.before.relogin=70000
expect_ok "a dynamic broker config must be accepted"
configs --entity-name "$ID" --describe
expect "sasl.kerberos.min.time.before.relogin=70000 sensitive=false synonyms=\{DYNAMIC_BROKER_CONFIG:sasl.kerberos.min.time.before.relogin=70000, DEFAULT_CONFIG:sasl.kerberos.min.time.before.relogin=60000\}"
configs --entity-name "$ID" --alter --add-config log.dirs=/elsewhere
expect "InvalidRequestException: Cannot update these configs dynamically: Set\(log.dirs\)"
configs --entity-name "$ID" --alter --add-config sasl.kerberos.min.time.before.relogin=soon
expect "Invalid value soon for configuration sasl.kerberos.min.time.before.relogin: Not a number of type LONG"
configs --entity-name "$ID" --alter --delete-config sasl.kerberos.min.time.before.relogin
expect_ok
configs --entity-default --alter --delete-config log.retention.ms,log.cleaner.backoff.ms
expect_ok
configs --entity-default --describe
expect_ok; expect_not "log.retention.ms=" "the cluster-wide default must be gone"
pass
