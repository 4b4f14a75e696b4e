package io.kaas.dev.apiserver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A request URI split into its path and its query parameters (first value of each, decoded). */
record Query(String path, Map<String, String> parameters) {

    static Query of(String uri) {
        int mark = uri.indexOf('?');
        if (mark < 0) {
            return new Query(uri, Map.of());
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : uri.substring(mark + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            parameters.putIfAbsent(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return new Query(uri.substring(0, mark), Map.copyOf(parameters));
    }

    String get(String name) {
        return parameters.get(name);
    }

    boolean has(String name) {
        return parameters.containsKey(name);
    }

    boolean isWatch() {
        String watch = parameters.get("watch");
        return "true".equals(watch) || "1".equals(watch);
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
}
