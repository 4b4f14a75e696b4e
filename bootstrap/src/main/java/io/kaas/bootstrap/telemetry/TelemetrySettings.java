package io.kaas.bootstrap.telemetry;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the broker's metrics go besides {@code /metrics} on the health port (always served): an
 * OTLP/HTTP (http/protobuf) push, configured by the standard OpenTelemetry variables.
 *
 * @param otlpMetricsEndpoint {@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT} as is, else {@code OTEL_EXPORTER_OTLP_ENDPOINT}
 *                            followed by {@code /v1/metrics}; none set, nothing is pushed
 * @param otlpHeaders         {@code OTEL_EXPORTER_OTLP_HEADERS}: {@code key=value} pairs, comma-separated, sent with
 *                            every push (e.g. a tenant or an authorization header)
 * @param exportIntervalMs    {@code KAAS_METRIC_EXPORT_INTERVAL}: how often metrics are pushed, a duration such as
 *                            {@code 30s}, {@code 1m} or {@code 500ms} (30s: a {@code rate()} over 1m sees two samples)
 * @param resourceAttributes  what every exported series is tagged with: {@code service.name} ({@code OTEL_SERVICE_NAME},
 *                            kaas), {@code service.version} ({@code OTEL_SERVICE_VERSION}), {@code kaas.broker.id},
 *                            {@code k8s.pod.name} ({@code MY_POD_NAME}), {@code k8s.namespace.name}
 *                            ({@code KAAS_NAMESPACE}, else {@code MY_POD_NAMESPACE}), and {@code OTEL_RESOURCE_ATTRIBUTES}
 * @param otlpTracesEndpoint  {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} as is, else {@code OTEL_EXPORTER_OTLP_ENDPOINT}
 *                            followed by {@code /v1/traces}; none set, no request is traced
 * @param traceSampleRatio    the share of requests traced, from {@code OTEL_TRACES_SAMPLER} and
 *                            {@code OTEL_TRACES_SAMPLER_ARG} (default {@code parentbased_traceidratio} at 0.01: the book's
 *                            0.1 costs more than issue 16's 2 % budget, docs/perf/2026-12-03-observability-4.md);
 *                            every request is a trace root, so the parent-based samplers sample as their root
 *                            sampler does
 * @param traceExportDelayMs  {@code OTEL_BSP_SCHEDULE_DELAY}: how long finished spans may wait before they are sent
 * @param partitionGauges     {@code KAAS_METRICS_PARTITION_GAUGES} ({@code true}, the default, or {@code false}): the
 *                            storage gauges per partition led here, else per topic (the sum of its partitions led
 *                            here), for brokers that lead so many partitions that two series each are too many
 */
public record TelemetrySettings(Optional<URI> otlpMetricsEndpoint, Map<String, String> otlpHeaders,
                                long exportIntervalMs, Map<String, String> resourceAttributes,
                                Optional<URI> otlpTracesEndpoint, double traceSampleRatio, long traceExportDelayMs,
                                boolean partitionGauges) {
    public static final long DEFAULT_EXPORT_INTERVAL_MS = 30_000;
    public static final double DEFAULT_TRACE_SAMPLE_RATIO = 0.01;
    /** The OpenTelemetry default for {@code OTEL_BSP_SCHEDULE_DELAY}. */
    public static final long DEFAULT_TRACE_EXPORT_DELAY_MS = 5_000;
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h)?");

    public TelemetrySettings {
        otlpHeaders = Map.copyOf(otlpHeaders);
        resourceAttributes = Map.copyOf(resourceAttributes);
    }

    /**
     * Reads the variables; a value that does not parse throws {@link IllegalArgumentException} with
     * what the variable accepts.
     */
    public static TelemetrySettings fromEnvironment(Map<String, String> env, int brokerId) {
        Optional<URI> endpoint = endpoint(env, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "/v1/metrics");
        Map<String, String> resource = new LinkedHashMap<>(pairs(env, "OTEL_RESOURCE_ATTRIBUTES"));
        resource.put("service.name", Optional.ofNullable(value(env, "OTEL_SERVICE_NAME")).orElse("kaas"));
        Optional.ofNullable(value(env, "OTEL_SERVICE_VERSION")).ifPresent(v -> resource.put("service.version", v));
        resource.put("kaas.broker.id", Integer.toString(brokerId));
        Optional.ofNullable(value(env, "MY_POD_NAME")).ifPresent(v -> resource.put("k8s.pod.name", v));
        Optional.ofNullable(value(env, "KAAS_NAMESPACE")).or(() -> Optional.ofNullable(value(env, "MY_POD_NAMESPACE")))
                .ifPresent(v -> resource.put("k8s.namespace.name", v));
        String interval = value(env, "KAAS_METRIC_EXPORT_INTERVAL");
        String spanDelay = value(env, "OTEL_BSP_SCHEDULE_DELAY");
        return new TelemetrySettings(endpoint, pairs(env, "OTEL_EXPORTER_OTLP_HEADERS"),
                interval == null ? DEFAULT_EXPORT_INTERVAL_MS : durationMs("KAAS_METRIC_EXPORT_INTERVAL", interval),
                resource, endpoint(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "/v1/traces"), sampleRatio(env),
                spanDelay == null ? DEFAULT_TRACE_EXPORT_DELAY_MS : durationMs("OTEL_BSP_SCHEDULE_DELAY", spanDelay),
                flag(env, "KAAS_METRICS_PARTITION_GAUGES", true));
    }

    private static boolean flag(Map<String, String> env, String variable, boolean unset) {
        String v = value(env, variable);
        if (v == null) {
            return unset;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(variable + "=" + v + ": expected true or false");
        };
    }

    /** The signal's own endpoint as is, else the base endpoint followed by the signal's path. */
    private static Optional<URI> endpoint(Map<String, String> env, String signalVariable, String signalPath) {
        return Optional.ofNullable(value(env, signalVariable))
                .or(() -> Optional.ofNullable(value(env, "OTEL_EXPORTER_OTLP_ENDPOINT"))
                        .map(base -> base.replaceAll("/+$", "") + signalPath))
                .map(TelemetrySettings::httpUri);
    }

    /**
     * The OpenTelemetry samplers that need no remote service. Kafka requests carry no trace context, so
     * each request's span is a root and {@code parentbased_X} samples as {@code X} does.
     */
    static double sampleRatio(Map<String, String> env) {
        String sampler = Optional.ofNullable(value(env, "OTEL_TRACES_SAMPLER")).orElse("parentbased_traceidratio")
                .toLowerCase(Locale.ROOT);
        return switch (sampler.replaceFirst("^parentbased_", "")) {
            case "always_on" -> 1.0;
            case "always_off" -> 0.0;
            case "traceidratio" -> {
                String arg = value(env, "OTEL_TRACES_SAMPLER_ARG");
                if (arg == null) {
                    yield DEFAULT_TRACE_SAMPLE_RATIO;
                }
                try {
                    double ratio = Double.parseDouble(arg);
                    if (ratio >= 0 && ratio <= 1) {
                        yield ratio;
                    }
                } catch (NumberFormatException e) {
                    // reported below
                }
                throw new IllegalArgumentException("OTEL_TRACES_SAMPLER_ARG=" + arg + ": expected a ratio from 0 to 1");
            }
            default -> throw new IllegalArgumentException("OTEL_TRACES_SAMPLER=" + sampler + ": expected always_on, "
                    + "always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio");
        };
    }

    /** {@code 500ms}, {@code 30s}, {@code 1m}, {@code 1h}; a bare number is milliseconds. */
    static long durationMs(String variable, String value) {
        Matcher m = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new IllegalArgumentException(variable + "=" + value + ": expected a positive duration such as 500ms, "
                    + "30s, 1m");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "s" -> amount * 1_000;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            default -> amount;
        };
    }

    private static URI httpUri(String value) {
        try {
            URI uri = URI.create(value);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException("OTEL_EXPORTER_OTLP_(METRICS_|TRACES_)ENDPOINT=" + value
                + ": expected an http(s) URL, e.g. http://otel-collector:4318");
    }

    /** The W3C-baggage-like lists the OTel variables use: {@code k1=v1,k2=v2}, values percent-decoded. */
    private static Map<String, String> pairs(Map<String, String> env, String variable) {
        String list = value(env, variable);
        Map<String, String> pairs = new LinkedHashMap<>();
        if (list == null) {
            return pairs;
        }
        for (String pair : list.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(variable + "=" + list + ": expected key=value pairs, comma-separated");
            }
            pairs.put(pair.substring(0, eq).trim(),
                    URLDecoder.decode(pair.substring(eq + 1).trim(), StandardCharsets.UTF_8));
        }
        return pairs;
    }

    private static String value(Map<String, String> env, String variable) {
        String v = env.get(variable);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
