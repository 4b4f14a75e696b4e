package io.kaas.adapter.k8s.crd;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Kafka topic declared as a Kubernetes resource ({@code kaas.rs/v1alpha1}, short name {@code kt}). The operator
 * materialises it on the shared volume: the partition directories, {@code .config.json} and the incarnation stamp
 * {@code .topic-id.json}; brokers read those files. No finalizer: deleting the resource never waits for the operator,
 * whose orphan sweep reclaims the directory afterwards.
 */
@Group(KafkaTopic.GROUP)
@Version(KafkaTopic.VERSION)
@ShortNames("kt")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Topic ID", jsonPath = ".status.topicId", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Reason", jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Outside Spec", jsonPath = ".status.partitionsOutsideSpec",
        type = AdditionalPrinterColumn.Type.INTEGER, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class KafkaTopic extends CustomResource<KafkaTopicSpec, KafkaTopicStatus> implements Namespaced {
    /** The API group of every kaas resource. */
    public static final String GROUP = "kaas.rs";
    /** Their API version. */
    public static final String VERSION = "v1alpha1";
    /**
     * Asks the brokers to move the topic's partitions to the named pool volume, one partition at a time; removed by
     * hand once {@code status.volumeAssignments} shows the move done.
     */
    public static final String MIGRATE_TO_VOLUME_ANNOTATION = GROUP + "/migrate-to-volume";
}
