package io.kaas.bootstrap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.domain.security.SaslMechanism;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One client listener, from {@code KAAS_LISTENERS} (a JSON array in Strimzi's shape, as the Helm
 * chart renders {@code .Values.listeners}):
 * {@code [{"name":"plain","port":9092,"type":"internal","tls":false,"authentication":{"type":"none"}}, ...]}.
 * The first listener is the primary one: the port brokers register under ({@code KAAS_PORT}) and
 * the port a broker without {@code KAAS_LISTENERS} serves.
 *
 * @param name           free-form, unique; the chart uses it as the port name
 * @param port           unique, 0 for an ephemeral one (standalone only)
 * @param external       {@code type: external} (reached through the Gateway); {@code internal} otherwise
 * @param tls            whether connections are TLS; refused at startup until TLS is built
 * @param authentication who may connect
 */
public record ListenerConfig(String name, int port, boolean external, boolean tls, Authentication authentication) {

    /** The listener without {@code KAAS_LISTENERS}: plaintext, no authentication. */
    static final String DEFAULT_NAME = "plain";

    /** {@code authentication.type}, with the names the chart and Strimzi use. */
    public enum Authentication {
        NONE("none"),
        SCRAM_SHA_256("scram-sha-256"),
        SCRAM_SHA_512("scram-sha-512"),
        PLAIN("plain"),
        OAUTH("oauth"),
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

    /** The SASL mechanisms this listener enables (its handshake's list); empty without SASL. */
    public List<SaslMechanism> saslMechanisms() {
        return switch (authentication) {
            case SCRAM_SHA_256 -> List.of(SaslMechanism.SCRAM_SHA_256);
            case SCRAM_SHA_512 -> List.of(SaslMechanism.SCRAM_SHA_512);
            case PLAIN -> List.of(SaslMechanism.PLAIN);
            case NONE, OAUTH, TLS -> List.of();
        };
    }

    static ListenerConfig plaintext(int port) {
        return new ListenerConfig(DEFAULT_NAME, port, false, false, Authentication.NONE);
    }

    /**
     * Parses {@code KAAS_LISTENERS}, reporting every problem it finds to {@code problems}.
     *
     * @return the listeners; empty when there were problems
     */
    static List<ListenerConfig> parse(String json, Consumer<String> problems) {
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
            ListenerConfig listener = entry(array.get(i), i, report);
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

    private static ListenerConfig entry(JsonNode node, int index, Consumer<String> problems) {
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
        return new ListenerConfig(name.asText(), port.asInt(), type.equals("external"), tls.asBoolean(false), auth);
    }

    /** The combinations the broker refuses, each with why. */
    private void validate(Consumer<String> problems) {
        String where = "listener " + name;
        if (authentication == Authentication.TLS && !tls) {
            problems.accept(where + ": authentication " + authentication.names.get(0)
                    + " identifies clients by their TLS certificate and needs tls: true");
        }
        if ((authentication == Authentication.PLAIN || authentication == Authentication.OAUTH) && !tls) {
            problems.accept(where + ": authentication " + authentication.names.get(0) + " sends a reusable secret ("
                    + (authentication == Authentication.PLAIN ? "the password" : "a bearer token")
                    + ") and needs tls: true; use scram-sha-512 or scram-sha-256 on a plaintext listener");
        }
        if (tls) {
            problems.accept(where + ": tls: true is not supported yet (kaas serves plaintext listeners only for now)");
        }
        if (authentication == Authentication.OAUTH || authentication == Authentication.TLS) {
            problems.accept(where + ": authentication " + authentication.names.get(0) + " is not supported yet "
                    + "(supported: none, scram-sha-512, scram-sha-256" + (tls ? ", plain" : "") + ")");
        }
    }
}
