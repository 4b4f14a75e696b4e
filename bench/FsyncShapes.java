import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What one group-commit round costs the disk, by the shape of its fsyncs (issue 15's design question):
 * P partitions each append B bytes, then the round is made durable
 * <ul>
 *   <li>{@code per-partition}: one fdatasync per partition file, back to back (what a per-partition log does
 *       on one thread);</li>
 *   <li>{@code per-partition-parallel}: the same fdatasyncs issued at once from P threads;</li>
 *   <li>{@code one-log}: the P appends go to one shared file (a per-broker write-ahead log) and one
 *       fdatasync covers them all.</li>
 * </ul>
 * Per round: wall ms, device write requests (from /proc/diskstats for the device under DIR) and process CPU ms.
 * Run from the repository root: {@code java bench/FsyncShapes.java DIR [PARTITIONS 6] [BYTES 16384] [ROUNDS 500]}
 * with DIR on the filesystem to judge (the data volume). Results: docs/perf/2026-12-02-fsync-shapes.md.
 */
public final class FsyncShapes {
    private FsyncShapes() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]).resolve("fsync-shapes"));
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        int bytes = args.length > 2 ? Integer.parseInt(args[2]) : 16384;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 500;
        String device = deviceOf(dir);
        System.out.printf("dir %s (device %s), %d partitions x %d bytes per round, %d rounds%n",
                dir, device, partitions, bytes, rounds);
        System.out.printf("%-24s %10s %14s %12s%n", "shape", "ms/round", "writes/round", "cpu ms/round");
        ExecutorService pool = Executors.newFixedThreadPool(partitions);
        try {
            for (int pass = 0; pass < 2; pass++) { // the first pass warms up the JIT and the filesystem
                for (Shape shape : Shape.values()) {
                    measure(shape, dir, partitions, bytes, rounds, device, pool, pass == 1);
                }
            }
        } finally {
            pool.shutdownNow();
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private enum Shape { PER_PARTITION, PER_PARTITION_PARALLEL, ONE_LOG, ONE_LOG_PREWRITTEN }

    private static void measure(Shape shape, Path dir, int partitions, int bytes, int rounds, String device,
                                ExecutorService pool, boolean print) throws Exception {
        List<FileChannel> files = new ArrayList<>();
        boolean oneLog = shape == Shape.ONE_LOG || shape == Shape.ONE_LOG_PREWRITTEN;
        int fileCount = oneLog ? 1 : partitions;
        for (int i = 0; i < fileCount; i++) {
            files.add(FileChannel.open(dir.resolve(shape + "-" + i), StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
        }
        ByteBuffer payload = ByteBuffer.allocateDirect(bytes);
        if (shape == Shape.ONE_LOG_PREWRITTEN) { // zeros written and synced first: the rounds change no file size
            prewrite(files.get(0), (long) rounds * partitions * bytes);
        }
        long[] position = new long[fileCount];
        long writes0 = deviceWrites(device);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            for (int p = 0; p < partitions; p++) {
                int f = oneLog ? 0 : p;
                position[f] += files.get(f).write(payload.duplicate(), position[f]);
            }
            switch (shape) {
                case PER_PARTITION -> {
                    for (FileChannel f : files) {
                        f.force(false);
                    }
                }
                case PER_PARTITION_PARALLEL -> {
                    List<Future<?>> done = new ArrayList<>();
                    for (FileChannel f : files) {
                        done.add(pool.submit(() -> {
                            f.force(false);
                            return null;
                        }));
                    }
                    for (Future<?> d : done) {
                        d.get();
                    }
                }
                case ONE_LOG, ONE_LOG_PREWRITTEN -> files.get(0).force(false);
            }
        }
        double wallMs = (System.nanoTime() - t0) / 1e6 / rounds;
        double cpuMs = (processCpuNanos() - cpu0) / 1e6 / rounds;
        double writes = (deviceWrites(device) - writes0) / (double) rounds;
        for (FileChannel f : files) {
            f.close();
        }
        if (print) {
            System.out.printf("%-24s %10.3f %14.2f %12.3f%n", shape.name().toLowerCase().replace('_', '-'),
                    wallMs, writes, cpuMs);
        }
    }

    private static void prewrite(FileChannel file, long size) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        for (long at = 0; at < size; ) {
            at += file.write(zeros.clear().limit((int) Math.min(zeros.capacity(), size - at)), at);
        }
        file.force(true);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The block device a directory lives on, as /proc/diskstats names it ("" if unknown). */
    private static String deviceOf(Path dir) throws IOException {
        String best = "";
        int bestLength = -1;
        for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
            String[] f = line.split(" ");
            if (f[0].startsWith("/dev/") && dir.toAbsolutePath().toString().startsWith(f[1])
                    && f[1].length() > bestLength) {
                best = f[0].substring("/dev/".length());
                bestLength = f[1].length();
            }
        }
        return best;
    }

    /** Completed write requests of {@code device} (field 8 of /proc/diskstats); -1 when it is not listed. */
    private static long deviceWrites(String device) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
            String[] f = line.trim().split("\\s+");
            if (f[2].equals(device)) {
                return Long.parseLong(f[7]);
            }
        }
        return -1;
    }
}
