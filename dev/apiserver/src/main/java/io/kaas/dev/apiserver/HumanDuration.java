package io.kaas.dev.apiserver;

import java.time.Duration;

/**
 * An age as kubectl shows it ({@code 45s}, {@code 5m30s}, {@code 3h12m}, {@code 6d4h}, {@code 2y17d}): two units
 * while the first is small, one unit once it is large, the same steps kube-apiserver uses for date columns.
 */
final class HumanDuration {
    private HumanDuration() {
    }

    static String of(Duration age) {
        long seconds = age.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 2 * 60) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return pair(minutes, "m", seconds % 60, "s");
        }
        if (minutes < 3 * 60) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return pair(hours, "h", minutes % 60, "m");
        }
        if (hours < 48) {
            return hours + "h";
        }
        long days = hours / 24;
        if (hours < 8 * 24) {
            return pair(days, "d", hours % 24, "h");
        }
        if (days < 2 * 365) {
            return days + "d";
        }
        if (days < 8 * 365) {
            return pair(days / 365, "y", days % 365, "d");
        }
        return days / 365 + "y";
    }

    private static String pair(long major, String majorUnit, long minor, String minorUnit) {
        return minor == 0 ? major + majorUnit : major + majorUnit + minor + minorUnit;
    }
}
