package io.kaas.application.quota;

import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.port.in.ClientQuotasUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.ClientQuotaWriter;
import io.kaas.application.port.out.UserWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client quotas kaas keeps, in two places with one owner per entity: a lone named user's with the user in
 * {@code credentials.json} (where a cluster's operator writes them from the KafkaUser's {@code spec.quotas}), every
 * other entity's (client ids, default entities, (user, client-id) pairs) in {@code client-quotas.json}. Describe reads
 * the in-memory snapshots of both, never a file, and checks and matches its filter as Apache's ClientQuotasImage
 * does, messages included. Alter validates as Apache's ClientQuotaControlManager does and writes a named user through
 * the {@link UserWriter}, everything else through the {@link ClientQuotaWriter} (which refuses, in a cluster, what no
 * resource holds); IP entities ({@code connection_creation_rate}) go to the {@link ClientQuotaWriter} too.
 */
public final class ClientQuotaService implements ClientQuotasUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(ClientQuotaService.class);
    /** Apache's tolerance when it checks that an integral quota's value has no fraction. */
    private static final double EPSILON = 1e-6;

    private final CredentialCache credentials;
    private final UserWriter users;
    private final Supplier<StoredClientQuotas> stored;
    private final ClientQuotaWriter others;

    /**
     * @param stored the quotas of {@code client-quotas.json} as last read (a cheap snapshot read)
     * @param others where the quotas of entities other than a lone named user are written
     */
    public ClientQuotaService(CredentialCache credentials, UserWriter users, Supplier<StoredClientQuotas> stored,
                              ClientQuotaWriter others) {
        this.credentials = credentials;
        this.users = users;
        this.stored = stored;
        this.others = others;
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
        StoredClientQuotas current = stored.get();
        current.entities().forEach((quotaEntity, values) -> {
            Map<String, String> entity = wire(quotaEntity);
            if (matches(entity, exact, specified, strict)) {
                entries.add(new Entry(entity, values));
            }
        });
        current.ips().forEach((address, values) -> {
            Map<String, String> entity = Collections.singletonMap(IP, address.value());
            if (matches(entity, exact, specified, strict)) {
                entries.add(new Entry(entity, values));
            }
        });
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
        Map<String, UnaryOperator<UserQuotas>> userChanges = new LinkedHashMap<>();
        Map<QuotaEntity, UnaryOperator<Map<String, Double>>> otherChanges = new LinkedHashMap<>();
        Map<QuotaEntity.Name, UnaryOperator<Map<String, Double>>> ipChanges = new LinkedHashMap<>();
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
                outcome = route(entity, ops, userChanges, otherChanges, ipChanges);
            }
            outcomes.put(entity, outcome);
        }
        if (!validateOnly) {
            write("user(s) " + userChanges.keySet(), userChanges, users::alterQuotas,
                    userChanges.keySet().stream().map(user -> Map.of(USER, user)).toList(), outcomes);
            write("entities " + otherChanges.keySet(), otherChanges, others::alter,
                    otherChanges.keySet().stream().map(ClientQuotaService::wire).toList(), outcomes);
            write("IPs " + ipChanges.keySet(), ipChanges, others::alterIps,
                    ipChanges.keySet().stream().map(ip -> Collections.singletonMap(IP, ip.value())).toList(), outcomes);
        }
        List<Altered> altered = new ArrayList<>();
        outcomes.forEach((entity, outcome) -> altered.add(new Altered(entity, outcome)));
        return altered;
    }

    /** Queues a valid entity's change with the writer that holds it, or says why that writer cannot. */
    private Outcome route(Map<String, String> entity, Map<String, Double> ops,
                          Map<String, UnaryOperator<UserQuotas>> userChanges,
                          Map<QuotaEntity, UnaryOperator<Map<String, Double>>> otherChanges,
                          Map<QuotaEntity.Name, UnaryOperator<Map<String, Double>>> ipChanges) {
        if (entity.containsKey(IP)) {
            QuotaEntity.Name ip = QuotaEntity.Name.orDefault(entity.get(IP));
            Optional<String> refusal = others.ipRefusal(ip);
            if (refusal.isPresent()) {
                return invalid(refusal.get());
            }
            ipChanges.put(ip, values -> apply(values, ops));
            return Outcome.OK;
        }
        String user = entity.get(USER);
        boolean namedUser = entity.size() == 1 && user != null;
        QuotaEntity quotaEntity = new QuotaEntity(name(entity, USER), name(entity, CLIENT_ID));
        Optional<String> refusal = namedUser ? users.refusal(user) : others.refusal(quotaEntity);
        if (refusal.isPresent()) {
            return invalid(refusal.get());
        }
        if (namedUser) {
            userChanges.put(user, quotas -> UserQuotas.of(apply(quotas.values(), ops)));
        } else {
            otherChanges.put(quotaEntity, values -> apply(values, ops));
        }
        return Outcome.OK;
    }

    private static <K, C> void write(String what, Map<K, C> changes, Consumer<Map<K, C>> writer,
                                     List<Map<String, String>> entities, Map<Map<String, String>, Outcome> outcomes) {
        if (changes.isEmpty()) {
            return;
        }
        try {
            writer.accept(changes);
            LOG.info("quotas of {} altered", what);
        } catch (RuntimeException e) {
            LOG.warn("quotas of {} could not be written", what, e);
            Outcome failed = new Outcome(KafkaError.UNKNOWN_SERVER_ERROR, "the quotas could not be written: "
                    + e.getMessage());
            entities.forEach(entity -> outcomes.put(entity, failed));
        }
    }

    /** Apache 3.7's checks of an entity and its ops (ClientQuotaControlManager's); null when valid. */
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
        if (ip && !isValidIp(entity.get(IP))) {
            return invalid(entity.get(IP) + " is not a valid IP or resolvable host.");
        }
        Set<String> keys = ip ? Set.of(IpAddresses.CONNECTION_CREATION_RATE) : UserQuotas.KEYS;
        for (Map.Entry<String, Double> op : ops.entrySet()) {
            if (op.getValue() == null) {
                continue; // a removal is never checked, as in Apache
            }
            Outcome invalid = invalidValue(keys, op.getKey(), op.getValue());
            if (invalid != null) {
                return invalid;
            }
        }
        return null;
    }

    /** Apache's validateQuotaKeyValue: a known key, a positive value, integral within its type for LONG and INT. */
    private static Outcome invalidValue(Set<String> keys, String key, double value) {
        if (!keys.contains(key)) {
            return invalid("Invalid configuration key " + key);
        }
        if (value <= 0) {
            return invalid("Quota " + key + " must be greater than 0");
        }
        boolean isInt = key.equals(IpAddresses.CONNECTION_CREATION_RATE);
        if (!isInt && !UserQuotas.LONG_KEYS.contains(key)) {
            return null; // a DOUBLE
        }
        if (value > (isInt ? Integer.MAX_VALUE : Long.MAX_VALUE)) {
            return invalid("Proposed value for " + key + " is too large for " + (isInt ? "an INT." : "a LONG."));
        }
        return Math.abs(value % 1) > EPSILON ? invalid(key + " cannot be a fractional value.") : null;
    }

    /** Apache's isValidIpEntity: the default entity, an address literal or a name that resolves. */
    private static boolean isValidIp(String ip) {
        if (ip == null) {
            return true;
        }
        try {
            InetAddress.getByName(ip);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static Map<String, Double> apply(Map<String, Double> current, Map<String, Double> ops) {
        Map<String, Double> values = new LinkedHashMap<>(current);
        ops.forEach((key, value) -> {
            if (value == null) {
                values.remove(key);
            } else {
                values.put(key, value);
            }
        });
        return values;
    }

    private static QuotaEntity.Name name(Map<String, String> entity, String type) {
        return entity.containsKey(type) ? QuotaEntity.Name.orDefault(entity.get(type)) : null;
    }

    /** An entity as the wire names it: entity type to name, a null name being the default entity. */
    private static Map<String, String> wire(QuotaEntity entity) {
        Map<String, String> parts = new LinkedHashMap<>();
        if (entity.user() != null) {
            parts.put(USER, entity.user().value());
        }
        if (entity.clientId() != null) {
            parts.put(CLIENT_ID, entity.clientId().value());
        }
        return parts;
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
