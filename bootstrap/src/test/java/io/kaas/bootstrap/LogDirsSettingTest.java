package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code KAAS_LOG_DIRS} (name=path pairs) or the chart's {@code KAAS_VOLUME_POOL} (JSON members): the log dirs besides
 * the data directory, refused with a message naming the problem.
 */
class LogDirsSettingTest {
    private static final Path DATA = Path.of("/data");
    private final List<String> problems = new ArrayList<>();

    @Test
    void membersInTheOrderGivenWithDefaultAllowedOnlyAsTheDataDirectory() {
        Map<String, Path> pool = LogDirsSetting.parse(" bulk=/vols/bulk , default=/data,fast=/vols/fast/ ", DATA,
                problems::add);

        assertThat(problems).isEmpty();
        assertThat(pool).containsExactly(Map.entry("bulk", Path.of("/vols/bulk")), Map.entry("fast", Path.of("/vols/fast")));
        assertThat(LogDirsSetting.parse("", DATA, problems::add)).isEmpty();
    }

    @Test
    void everyProblemIsReported() {
        LogDirsSetting.parse("bulk,Bad_Name=/x,default=/elsewhere,a=/vols/a,a=/vols/b,b=/vols/a,c=/data/inside,"
                + "d=/vols", DATA, problems::add);

        assertThat(problems).containsExactly(
                "KAAS_LOG_DIRS: 'bulk' is not name=path",
                "KAAS_LOG_DIRS: log dir name 'Bad_Name' must be a DNS label (a-z, 0-9, '-')",
                "KAAS_LOG_DIRS: 'default' is the data directory /data (KAAS_DATA_DIR), not /elsewhere",
                "KAAS_LOG_DIRS: log dir 'a' is named twice",
                "KAAS_LOG_DIRS: log dir 'b' (/vols/a) is the same directory as 'a'",
                "KAAS_LOG_DIRS: log dir 'c' (/data/inside) and 'default' (/data) lie one inside the other",
                "KAAS_LOG_DIRS: log dir 'd' (/vols) and 'a' (/vols/a) lie one inside the other");
    }

    @Test
    void theChartsPoolGivesTheSameMembersItsOtherAttributesAreTheOperators() {
        Map<String, Path> pool = LogDirsSetting.fromEnvironment(Map.of("KAAS_VOLUME_POOL", """
                [{"name":"bulk","path":"/vols/bulk","defaultEligible":true,"labels":{"class":"standard"}},
                 {"name":"premium","path":"/vols/premium","cordoned":true}]"""), DATA, problems::add);

        assertThat(problems).isEmpty();
        assertThat(pool).containsExactly(Map.entry("bulk", Path.of("/vols/bulk")),
                Map.entry("premium", Path.of("/vols/premium")));
    }

    @Test
    void thePoolIsCheckedAsStrictlyAndNamedOnlyOnce() {
        LogDirsSetting.fromEnvironment(Map.of("KAAS_VOLUME_POOL", "[{\"name\":\"bulk\",\"path\":\"/vols/bulk\","
                + "\"cordonned\":true}]"), DATA, problems::add);
        LogDirsSetting.fromEnvironment(Map.of("KAAS_VOLUME_POOL", "[{\"name\":\"default\",\"path\":\"/vols/d\"},"
                + "{\"name\":\"a\",\"path\":\"relative\"}]"), DATA, problems::add);
        LogDirsSetting.fromEnvironment(Map.of("KAAS_VOLUME_POOL", "[{\"name\":\"a\",\"path\":\"/data/a\"}]"), DATA,
                problems::add);
        LogDirsSetting.fromEnvironment(Map.of("KAAS_VOLUME_POOL", "[]", "KAAS_LOG_DIRS", "a=/vols/a"), DATA,
                problems::add);

        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).startsWith("KAAS_VOLUME_POOL is not a JSON array of pool members")
                .contains("cordonned");
        assertThat(problems.get(1)).isEqualTo("KAAS_VOLUME_POOL: 'default' is the data volume's name; it is always a"
                + " member and is not listed; member 'a' needs an absolute path, not relative");
        assertThat(problems.get(2)).isEqualTo("KAAS_VOLUME_POOL: log dir 'a' (/data/a) and 'default' (/data) lie one"
                + " inside the other");
        assertThat(problems.get(3)).isEqualTo("KAAS_LOG_DIRS and KAAS_VOLUME_POOL are both set; name the log dirs once");
    }

    @Test
    void theBrokerRefusesLogDirsInMemoryAndServesThemInACluster() {
        Map<String, String> env = new HashMap<>(Map.of("KAAS_DATA_DIR", "/data", "KAAS_LOG_DIRS", "bulk=/vols/bulk",
                "KAAS_STORAGE", "memory"));
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(env))
                .hasMessageContaining("log dirs (KAAS_LOG_DIRS, KAAS_VOLUME_POOL) need disk storage");

        env.remove("KAAS_STORAGE");
        env.putAll(Map.of("MY_POD_NAME", "kaas-0", "KAAS_PORT", "9092", "KAAS_HEARTBEAT_PORT", "9094"));
        assertThat(BrokerConfig.fromEnvironment(env).logDirs()).containsOnlyKeys("bulk");

        env.remove("KAAS_LOG_DIRS");
        env.put("KAAS_VOLUME_POOL", "[{\"name\":\"premium\",\"path\":\"/vols/premium\"}]");
        assertThat(BrokerConfig.fromEnvironment(env).logDirs()).containsOnlyKeys("premium");
    }
}
