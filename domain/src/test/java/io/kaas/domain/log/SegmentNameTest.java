package io.kaas.domain.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SegmentNameTest {

    @Test
    void formatsEpochAsEightHexDigitsAndBaseOffsetAsTwentyDecimals() {
        SegmentName name = new SegmentName(5, 1000);

        assertThat(name.stem()).isEqualTo("00000005-00000000000000001000");
        assertThat(name.logFile()).isEqualTo("00000005-00000000000000001000.log");
        assertThat(name.indexFile()).isEqualTo("00000005-00000000000000001000.index");
        assertThat(name.timeIndexFile()).isEqualTo("00000005-00000000000000001000.timeindex");
        assertThat(new SegmentName(0xabcdef, 0).stem()).isEqualTo("00abcdef-00000000000000000000");
        assertThat(new SegmentName(Integer.MAX_VALUE, Long.MAX_VALUE).stem())
                .isEqualTo("7fffffff-09223372036854775807");
    }

    @Test
    void parsesWhatItFormats() {
        for (SegmentName name : List.of(new SegmentName(0, 0), new SegmentName(5, 1000), new SegmentName(0xabcdef, 42),
                new SegmentName(Integer.MAX_VALUE, Long.MAX_VALUE))) {
            assertThat(SegmentName.parseLogFile(name.logFile())).contains(name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "00000005-00000000000000001000",           // no suffix
            "00000005-00000000000000001000.index",     // not the log file
            "00000005-00000000000000001000.timeindex",
            "00000005-00000000000000001000.log.tmp",
            ".00000005-00000000000000001000.log",
            "0000005-000000000000000001000.log",       // separator misplaced
            "00000005_00000000000000001000.log",       // wrong separator
            "0000000g-00000000000000001000.log",       // not hex
            "00000005-0000000000000000100a.log",       // not decimal
            "00000005-0000000000000000001000.log",     // too long
            "5-1000.log",                              // not zero-padded
            "+0000005-00000000000000001000.log",       // a sign the parser would accept
            "00000005-+0000000000000001000.log",
            "00000005--0000000000000001000.log",
            "0000000A-00000000000000001000.log",       // upper-case hex names another file
            "ffffffff-00000000000000001000.log",       // epoch beyond int: negative
            "00000005-99999999999999999999.log",       // base offset beyond long
            "manifest.json",
            "recovery-checkpoint.json"})
    void rejectsMalformedNames(String fileName) {
        assertThat(SegmentName.parseLogFile(fileName)).isEmpty();
    }

    @Test
    void rejectsNegativeParts() {
        assertThatThrownBy(() -> new SegmentName(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SegmentName(0, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sortsByBaseOffsetThenEpoch() {
        List<SegmentName> names = new ArrayList<>(List.of(new SegmentName(2, 100), new SegmentName(9, 0),
                new SegmentName(1, 100), new SegmentName(1, 50)));
        Collections.sort(names);

        assertThat(names).containsExactly(new SegmentName(9, 0), new SegmentName(1, 50), new SegmentName(1, 100),
                new SegmentName(2, 100));
    }

    @Test
    void fileNamesSortLikeSegmentsWithinOneEpoch() {
        // Zero padding makes a directory listing come out in offset order.
        assertThat(new SegmentName(3, 999).logFile()).isLessThan(new SegmentName(3, 1000).logFile());
    }
}
