package io.kaas.application.port.out;

import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import java.util.List;
import java.util.Optional;

/**
 * Where the ACL admin APIs write ACLs: {@code acls.json} itself in standalone; in a cluster the source the
 * operator rebuilds {@code acls.json} from. Calls do I/O: make them from an I/O or control thread.
 */
public interface AclWriter {

    /** Why this writer cannot store {@code binding}, beyond Apache's own checks; empty when it can. */
    default Optional<String> refusal(AclBinding binding) {
        return Optional.empty();
    }

    /**
     * Adds the bindings not already there; durable when it returns.
     *
     * @throws java.io.UncheckedIOException when they could not be written
     */
    void add(List<AclBinding> bindings);

    /**
     * Removes every ACL each filter selects; durable when it returns.
     *
     * @return per filter, in order, the ACLs it removed (an ACL two filters select is counted for the first)
     * @throws java.io.UncheckedIOException when the removal could not be written
     */
    List<List<AclBinding>> remove(List<AclFilter> filters);
}
