package io.kaas.operator.model;

import io.kaas.adapter.k8s.crd.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** The Ready condition every kaas resource reports, replaced in a status's conditions. */
public final class ReadyCondition {
    public static final String TYPE = "Ready";

    private ReadyCondition() {
    }

    /**
     * {@code conditions} with Ready set as given. Its lastTransitionTime moves only when its status flips, as
     * Kubernetes' conditions do; other condition types are kept.
     */
    public static List<Condition> set(List<Condition> conditions, boolean ready, String reason, String message,
                                      Long generation, Instant now) {
        List<Condition> next = new ArrayList<>();
        Condition previous = null;
        if (conditions != null) {
            for (Condition condition : conditions) {
                if (TYPE.equals(condition.getType())) {
                    previous = condition;
                } else {
                    next.add(condition);
                }
            }
        }
        String status = ready ? "True" : "False";
        Condition condition = new Condition();
        condition.setType(TYPE);
        condition.setStatus(status);
        condition.setReason(reason);
        condition.setMessage(message);
        condition.setObservedGeneration(generation);
        condition.setLastTransitionTime(previous != null && status.equals(previous.getStatus())
                && previous.getLastTransitionTime() != null
                ? previous.getLastTransitionTime() : now.truncatedTo(ChronoUnit.SECONDS).toString());
        next.add(condition);
        return next;
    }

    /** The Ready condition among {@code conditions}, or null. */
    public static Condition of(List<Condition> conditions) {
        return conditions == null ? null
                : conditions.stream().filter(c -> TYPE.equals(c.getType())).findFirst().orElse(null);
    }
}
