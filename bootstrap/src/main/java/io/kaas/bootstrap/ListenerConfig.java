package io.kaas.bootstrap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.adapter.wire.tls.TlsClientAuth;
import io.kaas.adapter.wire.tls.TlsSettings;
import io.kaas.domain.security.SaslMechanism;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One client listener, from {@code KAAS_LISTENERS} (a JSON array in Strimzi's shape, as the Helm
 * chart renders {@code .Values.listeners}):
 * {@code [{"name":"plain","port":9092,"type":"internal","tls":false,"authentication":{"type":"none"}}, ...]}.
 * The first listener is the primary one: the port brokers register under ({@code KAAS_PORT}) and
 * the port a broker without {@code KAAS_LISTENERS} serves. A listener with {@code "tls": true} reads
 * the optional {@code tlsConfiguration} object (docs/security-tls.md): {@code certFile}, {@code keyFile},
 * {@code caFile} (defaults in {@code /etc/kaas/tls/<name>/}, where the chart mounts the listener's Secret),
 * {@code clientAuth}, {@code protocols}, {@code cipherSuites}, {@code reloadIntervalSeconds},
 * {@code handshakeTimeoutMs}. A listener with {@code "authentication": {"type": "oauth", ...}} reads Strimzi's
 * OAuth fields from that object ({@link OAuthListenerSettings}).
 *
 * @param name           free-form, unique; the chart uses it as the port name
 * @param port           unique, 0 for an ephemeral one (standalone only)
 * @param external       {@code type: external} (reached through the Gateway); {@code internal} otherwise
 * @param tlsSettings    the TLS files and policy of a {@code tls: true} listener; empty for plaintext
 * @param authentication who may connect
 * @param oauth          the token validation of an {@code oauth} listener; empty for the others
 * @param connectionsMaxReauthMs how long a SASL session lasts before the client must re-authenticate (KIP-368):
 *                       {@code KAAS_CONNECTIONS_MAX_REAUTH_MS}, or an oauth listener's
 *                       {@code maxSecondsWithoutReauthentication}; 0 for no bound
 */
public record ListenerConfig(String name, int port, boolean external, Optional<TlsSettings> tlsSettings,
                             Authentication authentication, Optional<OAuthListenerSettings> oauth,
                             long connectionsMaxReauthMs) {

    /** The listener without {@code KAAS_LISTENERS}: plaintext, no authentication. */
    static final String DEFAULT_NAME = "plain";
    /** Where a TLS listener's files are by default: {@code <dir>/<listener name>/tls.crt}, {@code tls.key}, {@code ca.crt}. */
    static final Path DEFAULT_TLS_DIR = Path.of("/etc/kaas/tls");

    /** {@code authentication.type}, with the names the chart and Strimzi use. */
    public enum Authentication {
        NONE("none"),
        SCRAM_SHA_256("scram-sha-256"),
        SCRAM_SHA_512("scram-sha-512"),
        PLAIN("plain"),
        /** SASL/OAUTHBEARER with JWTs validated locally; Strimzi calls it {@code oauth}. */
        OAUTH("oauth", "oauthbearer"),
        /** mTLS: the client certificate is the identity; Strimzi calls it {@code tls}, the chart {@code mtls}. */
        TLS("tls", "mtls");

        private final List<String> names;

        Authentication(String... names) {
            this.names = List.of(names);
        }

        static Authentication byName(String name) {
            for (Authentication a : values()) {
                if (a.names.contains(name.toLowerCase(Locale.ROOT))) {
                    return a;
                }
            }
            throw new IllegalArgumentException(name);
        }

        static String accepted() {
            List<String> all = new ArrayList<>();
            for (Authentication a : values()) {
                all.addAll(a.names);
            }
            return String.join(", ", all);
        }
    }

    /** Whether connections are TLS. */
    public boolean tls() {
        return tlsSettings.isPresent();
    }

    /** Apache's {@code security.protocol} for this listener: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL. */
    public String securityProtocol() {
        String transport = tls() ? "SSL" : "PLAINTEXT";
        return saslMechanisms().isEmpty() ? transport : "SASL_" + transport;
    }

    /** The SASL mechanisms this listener enables (its handshake's list); empty without SASL. */
    public List<SaslMechanism> saslMechanisms() {
        return switch (authentication) {
            case SCRAM_SHA_256 -> List.of(SaslMechanism.SCRAM_SHA_256);
            case SCRAM_SHA_512 -> List.of(SaslMechanism.SCRAM_SHA_512);
            case PLAIN -> List.of(SaslMechanism.PLAIN);
            case OAUTH -> List.of(SaslMechanism.OAUTHBEARER);
            case NONE, TLS -> List.of();
        };
    }

    static ListenerConfig plaintext(int port) {
        return new ListenerConfig(DEFAULT_NAME, port, false, Optional.empty(), Authentication.NONE, Optional.empty(), 0);
    }

    /**
     * Parses {@code KAAS_LISTENERS}, reporting every problem it finds to {@code problems}.
     *
     * @param connectionsMaxReauthMs {@code KAAS_CONNECTIONS_MAX_REAUTH_MS}, for every listener that does not set its own
     * @return the listeners; empty when there were problems
     */
    static List<ListenerConfig> parse(String json, long connectionsMaxReauthMs, Consumer<String> problems) {
        JsonNode array;
        try {
            array = new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            problems.accept("KAAS_LISTENERS is not JSON: " + e.getOriginalMessage());
            return List.of();
        }
        if (array == null || !array.isArray() || array.isEmpty()) {
            problems.accept("KAAS_LISTENERS: expected a JSON array of at least one listener "
                    + "({\"name\":..,\"port\":..,\"type\":..,\"tls\":..,\"authentication\":{\"type\":..}})");
            return List.of();
        }
        List<String> found = new ArrayList<>();
        Consumer<String> report = found::add;
        List<ListenerConfig> listeners = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<Integer, String> ports = new HashMap<>();
        for (int i = 0; i < array.size(); i++) {
            ListenerConfig listener = entry(array.get(i), i, connectionsMaxReauthMs, report);
            if (listener == null) {
                continue;
            }
            String label = "listener " + listener.name();
            if (names.putIfAbsent(listener.name(), label) != null) {
                report.accept("KAAS_LISTENERS: the name " + listener.name() + " is used by two listeners");
            }
            if (listener.port() != 0 && ports.putIfAbsent(listener.port(), label) != null) {
                report.accept("KAAS_LISTENERS: listeners " + ports.get(listener.port()).substring("listener ".length())
                        + " and " + listener.name() + " both use port " + listener.port());
            }
            listener.validate(report);
            listeners.add(listener);
        }
        found.forEach(problems);
        return found.isEmpty() ? List.copyOf(listeners) : List.of();
    }

    private static ListenerConfig entry(JsonNode node, int index, long connectionsMaxReauthMs,
                                        Consumer<String> problems) {
        String where = "KAAS_LISTENERS[" + index + "]";
        if (!node.isObject()) {
            problems.accept(where + ": expected an object, got " + node);
            return null;
        }
        JsonNode name = node.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            problems.accept(where + ": needs a name");
            return null;
        }
        where = "listener " + name.asText();
        JsonNode port = node.get("port");
        if (port == null || !port.canConvertToInt() || !port.isIntegralNumber() || port.asInt() < 0 || port.asInt() > 65535) {
            problems.accept(where + ": port must be an integer from 0 to 65535, got " + port);
            return null;
        }
        String type = node.path("type").asText("internal");
        if (!type.equals("internal") && !type.equals("external")) {
            problems.accept(where + ": type must be internal or external, got " + type);
            return null;
        }
        JsonNode tls = node.path("tls");
        if (!tls.isMissingNode() && !tls.isBoolean()) {
            problems.accept(where + ": tls must be true or false, got " + tls);
            return null;
        }
        String authentication = node.path("authentication").path("type").asText("none");
        Authentication auth;
        try {
            auth = Authentication.byName(authentication);
        } catch (IllegalArgumentException e) {
            problems.accept(where + ": authentication.type must be one of " + Authentication.accepted() + ", got "
                    + authentication);
            return null;
        }
        Optional<OAuthListenerSettings> oauth = Optional.empty();
        if (auth == Authentication.OAUTH) {
            // problems reported; the listener is still checked (TLS) so every problem is told at once
            oauth = Optional.ofNullable(OAuthListenerSettings.parse(where, node.path("authentication"), problems));
        }
        long maxReauthMs = oauth.flatMap(OAuthListenerSettings::maxReauth).map(Duration::toMillis)
                .orElse(connectionsMaxReauthMs);
        JsonNode tlsConfiguration = node.path("tlsConfiguration");
        if (!tls.asBoolean(false)) {
            if (!tlsConfiguration.isMissingNode()) {
                problems.accept(where + ": tlsConfiguration is only read with tls: true");
                return null;
            }
            return new ListenerConfig(name.asText(), port.asInt(), type.equals("external"), Optional.empty(), auth,
                    oauth, maxReauthMs);
        }
        TlsSettings settings = tlsSettings(where, name.asText(), tlsConfiguration, auth, problems);
        return settings == null ? null : new ListenerConfig(name.asText(), port.asInt(), type.equals("external"),
                Optional.of(settings), auth, oauth, maxReauthMs);
    }

    /** A TLS listener's {@code tlsConfiguration}, with the defaults docs/security-tls.md lists; null on a problem. */
    private static TlsSettings tlsSettings(String where, String name, JsonNode config, Authentication auth,
                                           Consumer<String> problems) {
        if (!config.isMissingNode() && !config.isObject()) {
            problems.accept(where + ": tlsConfiguration must be an object, got " + config);
            return null;
        }
        Path dir = DEFAULT_TLS_DIR.resolve(name);
        try {
            TlsClientAuth clientAuth = config.has("clientAuth") ? TlsClientAuth.parse(config.get("clientAuth").asText())
                    : auth == Authentication.TLS ? TlsClientAuth.REQUIRED : TlsClientAuth.NONE;
            if (auth == Authentication.TLS && clientAuth != TlsClientAuth.REQUIRED) {
                problems.accept(where + ": authentication tls identifies clients by their certificate and needs "
                        + "clientAuth required, got " + clientAuth.configValue());
                return null;
            }
            Optional<Path> caFile = config.has("caFile") ? Optional.of(Path.of(config.get("caFile").asText()))
                    : clientAuth == TlsClientAuth.NONE ? Optional.empty() : Optional.of(dir.resolve("ca.crt"));
            return new TlsSettings(path(config, "certFile", dir.resolve("tls.crt")),
                    path(config, "keyFile", dir.resolve("tls.key")), caFile, clientAuth,
                    config.has("protocols") ? strings(config.get("protocols")) : TlsSettings.DEFAULT_PROTOCOLS,
                    config.has("cipherSuites") ? strings(config.get("cipherSuites")) : List.of(),
                    config.has("reloadIntervalSeconds")
                            ? Duration.ofSeconds(number(config.get("reloadIntervalSeconds"), "reloadIntervalSeconds"))
                            : TlsSettings.DEFAULT_RELOAD_INTERVAL,
                    config.has("handshakeTimeoutMs")
                            ? Duration.ofMillis(number(config.get("handshakeTimeoutMs"), "handshakeTimeoutMs"))
                            : TlsSettings.DEFAULT_HANDSHAKE_TIMEOUT);
        } catch (IllegalArgumentException e) {
            problems.accept(where + ": tlsConfiguration: " + e.getMessage());
            return null;
        }
    }

    private static Path path(JsonNode config, String field, Path fallback) {
        JsonNode value = config.get(field);
        if (value == null) {
            return fallback;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException(field + " must be a file path, got " + value);
        }
        return Path.of(value.asText());
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        if (!array.isArray()) {
            throw new IllegalArgumentException("expected an array of strings, got " + array);
        }
        for (JsonNode value : array) {
            if (!value.isTextual()) {
                throw new IllegalArgumentException("expected an array of strings, got " + array);
            }
            values.add(value.asText());
        }
        return values;
    }

    private static long number(JsonNode value, String field) {
        if (!value.isIntegralNumber()) {
            throw new IllegalArgumentException(field + " must be an integer, got " + value);
        }
        return value.asLong();
    }

    /** The combinations the broker refuses, each with why. */
    private void validate(Consumer<String> problems) {
        String where = "listener " + name;
        if (authentication == Authentication.TLS && !tls()) {
            problems.accept(where + ": authentication " + authentication.names.get(0)
                    + " identifies clients by their TLS certificate and needs tls: true");
        }
        if ((authentication == Authentication.PLAIN || authentication == Authentication.OAUTH) && !tls()) {
            problems.accept(where + ": authentication " + authentication.names.get(0) + " sends a reusable secret ("
                    + (authentication == Authentication.PLAIN ? "the password" : "a bearer token")
                    + ") and needs tls: true; use scram-sha-512 or scram-sha-256 on a plaintext listener");
        }
    }
}
