package io.kaas.domain.group;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One protocol a member supports (for consumers: an assignor such as {@code range}), with the
 * member's opaque metadata for it. A member lists its protocols in order of preference.
 */
public record Protocol(String name, byte[] metadata) {

    public Protocol {
        Objects.requireNonNull(name, "name");
        metadata = metadata == null ? new byte[0] : metadata;
    }

    /** Whether two preference lists name the same protocols in the same order with the same bytes. */
    public static boolean sameList(List<Protocol> a, List<Protocol> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).name.equals(b.get(i).name) || !Arrays.equals(a.get(i).metadata, b.get(i).metadata)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Protocol p && name.equals(p.name) && Arrays.equals(metadata, p.metadata);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(metadata);
    }

    @Override
    public String toString() {
        return name + "(" + metadata.length + " bytes)";
    }
}
