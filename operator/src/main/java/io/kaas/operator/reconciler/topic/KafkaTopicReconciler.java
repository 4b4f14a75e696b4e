package io.kaas.operator.reconciler.topic;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kaas.adapter.k8s.TopicClaims;
import io.kaas.adapter.k8s.TopicResourceNames;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicStatus;
import io.kaas.adapter.k8s.crd.TopicReadyReasons;
import io.kaas.domain.topic.TopicIds;
import io.kaas.operator.model.DesiredTopic;
import io.kaas.operator.reconciler.StatusWriter;
import io.kaas.operator.model.PoolVolume;
import io.kaas.operator.model.ReadyCondition;
import io.kaas.operator.model.Refusal;
import io.kaas.operator.reconciler.topic.TopicMaterializer.Materialized;
import io.kaas.operator.reconciler.topic.TopicMaterializer.Outcome;
import io.kaas.operator.reconciler.topic.TopicMaterializer.Refused;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materialises KafkaTopic resources on the shared volume (see {@link TopicMaterializer}) and reports the outcome as
 * their status: the topic id, Ready with the generation it describes, the partitions' volumes.
 *
 * <p>The topic id is minted on the first reconcile and stored in {@code status.topicId} before anything is written to
 * the volume, so every stamp on the volume names an id some KafkaTopic holds or held: a stamp no live KafkaTopic holds
 * is a previous incarnation's. No finalizer: a resource being deleted is left alone, and the {@link OrphanTopicSweep}
 * reclaims its directory once it is gone. Reconciled again every five minutes, which repairs what others removed.
 */
@ControllerConfiguration(name = KafkaTopicReconciler.NAME,
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 300, timeUnit = TimeUnit.SECONDS))
public final class KafkaTopicReconciler implements Reconciler<KafkaTopic> {
    public static final String NAME = "kafkatopic";
    static final String MATERIALIZED = TopicReadyReasons.MATERIALIZED;
    static final String MATERIALIZE_FAILED = TopicReadyReasons.MATERIALIZE_FAILED;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicReconciler.class);

    private final TopicMaterializer materializer;
    private final TopicLocks locks;
    private final List<PoolVolume> pool;
    private final Clock clock;
    private final Supplier<UUID> randomIds;

    /**
     * @param locks     shared with the orphan sweep
     * @param pool      the volume pool the operator mounts
     * @param clock     for the conditions' lastTransitionTime
     * @param randomIds v4 UUIDs to mint topic ids from
     */
    public KafkaTopicReconciler(TopicMaterializer materializer, TopicLocks locks, List<PoolVolume> pool, Clock clock,
                                Supplier<UUID> randomIds) {
        this.materializer = materializer;
        this.locks = locks;
        this.pool = List.copyOf(pool);
        this.clock = clock;
        this.randomIds = randomIds;
    }

    @Override
    public UpdateControl<KafkaTopic> reconcile(KafkaTopic resource, Context<KafkaTopic> context) {
        if (resource.isMarkedForDeletion()) {
            return UpdateControl.noUpdate(); // no finalizer of ours; the sweep reclaims the directory once it is gone
        }
        StatusWriter writer = new StatusWriter(context.getClient());
        DesiredTopic.Check check = DesiredTopic.of(resource, pool);
        if (check instanceof DesiredTopic.Invalid invalid) {
            return refuse(writer, resource, invalid.refusal());
        }
        DesiredTopic desired = ((DesiredTopic.Valid) check).topic();
        List<KafkaTopic> all = context.getPrimaryCache().list().toList();
        Optional<KafkaTopic> owner = TopicClaims.owner(desired.name(), all);
        if (owner.isPresent() && !owner.get().getMetadata().getName().equals(resource.getMetadata().getName())) {
            return refuse(writer, resource, new Refusal(Refusal.TOPIC_NAME_CONFLICT, "topic '" + desired.name()
                    + "' is declared by KafkaTopic " + owner.get().getMetadata().getName() + ", created first"));
        }
        KafkaTopic current = withTopicId(writer, resource);
        UUID topicId = UUID.fromString(current.getStatus().getTopicId());
        Set<UUID> otherIds = TopicClaims.idsOfOthers(resource, all);
        Outcome outcome = locks.withLock(desired.name(), () -> materializer.materialize(desired, topicId, otherIds));
        if (outcome instanceof Refused refused) {
            return refuse(writer, current, refused.refusal());
        }
        Materialized done = (Materialized) outcome;
        KafkaTopicStatus status = copy(current.getStatus());
        status.setVolumeAssignments(done.placement().assignments());
        status.setPartitionsOutsideSpec(done.placement().partitionsOutsideSpec());
        status.setConditions(ReadyCondition.set(status.getConditions(), true, MATERIALIZED, "topic '" + desired.name()
                + "' has " + done.topic().partitionCount() + " partitions and " + done.topic().configs().size()
                + " config overrides on the volume", generation(resource), clock.instant()));
        writer.write(current, status);
        return UpdateControl.noUpdate(); // the status is written, conditionally, above
    }

    /**
     * Ready=False with the failure, when the API server takes it; a conflict means a newer view exists, and the
     * retry that follows reports on that one.
     */
    @Override
    public ErrorStatusUpdateControl<KafkaTopic> updateErrorStatus(KafkaTopic resource, Context<KafkaTopic> context,
                                                                  Exception e) {
        LOG.warn("KafkaTopic {}/{}: reconcile failed; retrying", resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(), e);
        KafkaTopicStatus status = copy(resource.getStatus());
        status.setConditions(ReadyCondition.set(status.getConditions(), false, MATERIALIZE_FAILED, String.valueOf(
                e.getMessage()), generation(resource), clock.instant()));
        try {
            new StatusWriter(context.getClient()).write(resource, status);
        } catch (KubernetesClientException writeFailed) {
            LOG.debug("KafkaTopic {}: the failure could not be reported", resource.getMetadata().getName(), writeFailed);
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    /** {@code resource} with a topic id stored in its status: its own, or one minted now. */
    private KafkaTopic withTopicId(StatusWriter writer, KafkaTopic resource) {
        if (resource.getStatus() != null && resource.getStatus().getTopicId() != null) {
            return resource;
        }
        UUID id;
        do {
            id = randomIds.get();
        } while (!TopicIds.isUsable(id));
        KafkaTopicStatus status = copy(resource.getStatus());
        status.setTopicId(id.toString());
        KafkaTopic stored = writer.write(resource, status);
        LOG.info("KafkaTopic {}/{}: topic '{}' is given id {}", resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(), TopicResourceNames.topicName(resource), id);
        return stored;
    }

    private UpdateControl<KafkaTopic> refuse(StatusWriter writer, KafkaTopic resource, Refusal refusal) {
        LOG.info("KafkaTopic {}/{} refused ({}): {}", resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(), refusal.reason(), refusal.message());
        KafkaTopicStatus status = copy(resource.getStatus());
        status.setConditions(ReadyCondition.set(status.getConditions(), false, refusal.reason(), refusal.message(),
                generation(resource), clock.instant()));
        writer.write(resource, status);
        return UpdateControl.noUpdate();
    }

    private static Long generation(KafkaTopic resource) {
        return resource.getMetadata().getGeneration();
    }

    private static KafkaTopicStatus copy(KafkaTopicStatus status) {
        KafkaTopicStatus copy = new KafkaTopicStatus();
        if (status != null) {
            copy.setTopicId(status.getTopicId());
            copy.setConditions(status.getConditions());
            copy.setVolumeAssignments(status.getVolumeAssignments() == null ? null : Map.copyOf(status.getVolumeAssignments()));
            copy.setPartitionsOutsideSpec(status.getPartitionsOutsideSpec());
        }
        return copy;
    }
}
