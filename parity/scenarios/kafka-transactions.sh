# kafka-transactions.sh: list and describe transactions (KIP-664).
. "$(dirname "$0")/../lib.sh"
requires_api ListTransactions "non-goal for now: KIP-664 transaction listing (the slot files under __cluster/txn_state are the inspection surface)"
tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BOOTSTRAP" list
expect_ok; expect "TransactionalId"
pass
