package io.kaas.application.quota;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.application.port.out.Clock;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.quota.QuotaWindow;
import java.util.function.Supplier;

/**
 * The broker's quota managers, one per quota type, over one snapshot of the configured quotas; every throttle
 * they hand out is counted in {@link BrokerMetrics#throttleTime}.
 */
public final class ClientQuotaEnforcer implements QuotaEnforcement {
    /** Apache's ClientRequestQuotaManager: a request's thread time, in percent of one second. */
    private static final double NANOS_TO_PERCENT = 100.0 / 1_000_000_000L;

    private final ClientQuotaManager produce;
    private final ClientQuotaManager fetch;
    private final ClientQuotaManager request;
    private final BrokerMetrics metrics;

    /** @param limits the quotas configured now: read on every request, so it must be a cheap snapshot read */
    public ClientQuotaEnforcer(Supplier<ClientQuotaLimits> limits, QuotaWindow window, Clock clock,
                               BrokerMetrics metrics) {
        this.produce = new ClientQuotaManager(QuotaType.PRODUCE, () -> limits.get().produce(), window, clock);
        this.fetch = new ClientQuotaManager(QuotaType.FETCH, () -> limits.get().fetch(), window, clock);
        this.request = new ClientQuotaManager(QuotaType.REQUEST, () -> limits.get().request(), window, clock);
        this.metrics = metrics;
    }

    @Override
    public int produce(String user, String clientId, long requestBytes) {
        return counted(produce, produce.recordAndThrottleMs(user, clientId, requestBytes));
    }

    @Override
    public int fetchMaxBytes(String user, String clientId) {
        return fetch.maxValueInWindow(user, clientId);
    }

    @Override
    public int fetch(String user, String clientId, long responseBytes) {
        int throttleMs = fetch.recordAndThrottleMs(user, clientId, responseBytes);
        if (throttleMs > 0) {
            fetch.unrecord(user, clientId, responseBytes);
        }
        return counted(fetch, throttleMs);
    }

    @Override
    public int request(String user, String clientId, long handlerNanos) {
        return counted(request, request.recordAndThrottleMs(user, clientId, handlerNanos * NANOS_TO_PERCENT));
    }

    private int counted(ClientQuotaManager manager, int throttleMs) {
        if (throttleMs > 0) {
            metrics.throttleTime(manager.type()).record(throttleMs);
        }
        return throttleMs;
    }
}
