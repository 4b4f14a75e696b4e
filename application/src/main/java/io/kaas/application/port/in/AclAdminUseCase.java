package io.kaas.application.port.in;

import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import java.util.List;

/**
 * The ACL admin APIs (CreateAcls, DescribeAcls, DeleteAcls). Describe answers from memory; create and
 * delete write the ACLs through and do file or API-server I/O: call them off the event loop.
 */
public interface AclAdminUseCase {

    /** The ACLs the filter selects, as this broker enforces them now. */
    List<AclBinding> describe(AclFilter filter);

    /** Adds each binding (one already present is a success); one outcome per binding, in order. */
    List<Outcome> create(List<AclBinding> bindings);

    /** Removes what each filter selects; one result per filter, in order. */
    List<Deletion> delete(List<AclFilter> filters);

    /** What one delete filter did: the ACLs it removed, or why it removed none. */
    record Deletion(Outcome outcome, List<AclBinding> deleted) {
        public static Deletion failed(Outcome outcome) {
            return new Deletion(outcome, List.of());
        }
    }
}
