# kafka-broker-api-versions.sh: every advertised range overlaps the 3.7 client's, the core APIs are there.
. "$(dirname "$0")/../lib.sh"
tool kafka.admin.BrokerApiVersionsCommand --bootstrap-server "$BOOTSTRAP"
expect_ok
expect_not "usable: -1" "an advertised range the 3.7 client cannot use"
for api in Produce Fetch ListOffsets Metadata FindCoordinator ApiVersions CreateTopics DeleteTopics InitProducerId DescribeCluster; do
  expect "^\s*$api\([0-9]+\): [0-9]+ to [0-9]+ \[usable: [0-9]+\]" "$api must be served"
done
pass
