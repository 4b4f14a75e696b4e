package io.kaas.adapter.fs.sim;

/**
 * Which faults a {@link SimulatedFilesystem} injects by itself, drawing on its seeded random.
 * {@link #reliable()} injects none; tests switch faults on with the {@code with*} methods.
 *
 * @param tornWrites on {@code crash()}, a random-length prefix of each file's un-fsynced tail may
 *     survive (a page-cache writeback that got partway), instead of none of it
 * @param garbledTornPage with torn writes, the last surviving 4 KiB page of a torn tail may end in
 *     random bytes (a page whose size update reached the disk before its data)
 * @param fsyncFailureProbability chance, per file or directory fsync, that it fails with
 *     "fsync failed" and makes nothing durable
 * @param capacityBytes the volume's size; a write that needs more space fails with ENOSPC
 */
public record SimOptions(boolean tornWrites, boolean garbledTornPage, double fsyncFailureProbability, long capacityBytes) {

    public SimOptions {
        if (!(fsyncFailureProbability >= 0 && fsyncFailureProbability <= 1)) { // also rejects NaN
            throw new IllegalArgumentException("fsyncFailureProbability must be in [0, 1]: " + fsyncFailureProbability);
        }
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacityBytes must not be negative: " + capacityBytes);
        }
    }

    /** No faults: crashes lose exactly the un-fsynced state, fsync never fails, the disk never fills. */
    public static SimOptions reliable() {
        return new SimOptions(false, false, 0, Long.MAX_VALUE);
    }

    public SimOptions withTornWrites(boolean enabled) {
        return new SimOptions(enabled, garbledTornPage, fsyncFailureProbability, capacityBytes);
    }

    /** Also enables torn writes, which a garbled page is a kind of. */
    public SimOptions withGarbledTornPage(boolean enabled) {
        return new SimOptions(tornWrites || enabled, enabled, fsyncFailureProbability, capacityBytes);
    }

    public SimOptions withFsyncFailureProbability(double probability) {
        return new SimOptions(tornWrites, garbledTornPage, probability, capacityBytes);
    }

    public SimOptions withCapacityBytes(long capacity) {
        return new SimOptions(tornWrites, garbledTornPage, fsyncFailureProbability, capacity);
    }
}
