# kafka-metadata-quorum.sh describe --status: the KRaft quorum.
. "$(dirname "$0")/../lib.sh"
requires_api DescribeQuorum "non-goal: there is no KRaft quorum (a Kubernetes Lease elects the controller)"
tool org.apache.kafka.tools.MetadataQuorumCommand --bootstrap-server "$BOOTSTRAP" describe --status
expect_ok; expect "LeaderId:"
pass
