package io.kaas.adapter.fs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code KAAS_VOLUME_POOL}: the volume pool as the Helm chart hands it to every broker and to the operator, a JSON
 * array with one object per {@code storage.pool} member besides the data volume:
 * {@code [{"name":"bulk","path":"/vols/bulk","defaultEligible":true,"cordoned":false,"labels":{"class":"standard"}}]}.
 * Brokers need each member's name and path (a log dir each); the operator also places partitions by the rest.
 * Strict: an unknown attribute is refused rather than ignored, so a misspelt {@code cordoned} cannot go unnoticed.
 */
public final class VolumePoolSetting {
    public static final String VARIABLE = "KAAS_VOLUME_POOL";
    private static final String RESERVED = "default";
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private VolumePoolSetting() {
    }

    /**
     * One member.
     *
     * @param name            a DNS label, never {@code default} (the data volume's name)
     * @param path            where it is mounted (the chart: {@code /vols/<name>})
     * @param defaultEligible whether topics without a {@code spec.storage} binding may land on it (absent: false, so a
     *                        member is reserved until said otherwise)
     * @param labels          what a topic's {@code volumeSelector} matches
     * @param cordoned        accepts no new partitions; those it holds keep serving
     */
    public record Member(String name, String path, boolean defaultEligible, Map<String, String> labels,
                         boolean cordoned) {
        public Member {
            labels = labels == null ? Map.of() : Map.copyOf(labels);
        }
    }

    /** The members in the order given; blank means none. Throws with every problem found. */
    public static List<Member> parse(String json) {
        if (json == null || json.isBlank()) {
            return List.of();
        }
        Member[] members;
        try {
            members = MAPPER.readValue(json, Member[].class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(VARIABLE + " is not a JSON array of pool members: "
                    + e.getOriginalMessage());
        }
        if (members == null) {
            throw new IllegalArgumentException(VARIABLE + " is null, not a JSON array of pool members");
        }
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Member member : members) {
            if (member == null || member.name() == null || !NAME.matcher(member.name()).matches()) {
                problems.add("member name " + (member == null ? null : member.name())
                        + " must be a DNS label (a-z, 0-9, '-')");
            } else if (member.name().equals(RESERVED)) {
                problems.add("'default' is the data volume's name; it is always a member and is not listed");
            } else if (!names.add(member.name())) {
                problems.add("member '" + member.name() + "' is listed twice");
            } else if (member.path() == null || !member.path().startsWith("/")) {
                problems.add("member '" + member.name() + "' needs an absolute path, not " + member.path());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(VARIABLE + ": " + String.join("; ", problems));
        }
        return List.of(members);
    }
}
