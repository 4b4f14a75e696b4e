# client-kcat-sasl-scram.sh: librdkafka's kcat over SASL_SSL with SCRAM-SHA-256 and SCRAM-SHA-512: metadata,
# keyed records produced and read back by a consumer group, and a wrong password refused promptly.
. "$(dirname "$0")/../lib.sh"
requires_secure_listener SASL_SSL_SCRAM_SHA_256_BOOTSTRAP SASL_SSL_SCRAM_SHA_512_BOOTSTRAP SSL_CA_PEM SASL_USERNAME SASL_PASSWORD
requires_program kcat "apt-get install kcat"
allow_prefix "User:$SASL_USERNAME" "parity-$SCENARIO-"
for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
  var="SASL_SSL_${mechanism//-/_}_BOOTSTRAP"
  sasl=(-b "${!var}" -X security.protocol=SASL_SSL -X ssl.ca.location="$SSL_CA_PEM" -X sasl.mechanism="$mechanism"
        -X sasl.username="$SASL_USERNAME")
  T=$(topic_name "${mechanism,,}")
  create_topic "$T" 2
  program kcat "${sasl[@]}" -X sasl.password="$SASL_PASSWORD" -L -t "$T"
  expect_ok; expect "topic \"$T\" with 2 partitions" "$mechanism: kcat lists $T's 2 partitions"
  seq 1 200 | awk -v m="$mechanism" '{print "key-" $1 ":" m "-value-" $1}' > "$WORK/$T.in"
  STDIN="$WORK/$T.in" program kcat "${sasl[@]}" -X sasl.password="$SASL_PASSWORD" -P -t "$T" -K: -X acks=all
  expect_ok
  program kcat "${sasl[@]}" -X sasl.password="$SASL_PASSWORD" -G "parity-$SCENARIO-${mechanism,,}-$$" \
    -o beginning -e -q -f '%k:%s\n' "$T"
  expect_ok
  [ "$(grep -E '^key-[0-9]+:' <<<"$OUT" | sort)" = "$(sort "$WORK/$T.in")" ] \
    || fail "$mechanism: the group read back $(count '^key-') records, not the 200 keys and values written"
  tool kafka.admin.ConsumerGroupCommand --bootstrap-server "$BOOTSTRAP" --describe --group "parity-$SCENARIO-${mechanism,,}-$$"
  [ "$(count " $T +[01] +[0-9]+ +[0-9]+ +0 ")" = 2 ] || fail "$mechanism: the group's commits reach the log end of both partitions"
  TOOL_TIMEOUT=60 program kcat "${sasl[@]}" -X sasl.password=wrong -L
  [ "$RC" != 0 ] && [ "$RC" != 124 ] || fail "$mechanism: kcat with a wrong password exited $RC (124: it hung)"
  expect "Authentication failed|SASL authentication error" "$mechanism: kcat with a wrong password reports an authentication error"
done
pass
