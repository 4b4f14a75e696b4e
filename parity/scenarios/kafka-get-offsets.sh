# kafka-get-offsets.sh: latest (-1), earliest (-2), max timestamp (-3) and by timestamp.
. "$(dirname "$0")/../lib.sh"
T=$(topic_name t)
create_topic "$T" 2
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T"
expect "^$T:0:0\$" ; expect "^$T:1:0\$"
produce_lines "$T" 100
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time -1
total=$(awk -F: -v t="$T" '$1==t {s+=$3} END {print s}' <<<"$OUT")
[ "$total" = 100 ] || fail "latest offsets sum to $total, expected 100"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time -2
expect "^$T:0:0\$" ; expect "^$T:1:0\$"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time 0
expect "^$T:[01]:0\$" "every record is newer than timestamp 0, so the answer is the first offset"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time 9999999999999
expect_ok; expect_not "^$T:[01]:[0-9]+\$" "no record is that new: no offset may be printed"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic-partitions "$T:0" --time -3
expect "^$T:0:[0-9]+\$"
pass
