# client-kafkajs.sh: KafkaJS, a client written from scratch in JavaScript: admin, an idempotent
# producer, a consumer group that commits, transactions with read_committed
# (parity/clients/kafkajs/check.js; its pinned package is installed by `npm ci` in that folder).
. "$(dirname "$0")/../lib.sh"
DIR="$(cd "$(dirname "$0")/../clients/kafkajs" && pwd)"
requires_program node "apt-get install nodejs"
[ -d "$DIR/node_modules/kafkajs" ] || absent "KafkaJS is not installed here (npm ci --prefix parity/clients/kafkajs)"
SHOW_LINES=60 program node "$DIR/check.js" "$BOOTSTRAP" "$$"
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
pass
