package io.kaas.bootstrap;

import io.kaas.adapter.fs.VolumePoolSetting;
import io.kaas.application.log.LogDirectories;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code KAAS_LOG_DIRS}: the log dirs besides the data directory, as {@code name=path} pairs separated by commas
 * ({@code bulk=/vols/bulk,fast=/vols/fast}; the chart mounts each {@code storage.pool} member at
 * {@code /vols/<name>}). The data directory is always the member {@value LogDirectories#DEFAULT}; naming it here is
 * allowed only with the data directory's own path. Names are DNS labels, each name and path appears once, and no
 * member's path lies inside another's: a member nested in the data directory would read as a topic there. The chart
 * passes the same members as {@value VolumePoolSetting#VARIABLE} (JSON, with the attributes the operator places
 * partitions by), which a broker reads instead.
 */
final class LogDirsSetting {
    static final String VARIABLE = "KAAS_LOG_DIRS";
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    private LogDirsSetting() {
    }

    /**
     * The members besides the data directory, in the order given, from {@value #VARIABLE} or (the chart's way, with
     * each member's attributes) {@value VolumePoolSetting#VARIABLE}; setting both is a problem. Each problem goes to
     * {@code problems}.
     */
    static Map<String, Path> fromEnvironment(Map<String, String> env, Path dataDir, Consumer<String> problems) {
        String list = env.get(VARIABLE);
        String pool = env.get(VolumePoolSetting.VARIABLE);
        boolean hasList = list != null && !list.isBlank();
        if (pool == null || pool.isBlank()) {
            return parse(list, dataDir, problems);
        }
        if (hasList) {
            problems.accept(VARIABLE + " and " + VolumePoolSetting.VARIABLE + " are both set; name the log dirs once");
            return new LinkedHashMap<>();
        }
        List<Map.Entry<String, String>> entries = new ArrayList<>();
        try {
            VolumePoolSetting.parse(pool).forEach(member -> entries.add(Map.entry(member.name(), member.path())));
        } catch (IllegalArgumentException e) {
            problems.accept(e.getMessage());
        }
        return members(VolumePoolSetting.VARIABLE, entries, dataDir, problems);
    }

    /** The members besides the data directory, in the order given; each problem goes to {@code problems}. */
    static Map<String, Path> parse(String value, Path dataDir, Consumer<String> problems) {
        List<Map.Entry<String, String>> entries = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return new LinkedHashMap<>();
        }
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            String name = eq < 0 ? entry.trim() : entry.substring(0, eq).trim();
            String rawPath = eq < 0 ? "" : entry.substring(eq + 1).trim();
            if (eq < 0 || rawPath.isEmpty()) {
                problems.accept(VARIABLE + ": '" + entry.trim() + "' is not name=path");
                continue;
            }
            entries.add(Map.entry(name, rawPath));
        }
        return members(VARIABLE, entries, dataDir, problems);
    }

    /** The named paths checked: DNS-label names, each once, no member inside another. */
    private static Map<String, Path> members(String variable, List<Map.Entry<String, String>> entries, Path dataDir,
                                             Consumer<String> problems) {
        Map<String, Path> pool = new LinkedHashMap<>();
        Path data = dataDir.toAbsolutePath().normalize();
        Map<String, Path> seen = new LinkedHashMap<>();
        seen.put(LogDirectories.DEFAULT, data);
        for (Map.Entry<String, String> entry : entries) {
            String name = entry.getKey();
            String rawPath = entry.getValue();
            if (!NAME.matcher(name).matches()) {
                problems.accept(variable + ": log dir name '" + name + "' must be a DNS label (a-z, 0-9, '-')");
                continue;
            }
            Path path;
            try {
                path = Path.of(rawPath).toAbsolutePath().normalize();
            } catch (InvalidPathException e) {
                problems.accept(variable + ": '" + rawPath + "' is not a path");
                continue;
            }
            if (name.equals(LogDirectories.DEFAULT)) {
                if (!path.equals(data)) {
                    problems.accept(variable + ": 'default' is the data directory " + data + " (KAAS_DATA_DIR), not "
                            + path);
                }
                continue;
            }
            if (seen.containsKey(name)) {
                problems.accept(variable + ": log dir '" + name + "' is named twice");
                continue;
            }
            String clash = clash(seen, path);
            if (clash != null) {
                problems.accept(variable + ": log dir '" + name + "' (" + path + ") " + clash);
                continue;
            }
            seen.put(name, path);
            pool.put(name, path);
        }
        return pool;
    }

    /** Why {@code path} cannot join the members seen so far, or null. */
    private static String clash(Map<String, Path> seen, Path path) {
        for (Map.Entry<String, Path> member : seen.entrySet()) {
            Path other = member.getValue();
            if (other.equals(path)) {
                return "is the same directory as '" + member.getKey() + "'";
            }
            if (path.startsWith(other) || other.startsWith(path)) {
                return "and '" + member.getKey() + "' (" + other + ") lie one inside the other";
            }
        }
        return null;
    }
}
