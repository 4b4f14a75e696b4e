package io.kaas.adapter.fs;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.UUID;

/**
 * The substrate contract for metadata files: write a temp file in the target's directory, fsync it,
 * rename it over the target, fsync the directory. A reader sees the old or the new content, never
 * a mix, and after a crash the rename is either durable or absent.
 */
public final class AtomicFiles {
    // The same primitives the storage engine gets through the Filesystem port, so both stay in step.
    private static final NioFilesystem FS = new NioFilesystem();

    private AtomicFiles() {
    }

    public static void write(Path target, byte[] content) {
        Path dir = target.toAbsolutePath().getParent();
        // A unique temp name: two in-process writers of one file never share a temp file.
        Path temp = dir.resolve("." + target.getFileName() + ".tmp-" + UUID.randomUUID());
        try {
            FS.createDirectories(dir);
            try (FileHandle handle = FS.open(temp, true)) {
                handle.write(ByteBuffer.wrap(content), 0);
                handle.force();
            }
            FS.rename(temp, target);
            FS.fsyncDirectory(dir);
        } catch (IOException e) {
            try {
                FS.delete(temp);
            } catch (IOException ignored) {
                // the temp name is unique and ignored by readers; a leftover is harmless
            }
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    /** Deletes a file and makes the deletion durable; a missing file is not an error. */
    public static void delete(Path target) {
        try {
            if (Files.deleteIfExists(target)) {
                fsyncDirectory(target.toAbsolutePath().getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + target, e);
        }
    }

    /** Deletes a directory tree, deepest first, then makes the removal durable in its parent. */
    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    if (failure != null) {
                        throw failure;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
            fsyncDirectory(root.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /** Makes renames, creations and deletions in a directory durable (Linux: fsync on the directory). */
    public static void fsyncDirectory(Path dir) throws IOException {
        FS.fsyncDirectory(dir);
    }
}
