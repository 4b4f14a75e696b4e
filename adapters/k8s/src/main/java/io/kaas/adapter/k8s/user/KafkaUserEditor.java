package io.kaas.adapter.k8s.user;

import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.k8s.ArgoCdAnnotations;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-modify-write every admin API that writes KafkaUsers shares: read the user, let an edit change it, write it
 * with the resourceVersion read, which the API server refuses (409) when anything wrote in between; then read and
 * edit again. A missing user is created when the caller says so; a user is never deleted.
 */
final class KafkaUserEditor {
    /** Writes racing this broker's: beyond this many in a row, something keeps rewriting the resource. */
    private static final int CONFLICT_ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaUserEditor.class);

    /** Changes a KafkaUser in place. */
    interface Edit {
        /**
         * @param user as read, or a new one (no resourceVersion, an empty spec) when it is missing
         * @return whether it changed and must be written
         */
        boolean apply(KafkaUser user);
    }

    private final KubernetesClient client;
    private final String namespace;
    private final Optional<ArgoCdAnnotations> argoCd;

    /** @param argoCd the annotations every KafkaUser this broker creates carries, if any */
    KafkaUserEditor(KubernetesClient client, String namespace, Optional<ArgoCdAnnotations> argoCd) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.argoCd = Objects.requireNonNull(argoCd, "argoCd");
    }

    /**
     * Edits {@code user}, retrying on a conflicting write; creates it when it is missing and {@code create} says so.
     *
     * @param what what the edit writes, for logs and errors
     */
    void edit(String user, boolean create, String what, Edit edit) {
        for (int attempt = 1; attempt <= CONFLICT_ATTEMPTS; attempt++) {
            KafkaUser current;
            try {
                current = users().withName(user).get();
            } catch (KubernetesClientException e) {
                throw failure("read", user, e);
            }
            if (current == null && !create) {
                return;
            }
            KafkaUser next = current == null ? newUser(user) : current;
            if (!edit.apply(next)) {
                return;
            }
            try {
                if (current == null) {
                    users().resource(next).create();
                    LOG.info("created KafkaUser {}/{} to hold the {} of User:{}", namespace, user, what, user);
                } else {
                    // Carries the resourceVersion read above: refused with 409 if anything wrote since.
                    users().resource(next).update();
                }
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw failure(current == null ? "create" : "update", user, e);
                }
                LOG.debug("KafkaUser {} changed while this broker wrote its {}; reading it again", user, what);
            }
        }
        throw new UncheckedIOException(new IOException("KafkaUser " + namespace + "/" + user + " changed under each of "
                + CONFLICT_ATTEMPTS + " attempts to write its " + what));
    }

    /** Every KafkaUser of the namespace. */
    List<KafkaUser> list() {
        try {
            return users().list().getItems();
        } catch (KubernetesClientException e) {
            throw failure("list", "", e);
        }
    }

    private KafkaUser newUser(String name) {
        KafkaUser user = new KafkaUser();
        user.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .withAnnotations(argoCd.map(a -> a.of(namespace, name)).orElse(null)).build());
        user.setSpec(new KafkaUserSpec());
        return user;
    }

    private NonNamespaceOperation<KafkaUser, KubernetesResourceList<KafkaUser>, Resource<KafkaUser>> users() {
        return client.resources(KafkaUser.class).inNamespace(namespace);
    }

    private UncheckedIOException failure(String operation, String user, KubernetesClientException e) {
        int code = e.getCode();
        return new UncheckedIOException(new IOException(operation + " KafkaUser " + namespace
                + (user.isEmpty() ? "" : "/" + user) + ": " + (code > 0 ? "HTTP " + code + " " : "no response: ")
                + e.getMessage(), e));
    }
}
