package io.kaas.application.port.in;

/**
 * Where request traces go. The adapter decides, when a request arrives, whether it is sampled; an
 * unsampled request gets {@link TraceSpan#NONE}, whose every method does nothing and allocates
 * nothing, so the hot path pays one sampling decision per request and nothing per record.
 */
public interface Tracer {
    /** Traces nothing: for wiring without tracing (tests, tools, no exporter configured). */
    Tracer NONE = (api, apiVersion, clientId, requestBytes) -> TraceSpan.NONE;

    /**
     * The root span of one request, or {@link TraceSpan#NONE} when it is not sampled. Kafka clients
     * send no trace context, so every request starts a trace of its own, on the broker.
     *
     * @param api          the API as Apache names it ({@code Produce}, {@code Fetch}...): the span's name
     * @param requestBytes the request frame's size
     */
    TraceSpan startRequest(String api, int apiVersion, String clientId, int requestBytes);
}
