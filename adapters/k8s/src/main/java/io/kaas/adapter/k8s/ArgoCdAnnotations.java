package io.kaas.adapter.k8s;

import io.kaas.adapter.k8s.crd.KafkaTopic;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * ArgoCD coexistence for the KafkaTopics brokers create (the book's {@code admin.argocd}): a topic created over the
 * Kafka protocol has no place in git, so without these an ArgoCD-managed cluster neither shows it nor leaves it alone.
 * The tracking id puts it in the Application's tree; {@code compare-options: IgnoreExtraneous} keeps it out of the diff
 * (no drift, no prune); {@code sync-options: Delete=false} keeps it when the Application is deleted.
 *
 * @param application    the ArgoCD Application the topics show up in (the chart's release name by default)
 * @param compareOptions the compare-options annotation's value; empty to leave it out
 * @param syncOptions    the sync-options annotation's value; empty to leave it out
 */
public record ArgoCdAnnotations(String application, String compareOptions, String syncOptions) {
    public static final String TRACKING_ID = "argocd.argoproj.io/tracking-id";
    public static final String COMPARE_OPTIONS = "argocd.argoproj.io/compare-options";
    public static final String SYNC_OPTIONS = "argocd.argoproj.io/sync-options";
    public static final String DEFAULT_COMPARE_OPTIONS = "IgnoreExtraneous";
    public static final String DEFAULT_SYNC_OPTIONS = "Delete=false";

    public ArgoCdAnnotations {
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(compareOptions, "compareOptions");
        Objects.requireNonNull(syncOptions, "syncOptions");
    }

    /** The annotations of the KafkaTopic {@code namespace/name}; the tracking id in ArgoCD's annotation format. */
    public Map<String, String> of(String namespace, String name) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(TRACKING_ID, application + ":" + KafkaTopic.GROUP + "/KafkaTopic:" + namespace + "/" + name);
        if (!compareOptions.isEmpty()) {
            annotations.put(COMPARE_OPTIONS, compareOptions);
        }
        if (!syncOptions.isEmpty()) {
            annotations.put(SYNC_OPTIONS, syncOptions);
        }
        return annotations;
    }
}
