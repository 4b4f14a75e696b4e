package io.kaas.domain.group;

/** The answer to a parked JoinGroup or SyncGroup, addressed by the request id it was parked under. */
public sealed interface GroupReply {

    long requestId();

    record ToJoin(long requestId, JoinResponse response) implements GroupReply {
    }

    record ToSync(long requestId, SyncResponse response) implements GroupReply {
    }
}
