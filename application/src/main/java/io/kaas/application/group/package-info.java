/**
 * The consumer-group coordinator: one CoordinatedGroup per group id (the domain's state machine, its offsets, parked joins and syncs, timers), offsets persisted per group.
 */
package io.kaas.application.group;
