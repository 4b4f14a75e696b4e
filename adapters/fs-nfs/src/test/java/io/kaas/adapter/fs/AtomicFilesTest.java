package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static long entries(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.count();
        }
    }

    @Test
    void writeCreatesMissingDirectoriesAndTheFile() throws IOException {
        Path target = dir.resolve("a/b/file.json");

        AtomicFiles.write(target, utf8("{\"v\":1}"));

        assertThat(target).hasContent("{\"v\":1}");
    }

    @Test
    void writeReplacesTheWholeContentAndLeavesNoTempFiles() throws IOException {
        Path target = dir.resolve("file.json");
        AtomicFiles.write(target, utf8("a much longer first version"));

        AtomicFiles.write(target, utf8("short"));

        assertThat(target).hasContent("short");
        assertThat(entries(dir)).isOne();
    }

    @Test
    void aFailedWriteLeavesTheOldContentAndNoTempFile() throws IOException {
        Path target = dir.resolve("target");
        Files.createDirectory(target);
        Files.writeString(target.resolve("inside"), "x"); // a non-empty directory cannot be replaced

        assertThatThrownBy(() -> AtomicFiles.write(target, utf8("new"))).isInstanceOf(UncheckedIOException.class);

        assertThat(target.resolve("inside")).hasContent("x");
        assertThat(entries(dir)).isOne();
    }

    @Test
    void deleteRemovesAFileAndToleratesAMissingOne() throws IOException {
        Path target = dir.resolve("gone.json");
        AtomicFiles.write(target, utf8("x"));

        AtomicFiles.delete(target);
        AtomicFiles.delete(target);

        assertThat(target).doesNotExist();
    }

    @Test
    void deleteTreeRemovesNestedDirectoriesAndToleratesAMissingRoot() throws IOException {
        Path root = dir.resolve("topic");
        Files.createDirectories(root.resolve("0/deeper"));
        Files.writeString(root.resolve(".config.json"), "{}");
        Files.writeString(root.resolve("0/deeper/segment.log"), "bytes");
        Path sibling = dir.resolve("sibling");
        Files.writeString(sibling, "stays");

        AtomicFiles.deleteTree(root);
        AtomicFiles.deleteTree(root);

        assertThat(root).doesNotExist();
        assertThat(sibling).hasContent("stays");
    }
}
