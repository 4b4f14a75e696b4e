package io.kaas.application.port.out;

import io.kaas.domain.security.AclBinding;
import java.util.List;

/**
 * {@code __cluster/acls.json} on the shared volume: every ACL of the cluster. In cluster mode only the
 * operator writes it (rebuilt from all KafkaUser resources); in standalone the ACL admin APIs do.
 * Brokers re-read it to pick up changes without a restart. Both calls do file I/O: call them from an
 * I/O or control thread.
 */
public interface AclStore {

    /**
     * The ACLs on the volume, in file order; empty before anyone wrote them.
     *
     * @throws java.io.UncheckedIOException when the file exists but cannot be read or parsed
     */
    List<AclBinding> read();

    /**
     * Replaces the ACLs; durable when it returns (temp + fsync + rename).
     *
     * @throws java.io.UncheckedIOException when they could not be made durable
     */
    void write(List<AclBinding> acls);
}
