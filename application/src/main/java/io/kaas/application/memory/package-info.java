/**
 * In-memory implementations of the outbound ports: what {@code KAAS_STORAGE=memory} runs on, and
 * the fakes tests use. Nothing here survives the process.
 */
package io.kaas.application.memory;
