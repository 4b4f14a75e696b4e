package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourcePathTest {
    @Test
    void readsCoreAndGroupPathsWithAndWithoutNamespace() {
        assertThat(ResourcePath.parse("/api/v1/namespaces")).contains(
                new ResourcePath("", "v1", null, "namespaces", null, null));
        assertThat(ResourcePath.parse("/api/v1/namespaces/kafka")).contains(
                new ResourcePath("", "v1", null, "namespaces", "kafka", null));
        assertThat(ResourcePath.parse("/api/v1/namespaces/kafka/status")).contains(
                new ResourcePath("", "v1", null, "namespaces", "kafka", "status"));
        assertThat(ResourcePath.parse("/api/v1/namespaces/kafka/configmaps")).contains(
                new ResourcePath("", "v1", "kafka", "configmaps", null, null));
        assertThat(ResourcePath.parse("/apis/kaas.rs/v1alpha1/namespaces/kafka/kafkatopics/orders/status")).contains(
                new ResourcePath("kaas.rs", "v1alpha1", "kafka", "kafkatopics", "orders", "status"));
        assertThat(ResourcePath.parse("/apis/kaas.rs/v1alpha1/kafkatopics")).contains(
                new ResourcePath("kaas.rs", "v1alpha1", null, "kafkatopics", null, null));
        assertThat(ResourcePath.parse("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/kafkatopics.kaas.rs"))
                .contains(new ResourcePath("apiextensions.k8s.io", "v1", null, "customresourcedefinitions",
                        "kafkatopics.kaas.rs", null));
    }

    @Test
    void discoveryPathsAreNoResource() {
        assertThat(ResourcePath.parse("/api")).isEmpty();
        assertThat(ResourcePath.parse("/api/v1")).isEmpty();
        assertThat(ResourcePath.parse("/apis/kaas.rs/v1alpha1")).isEmpty();
        assertThat(ResourcePath.parse("/version")).isEmpty();
    }

    @Test
    void namesItsCollectionAndItself() {
        ResourcePath status = ResourcePath.parse("/apis/kaas.rs/v1alpha1/namespaces/kafka/kafkatopics/orders/status")
                .orElseThrow();
        assertThat(status.collectionPath()).isEqualTo("/apis/kaas.rs/v1alpha1/namespaces/kafka/kafkatopics");
        assertThat(status.objectPath()).isEqualTo("/apis/kaas.rs/v1alpha1/namespaces/kafka/kafkatopics/orders");
        assertThat(status.groupResource()).isEqualTo("kafkatopics.kaas.rs");
        assertThat(ResourcePath.parse("/api/v1/namespaces/kafka/configmaps/c").orElseThrow().groupResource())
                .isEqualTo("configmaps");
    }
}
