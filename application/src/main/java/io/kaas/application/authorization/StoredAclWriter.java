package io.kaas.application.authorization;

import io.kaas.application.port.out.AclStore;
import io.kaas.application.port.out.AclWriter;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Standalone's ACL writes: read-modify-write of {@code acls.json}, one at a time (this broker is its only
 * writer), skipped when nothing changes.
 */
public final class StoredAclWriter implements AclWriter {
    private final AclStore store;

    public StoredAclWriter(AclStore store) {
        this.store = store;
    }

    @Override
    public synchronized void add(List<AclBinding> bindings) {
        Set<AclBinding> acls = new LinkedHashSet<>(store.read());
        if (acls.addAll(bindings)) {
            store.write(List.copyOf(acls));
        }
    }

    @Override
    public synchronized List<List<AclBinding>> remove(List<AclFilter> filters) {
        Set<AclBinding> kept = new LinkedHashSet<>(store.read());
        List<List<AclBinding>> removed = new ArrayList<>();
        boolean changed = false;
        for (AclFilter filter : filters) {
            List<AclBinding> matched = kept.stream().filter(filter::matches).toList();
            matched.forEach(kept::remove);
            changed |= !matched.isEmpty();
            removed.add(matched);
        }
        if (changed) {
            store.write(List.copyOf(kept));
        }
        return removed;
    }
}
