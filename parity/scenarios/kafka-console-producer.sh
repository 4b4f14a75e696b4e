# kafka-console-producer.sh: lines typed in become records (keys with parse.key), acks=all, idempotent by default.
. "$(dirname "$0")/../lib.sh"
T=$(topic_name t)
create_topic "$T" 1
produce_lines "$T" 500
printf 'k1:v1\nk2:v2\n' > "$WORK/keyed.in"
STDIN="$WORK/keyed.in" tool kafka.tools.ConsoleProducer --bootstrap-server "$BOOTSTRAP" --topic "$T" \
  --property parse.key=true --property key.separator=:
expect_ok
tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$T"
expect "^$T:0:502\$" "502 records must have been appended"
tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --partition 0 --offset 500 \
  --max-messages 2 --property print.key=true --property key.separator=:
expect "^k1:v1\$" ; expect "^k2:v2\$"
pass
