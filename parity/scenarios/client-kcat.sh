# client-kcat.sh: librdkafka (Debian's kcat): metadata, an idempotent snappy producer with keys and
# headers, reading back by partition, offsets by timestamp, and a balanced consumer group.
. "$(dirname "$0")/../lib.sh"
requires_program kcat "apt-get install kcat"
T=$(topic_name t)
create_topic "$T" 3
program kcat -b "$BOOTSTRAP" -L -t "$T"
expect_ok; expect "broker [0-9]+ at " ; expect "topic \"$T\" with 3 partitions"
seq 1 300 | awk '{print "key-" $1 ":value-" $1}' > "$WORK/$T.in"
before=$(( $(date +%s) * 1000 ))
STDIN="$WORK/$T.in" program kcat -b "$BOOTSTRAP" -P -t "$T" -K: -H origin=kcat -z snappy \
  -X enable.idempotence=true -X acks=all
expect_ok
program kcat -b "$BOOTSTRAP" -C -t "$T" -e -q -f '%p|%o|%k|%s|%h\n'
expect_ok
[ "$(count '^[0-2]\|[0-9]+\|key-([0-9]+)\|value-\1\|origin=kcat$')" = 300 ] \
  || fail "read back $(count '\|origin=kcat$') well-formed records, expected 300 with matching keys, values and headers"
for p in 0 1 2; do
  offsets="$(grep -E "^$p\|" <<<"$OUT" | cut -d'|' -f2 | tr '\n' ' ')"
  n=$(wc -w <<<"$offsets")
  [ "$offsets" = "$(seq -s' ' 0 $((n - 1))) " ] || [ "$n" = 0 ] || fail "partition $p offsets are not 0..$((n - 1)): $offsets"
done
program kcat -b "$BOOTSTRAP" -Q -t "$T:0:$before" -t "$T:1:$before" -t "$T:2:$before"
expect_ok; expect "$T \[0\] offset 0" "every record is newer than the time before producing: offset 0"
program kcat -b "$BOOTSTRAP" -G "parity-kcat-$$" -o beginning -e -q -f '%k\n' "$T"
expect_ok
[ "$(count '^key-')" = 300 ] || fail "the group consumer read $(count '^key-') records, expected 300"
tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --describe --group "parity-kcat-$$"
expect "parity-kcat-$$ +$T +[0-2] +[0-9]+ +[0-9]+ +0 " "the group's committed offsets reach the log end (lag 0)"
pass
