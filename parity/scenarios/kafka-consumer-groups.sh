# kafka-consumer-groups.sh: list, describe (members, offsets, lag), reset offsets, delete.
. "$(dirname "$0")/../lib.sh"
requires_api DescribeGroups "the tool describes consumer groups"
T=$(topic_name t); G="parity-groups-$$"
create_topic "$T" 2
produce_lines "$T" 40
tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --from-beginning --group "$G" \
  --max-messages 40 --timeout-ms 20000
expect_ok
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --list
expect "^$G\$" "the group must be listed"
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --describe --group "$G"
expect "$G[[:space:]]+$T[[:space:]]+[01][[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+0" "committed offsets with lag 0"
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --reset-offsets --group "$G" --topic "$T" \
  --to-earliest --execute
expect_ok; expect "$T[[:space:]]+[01][[:space:]]+0"
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --describe --group "$G" --offsets
expect "$T[[:space:]]+0[[:space:]]+0[[:space:]]+[0-9]+" "offsets must be back at 0"
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --delete --group "$G"
expect_ok; expect "successful"
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --list
expect_not "^$G\$" "the deleted group must not be listed"
pass
