/**
 * The controller: the broker holding the {@code kaas-controller} Lease. Every broker takes part in
 * the election ({@link io.kaas.application.controller.ControllerLease}); the holder recomputes the
 * assignment and writes {@code assignment.json} ({@link io.kaas.application.controller.ClusterController}).
 */
package io.kaas.application.controller;
