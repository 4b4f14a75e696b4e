package io.kaas.application.authorization;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.in.AclAdminUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.AclStore;
import io.kaas.application.port.out.AclWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.AclRules;
import io.kaas.domain.security.KafkaPrincipal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AclAdminServiceTest {
    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");
    private static final AclBinding READ_ORDERS = new AclBinding(ALICE, "*", AclResourceType.TOPIC, "orders",
            AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW);
    private static final AclBinding WRITE_PREFIX = new AclBinding(ALICE, "*", AclResourceType.TOPIC, "ord",
            AclPatternType.PREFIXED, AclOperation.WRITE, AclPermission.ALLOW);
    private static final AclBinding GROUP_READ = new AclBinding(ALICE, "*", AclResourceType.GROUP, "g",
            AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW);

    private final FileAclStore store = new FileAclStore();
    private AclRules rules = AclRules.EMPTY;
    private final AclAdminService service = new AclAdminService(() -> rules, new StoredAclWriter(store),
            () -> rules = AclRules.of(store.read()));
    private final AclAuthorizer authorizer = new AclAuthorizer(Set.of(), () -> rules);

    @Test
    void createdAclsAreDurableAndInEffectWhenTheAnswerLeaves() {
        assertThat(service.create(List.of(READ_ORDERS, WRITE_PREFIX))).containsExactly(Outcome.OK, Outcome.OK);

        assertThat(store.read()).containsExactly(READ_ORDERS, WRITE_PREFIX);
        assertThat(authorizer.allows(ALICE, "h", AclOperation.READ, AclResourceType.TOPIC, "orders")).isTrue();
        assertThat(service.describe(AclFilter.ANY)).containsExactly(READ_ORDERS, WRITE_PREFIX);
    }

    @Test
    void creatingAnAclTwiceKeepsOneAndWritesNothing() {
        service.create(List.of(READ_ORDERS));
        int writes = store.writes;
        assertThat(service.create(List.of(READ_ORDERS))).containsExactly(Outcome.OK);
        assertThat(store.read()).containsExactly(READ_ORDERS);
        assertThat(store.writes).isEqualTo(writes);
    }

    @Test
    void invalidBindingsAreRefusedOneByOneAndTheRestCreated() {
        AclBinding otherCluster = new AclBinding(ALICE, "*", AclResourceType.CLUSTER, "my-cluster",
                AclPatternType.LITERAL, AclOperation.ALTER, AclPermission.ALLOW);
        AclBinding emptyName = new AclBinding(ALICE, "*", AclResourceType.TOPIC, "", AclPatternType.LITERAL,
                AclOperation.READ, AclPermission.ALLOW);

        List<Outcome> outcomes = service.create(List.of(otherCluster, READ_ORDERS, emptyName));

        assertThat(outcomes).extracting(Outcome::error).containsExactly(KafkaError.INVALID_REQUEST, KafkaError.NONE,
                KafkaError.INVALID_REQUEST);
        assertThat(outcomes.get(0).message()).isEqualTo("The only valid name for the CLUSTER resource is kafka-cluster");
        assertThat(store.read()).containsExactly(READ_ORDERS);
    }

    @Test
    void deleteRemovesWhatEachFilterSelectsOnce() {
        service.create(List.of(READ_ORDERS, WRITE_PREFIX, GROUP_READ));
        AclFilter topicsMatchingOrders = new AclFilter(AclResourceType.TOPIC, "orders", AclFilter.PatternFilter.MATCH,
                null, null, null, null);

        List<AclAdminUseCase.Deletion> deletions = service.delete(List.of(topicsMatchingOrders, AclFilter.ANY));

        assertThat(deletions.get(0).deleted()).containsExactly(READ_ORDERS, WRITE_PREFIX);
        assertThat(deletions.get(1).deleted()).containsExactly(GROUP_READ);
        assertThat(store.read()).isEmpty();
        assertThat(authorizer.allows(ALICE, "h", AclOperation.READ, AclResourceType.GROUP, "g")).isFalse();
    }

    @Test
    void aFailedWriteAnswersAnErrorForEachEntryAndChangesNothing() {
        service.create(List.of(READ_ORDERS));
        store.failWrites = true;

        assertThat(service.create(List.of(WRITE_PREFIX, GROUP_READ))).extracting(Outcome::error)
                .containsExactly(KafkaError.UNKNOWN_SERVER_ERROR, KafkaError.UNKNOWN_SERVER_ERROR);
        assertThat(service.delete(List.of(AclFilter.ANY, AclFilter.ANY))).extracting(d -> d.outcome().error())
                .containsExactly(KafkaError.UNKNOWN_SERVER_ERROR, KafkaError.UNKNOWN_SERVER_ERROR);
        assertThat(service.describe(AclFilter.ANY)).containsExactly(READ_ORDERS);
    }

    @Test
    void aBindingTheWriterCannotStoreIsRefusedAndTheOthersWritten() {
        StoredAclWriter stored = new StoredAclWriter(store);
        AclWriter groupsOnly = new AclWriter() {
            @Override
            public Optional<String> refusal(AclBinding binding) {
                return binding.resourceType() == AclResourceType.GROUP ? Optional.empty() : Optional.of("groups only");
            }

            @Override
            public void add(List<AclBinding> bindings) {
                stored.add(bindings);
            }

            @Override
            public List<List<AclBinding>> remove(List<AclFilter> filters) {
                return stored.remove(filters);
            }
        };
        AclAdminService picky = new AclAdminService(() -> rules, groupsOnly, () -> rules = AclRules.of(store.read()));

        assertThat(picky.create(List.of(WRITE_PREFIX, GROUP_READ))).containsExactly(
                new Outcome(KafkaError.INVALID_REQUEST, "groups only"), Outcome.OK);
        assertThat(store.read()).containsExactly(GROUP_READ);
        assertThat(picky.describe(AclFilter.ANY)).containsExactly(GROUP_READ);
    }

    @Test
    void superUsersMayDoAnythingWhateverTheAcls() {
        rules = AclRules.of(List.of(new AclBinding(ALICE, "*", AclResourceType.TOPIC, "*", AclPatternType.LITERAL,
                AclOperation.ALL, AclPermission.DENY)));
        AclAuthorizer withSuperUser = new AclAuthorizer(Set.of(ALICE), () -> rules);

        assertThat(withSuperUser.allows(ALICE, "h", AclOperation.WRITE, AclResourceType.TOPIC, "t")).isTrue();
        assertThat(withSuperUser.allowsAny(ALICE, "h", AclOperation.WRITE, AclResourceType.TOPIC)).isTrue();
        assertThat(authorizer.allows(ALICE, "h", AclOperation.WRITE, AclResourceType.TOPIC, "t")).isFalse();
    }

    /** acls.json in memory. */
    private static final class FileAclStore implements AclStore {
        private List<AclBinding> acls = List.of();
        int writes;
        boolean failWrites;

        @Override
        public List<AclBinding> read() {
            return acls;
        }

        @Override
        public void write(List<AclBinding> next) {
            if (failWrites) {
                throw new UncheckedIOException(new IOException("disk full"));
            }
            writes++;
            acls = new ArrayList<>(next);
        }
    }
}
