package io.kaas.application.quota;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.MutationQuota;
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
    private final ControllerMutationQuotas controllerMutation;
    private final ConnectionCreationQuotas connectionCreation;
    private final BrokerMetrics metrics;

    /**
     * @param limits           the quotas configured now: read on every request, so it must be a cheap snapshot read
     * @param window           how client rates are measured ({@code quota.window.num}, {@code .size.seconds})
     * @param controllerWindow how the controller mutation rate is ({@code controller.quota.window.*})
     */
    public ClientQuotaEnforcer(Supplier<ClientQuotaLimits> limits, QuotaWindow window, QuotaWindow controllerWindow,
                               Clock clock, BrokerMetrics metrics) {
        this.produce = new ClientQuotaManager(QuotaType.PRODUCE, () -> limits.get().produce(), window, clock);
        this.fetch = new ClientQuotaManager(QuotaType.FETCH, () -> limits.get().fetch(), window, clock);
        this.request = new ClientQuotaManager(QuotaType.REQUEST, () -> limits.get().request(), window, clock);
        this.controllerMutation = new ControllerMutationQuotas(() -> limits.get().controllerMutation(),
                controllerWindow, clock, metrics.throttleTime(QuotaType.CONTROLLER_MUTATION)::record);
        this.connectionCreation = new ConnectionCreationQuotas(() -> limits.get().connections(), window, clock,
                metrics.throttleTime(QuotaType.CONNECTION_CREATION)::record);
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

    @Override
    public MutationQuota controllerMutation(String user, String clientId, boolean strict) {
        return controllerMutation.forRequest(user, clientId, strict);
    }

    @Override
    public int connectionCreation(String ip) {
        return connectionCreation.recordAndThrottleMs(ip);
    }

    private int counted(ClientQuotaManager manager, int throttleMs) {
        if (throttleMs > 0) {
            metrics.throttleTime(manager.type()).record(throttleMs);
        }
        return throttleMs;
    }
}
