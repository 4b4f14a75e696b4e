package io.kaas.operator.reconciler.user;

import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.application.port.out.AclStore;
import io.kaas.application.port.out.CredentialStore;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.operator.model.user.UserAcls;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's one writer of {@code __cluster/credentials.json} and {@code __cluster/acls.json}, through the stores
 * the brokers read them with. Users are reconciled concurrently, and every change is a read-modify-write of a whole
 * file, so each one runs alone here: no reconcile, deletion or sweep loses another's update. A file is rewritten only
 * when its content changes (temp + fsync + rename in the stores).
 */
public final class SecurityFiles {
    private static final Logger LOG = LoggerFactory.getLogger(SecurityFiles.class);

    private final CredentialStore credentials;
    private final AclStore acls;

    public SecurityFiles(CredentialStore credentials, AclStore acls) {
        this.credentials = credentials;
        this.acls = acls;
    }

    /**
     * Sets {@code name}'s entry to what {@code entry} makes of the current one (empty: no entry), then rebuilds the ACLs
     * from {@code users}.
     *
     * @param users every KafkaUser there is
     * @return the entry as written
     */
    public synchronized Optional<StoredUser> materialize(String name, UnaryOperator<Optional<StoredUser>> entry,
                                         Collection<KafkaUser> users) {
        Credentials current = credentials.read();
        Optional<StoredUser> next = entry.apply(current.user(name));
        write(next.map(current::with).orElseGet(() -> current.without(name)), current);
        rebuildAcls(users);
        return next;
    }

    /** Rebuilds the ACLs from {@code users} alone: a user refused as it stands keeps what it had. */
    public synchronized void rebuildAcls(Collection<KafkaUser> users) {
        List<AclBinding> current = acls.read();
        List<AclBinding> next = UserAcls.rebuild(users, current);
        if (!next.equals(current)) {
            acls.write(next);
            LOG.info("acls.json: {} ACLs from {} KafkaUsers", next.size(), users.size());
        }
    }

    /**
     * Removes the entry of {@code deleted} unless a KafkaUser of that name exists again, and rebuilds the ACLs.
     *
     * @param users every KafkaUser there is, listed from the API server after the deletion
     */
    public synchronized void remove(String deleted, Collection<KafkaUser> users) {
        if (names(users).contains(deleted)) {
            return; // created again meanwhile: its reconcile decides the entry
        }
        Credentials current = credentials.read();
        write(current.without(deleted), current);
        rebuildAcls(users);
    }

    /**
     * Removes every entry no KafkaUser names and rebuilds the ACLs: the orphan sweep.
     *
     * @param users every KafkaUser there is, listed from the API server
     * @return the names removed
     */
    public synchronized Set<String> retainOnly(Collection<KafkaUser> users) {
        Set<String> live = names(users);
        Credentials current = credentials.read();
        Set<String> orphans = new TreeSet<>(current.users().keySet());
        orphans.removeAll(live);
        Credentials next = current;
        for (String orphan : orphans) {
            next = next.without(orphan);
        }
        write(next, current);
        rebuildAcls(users);
        return orphans;
    }

    private void write(Credentials next, Credentials current) {
        if (!next.equals(current)) {
            credentials.write(next);
        }
    }

    private static Set<String> names(Collection<KafkaUser> users) {
        return users.stream().map(user -> user.getMetadata().getName()).collect(Collectors.toSet());
    }
}
