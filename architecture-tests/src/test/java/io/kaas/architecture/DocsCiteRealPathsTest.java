package io.kaas.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The book must not drift from the code: every repository path it cites in backticks, and every
 * relative link between its pages, must exist.
 */
class DocsCiteRealPathsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> TOP_LEVEL = Set.of("domain", "application", "adapters", "bootstrap",
            "architecture-tests", "parity", "bench", "dev", "docs", "helm", "operator", ".ci");
    private static final Pattern CITED_PATH = Pattern.compile("`([A-Za-z0-9_.][A-Za-z0-9_./-]*/[A-Za-z0-9_./-]*)`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#:\\s]+\\.md)(#[^)]*)?\\)");

    @Test
    void everyCitedPathExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path page : pages()) {
            String text = Files.readString(page, StandardCharsets.UTF_8);
            Matcher cited = CITED_PATH.matcher(text);
            while (cited.find()) {
                String path = cited.group(1);
                String first = path.substring(0, path.indexOf('/'));
                if (TOP_LEVEL.contains(first) && !Files.exists(ROOT.resolve(path))) {
                    missing.add(ROOT.relativize(page) + " cites " + path);
                }
            }
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                if (!Files.exists(page.getParent().resolve(link.group(1)))) {
                    missing.add(ROOT.relativize(page) + " links " + link.group(1));
                }
            }
        }
        assertThat(missing).as("paths the docs cite that do not exist").isEmpty();
    }

    @Test
    void theCheckSeesTheBook() throws IOException {
        assertThat(pages()).as("docs/*.md").hasSizeGreaterThan(2);
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        return pages;
    }
}
