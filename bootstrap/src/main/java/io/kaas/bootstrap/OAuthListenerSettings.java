package io.kaas.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.domain.security.oauth.JwtPolicy;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An {@code oauth} listener's {@code authentication} object, in Strimzi's KafkaListenerAuthenticationOAuth
 * field names (docs/security-tls.md): where the issuer's keys are, what a token must say, how often the keys
 * are fetched again.
 *
 * @param jwksEndpoint        {@code jwksEndpointUri}: the issuer's JWKS, over http or https
 * @param policy              {@code validIssuerUri}, {@code checkAudience}/{@code clientId} or {@code audience},
 *                            {@code userNameClaim}, {@code fallbackUserNameClaim}, {@code clockSkewSeconds}
 * @param jwksRefresh         {@code jwksRefreshSeconds} (300)
 * @param jwksMinRefreshPause {@code jwksMinRefreshPauseSeconds} (1): the least time between two fetches an
 *                            unknown key id triggers
 * @param maxReauth           {@code maxSecondsWithoutReauthentication}: this listener's bound on a session,
 *                            instead of {@code KAAS_CONNECTIONS_MAX_REAUTH_MS}
 */
public record OAuthListenerSettings(URI jwksEndpoint, JwtPolicy policy, Duration jwksRefresh,
                                    Duration jwksMinRefreshPause, Optional<Duration> maxReauth) {
    static final Duration DEFAULT_JWKS_REFRESH = Duration.ofSeconds(300);
    static final Duration DEFAULT_JWKS_MIN_REFRESH_PAUSE = Duration.ofSeconds(1);
    static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
    private static final Set<String> FIELDS = Set.of("type", "validIssuerUri", "jwksEndpointUri", "userNameClaim",
            "fallbackUserNameClaim", "checkAudience", "clientId", "audience", "clockSkewSeconds", "jwksRefreshSeconds",
            "jwksMinRefreshPauseSeconds", "maxSecondsWithoutReauthentication");

    /**
     * Reads the object, reporting each problem (with {@code where}) to {@code problems}; an unknown field is one:
     * a check someone believes enforced must not be silently ignored.
     *
     * @return the settings; null when there were problems
     */
    static OAuthListenerSettings parse(String where, JsonNode authentication, Consumer<String> problems) {
        List<String> found = new ArrayList<>();
        for (Iterator<String> names = authentication.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                found.add(where + ": authentication." + name + " is not an oauth setting kaas knows (known: "
                        + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
            }
        }
        String issuer = text(authentication, "validIssuerUri", where, found, true);
        String jwks = text(authentication, "jwksEndpointUri", where, found, true);
        URI jwksEndpoint = null;
        if (jwks != null) {
            try {
                jwksEndpoint = new URI(jwks);
                if (!"https".equals(jwksEndpoint.getScheme()) && !"http".equals(jwksEndpoint.getScheme())
                        || jwksEndpoint.getHost() == null) {
                    found.add(where + ": authentication.jwksEndpointUri must be an http(s) URL, got " + jwks);
                }
            } catch (URISyntaxException e) {
                found.add(where + ": authentication.jwksEndpointUri is not a URI: " + e.getMessage());
            }
        }
        String userNameClaim = Optional.ofNullable(text(authentication, "userNameClaim", where, found, false)).orElse("sub");
        Optional<String> fallback = Optional.ofNullable(text(authentication, "fallbackUserNameClaim", where, found, false));
        Optional<String> audience = Optional.ofNullable(text(authentication, "audience", where, found, false));
        JsonNode checkAudience = authentication.path("checkAudience");
        if (!checkAudience.isMissingNode() && !checkAudience.isBoolean()) {
            found.add(where + ": authentication.checkAudience must be true or false, got " + checkAudience);
        } else if (checkAudience.asBoolean(false)) {
            String clientId = text(authentication, "clientId", where, found, false);
            if (clientId == null) {
                found.add(where + ": authentication.checkAudience needs clientId, the audience tokens must carry");
            } else if (audience.isPresent() && !audience.get().equals(clientId)) {
                found.add(where + ": authentication.audience and clientId (checkAudience) name different audiences");
            }
            audience = Optional.ofNullable(clientId);
        }
        long skew = seconds(authentication, "clockSkewSeconds", DEFAULT_CLOCK_SKEW.toSeconds(), 0, where, found);
        long refresh = seconds(authentication, "jwksRefreshSeconds", DEFAULT_JWKS_REFRESH.toSeconds(), 1, where, found);
        long pause = seconds(authentication, "jwksMinRefreshPauseSeconds",
                DEFAULT_JWKS_MIN_REFRESH_PAUSE.toSeconds(), 0, where, found);
        OptionalLong maxReauth = authentication.has("maxSecondsWithoutReauthentication")
                ? OptionalLong.of(seconds(authentication, "maxSecondsWithoutReauthentication", 0, 1, where, found))
                : OptionalLong.empty();
        found.forEach(problems);
        if (!found.isEmpty()) {
            return null;
        }
        return new OAuthListenerSettings(jwksEndpoint, new JwtPolicy(issuer, audience, userNameClaim, fallback,
                Duration.ofSeconds(skew).toMillis()), Duration.ofSeconds(refresh), Duration.ofSeconds(pause),
                maxReauth.isPresent() ? Optional.of(Duration.ofSeconds(maxReauth.getAsLong())) : Optional.empty());
    }

    private static String text(JsonNode node, String field, String where, List<String> problems, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                problems.add(where + ": authentication oauth needs " + field);
            }
            return null;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            problems.add(where + ": authentication." + field + " must be a non-empty string, got " + value);
            return null;
        }
        return value.asText();
    }

    private static long seconds(JsonNode node, String field, long fallback, long min, String where,
                                List<String> problems) {
        JsonNode value = node.get(field);
        if (value == null) {
            return fallback;
        }
        if (!value.isIntegralNumber() || value.asLong() < min) {
            problems.add(where + ": authentication." + field + " must be an integer of at least " + min + ", got "
                    + value);
            return fallback;
        }
        return value.asLong();
    }
}
