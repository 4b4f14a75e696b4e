package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.version.InfoBuilder;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Answers {@code /version} and legacy (unaggregated) discovery: {@code /api}, {@code /apis}, {@code /api/v1},
 * {@code /apis/GROUP} and {@code /apis/GROUP/VERSION}, from the {@link ResourceCatalog}. kubectl asks for aggregated
 * discovery first and reads the plain JSON answers here as legacy discovery, which it still supports.
 */
final class DiscoveryResponder {
    /** The Kubernetes release this server claims: the one whose kubectl was measured against it. */
    static final String MAJOR = "1";
    static final String MINOR = "32";
    static final String GIT_VERSION = "v1.32.0-kaas-dev";

    private final ResourceCatalog catalog;

    DiscoveryResponder(ResourceCatalog catalog) {
        this.catalog = catalog;
    }

    /** The answer to a GET of {@code path} (without query), if it is a discovery path. */
    Optional<MockResponse> answer(String path) {
        String[] parts = path.replaceAll("^/+|/+$", "").split("/");
        if (path.equals("/version") || path.equals("/version/")) {
            return Optional.of(Responses.json(200, new InfoBuilder().withMajor(MAJOR).withMinor(MINOR)
                    .withGitVersion(GIT_VERSION).withGitCommit("").withGitTreeState("clean")
                    .withBuildDate("1970-01-01T00:00:00Z").withGoVersion("").withCompiler("")
                    .withPlatform("linux/amd64").build()));
        }
        if (parts.length == 1 && parts[0].equals("api")) {
            return Optional.of(Responses.json(200, new APIVersionsBuilder().withVersions("v1").build()));
        }
        if (parts.length == 1 && parts[0].equals("apis")) {
            return Optional.of(groupList());
        }
        if (parts.length == 2 && parts[0].equals("api")) {
            return Optional.of(resourceList("", parts[1]));
        }
        if (parts.length == 2 && parts[0].equals("apis")) {
            return Optional.of(group(parts[1]));
        }
        if (parts.length == 3 && parts[0].equals("apis")) {
            return Optional.of(resourceList(parts[1], parts[2]));
        }
        return Optional.empty();
    }

    private MockResponse groupList() {
        List<APIGroup> groups = new ArrayList<>();
        for (Map.Entry<String, List<String>> entry : catalog.groupVersions().entrySet()) {
            if (!entry.getKey().isEmpty()) {
                groups.add(apiGroup(entry.getKey(), entry.getValue()));
            }
        }
        return Responses.json(200, new APIGroupListBuilder().withGroups(groups).build());
    }

    private MockResponse group(String name) {
        List<String> versions = catalog.groupVersions().get(name);
        if (name.isEmpty() || versions == null) {
            return Responses.failure(404, "NotFound", "the server could not find the requested resource");
        }
        return Responses.json(200, apiGroup(name, versions));
    }

    private static APIGroup apiGroup(String name, List<String> versions) {
        List<GroupVersionForDiscovery> all = versions.stream()
                .map(v -> new GroupVersionForDiscovery(name + "/" + v, v)).toList();
        return new APIGroupBuilder().withName(name).withVersions(all).withPreferredVersion(all.get(0)).build();
    }

    private MockResponse resourceList(String group, String version) {
        List<ApiResource> resources = catalog.resources().stream()
                .filter(r -> r.group().equals(group) && r.version().equals(version)).toList();
        if (resources.isEmpty()) {
            return Responses.failure(404, "NotFound", "the server could not find the requested resource");
        }
        APIResourceListBuilder list = new APIResourceListBuilder()
                .withGroupVersion(group.isEmpty() ? version : group + "/" + version);
        for (ApiResource resource : resources) {
            list.addToResources(new APIResourceBuilder().withName(resource.plural())
                    .withSingularName(resource.singular()).withNamespaced(resource.namespaced())
                    .withKind(resource.kind()).withVerbs(resource.verbs()).withShortNames(resource.shortNames())
                    .withCategories(resource.categories()).build());
            if (resource.statusSubresource()) {
                list.addToResources(new APIResourceBuilder().withName(resource.plural() + "/status")
                        .withSingularName("").withNamespaced(resource.namespaced()).withKind(resource.kind())
                        .withVerbs("get", "patch", "update").build());
            }
        }
        return Responses.json(200, list.build());
    }
}
