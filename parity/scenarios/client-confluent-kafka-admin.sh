# client-confluent-kafka-admin.sh: librdkafka's admin API: CreateTopics (validate_only, refusals),
# DescribeConfigs, AlterConfigs (replaces the whole set), CreatePartitions, DeleteTopics; each refusal's
# code compared with Apache 3.7.2's (parity/outcomes/).
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check admin
same_as_apache
pass
