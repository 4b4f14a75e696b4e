import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CPU clock ticks a process has used (utime + stime from /proc/PID/stat), for the probes' broker CPU. */
final class ProcessTicks {
    private ProcessTicks() {
    }

    /** @param pid a process id, or null: then 0 */
    static long of(String pid) throws IOException {
        if (pid == null) {
            return 0;
        }
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
