package io.kaas.application.port.in;

import java.util.List;
import java.util.Map;

/**
 * DescribeClientQuotas: the quotas configured for client entities ({@code kafka-configs --describe
 * --entity-type users} asks it before the SCRAM credentials), with Apache's filter semantics.
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
}
