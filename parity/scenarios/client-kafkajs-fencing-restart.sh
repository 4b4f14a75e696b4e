# client-kafkajs-fencing-restart.sh: zombie fencing across a broker restart through KafkaJS: producer A
# opens a transaction and writes, the broker restarts (graceful), producer B with the same transactionalId
# begins a transaction; A's next send and its commit are refused INVALID_PRODUCER_EPOCH, and read_committed sees
# B's committed records exactly once, none of A's (parity/clients/kafkajs/conformance.js fencing-restart).
. "$(dirname "$0")/../lib.sh"
requires_restart
TOOL_TIMEOUT=240 kafkajs_check fencing-restart
pass
