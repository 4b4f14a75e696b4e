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
latest="$OUT"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time -2
expect "^$T:0:0\$" ; expect "^$T:1:0\$"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time 0
expect "^$T:[01]:0\$" "every record is newer than timestamp 0, so the answer is the first offset"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time 9999999999999
expect_ok; expect_not "^$T:[01]:[0-9]+\$" "no record is that new: no offset may be printed"
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T" --time -3
for p in 0 1; do  # the producer may have left a partition empty: it has no largest timestamp to answer
  if grep -qE "^$T:$p:0\$" <<<"$latest"; then expect_not "^$T:$p:" "empty partition $p answered a max timestamp offset"
  else expect "^$T:$p:[0-9]+\$"; fi
done

# By timestamp, exact to the record: the answer is the first offset whose record's timestamp reaches
# the target, computed here from what a consumer reads, for targets inside the producer's batches.
E=$(topic_name exact)
create_topic "$E" 1
produce_lines "$E" 2000 rec
SHOW_LINES=3 tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$E" --partition 0 \
  --offset earliest --max-messages 2000 --timeout-ms 10000 --property print.timestamp=true --property print.offset=true
stamps="$(awk '{ o = ""; t = ""; for (i = 1; i <= NF; i++) { if ($i ~ /^CreateTime:/) t = substr($i, 12);
  if ($i ~ /^Offset:/) o = substr($i, 8) } if (o != "" && t != "") print o, t }' <<<"$OUT")"
[ "$(wc -l <<<"$stamps")" = 2000 ] || fail "read $(wc -l <<<"$stamps") records with their timestamps, expected 2000"
# records newer than the one before them (in a batch of many, most are not its first): their timestamps and one past
newer="$(awk 'NR > 1 && $2 > prev { print $2 } { prev = $2 }' <<<"$stamps" | awk 'NR % 7 == 1' | head -n 3)"
[ -n "$newer" ] || skip "every record has the same timestamp: nothing to tell records from batches by"
for ts in $newer; do
  for t in "$ts" $((ts + 1)); do
    want="$(awk -v t="$t" '$2 >= t + 0 { print $1; exit }' <<<"$stamps")"
    SHOW_LINES=2 tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic-partitions "$E:0" --time "$t"
    expect_ok
    if [ -n "$want" ]; then expect "^$E:0:$want\$" "timestamp $t: expected offset $want, the first record reaching it"
    else expect_not "^$E:0:[0-9]+\$" "timestamp $t: no record reaches it"; fi
  done
done
pass
