package io.kaas.domain.config;

import java.util.Optional;

/** An IncrementalAlterConfigs operation (KIP-339), with its wire id. */
public enum AlterOp {
    /** Sets the value, replacing any override. */
    SET(0),
    /** Removes the override, so the default applies again. */
    DELETE(1),
    /** Adds items to a list value (starting from its default when not overridden). */
    APPEND(2),
    /** Removes items from a list value. */
    SUBTRACT(3);

    private final byte id;

    AlterOp(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** The operation with this wire id, if there is one. */
    public static Optional<AlterOp> forId(byte id) {
        for (AlterOp op : values()) {
            if (op.id == id) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }
}
