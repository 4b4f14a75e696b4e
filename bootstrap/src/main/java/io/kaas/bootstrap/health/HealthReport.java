package io.kaas.bootstrap.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code /healthz} tells and {@code /readyz} decides, read afresh on every probe.
 *
 * @param role              {@code standalone} (cluster roles come with cluster mode)
 * @param controllerEpoch   the controller epoch of the assignment served; 0 standalone
 * @param assignmentKnown   the broker serves an assignment (always, standalone); in a cluster, not before the first
 * @param partitionsLed     partition logs open here
 * @param partitionsAssigned partitions this broker should lead
 * @param mainLoopTickAgeMs how long ago the most behind network event loop last ran its tick
 * @param listenersBound    the Kafka listener accepts connections
 */
public record HealthReport(String role, int brokerId, int controllerId, long controllerEpoch, boolean assignmentKnown,
                           int partitionsLed,
                           int partitionsAssigned, long mainLoopTickAgeMs, boolean listenersBound) {

    /** An event loop that has not ticked for this long is wedged: the broker is neither live nor ready. */
    public static final long WEDGED_AFTER_MS = 3_000;

    /** Why the broker should not get traffic now; empty when ready. */
    public List<String> notReady() {
        List<String> reasons = new ArrayList<>();
        if (!assignmentKnown) {
            reasons.add("no assignment from the controller yet");
        }
        if (!listenersBound) {
            reasons.add("the Kafka listener is not bound");
        }
        if (wedged()) {
            reasons.add("a network event loop has not run for " + mainLoopTickAgeMs + " ms");
        }
        if (partitionsLed < partitionsAssigned) {
            reasons.add((partitionsAssigned - partitionsLed) + " assigned partitions are not open yet");
        }
        return reasons;
    }

    /** The report as {@code /healthz} shows it, in the book's field names. */
    public Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("role", role);
        fields.put("broker_id", brokerId);
        fields.put("is_controller", controllerId == brokerId);
        fields.put("controller_id", controllerId);
        fields.put("controller_epoch", controllerEpoch);
        fields.put("assignment_known", assignmentKnown);
        fields.put("partitions_led", partitionsLed);
        fields.put("partitions_assigned", partitionsAssigned);
        fields.put("main_loop_tick_age_ms", mainLoopTickAgeMs);
        fields.put("listeners_bound", listenersBound);
        fields.put("ready", notReady().isEmpty());
        return fields;
    }

    /** The network runtime stopped running: a liveness failure, not just unreadiness. */
    public boolean wedged() {
        return mainLoopTickAgeMs > WEDGED_AFTER_MS;
    }
}
