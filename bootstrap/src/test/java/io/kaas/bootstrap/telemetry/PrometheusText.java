package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A reader of Prometheus's text exposition format, strict enough to catch a label value that broke
 * it: every line is a comment or {@code name{label="value",...} number}, label values unescaped.
 */
public final class PrometheusText {
    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    /**
     * What {@code /metrics} on the health port answers now, parsed: a 200 in the text format 0.0.4, every line
     * well-formed.
     */
    public static PrometheusText scrape(int healthPort) throws IOException, InterruptedException {
        return parse(new String(scrapeText(healthPort), StandardCharsets.UTF_8));
    }

    /** The body {@code /metrics} on the health port answers now, checked to be a 200 in the text format 0.0.4. */
    public static byte[] scrapeText(int healthPort) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort
                + "/metrics")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
        return response.body();
    }

    /** @throws IllegalArgumentException on a line that is not a comment or a well-formed sample */
    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            samples.add(sample(line));
        }
        return new PrometheusText(samples);
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The value of the one sample named {@code name} whose labels include {@code labels}. */
    public OptionalDouble value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name.equals(name)
                && s.labels.entrySet().containsAll(labels.entrySet())).toList();
        if (found.size() > 1) {
            throw new IllegalStateException(found.size() + " samples of " + name + " match " + labels + ": " + found);
        }
        return found.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(found.get(0).value);
    }

    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && (Character.isLetterOrDigit(line.charAt(i)) || line.charAt(i) == '_'
                || line.charAt(i) == ':')) {
            i++;
        }
        String name = line.substring(0, i);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric name: " + line);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf("=\"", i);
                if (eq < 0) {
                    throw new IllegalArgumentException("bad label at " + i + ": " + line);
                }
                String key = line.substring(i, eq);
                if (!key.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                    throw new IllegalArgumentException("bad label name " + key + ": " + line);
                }
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                for (; line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char escaped = line.charAt(++j);
                        switch (escaped) {
                            case 'n' -> value.append('\n');
                            case '\\' -> value.append('\\');
                            case '"' -> value.append('"');
                            default -> throw new IllegalArgumentException("bad escape \\" + escaped + ": " + line);
                        }
                    } else {
                        value.append(c);
                    }
                }
                labels.put(key, value.toString());
                i = j + 1;
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            i++;
        }
        if (i >= line.length() || line.charAt(i) != ' ') {
            throw new IllegalArgumentException("no value: " + line);
        }
        String[] rest = line.substring(i + 1).trim().split(" ");
        return new Sample(name, labels, Double.parseDouble(rest[0]));
    }
}
