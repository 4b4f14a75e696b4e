package io.kaas.operator.reconciler.user;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.SecretKeyReference;
import io.kaas.operator.model.Refusal;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a SCRAM user's password comes from: the Secret key its spec references, or {@code <user>-kafka-credentials},
 * which the operator generates as Strimzi does (keys {@code password} and {@code sasl.jaas.config}) with an
 * OwnerReference to the KafkaUser, so Kubernetes deletes it with the user. A Secret of that name that is not the
 * user's is never overwritten.
 */
public final class UserPasswords {
    public static final String PASSWORD_KEY = "password";
    public static final String JAAS_CONFIG_KEY = "sasl.jaas.config";
    private static final Logger LOG = LoggerFactory.getLogger(UserPasswords.class);
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final int GENERATED_LENGTH = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KubernetesClient client;

    public UserPasswords(KubernetesClient client) {
        this.client = client;
    }

    /** The password, or why there is none yet. */
    public sealed interface Lookup permits Found, Missing {
    }

    public record Found(String password) implements Lookup {
    }

    public record Missing(Refusal refusal) implements Lookup {
    }

    /** The name of the Secret the operator generates for {@code user}. */
    public static String generatedSecretName(String user) {
        return user + "-kafka-credentials";
    }

    /** The value of {@code reference}, read from the API server. */
    public Lookup referenced(KafkaUser user, SecretKeyReference reference) {
        Secret secret = secret(user, reference.getName());
        if (secret == null) {
            return new Missing(new Refusal(Refusal.SECRET_NOT_FOUND, "Secret " + reference.getName()
                    + " (spec.authentication.password.valueFrom.secretKeyRef) does not exist; the user is"
                    + " materialised when it does"));
        }
        return value(secret, reference.getKey()).<Lookup>map(Found::new).orElseGet(() -> new Missing(new Refusal(
                Refusal.SECRET_KEY_NOT_FOUND, "Secret " + reference.getName() + " has no key '" + reference.getKey()
                + "'")));
    }

    /**
     * The password in {@code <user>-kafka-credentials}, created (or completed, when the user's own Secret lacks a key)
     * with a new random password when there is none.
     */
    public Lookup generated(KafkaUser user) {
        String userName = user.getMetadata().getName();
        String name = generatedSecretName(userName);
        Secret existing = secret(user, name);
        if (existing != null && !ownedBy(existing, user)) {
            return new Missing(new Refusal(Refusal.SECRET_CONFLICT, "Secret " + name + " exists and is not owned by"
                    + " KafkaUser " + userName + "; delete it, or reference it in spec.authentication.password"));
        }
        Optional<String> kept = existing == null ? Optional.empty() : value(existing, PASSWORD_KEY);
        String password = kept.orElseGet(UserPasswords::randomPassword);
        Map<String, String> data = data(userName, password);
        OwnerReference owner = owner(user);
        if (existing == null) {
            client.resource(new SecretBuilder().withNewMetadata().withName(name)
                    .withNamespace(user.getMetadata().getNamespace()).withOwnerReferences(owner)
                    .withLabels(Map.of("app.kubernetes.io/managed-by", "kaas-operator", "kaas.rs/kafka-user", userName))
                    .endMetadata().withType("Opaque").withData(data).build()).create();
            LOG.info("KafkaUser {}/{}: generated a password into Secret {}", user.getMetadata().getNamespace(),
                    userName, name);
        } else if (!data.equals(existing.getData()) || !existing.getMetadata().getOwnerReferences().equals(List.of(owner))) {
            // The user's own Secret, incomplete, or left by a deleted KafkaUser of the same name: made this user's.
            client.resource(new SecretBuilder(existing).editMetadata().withOwnerReferences(owner).endMetadata()
                    .withData(data).build()).update();
        }
        return new Found(password);
    }

    private Secret secret(KafkaUser user, String name) {
        return client.secrets().inNamespace(user.getMetadata().getNamespace()).withName(name).get();
    }

    private static Optional<String> value(Secret secret, String key) {
        String encoded = secret.getData() == null ? null : secret.getData().get(key);
        if (encoded == null && secret.getStringData() != null) {
            return Optional.ofNullable(secret.getStringData().get(key)); // an API server that did not fold it in
        }
        return Optional.ofNullable(encoded).map(value -> new String(Base64.getDecoder().decode(value),
                StandardCharsets.UTF_8));
    }

    private static boolean ownedBy(Secret secret, KafkaUser user) {
        return secret.getMetadata().getOwnerReferences().stream().anyMatch(ref -> "KafkaUser".equals(ref.getKind())
                && user.getApiVersion().equals(ref.getApiVersion()) && user.getMetadata().getName().equals(ref.getName()));
    }

    private static OwnerReference owner(KafkaUser user) {
        return new OwnerReferenceBuilder().withApiVersion(user.getApiVersion()).withKind(user.getKind())
                .withName(user.getMetadata().getName()).withUid(user.getMetadata().getUid()).build();
    }

    /** Strimzi's keys: the password, and the client's JAAS line for it. */
    private static Map<String, String> data(String user, String password) {
        Base64.Encoder b64 = Base64.getEncoder();
        Map<String, String> data = new LinkedHashMap<>();
        data.put(PASSWORD_KEY, b64.encodeToString(password.getBytes(StandardCharsets.UTF_8)));
        data.put(JAAS_CONFIG_KEY, b64.encodeToString(jaasConfig(user, password).getBytes(StandardCharsets.UTF_8)));
        return data;
    }

    /** {@code sasl.jaas.config} for a client logging in as {@code user} (its sasl.mechanism is set beside it). */
    static String jaasConfig(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    private static String randomPassword() {
        StringBuilder password = new StringBuilder(GENERATED_LENGTH);
        for (int i = 0; i < GENERATED_LENGTH; i++) {
            password.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return password.toString();
    }
}
