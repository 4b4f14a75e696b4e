# kafka-storage.sh: formats KRaft metadata directories on a broker's local disk.
. "$(dirname "$0")/../lib.sh"
skip "non-goal: there is no KRaft storage to format (kaas keeps its state on the shared volume)"
