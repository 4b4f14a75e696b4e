# kafka-topics.sh: create, list, describe, add partitions, delete.
. "$(dirname "$0")/../lib.sh"
T=$(topic_name t)
topics --create --topic "$T" --partitions 3 --replication-factor 1 --config retention.ms=3600000
expect_ok; expect "Created topic $T"
topics --create --topic "$T" --partitions 3 --replication-factor 1
expect "already exists" "creating an existing topic must fail with TopicExistsException"
topics --create --topic "bad/name" --partitions 1 --replication-factor 1
expect "illegal|Illegal|InvalidTopicException" "an illegal name must be refused"
topics --list
expect_ok; expect "^$T\$" "the new topic must be listed"
requires_api DescribeConfigs "--describe reads topic configs"
topics --describe --topic "$T"
expect_ok; expect "PartitionCount: 3" ; expect "Partition: 2[[:space:]]+Leader: [0-9]+"
expect "Configs: .*retention.ms=3600000" "--describe must list the topic's config override"
requires_api CreatePartitions "--alter --partitions grows a topic"
topics --alter --topic "$T" --partitions 5
expect_ok
topics --describe --topic "$T"
expect "PartitionCount: 5" "the topic must have 5 partitions after --alter"
topics --delete --topic "$T"
expect_ok
topics --list
expect_not "^$T\$" "the deleted topic must not be listed"
pass
