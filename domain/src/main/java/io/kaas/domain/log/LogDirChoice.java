package io.kaas.domain.log;

import java.util.List;
import java.util.Map;

/**
 * Which log dir a new partition goes to, as Apache's LogManager decides with several {@code log.dirs}: the one
 * holding the fewest partitions, the first in configuration order on a tie.
 */
public final class LogDirChoice {
    private LogDirChoice() {
    }

    /**
     * @param dirs       the log dirs' names in configuration order; not empty
     * @param partitions how many partitions each dir holds now (a dir missing here holds none)
     */
    public static String fewestPartitions(List<String> dirs, Map<String, Integer> partitions) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("no log dir to choose from");
        }
        String best = dirs.get(0);
        for (String dir : dirs) {
            if (partitions.getOrDefault(dir, 0) < partitions.getOrDefault(best, 0)) {
                best = dir;
            }
        }
        return best;
    }
}
