package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.QueuedExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class AppendQueueTest {
    private final QueuedExecutor threads = new QueuedExecutor();
    private final List<String> ran = new ArrayList<>();

    @Test
    void tasksRunInSubmissionOrderOnTheThreadsOneHandOffPerBurst() {
        AppendQueue queue = new AppendQueue(threads);
        queue.execute(() -> ran.add("a"));
        queue.execute(() -> ran.add("b"));
        queue.execute(() -> ran.add("c"));

        assertThat(ran).as("nothing on the caller's thread").isEmpty();
        assertThat(threads.runAll()).as("one turn for the burst").isOne();
        assertThat(ran).containsExactly("a", "b", "c");
    }

    @Test
    void aRequestsHeldTasksOnSeveralQueuesRunInOneHandOff() {
        AppendQueue p0 = new AppendQueue(threads);
        AppendQueue p1 = new AppendQueue(threads);
        p0.hold(() -> ran.add("p0"));
        p1.hold(() -> ran.add("p1"));

        assertThat(threads.pending()).as("holding starts no turn").isZero();
        AppendQueue.runTurns(List.of(p0, p1));

        assertThat(ran).isEmpty();
        assertThat(threads.runAll()).isOne();
        assertThat(ran).containsExactly("p0", "p1");
    }

    @Test
    void aQueueInATurnElsewhereRunsWhatWasHeldInThatTurnAfterItsEarlierTasks() {
        AppendQueue queue = new AppendQueue(threads);
        queue.execute(() -> ran.add("first"));
        queue.hold(() -> ran.add("held"));
        AppendQueue.runTurns(List.of(queue));

        threads.runAll();

        assertThat(ran).containsExactly("first", "held");
    }

    @Test
    void aTaskAddedByARunningTaskRunsInTheSameTurnAfterIt() {
        AppendQueue queue = new AppendQueue(threads);
        queue.execute(() -> {
            ran.add("outer");
            queue.execute(() -> ran.add("inner"));
            ran.add("outer done");
        });

        assertThat(threads.runAll()).isOne();
        assertThat(ran).containsExactly("outer", "outer done", "inner");
    }

    @Test
    void aFailingTaskDoesNotStopTheNextOnes() {
        AppendQueue queue = new AppendQueue(threads);
        queue.execute(() -> {
            throw new IllegalStateException("boom");
        });
        queue.execute(() -> ran.add("after"));

        threads.runAll();

        assertThat(ran).containsExactly("after");
    }

    @Test
    void inMemoryTurnsRunOnTheCallersThread() {
        AppendQueue queue = new AppendQueue(Runnable::run);
        queue.hold(() -> ran.add("held"));
        AppendQueue.runTurns(List.of(queue));
        queue.execute(() -> ran.add("executed"));

        assertThat(ran).containsExactly("held", "executed");
    }

    @Test
    void theRequestsOfOneLoopTickLeaveInOneHandOffAtTheTicksEnd() {
        QueuedExecutor loop = new QueuedExecutor();
        AppendQueue p0 = new AppendQueue(threads);
        AppendQueue p1 = new AppendQueue(threads);
        p0.hold(() -> ran.add("request 1, p0"));
        p1.hold(() -> ran.add("request 1, p1"));
        AppendQueue.runTurns(List.of(p0, p1), loop);
        p0.hold(() -> ran.add("request 2, p0"));
        AppendQueue.runTurns(List.of(p0), loop);

        assertThat(threads.pending()).as("nothing leaves before the tick ends").isZero();
        assertThat(loop.runAll()).as("one task queued on the loop for the tick").isOne();
        assertThat(threads.runAll()).as("one hand-off for both requests").isOne();
        assertThat(ran).containsExactly("request 1, p0", "request 2, p0", "request 1, p1");

        p1.hold(() -> ran.add("request 3, p1"));
        AppendQueue.runTurns(List.of(p1), loop);
        assertThat(loop.runAll()).as("the next tick starts a batch of its own").isOne();
        assertThat(threads.runAll()).isOne();
        assertThat(ran).endsWith("request 3, p1");
    }

    @Test
    void aLoopThatRefusesTasksStillGetsTheAppendsRun() {
        AppendQueue queue = new AppendQueue(threads);
        queue.hold(() -> ran.add("held"));
        AppendQueue.runTurns(List.of(queue), task -> {
            throw new RejectedExecutionException("loop shut down");
        });

        threads.runAll();

        assertThat(ran).containsExactly("held");
    }
}
