package io.kaas.application.quota;

import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.port.in.ClientQuotasUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Describes the quotas {@code credentials.json} holds: per-user ones (the operator writes them from
 * KafkaUser {@code spec.quotas}). The filter is checked and matched as Apache's ClientQuotasImage
 * does it, messages included. Read from the cached credentials, never the file.
 */
public final class ClientQuotaService implements ClientQuotasUseCase {
    private final CredentialCache credentials;

    public ClientQuotaService(CredentialCache credentials) {
        this.credentials = credentials;
    }

    @Override
    public Described describe(List<Component> filter, boolean strict) {
        Map<String, String> exact = new HashMap<>();
        Set<String> specified = new HashSet<>();
        for (Component component : filter) {
            String type = component.entityType();
            if (type == null || type.isEmpty()) {
                return refused(KafkaError.INVALID_REQUEST, "Invalid empty entity type.");
            }
            if (exact.containsKey(type) || specified.contains(type)) {
                return refused(KafkaError.INVALID_REQUEST, "Entity type " + type + " cannot appear more than once in the filter.");
            }
            if (!type.equals(USER) && !type.equals(CLIENT_ID) && !type.equals(IP)) {
                return refused(KafkaError.UNSUPPORTED_VERSION, "Unsupported entity type " + type);
            }
            switch (component.matchType()) {
                case EXACT -> {
                    if (component.match() == null) {
                        return refused(KafkaError.INVALID_REQUEST,
                                "Request specified MATCH_TYPE_EXACT, but set match string to null.");
                    }
                    exact.put(type, component.match());
                }
                case DEFAULT -> {
                    if (component.match() != null) {
                        return refused(KafkaError.INVALID_REQUEST,
                                "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
                    }
                    exact.put(type, null);
                }
                case SPECIFIED -> {
                    if (component.match() != null) {
                        return refused(KafkaError.INVALID_REQUEST,
                                "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.");
                    }
                    specified.add(type);
                }
            }
        }
        boolean ip = exact.containsKey(IP) || specified.contains(IP);
        boolean userOrClient = exact.containsKey(USER) || specified.contains(USER) || exact.containsKey(CLIENT_ID)
                || specified.contains(CLIENT_ID);
        if (ip && userOrClient) {
            return refused(KafkaError.INVALID_REQUEST, "Invalid entity filter component combination. IP filter component "
                    + "should not be used with user or clientId filter component.");
        }
        List<Entry> entries = new ArrayList<>();
        for (StoredUser user : credentials.current().users().values()) {
            if (user.quotas().isEmpty()) {
                continue;
            }
            Map<String, String> entity = Map.of(USER, user.name());
            if (matches(entity, exact, specified, strict)) {
                entries.add(new Entry(entity, values(user.quotas())));
            }
        }
        return new Described(Outcome.OK, entries);
    }

    private static boolean matches(Map<String, String> entity, Map<String, String> exact, Set<String> specified,
                                   boolean strict) {
        if (strict && entity.size() != exact.size() + specified.size()) {
            return false;
        }
        for (Map.Entry<String, String> e : exact.entrySet()) {
            if (!entity.containsKey(e.getKey()) || !Objects.equals(entity.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        return entity.keySet().containsAll(specified);
    }

    /** Apache's quota config names and values (doubles on the wire). */
    private static Map<String, Double> values(UserQuotas quotas) {
        Map<String, Double> values = new LinkedHashMap<>();
        if (quotas.producerByteRate() != null) {
            values.put("producer_byte_rate", quotas.producerByteRate().doubleValue());
        }
        if (quotas.consumerByteRate() != null) {
            values.put("consumer_byte_rate", quotas.consumerByteRate().doubleValue());
        }
        if (quotas.requestPercentage() != null) {
            values.put("request_percentage", quotas.requestPercentage());
        }
        return values;
    }

    private static Described refused(KafkaError error, String message) {
        return new Described(new Outcome(error, message), List.of());
    }
}
