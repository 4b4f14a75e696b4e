package io.kaas.adapter.wire;

import io.kaas.application.port.in.AclAdminUseCase;
import io.kaas.application.port.in.Authorizer;

/**
 * What the wire asks before it acts and how ACLs are managed: the authorizer every handler consults and the
 * ACL admin use case behind CreateAcls, DescribeAcls and DeleteAcls.
 *
 * @param acls null with {@link #DISABLED}: the ACL APIs then answer SECURITY_DISABLED before reaching it
 */
public record AccessControl(Authorizer authorizer, AclAdminUseCase acls) {
    /** No authorizer ({@code KAAS_AUTHORIZATION_TYPE} unset): everything allowed, no ACLs to manage. */
    public static final AccessControl DISABLED = new AccessControl(Authorizer.ALLOW_ALL, null);
}
