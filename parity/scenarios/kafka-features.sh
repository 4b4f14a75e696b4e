# kafka-features.sh describe: feature levels from ApiVersions.
. "$(dirname "$0")/../lib.sh"
tool org.apache.kafka.tools.FeatureCommand --bootstrap-server "$BOOTSTRAP" describe
expect_ok
grep -q "metadata.version" <<<"$OUT" || skip "non-goal: no KRaft feature levels (metadata.version) to report"
expect "Feature: metadata.version"
pass
