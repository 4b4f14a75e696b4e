package io.kaas.dev.apiserver;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * A resource URL path as Kubernetes lays it out: {@code /api/v1/...} for the core group or
 * {@code /apis/GROUP/VERSION/...}, then {@code namespaces/NS/} for a namespaced resource, then
 * {@code PLURAL[/NAME[/SUBRESOURCE]]}. {@code /api/v1/namespaces/NS} is the namespace itself.
 *
 * @param group       "" for the core group
 * @param namespace   null for a cluster-scoped resource or a request across namespaces
 * @param name        null for a collection
 * @param subresource null unless a subresource ({@code status}) is addressed
 */
record ResourcePath(String group, String version, String namespace, String plural, String name, String subresource) {
    /** The subresources of a namespace itself, which would otherwise read as a resource type inside it. */
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /** The resource a path names, if it names one (discovery paths such as {@code /apis/g/v} do not). */
    static Optional<ResourcePath> parse(String path) {
        String[] all = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
        String group;
        int next;
        if (all.length >= 3 && all[0].equals("api")) {
            group = "";
            next = 1;
        } else if (all.length >= 4 && all[0].equals("apis")) {
            group = all[1];
            next = 2;
        } else {
            return Optional.empty();
        }
        String version = all[next];
        String[] rest = Arrays.copyOfRange(all, next + 1, all.length);
        String namespace = null;
        if (rest.length >= 3 && rest[0].equals("namespaces")
                && !(rest.length == 3 && NAMESPACE_SUBRESOURCES.contains(rest[2]))) {
            namespace = rest[1];
            rest = Arrays.copyOfRange(rest, 2, rest.length);
        }
        if (rest.length == 0 || rest.length > 3) {
            return Optional.empty();
        }
        return Optional.of(new ResourcePath(group, version, namespace, rest[0], rest.length > 1 ? rest[1] : null,
                rest.length > 2 ? rest[2] : null));
    }

    /** The path of the collection this resource belongs to (where it is created). */
    String collectionPath() {
        String root = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        return root + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural;
    }

    /** The path of the object itself, without any subresource. */
    String objectPath() {
        return collectionPath() + "/" + name;
    }

    /** As kubectl names the type in messages: {@code kafkatopics.kaas.rs}, {@code configmaps}. */
    String groupResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }
}
