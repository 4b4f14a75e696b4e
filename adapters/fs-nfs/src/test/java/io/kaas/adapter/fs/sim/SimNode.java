package io.kaas.adapter.fs.sim;

/** An inode of the simulated volume: a file or a directory. Guarded by the filesystem's lock. */
sealed interface SimNode permits SimFile, SimDir {
    long modifiedMs();
}
