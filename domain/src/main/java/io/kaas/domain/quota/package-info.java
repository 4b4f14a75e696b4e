/**
 * Client quotas as Apache Kafka 3.7 enforces them (KIP-13, KIP-55, KIP-124, KIP-219): which configured entity
 * a client's quota comes from ({@link io.kaas.domain.quota.QuotaLimits}), the windowed rate it is measured with
 * ({@link io.kaas.domain.quota.WindowedRate}) and the throttle time a violation earns
 * ({@link io.kaas.domain.quota.QuotaSensor}). Pure and single-threaded: callers pass the time and serialize
 * access to a sensor.
 */
package io.kaas.domain.quota;
