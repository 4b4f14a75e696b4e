package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceCatalogTest {
    @Test
    void aCrdServesEachServedVersionWithItsColumnsOrAge() {
        CustomResourceDefinition crd = crd("v1alpha1", "v1beta1", "v1", "v2alpha1");
        List<ApiResource> served = ResourceCatalog.fromDefinition(crd);

        assertThat(served).extracting(ApiResource::version).containsExactly("v1alpha1", "v1beta1", "v1");
        ApiResource v1 = served.get(2);
        assertThat(v1.kind()).isEqualTo("KafkaTopic");
        assertThat(v1.namespaced()).isTrue();
        assertThat(v1.shortNames()).containsExactly("kt");
        assertThat(v1.statusSubresource()).isTrue();
        assertThat(v1.columns()).extracting(PrinterColumn::name).containsExactly("Partitions");
        assertThat(served.get(0).columns()).extracting(PrinterColumn::name).as("no columns: Age")
                .containsExactly("Age");
    }

    @Test
    void groupsListTheirMostPreferredVersionFirst() {
        ResourceCatalog catalog = new ResourceCatalog(() -> List.of(crd("v1alpha1", "v1beta1", "v1", "v2alpha1")));
        assertThat(catalog.groupVersions().get("kaas.rs")).containsExactly("v1", "v1beta1", "v1alpha1");
        assertThat(catalog.groupVersions().keySet()).startsWith("", "coordination.k8s.io").endsWith("kaas.rs");
        assertThat(catalog.find("kaas.rs", "v1beta1", "kafkatopics")).isPresent();
        assertThat(catalog.find("kaas.rs", "v2alpha1", "kafkatopics")).as("not served").isEmpty();
    }

    /** A KafkaTopic CRD with these versions, all served but the last; printer columns on v1 only. */
    private static CustomResourceDefinition crd(String... versions) {
        CustomResourceDefinitionBuilder builder = new CustomResourceDefinitionBuilder().withNewMetadata()
                .withName("kafkatopics.kaas.rs").endMetadata().withNewSpec().withGroup("kaas.rs").withScope("Namespaced")
                .withNewNames().withKind("KafkaTopic").withPlural("kafkatopics").withSingular("kafkatopic")
                .withShortNames("kt").endNames().endSpec();
        for (int i = 0; i < versions.length; i++) {
            var version = builder.editSpec().addNewVersion().withName(versions[i]).withServed(i < versions.length - 1)
                    .withStorage(versions[i].equals("v1")).withNewSubresources().withNewStatus().endStatus()
                    .endSubresources();
            if (versions[i].equals("v1")) {
                version = version.addNewAdditionalPrinterColumn().withName("Partitions").withType("integer")
                        .withJsonPath(".spec.partitions").endAdditionalPrinterColumn();
            }
            builder = version.endVersion().endSpec();
        }
        return builder.build();
    }
}
