package io.kaas.application.quota;

import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.port.in.ClientQuotasUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.UserWriter;
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
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quotas {@code credentials.json} holds: per named user, Apache's user-entity keys. Describe reads the cached
 * credentials, never the file, and checks and matches its filter as Apache's ClientQuotasImage does, messages included.
 * Alter validates as Apache's ClientQuotaControlManager does and writes through a {@link UserWriter}: the file in
 * standalone, the users' KafkaUser {@code spec.quotas} in a cluster (in effect once the operator rewrote the file and
 * the brokers reloaded it). Entities kaas has nowhere to keep (client ids, default users, IPs) pass Apache's checks
 * and are then refused with INVALID_REQUEST and a message that says so.
 */
public final class ClientQuotaService implements ClientQuotasUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(ClientQuotaService.class);
    /** Apache's QuotaConfigs.ipConfigs: the one key an IP entity takes. */
    private static final String CONNECTION_CREATION_RATE = "connection_creation_rate";
    /** Apache's tolerance when it checks that a LONG quota's value is integral. */
    private static final double EPSILON = 1e-6;

    private final CredentialCache credentials;
    private final UserWriter writer;

    public ClientQuotaService(CredentialCache credentials, UserWriter writer) {
        this.credentials = credentials;
        this.writer = writer;
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
                entries.add(new Entry(entity, user.quotas().values()));
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

    @Override
    public List<Altered> alter(List<Alteration> alterations, boolean validateOnly) {
        Map<Map<String, String>, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, UnaryOperator<UserQuotas>> changes = new LinkedHashMap<>();
        for (Alteration alteration : alterations) {
            Map<String, String> entity = alteration.entity();
            Map<String, Double> ops = new LinkedHashMap<>();
            Outcome outcome = null;
            for (Op op : alteration.ops()) {
                if (ops.containsKey(op.key())) {
                    outcome = invalid("Duplicate quota key " + op.key() + " not updating quota for this entity "
                            + describe(entity));
                }
                ops.put(op.key(), op.value());
            }
            if (outcomes.containsKey(entity)) {
                outcome = invalid("Ignoring duplicate entity " + describe(entity));
            }
            if (outcome == null) {
                outcome = validate(entity, ops);
            }
            if (outcome == null) {
                String user = entity.get(USER);
                outcome = writer.refusal(user).map(ClientQuotaService::invalid).orElse(Outcome.OK);
                if (outcome.succeeded()) {
                    changes.put(user, quotas -> apply(quotas, ops));
                }
            }
            outcomes.put(entity, outcome);
        }
        if (!validateOnly && !changes.isEmpty()) {
            write(changes, outcomes);
        }
        List<Altered> altered = new ArrayList<>();
        outcomes.forEach((entity, outcome) -> altered.add(new Altered(entity, outcome)));
        return altered;
    }

    private void write(Map<String, UnaryOperator<UserQuotas>> changes, Map<Map<String, String>, Outcome> outcomes) {
        try {
            writer.alterQuotas(changes);
            LOG.info("quotas of user(s) {} altered", changes.keySet());
        } catch (RuntimeException e) {
            LOG.warn("quotas of user(s) {} could not be written", changes.keySet(), e);
            Outcome failed = new Outcome(KafkaError.UNKNOWN_SERVER_ERROR, "the quotas could not be written: "
                    + e.getMessage());
            changes.keySet().forEach(user -> outcomes.put(Map.of(USER, user), failed));
        }
    }

    /** Apache's checks of an entity and its ops, then what kaas can store: a named user's quotas; null when valid. */
    private static Outcome validate(Map<String, String> entity, Map<String, Double> ops) {
        if (entity.isEmpty()) {
            return invalid("Invalid empty client quota entity");
        }
        for (Map.Entry<String, String> part : entity.entrySet()) {
            if (!part.getKey().equals(USER) && !part.getKey().equals(CLIENT_ID) && !part.getKey().equals(IP)) {
                return invalid("Unhandled client quota entity type: " + part.getKey());
            }
            if (part.getValue() != null && part.getValue().isEmpty()) {
                return invalid("Empty " + part.getKey() + " not supported");
            }
        }
        boolean ip = entity.containsKey(IP);
        if (ip && entity.size() > 1) {
            return invalid("Invalid empty client quota entity");
        }
        Set<String> keys = ip ? Set.of(CONNECTION_CREATION_RATE) : UserQuotas.KEYS;
        for (Map.Entry<String, Double> op : ops.entrySet()) {
            if (op.getValue() == null) {
                continue; // a removal is never checked, as in Apache
            }
            if (!keys.contains(op.getKey())) {
                return invalid("Invalid configuration key " + op.getKey());
            }
            if (UserQuotas.LONG_KEYS.contains(op.getKey()) && !integral(op.getValue())) {
                return invalid("Configuration " + op.getKey() + " must be a Long value");
            }
        }
        if (entity.size() != 1 || !entity.containsKey(USER) || entity.get(USER) == null) {
            return invalid("kaas keeps quotas for named users only (credentials.json, a KafkaUser's spec.quotas), "
                    + "not for " + describe(entity));
        }
        return null;
    }

    private static boolean integral(double value) {
        long rounded = (long) (value + EPSILON);
        return Math.abs(rounded - value) <= EPSILON;
    }

    private static UserQuotas apply(UserQuotas quotas, Map<String, Double> ops) {
        Map<String, Double> values = new LinkedHashMap<>(quotas.values());
        ops.forEach((key, value) -> {
            if (value == null) {
                values.remove(key);
            } else {
                values.put(key, value);
            }
        });
        return UserQuotas.of(values);
    }

    /** An entity as Apache's ClientQuotaEntity prints itself in messages. */
    private static String describe(Map<String, String> entity) {
        return "ClientQuotaEntity(entries=" + entity + ")";
    }

    private static Outcome invalid(String message) {
        return new Outcome(KafkaError.INVALID_REQUEST, message);
    }

    private static Described refused(KafkaError error, String message) {
        return new Described(new Outcome(error, message), List.of());
    }
}
