package io.kaas.operator.reconciler.user;

import io.kaas.adapter.k8s.crd.KafkaUser;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the {@code credentials.json} entries no KafkaUser names and rebuilds {@code acls.json} from the KafkaUsers
 * there are: the users' half of the orphan sweep, for deletions the operator did not see happen.
 */
public final class OrphanUserSweep implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanUserSweep.class);

    private final SecurityFiles files;
    private final Supplier<List<KafkaUser>> users;

    /**
     * @param users every KafkaUser, listed from the API server (not a cache that may not have synced); throws when it
     *              cannot list, and the pass is skipped
     */
    public OrphanUserSweep(SecurityFiles files, Supplier<List<KafkaUser>> users) {
        this.files = files;
        this.users = users;
    }

    /** One pass; the names of the entries removed. */
    public Set<String> sweep() {
        Set<String> removed = files.retainOnly(users.get());
        if (!removed.isEmpty()) {
            LOG.info("removed credentials.json entries {}: no KafkaUser names them", removed);
        }
        return removed;
    }

    @Override
    public void run() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.warn("user orphan sweep failed; the next pass retries", e);
        }
    }
}
