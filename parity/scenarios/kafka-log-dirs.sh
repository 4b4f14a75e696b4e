# kafka-log-dirs.sh --describe: log dirs with per-partition sizes.
. "$(dirname "$0")/../lib.sh"
requires_api DescribeLogDirs "describing log dirs"
T=$(topic_name t)
create_topic "$T" 2
produce_lines "$T" 100
tool org.apache.kafka.tools.LogDirsCommand --bootstrap-server "$BOOTSTRAP" --describe --topic-list "$T"
expect_ok
expect "\"partition\":\"$T-0\",\"size\":[0-9]+" "partition sizes must be reported"
expect "\"partition\":\"$T-[01]\",\"size\":[1-9][0-9]*" "a partition holding the produced lines must have a size"
expect "\"logDir\":\"" "a log dir must be reported"
pass
