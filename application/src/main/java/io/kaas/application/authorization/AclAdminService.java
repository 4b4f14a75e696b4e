package io.kaas.application.authorization;

import io.kaas.application.port.in.AclAdminUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.AclWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.AclRules;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ACL admin APIs over the ACLs this broker enforces: describe reads them from memory; create and
 * delete go through the {@link AclWriter} and then reload, so a change to {@code acls.json} this broker made is
 * in effect on it when the answer leaves (in a cluster the writer edits KafkaUsers and the operator rewrites
 * {@code acls.json} a moment later). A binding the writer cannot store is refused with INVALID_REQUEST.
 */
public final class AclAdminService implements AclAdminUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(AclAdminService.class);

    private final Supplier<AclRules> rules;
    private final AclWriter writer;
    private final Runnable reload;

    /**
     * @param rules  the ACLs in effect
     * @param writer where changes go
     * @param reload re-reads the ACLs after a write (on the calling I/O thread)
     */
    public AclAdminService(Supplier<AclRules> rules, AclWriter writer, Runnable reload) {
        this.rules = rules;
        this.writer = writer;
        this.reload = reload;
    }

    @Override
    public List<AclBinding> describe(AclFilter filter) {
        return rules.get().matching(filter);
    }

    @Override
    public List<Outcome> create(List<AclBinding> bindings) {
        List<Outcome> outcomes = new ArrayList<>();
        List<AclBinding> valid = new ArrayList<>();
        for (AclBinding binding : bindings) {
            Outcome checked = validate(binding);
            outcomes.add(checked);
            if (checked.succeeded()) {
                valid.add(binding);
            }
        }
        if (valid.isEmpty()) {
            return outcomes;
        }
        Outcome written = write(() -> writer.add(valid));
        return outcomes.stream().map(o -> o.succeeded() ? written : o).toList();
    }

    @Override
    public List<Deletion> delete(List<AclFilter> filters) {
        List<List<AclBinding>> removed = new ArrayList<>();
        Outcome written = write(() -> removed.addAll(writer.remove(filters)));
        if (!written.succeeded()) {
            return filters.stream().map(f -> Deletion.failed(written)).toList();
        }
        return removed.stream().map(r -> new Deletion(Outcome.OK, r)).toList();
    }

    /** Apache's checks on a new ACL beyond what the wire format already guarantees. */
    private Outcome validate(AclBinding binding) {
        if (binding.resourceType() == AclResourceType.CLUSTER
                && !binding.resourceName().equals(AclResourceType.CLUSTER_NAME)) {
            return new Outcome(KafkaError.INVALID_REQUEST,
                    "The only valid name for the CLUSTER resource is " + AclResourceType.CLUSTER_NAME);
        }
        if (binding.resourceName().isEmpty()) {
            return new Outcome(KafkaError.INVALID_REQUEST, "Invalid empty resource name");
        }
        return writer.refusal(binding).map(why -> new Outcome(KafkaError.INVALID_REQUEST, why)).orElse(Outcome.OK);
    }

    private Outcome write(Runnable change) {
        try {
            change.run();
        } catch (RuntimeException e) {
            LOG.warn("an ACL change could not be written", e);
            return new Outcome(KafkaError.UNKNOWN_SERVER_ERROR, "the ACLs could not be written: " + e.getMessage());
        }
        reload.run();
        return Outcome.OK;
    }
}
