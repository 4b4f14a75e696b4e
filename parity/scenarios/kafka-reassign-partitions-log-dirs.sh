# kafka-reassign-partitions.sh --reassignment-json-file with log_dirs: moves a partition to another log dir of
# the same broker (AlterPartitionReassignments onto the same replica, then AlterReplicaLogDirs), --verify sees
# the move complete, kafka-log-dirs.sh lists the partition in its new dir and every line reads back.
# Needs a broker with two log dirs (kaas: KAAS_LOG_DIRS; Apache: log.dirs), else it is skipped.
. "$(dirname "$0")/../lib.sh"
requires_api AlterReplicaLogDirs "moving partitions between log dirs"
T=$(topic_name t)
create_topic "$T" 1
produce_lines "$T" 200
tool org.apache.kafka.tools.LogDirsCommand --bootstrap-server "$BOOTSTRAP" --describe --topic-list "$T"
expect_ok
DESCRIBED="$(grep -E '^\{' <<<"$OUT" | tail -n 1)"
# each dir reads {"partitions":[...],"error":null,"logDir":"<path>"}
FROM="$(grep -oE "\{\"partition\":\"$T-0\"[^]]*\],\"error\":null,\"logDir\":\"[^\"]+\"" <<<"$DESCRIBED" \
  | sed -E 's/.*"logDir":"([^"]+)"$/\1/')"
TO="$(grep -oE '"logDir":"[^"]+"' <<<"$DESCRIBED" | sed -E 's/"logDir":"([^"]+)"/\1/' | grep -vxF "$FROM" | head -n 1)"
[ -n "$FROM" ] || fail "kafka-log-dirs must list $T-0 under a log dir"
[ -n "$TO" ] || skip "the broker has one log dir"
BROKER="$(grep -oE '"broker":[0-9]+' <<<"$DESCRIBED" | head -n 1 | cut -d: -f2)"
printf '{"version":1,"partitions":[{"topic":"%s","partition":0,"replicas":[%s],"log_dirs":["%s"]}]}' \
  "$T" "$BROKER" "$TO" > "$WORK/move.json"
tool org.apache.kafka.tools.reassign.ReassignPartitionsCommand --bootstrap-server "$BOOTSTRAP" \
  --reassignment-json-file "$WORK/move.json" --execute
expect_ok; expect "Successfully started partition reassignment"
for _ in $(seq 1 30); do
  tool org.apache.kafka.tools.reassign.ReassignPartitionsCommand --bootstrap-server "$BOOTSTRAP" \
    --reassignment-json-file "$WORK/move.json" --verify
  grep -qE "Reassignment of replica $T-0-$BROKER completed successfully" <<<"$OUT" && break
  sleep 1
done
expect "Reassignment of partition $T-0 is completed" "the replica set is unchanged: done at once"
expect "Reassignment of replica $T-0-$BROKER completed successfully" "--verify must see the log dir move complete"
tool org.apache.kafka.tools.LogDirsCommand --bootstrap-server "$BOOTSTRAP" --describe --topic-list "$T"
expect "\{\"partition\":\"$T-0\"[^]]*\],\"error\":null,\"logDir\":\"$TO\"" "$T-0 must be listed in $TO"
tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --from-beginning --max-messages 200 \
  --timeout-ms 20000
expect_ok; [ "$(count '^line-[0-9]+$')" = 200 ] || fail "every produced line must read back once after the move"
pass
