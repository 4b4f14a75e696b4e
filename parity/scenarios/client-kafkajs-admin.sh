# client-kafkajs-admin.sh: KafkaJS's admin API: CreateTopics (validateOnly, refusals),
# DescribeConfigs, AlterConfigs, CreatePartitions, DeleteRecords, ListOffsets, DeleteTopics; each refusal's
# code compared with Apache 3.7.2's (parity/outcomes/).
. "$(dirname "$0")/../lib.sh"
kafkajs_check admin
same_as_apache
pass
