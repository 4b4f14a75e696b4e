package io.kaas.adapter.fs.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same seed, options and calls give the same volume: a failing crash test can be replayed. */
class SimulatedDeterminismTest {
    private static final Path DATA = Path.of("/data/orders/0");
    private static final SimOptions HOSTILE = SimOptions.reliable()
            .withGarbledTornPage(true)
            .withFsyncFailureProbability(0.3)
            .withCapacityBytes(25_000);

    @Test
    void theSameSeedGivesTheSameOutcome() throws IOException {
        List<String> first = runScript(1234);
        List<String> second = runScript(1234);

        assertThat(second).isEqualTo(first);
        assertThat(first).anyMatch(line -> line.contains("fsync failed"))
                .anyMatch(line -> line.contains("No space left on device"));
    }

    /** Appends with group commits, crashes, rewrites metadata; records every outcome and the final volume. */
    private static List<String> runScript(long seed) throws IOException {
        SimulatedFilesystem fs = new SimulatedFilesystem(seed, HOSTILE);
        List<String> trace = new ArrayList<>();
        fs.createDirectories(DATA);
        for (int round = 0; round < 4; round++) {
            Path segment = DATA.resolve(String.format("%08x-%020d.log", round, round * 100));
            try (FileHandle handle = fs.open(segment, true)) {
                for (int batch = 0; batch < 10; batch++) {
                    byte[] bytes = new byte[1000 + 37 * batch];
                    Arrays.fill(bytes, (byte) ('a' + batch));
                    attempt(trace, "write", () -> handle.write(ByteBuffer.wrap(bytes), handle.size()));
                    if (batch % 3 == 2) {
                        attempt(trace, "force", handle::force);
                    }
                }
            }
            attempt(trace, "fsyncDirectory", () -> fs.fsyncDirectory(DATA));
            byte[] manifest = ("{\"round\": " + round + "}").getBytes(StandardCharsets.UTF_8);
            attempt(trace, "manifest", () -> fs.writeAtomically(DATA.resolve("manifest.json"), manifest));
            fs.crash();
        }
        for (String name : fs.list(DATA)) {
            trace.add(name + " = " + Arrays.hashCode(fs.readAll(DATA.resolve(name)).orElseThrow()));
        }
        trace.add("fsyncs=" + fs.fsyncCount() + " dirFsyncs=" + fs.directoryFsyncCount()
                + " failed=" + fs.failedFsyncCount() + " written=" + fs.bytesWritten());
        return trace;
    }

    private interface Step {
        void run() throws IOException;
    }

    private static void attempt(List<String> trace, String what, Step step) {
        try {
            step.run();
            trace.add(what + " ok");
        } catch (IOException e) {
            trace.add(what + " " + e.getMessage());
        }
    }
}
