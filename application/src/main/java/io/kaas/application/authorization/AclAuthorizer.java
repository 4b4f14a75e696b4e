package io.kaas.application.authorization;

import io.kaas.application.port.in.Authorizer;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.AclRules;
import io.kaas.domain.security.KafkaPrincipal;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code KAAS_AUTHORIZATION_TYPE=simple}: the ACLs of {@code acls.json}, as last reloaded, decide; super
 * users ({@code KAAS_SUPER_USERS}, Apache's {@code super.users}) may do anything, whatever the ACLs say.
 */
public final class AclAuthorizer implements Authorizer {
    private final Set<KafkaPrincipal> superUsers;
    private final Supplier<AclRules> rules;

    /** @param rules the current ACLs; read on every check, so it must answer from memory */
    public AclAuthorizer(Set<KafkaPrincipal> superUsers, Supplier<AclRules> rules) {
        this.superUsers = Set.copyOf(superUsers);
        this.rules = rules;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public boolean allows(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type,
                          String name) {
        return superUsers.contains(principal) || rules.get().allows(principal, host, operation, type, name);
    }

    @Override
    public boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type) {
        return superUsers.contains(principal) || rules.get().allowsAny(principal, host, operation, type);
    }
}
