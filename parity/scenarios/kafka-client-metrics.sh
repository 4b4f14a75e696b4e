# kafka-client-metrics.sh: client metrics subscriptions (KIP-714).
. "$(dirname "$0")/../lib.sh"
requires_api GetTelemetrySubscriptions "non-goal: client metrics push (KIP-714); kaas reports through OpenTelemetry"
tool org.apache.kafka.tools.ClientMetricsCommand --bootstrap-server "$BOOTSTRAP" --list
expect_ok
pass
