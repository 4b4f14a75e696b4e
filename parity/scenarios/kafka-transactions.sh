# kafka-transactions.sh: list, describe, describe-producers and find-hanging (KIP-664), over transactions
# committed by kafka-producer-perf-test's transactional mode and read back with read_committed.
. "$(dirname "$0")/../lib.sh"
requires_api ListTransactions "the tool lists transactions"
T=$(topic_name t); TX="parity-tx-$$"
create_topic "$T" 1
tool org.apache.kafka.tools.ProducerPerformance --topic "$T" --num-records 100 --record-size 50 --throughput -1 \
  --transactional-id "$TX" --transaction-duration-ms 50 --producer-props bootstrap.servers="$BOOTSTRAP" acks=all
expect_ok; expect "^100 records sent" "the transactional producer must commit 100 records"
SHOW_LINES=3 tool kafka.tools.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$T" --from-beginning \
  --isolation-level read_committed --max-messages 100 --timeout-ms 20000
expect_ok; expect "Processed a total of 100 messages" "read_committed must see the 100 committed records"
tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BOOTSTRAP" list
expect_ok; expect "TransactionalId"
expect "^$TX[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+CompleteCommit" "the transactional id must be listed, committed"
tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BOOTSTRAP" describe --transactional-id "$TX"
expect_ok; expect "[0-9]+[[:space:]]+$TX[[:space:]]+[0-9]+[[:space:]]+0[[:space:]]+CompleteCommit[[:space:]]+60000" \
  "describe must show the producer, epoch 0, CompleteCommit and the timeout"
tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BOOTSTRAP" describe-producers --topic "$T" --partition 0
expect_ok; expect "^[0-9]+[[:space:]]+0[[:space:]]+[0-9-]+[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+None" \
  "the partition's producer, epoch 0, with no transaction in progress"
BROKER_ID=$(grep -oE '\(id: [0-9]+' "$APIS" | head -1 | grep -oE '[0-9]+')
tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BOOTSTRAP" find-hanging --broker-id "$BROKER_ID"
expect_ok; expect "ProducerId"; expect_not "$T" "no hanging transaction"
pass
