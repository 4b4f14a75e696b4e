package io.kaas.domain.group;

/** A group as ListGroups reports it. {@code protocolType} is "" for groups that only commit offsets. */
public record GroupOverview(String groupId, String protocolType, GroupState state) {
}
