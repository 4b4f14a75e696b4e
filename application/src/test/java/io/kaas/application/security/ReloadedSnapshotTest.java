package io.kaas.application.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.fake.ManualScheduler;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ReloadedSnapshotTest {
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AtomicReference<String> file = new AtomicReference<>("v1");
    private final AtomicInteger derived = new AtomicInteger();
    private final List<Runnable> io = new ArrayList<>();

    private ReloadedSnapshot<String, String> start() {
        return ReloadedSnapshot.start("test.json", this::read, s -> {
            derived.incrementAndGet();
            return s.toUpperCase();
        }, scheduler, io::add, 1_000);
    }

    private String read() {
        String content = file.get();
        if (content == null) {
            throw new UncheckedIOException(new IOException("torn"));
        }
        return content;
    }

    /** Fires the interval, then runs the pass it queued on the I/O executor. */
    private void nextPass() {
        scheduler.advance(1_000);
        List<Runnable> queued = new ArrayList<>(io);
        io.clear();
        queued.forEach(Runnable::run);
    }

    @Test
    void readsAtStartThenPicksUpChangesEachInterval() {
        ReloadedSnapshot<String, String> snapshot = start();
        assertThat(snapshot.get()).isEqualTo("V1");

        file.set("v2");
        assertThat(snapshot.get()).as("nothing is read on get").isEqualTo("V1");
        nextPass();
        assertThat(snapshot.get()).isEqualTo("V2");
        snapshot.close();
    }

    @Test
    void anUnchangedFileIsNotDerivedAgain() {
        ReloadedSnapshot<String, String> snapshot = start();
        nextPass();
        nextPass();
        assertThat(derived).hasValue(1);
        snapshot.close();
    }

    @Test
    void aFailedReadKeepsTheLastViewAndTheNextPassRecovers() {
        ReloadedSnapshot<String, String> snapshot = start();
        file.set(null);
        nextPass();
        assertThat(snapshot.get()).isEqualTo("V1");
        file.set("v3");
        nextPass();
        assertThat(snapshot.get()).isEqualTo("V3");
        snapshot.close();
    }

    @Test
    void anExplicitReloadTakesEffectAtOnce() {
        ReloadedSnapshot<String, String> snapshot = start();
        file.set("mine");
        snapshot.reload();
        assertThat(snapshot.get()).isEqualTo("MINE");
        snapshot.close();
    }

    @Test
    void aFileUnreadableAtStartFailsTheStart() {
        file.set(null);
        assertThatThrownBy(this::start).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void closedItReadsNoMore() {
        ReloadedSnapshot<String, String> snapshot = start();
        snapshot.close();
        file.set("v2");
        nextPass();
        assertThat(snapshot.get()).isEqualTo("V1");
        assertThat(scheduler.pending()).isZero();
    }
}
