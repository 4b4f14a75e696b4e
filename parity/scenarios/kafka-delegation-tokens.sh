# kafka-delegation-tokens.sh: create and describe delegation tokens.
. "$(dirname "$0")/../lib.sh"
requires_api DescribeDelegationToken "non-goal: delegation tokens (KIP-48); use SCRAM, mTLS or OAUTHBEARER"
: > "$WORK/empty.properties"
tool org.apache.kafka.tools.DelegationTokenCommand --bootstrap-server "$BOOTSTRAP" --describe --command-config "$WORK/empty.properties"
grep -qE "DelegationTokenDisabled|UnsupportedByAuthentication" <<<"$OUT" && skip "delegation tokens need a SASL listener"
expect_ok
pass
