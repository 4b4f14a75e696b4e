# client-kafkajs-idempotence-restart.sh: an idempotent KafkaJS producer sends to three partitions,
# request after request, while the broker is killed (SIGKILL) and comes back; KafkaJS retries the request
# the kill cut off: each partition's log is exactly the records sent, once each, in order, at their
# acknowledged offsets (parity/clients/kafkajs/conformance.js idempotence-restart).
. "$(dirname "$0")/../lib.sh"
requires_restart
TOOL_TIMEOUT=240 kafkajs_check idempotence-restart kill
pass
