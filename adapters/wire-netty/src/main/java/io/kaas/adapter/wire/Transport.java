package io.kaas.adapter.wire;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * What drives a listener's sockets. A TLS listener runs on Netty's native epoll where it loads (Linux), because
 * there a connection can set {@code SO_RCVLOWAT} and be woken once for most of a large request instead of once per
 * TLS record ({@link io.kaas.adapter.wire.codec.ReceiveLowWater}). A plaintext listener stays on Java NIO: a
 * Fetch's file region reaches a NIO socket by sendfile, while epoll sends only its own file-region type that way
 * and would copy ours through the heap.
 */
public enum Transport {
    NIO,
    EPOLL;

    /** The transport of a listener: epoll for TLS when its native library loads, NIO otherwise. */
    public static Transport forListener(boolean tls) {
        return tls && Epoll.isAvailable() ? EPOLL : NIO;
    }

    public IoHandlerFactory ioHandlers() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    public Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
