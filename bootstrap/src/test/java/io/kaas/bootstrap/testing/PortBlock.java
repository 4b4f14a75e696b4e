package io.kaas.bootstrap.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ports of one {@link LocalCluster}, held from before it starts until it is closed: a base below Linux's
 * ephemeral range (32768 and up, where other tests' sockets land) whose every port the cluster uses (Kafka,
 * heartbeat, health and SASL per broker, the API server, the operator's probes) is free, reserved by a lock file
 * in the temporary directory. Being free is not enough: the integration tests run in two JVMs, and two clusters
 * that found the same base free a moment apart would start on it together (the second API server cannot bind, and
 * its script then talks to the first one's).
 */
record PortBlock(int base, FileChannel lockFile, FileLock lock) implements AutoCloseable {
    private static final Path LOCKS = Path.of(System.getProperty("java.io.tmpdir"), "kaas-local-cluster-ports");
    private static final int BASES = 12;

    /** A free block for {@code brokers} brokers, reserved until {@link #close}. */
    static PortBlock reserve(int brokers) {
        try {
            Files.createDirectories(LOCKS);
            for (int attempt = 0; attempt < 50; attempt++) {
                int base = 20_000 + ThreadLocalRandom.current().nextInt(BASES) * 1_000;
                PortBlock block = tryLock(base);
                if (block == null) {
                    continue;
                }
                if (allFree(base, brokers)) {
                    return block;
                }
                block.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no free block of ports for a local cluster");
    }

    /** The block's lock, or null when another cluster (in this JVM or another) holds it. */
    private static PortBlock tryLock(int base) throws IOException {
        FileChannel channel = FileChannel.open(LOCKS.resolve(base + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return new PortBlock(base, channel, lock);
            }
        } catch (OverlappingFileLockException heldInThisJvm) {
            // another cluster of this JVM has it
        }
        channel.close();
        return null;
    }

    private static boolean allFree(int base, int brokers) {
        boolean free = free(base + 300) && free(base + 301);
        for (int id = 0; id < brokers && free; id++) {
            free = free(base + id) && free(base + 100 + id) && free(base + 200 + id) && free(base + 400 + id);
        }
        return free;
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            lockFile.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
