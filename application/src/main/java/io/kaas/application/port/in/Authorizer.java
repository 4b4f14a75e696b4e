package io.kaas.application.port.in;

import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;

/**
 * Whether a principal, connecting from a host, may do an operation on a resource: what every API checks
 * before it acts, as Apache's KafkaApis does. Answers from memory, never blocks (it runs on event loops).
 */
public interface Authorizer {

    /** No authorizer configured ({@code KAAS_AUTHORIZATION_TYPE} unset): everything is allowed, as in Apache. */
    Authorizer ALLOW_ALL = new Authorizer() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public boolean allows(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type,
                              String name) {
            return true;
        }

        @Override
        public boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type) {
            return true;
        }
    };

    /** Whether ACLs are evaluated at all; when not, callers may skip working out what to ask. */
    boolean enabled();

    /**
     * Whether the operation is allowed on the named resource.
     *
     * @param host the client's IP address as text ({@code 127.0.0.1}), what ACL hosts name
     */
    boolean allows(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type, String name);

    /** Whether the operation is allowed on at least one resource of the type (Apache's {@code authorizeByResourceType}). */
    boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type);
}
