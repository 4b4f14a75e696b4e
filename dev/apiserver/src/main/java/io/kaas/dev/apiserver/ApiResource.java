package io.kaas.dev.apiserver;

import java.util.List;

/**
 * One resource type this server serves, with what discovery says about it and how {@code kubectl get} prints it.
 *
 * @param group             "" for the core group
 * @param singular          "" for the review types, which have no singular name in kube-apiserver either
 * @param statusSubresource whether {@code PLURAL/status} is served as a subresource
 * @param columns           printer columns after Name
 */
record ApiResource(String group, String version, String kind, String plural, String singular, boolean namespaced,
        List<String> shortNames, List<String> categories, List<String> verbs, boolean statusSubresource,
        List<PrinterColumn> columns) {

    /** What kube-apiserver allows on a stored resource type. */
    static final List<String> STORED_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }
}
