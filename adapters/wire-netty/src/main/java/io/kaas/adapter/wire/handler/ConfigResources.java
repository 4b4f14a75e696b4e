package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ConfigMapping;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What AlterConfigs and IncrementalAlterConfigs share: both alter resource by resource and refuse,
 * as Apache does, a resource named twice (INVALID_REQUEST, "Each resource must appear at most
 * once.") and one of an unknown type, then one the principal may not alter, before the use case sees any.
 */
final class ConfigResources {
    static final String DUPLICATE = "Each resource must appear at most once.";

    private ConfigResources() {
    }

    /**
     * Each resource's outcome, in request order: the checks above, else what {@code alter} makes
     * of the resource and its target.
     */
    static <R> List<Outcome> alterEach(List<R> resources, Function<R, Byte> type, Function<R, String> name,
                                       Function<ConfigUseCase.Resource, KafkaError> refusal,
                                       BiFunction<R, ConfigUseCase.Resource, Outcome> alter) {
        Set<Integer> duplicated = duplicated(resources, type, name);
        List<Outcome> outcomes = new ArrayList<>(resources.size());
        for (int i = 0; i < resources.size(); i++) {
            R resource = resources.get(i);
            ConfigUseCase.Resource target = ConfigMapping.resource(type.apply(resource), name.apply(resource));
            if (duplicated.contains(i)) {
                outcomes.add(new Outcome(KafkaError.INVALID_REQUEST, DUPLICATE));
            } else if (target.type() == ConfigResourceType.UNKNOWN) {
                outcomes.add(new Outcome(KafkaError.INVALID_REQUEST, "Unknown resource type " + type.apply(resource)));
            } else if (refusal.apply(target) != null) {
                outcomes.add(new Outcome(refusal.apply(target), null));
            } else {
                outcomes.add(alter.apply(resource, target));
            }
        }
        return outcomes;
    }

    /**
     * Why the principal may not do {@code operation} on a resource's configs, null if it may. As Apache: a
     * topic's configs need it on the topic (else TOPIC_AUTHORIZATION_FAILED), the others' on the cluster (else
     * CLUSTER_AUTHORIZATION_FAILED).
     */
    static KafkaError refusal(Access access, RequestContext context, ConfigUseCase.Resource target,
                              AclOperation operation) {
        if (target.type() == ConfigResourceType.TOPIC) {
            return access.topic(context, operation, target.name()) ? null : KafkaError.TOPIC_AUTHORIZATION_FAILED;
        }
        return access.cluster(context, operation) ? null : KafkaError.CLUSTER_AUTHORIZATION_FAILED;
    }

    /** The positions (in {@code resources}) of resources whose type and name appear more than once. */
    private static <R> Set<Integer> duplicated(List<R> resources, Function<R, Byte> type, Function<R, String> name) {
        Map<String, Integer> first = new HashMap<>();
        Set<Integer> twice = new HashSet<>();
        for (int i = 0; i < resources.size(); i++) {
            R r = resources.get(i);
            Integer earlier = first.putIfAbsent(type.apply(r) + "/" + name.apply(r), i);
            if (earlier != null) {
                twice.add(earlier);
                twice.add(i);
            }
        }
        return twice;
    }
}
