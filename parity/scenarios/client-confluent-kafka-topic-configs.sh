# client-confluent-kafka-topic-configs.sh: DescribeConfigs of a new topic through librdkafka: every
# entry's source, flags and default value, compared with what Apache 3.7.2 answered (parity/outcomes/).
. "$(dirname "$0")/../lib.sh"
confluent_kafka_check topic-configs
same_as_apache
pass
