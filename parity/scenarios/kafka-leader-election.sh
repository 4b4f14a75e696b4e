# kafka-leader-election.sh: a preferred election where the leader already is the preferred one.
. "$(dirname "$0")/../lib.sh"
requires_api ElectLeaders "leader election (with one writer per partition, only the no-op answer applies) is not built yet"
T=$(topic_name t)
create_topic "$T" 1
tool org.apache.kafka.tools.LeaderElectionCommand --bootstrap-server "$BOOTSTRAP" --election-type preferred \
  --topic "$T" --partition 0
expect "Valid replica already elected for partitions $T-0|already elected" "the preferred leader already leads"
pass
