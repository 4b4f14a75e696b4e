package io.kaas.operator.reconciler.user;

import static io.kaas.operator.model.user.Users.user;
import static io.kaas.operator.model.user.Users.withAcl;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonAclStore;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.k8s.crd.AclOperation;
import io.kaas.adapter.k8s.crd.AclResourceType;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.application.port.out.CredentialStore;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecurityFilesTest {
    @TempDir
    Path data;

    private JsonCredentialStore credentials;
    private JsonAclStore acls;
    private final AtomicInteger credentialWrites = new AtomicInteger();
    private SecurityFiles files;

    @BeforeEach
    void setUp() {
        DataLayout layout = new DataLayout(data);
        JsonFiles json = new JsonFiles(new NioFilesystem(), new JacksonCodec());
        credentials = new JsonCredentialStore(layout, json);
        acls = new JsonAclStore(layout, json);
        CredentialStore counting = new CredentialStore() {
            @Override
            public Credentials read() {
                return credentials.read();
            }

            @Override
            public void write(Credentials next) {
                credentialWrites.incrementAndGet();
                credentials.write(next);
            }
        };
        files = new SecurityFiles(counting, acls);
    }

    @Test
    void concurrentReconcilesLoseNoEntry() throws Exception {
        int users = 24;
        List<KafkaUser> all = IntStream.range(0, users).mapToObj(i -> withAcl(user("user-" + i,
                AuthenticationType.TLS), AclResourceType.TOPIC, "topic-" + i, null, null, null, AclOperation.READ))
                .toList();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int i = 0; i < users; i++) {
                String name = "user-" + i;
                List<KafkaUser> seen = all.subList(0, i + 1); // each sees the users created before it
                done.add(pool.submit(() -> {
                    go.await();
                    return files.materialize(name, current -> Optional.of(new StoredUser(name, Map.of(),
                            UserQuotas.NONE)), seen);
                }));
            }
            go.countDown();
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(credentials.read().users()).hasSize(users);
        files.rebuildAcls(all);
        assertThat(acls.read()).hasSize(users);
    }

    @Test
    void anUnchangedEntryIsNotWrittenAgain() {
        StoredUser alice = new StoredUser("alice", Map.of(), new UserQuotas(1024L, null, null, null));
        List<KafkaUser> users = List.of(user("alice", AuthenticationType.TLS));

        files.materialize("alice", current -> Optional.of(alice), users);
        files.materialize("alice", current -> Optional.of(alice), users);

        assertThat(credentialWrites).hasValue(1);
        assertThat(credentials.read().user("alice")).contains(alice);
    }

    @Test
    void theSweepRemovesEntriesNoUserNamesAndADeletionOnlyItsOwn() {
        for (String name : List.of("alice", "bob", "carol")) {
            files.materialize(name, current -> Optional.of(new StoredUser(name, Map.of(), UserQuotas.NONE)),
                    List.of());
        }

        files.remove("carol", List.of(user("alice", null), user("carol", null))); // created again: kept
        assertThat(credentials.read().users()).containsOnlyKeys("alice", "bob", "carol");
        files.remove("carol", List.of(user("alice", null)));
        assertThat(credentials.read().users()).containsOnlyKeys("alice", "bob");

        assertThat(files.retainOnly(List.of(user("alice", null)))).containsExactly("bob");
        assertThat(credentials.read().users()).containsOnlyKeys("alice");
    }
}
