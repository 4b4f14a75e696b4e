package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource types this server serves: a fixed set of built-in types (the ones kaas, its operator and kubectl
 * touch) and every version served by each CustomResourceDefinition in the store at the moment of asking, so a CRD
 * applied at run time is discoverable at once and a deleted one is gone.
 */
final class ResourceCatalog {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceCatalog.class);

    static final List<ApiResource> BUILT_IN = List.of(
            core("Namespace", "namespaces", false, List.of("ns"), List.of(), true,
                    PrinterColumn.of("Status", "string", ".status.phase")),
            core("ConfigMap", "configmaps", true, List.of("cm"), List.of(), false),
            core("Secret", "secrets", true, List.of(), List.of(), false,
                    PrinterColumn.of("Type", "string", ".type")),
            core("Service", "services", true, List.of("svc"), List.of("all"), true,
                    PrinterColumn.of("Type", "string", ".spec.type"),
                    PrinterColumn.of("Cluster-IP", "string", ".spec.clusterIP")),
            core("Pod", "pods", true, List.of("po"), List.of("all"), true,
                    PrinterColumn.of("Status", "string", ".status.phase")),
            core("Event", "events", true, List.of("ev"), List.of(), false,
                    PrinterColumn.of("Type", "string", ".type"),
                    PrinterColumn.of("Reason", "string", ".reason"),
                    PrinterColumn.of("Message", "string", ".message")),
            stored("coordination.k8s.io", "Lease", "leases", true, List.of(), false,
                    PrinterColumn.of("Holder", "string", ".spec.holderIdentity")),
            stored("discovery.k8s.io", "EndpointSlice", "endpointslices", true, List.of(), false,
                    PrinterColumn.of("AddressType", "string", ".addressType")),
            stored("apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions", false,
                    List.of("crd", "crds"), true),
            review("SelfSubjectRulesReview", "selfsubjectrulesreviews"),
            review("SelfSubjectAccessReview", "selfsubjectaccessreviews"));

    private final Supplier<List<CustomResourceDefinition>> storedDefinitions;

    /** @param storedDefinitions reads the CRDs in the store now */
    ResourceCatalog(Supplier<List<CustomResourceDefinition>> storedDefinitions) {
        this.storedDefinitions = storedDefinitions;
    }

    /** Every served type: the built-in ones first, then the CRDs' in group order. */
    List<ApiResource> resources() {
        List<ApiResource> all = new ArrayList<>(BUILT_IN);
        List<ApiResource> custom = new ArrayList<>();
        for (CustomResourceDefinition definition : storedDefinitions.get()) {
            try {
                custom.addAll(fromDefinition(definition));
            } catch (RuntimeException e) {
                LOG.warn("CRD {} is not served: {}", definition.getMetadata().getName(), e.toString());
            }
        }
        custom.sort(Comparator.comparing(ApiResource::group).thenComparing(ApiResource::plural));
        all.addAll(custom);
        return all;
    }

    Optional<ApiResource> find(String group, String version, String plural) {
        return resources().stream()
                .filter(r -> r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural))
                .findFirst();
    }

    /**
     * Group name → its versions, most preferred first (kube-apiserver's order: GA before beta before alpha, higher
     * numbers first), groups in the order their first resource appears; the core group ("") included.
     */
    Map<String, List<String>> groupVersions() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ApiResource resource : resources()) {
            List<String> versions = groups.computeIfAbsent(resource.group(), g -> new ArrayList<>());
            if (!versions.contains(resource.version())) {
                versions.add(resource.version());
            }
        }
        groups.values().forEach(versions -> versions.sort(KubeVersionOrder.PREFERRED_FIRST));
        return groups;
    }

    /** One entry per version a CRD serves. */
    static List<ApiResource> fromDefinition(CustomResourceDefinition definition) {
        var spec = definition.getSpec();
        CustomResourceDefinitionNames names = spec.getNames();
        String singular = names.getSingular() == null || names.getSingular().isEmpty()
                ? names.getKind().toLowerCase(java.util.Locale.ROOT) : names.getSingular();
        List<ApiResource> served = new ArrayList<>();
        for (CustomResourceDefinitionVersion version : orEmpty(spec.getVersions())) {
            if (!Boolean.TRUE.equals(version.getServed())) {
                continue;
            }
            List<PrinterColumn> columns = new ArrayList<>();
            for (CustomResourceColumnDefinition column : orEmpty(version.getAdditionalPrinterColumns())) {
                columns.add(new PrinterColumn(column.getName(), column.getType(), column.getFormat(),
                        column.getDescription(), column.getPriority() == null ? 0 : column.getPriority(),
                        ColumnPath.parse(column.getJsonPath())));
            }
            if (columns.isEmpty()) {
                columns.add(PrinterColumn.age());
            }
            boolean status = version.getSubresources() != null && version.getSubresources().getStatus() != null;
            served.add(new ApiResource(spec.getGroup(), version.getName(), names.getKind(), names.getPlural(), singular,
                    "Namespaced".equals(spec.getScope()), orEmpty(names.getShortNames()), orEmpty(names.getCategories()),
                    ApiResource.STORED_VERBS, status, List.copyOf(columns)));
        }
        return served;
    }

    /** A list a stored CRD may carry as null. */
    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static ApiResource core(String kind, String plural, boolean namespaced, List<String> shortNames,
            List<String> categories, boolean status, PrinterColumn... columns) {
        return new ApiResource("", "v1", kind, plural, singular(kind), namespaced, shortNames, categories,
                ApiResource.STORED_VERBS, status, withAge(columns));
    }

    private static ApiResource stored(String group, String kind, String plural, boolean namespaced,
            List<String> shortNames, boolean status, PrinterColumn... columns) {
        return new ApiResource(group, "v1", kind, plural, singular(kind), namespaced, shortNames, List.of(),
                ApiResource.STORED_VERBS, status, withAge(columns));
    }

    private static ApiResource review(String kind, String plural) {
        return new ApiResource("authorization.k8s.io", "v1", kind, plural, "", false, List.of(), List.of(),
                List.of("create"), false, List.of());
    }

    private static String singular(String kind) {
        return kind.toLowerCase(java.util.Locale.ROOT);
    }

    private static List<PrinterColumn> withAge(PrinterColumn... columns) {
        List<PrinterColumn> all = new ArrayList<>(List.of(columns));
        all.add(PrinterColumn.age());
        return List.copyOf(all);
    }
}
