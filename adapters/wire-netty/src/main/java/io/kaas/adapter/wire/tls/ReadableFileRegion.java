package io.kaas.adapter.wire.tls;

import io.netty.channel.FileRegion;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A file region that can be read into memory directly, without a channel to transfer it through. */
public interface ReadableFileRegion extends FileRegion {
    /** Reads the region's next {@code dst.remaining()} bytes into {@code dst}, advancing {@link #transferred}. */
    void readFully(ByteBuffer dst) throws IOException;
}
