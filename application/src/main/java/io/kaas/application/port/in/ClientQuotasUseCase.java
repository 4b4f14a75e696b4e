package io.kaas.application.port.in;

import java.util.List;
import java.util.Map;

/**
 * DescribeClientQuotas and AlterClientQuotas (KIP-546): the quotas configured for client entities ({@code
 * kafka-configs --describe --entity-type users} asks before the SCRAM credentials), with Apache's filter semantics
 * and validation. Alterations write through the broker's user store: call {@link #alter} from an I/O thread.
 */
public interface ClientQuotasUseCase {

    /** Apache's entity types. */
    String USER = "user";
    String CLIENT_ID = "client-id";
    String IP = "ip";

    /** How a filter component matches an entity's name of its type. */
    enum MatchType {
        /** The name given. */
        EXACT,
        /** The type's default entity ({@code <default>}). */
        DEFAULT,
        /** Any entity that has this type. */
        SPECIFIED
    }

    /** One filter component; {@code match} is the name for EXACT and null otherwise. */
    record Component(String entityType, MatchType matchType, String match) {
    }

    /** A quota entity (entity type to name, a null name being the default entity) and its quota values. */
    record Entry(Map<String, String> entity, Map<String, Double> values) {
    }

    /** The matching entries, or why the filter is refused. */
    record Described(Outcome outcome, List<Entry> entries) {
    }

    /** @param strict only entities with exactly the filter's entity types match */
    Described describe(List<Component> filter, boolean strict);

    /** Sets a quota to {@code value}, or removes it when {@code value} is null. */
    record Op(String key, Double value) {
    }

    /** The ops for one entity (entity type to name, a null name being the default entity). */
    record Alteration(Map<String, String> entity, List<Op> ops) {
    }

    /** How one entity's alteration ended. */
    record Altered(Map<String, String> entity, Outcome outcome) {
    }

    /**
     * Applies each entity's ops, entity by entity: an entity with an invalid op keeps its quotas unchanged.
     *
     * @param validateOnly check and answer, but change nothing
     * @return one outcome per distinct entity, in first-seen order
     */
    List<Altered> alter(List<Alteration> alterations, boolean validateOnly);
}
