package io.kaas.adapter.k8s;

import io.kaas.adapter.k8s.crd.KafkaTopic;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Which KafkaTopic a topic name belongs to. Two resources may declare one topic (one named for it, one through
 * {@code spec.topicName}); the first created owns it, so they never take turns reclaiming each other's directory, and
 * brokers serve the owner's declaration. A resource being deleted still claims its topic until it is gone.
 */
public final class TopicClaims {
    private static final Comparator<KafkaTopic> FIRST_CREATED = Comparator
            .comparing((KafkaTopic t) -> t.getMetadata().getCreationTimestamp(), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(t -> t.getMetadata().getName());

    private TopicClaims() {
    }

    /** The resource owning {@code topic} among {@code resources}. */
    public static Optional<KafkaTopic> owner(String topic, Collection<KafkaTopic> resources) {
        return resources.stream().filter(r -> TopicResourceNames.topicName(r).equals(topic)).min(FIRST_CREATED);
    }

    /** Every topic name some resource declares. */
    public static Set<String> claimed(Collection<KafkaTopic> resources) {
        Set<String> names = new HashSet<>();
        resources.forEach(r -> names.add(TopicResourceNames.topicName(r)));
        return names;
    }

    /** A {@code status.topicId}, empty when it is not a UUID (only the operator writes it). */
    public static Optional<UUID> parse(String topicId) {
        try {
            return Optional.of(UUID.fromString(topicId));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The topic ids the resources other than {@code self} were given. */
    public static Set<UUID> idsOfOthers(KafkaTopic self, Collection<KafkaTopic> resources) {
        Set<UUID> ids = new HashSet<>();
        for (KafkaTopic r : resources) {
            boolean same = r.getMetadata().getName().equals(self.getMetadata().getName());
            if (!same && r.getStatus() != null && r.getStatus().getTopicId() != null) {
                parse(r.getStatus().getTopicId()).ifPresent(ids::add);
            }
        }
        return ids;
    }
}
