package io.kaas.adapter.k8s;

import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * How Kafka topic names and KafkaTopic resource names map. A topic whose name is a valid Kubernetes name is declared by
 * a resource of that name. Any other (upper case, '_' or '.', as Kafka Streams' internal topics have, or longer than
 * 63 characters) gets the resource {@code kaas-topic-<16 hex>}, the first 64 bits of the SHA-256 of its name, with the
 * name itself in {@code spec.topicName}: the same on every broker, so two brokers creating one topic meet on one
 * resource.
 */
public final class TopicResourceNames {
    /** A DNS-1123 label: what every Kubernetes name accepts, label values included. */
    private static final Pattern KUBERNETES_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    static final String SYNTHETIC_PREFIX = "kaas-topic-";

    private TopicResourceNames() {
    }

    /** The Kafka topic a KafkaTopic declares: {@code spec.topicName} when set, else the resource's name. */
    public static String topicName(KafkaTopic resource) {
        KafkaTopicSpec spec = resource.getSpec();
        return spec != null && spec.getTopicName() != null ? spec.getTopicName() : resource.getMetadata().getName();
    }

    /** The name of the resource a broker creates for {@code topic}. */
    public static String resourceName(String topic) {
        return isKubernetesName(topic) ? topic : SYNTHETIC_PREFIX + HexFormat.of().formatHex(sha256(topic), 0, 8);
    }

    /** Whether {@code topic} is declared by a resource of its own name, without {@code spec.topicName}. */
    public static boolean isKubernetesName(String topic) {
        return KUBERNETES_NAME.matcher(topic).matches();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
