/**
 * Background work the services share: passes that run periodically on the I/O executor
 * ({@link io.kaas.application.task.PeriodicTask}) and writers that fold queued changes to one file
 * into one atomic write ({@link io.kaas.application.task.CoalescingWriter}).
 */
package io.kaas.application.task;
