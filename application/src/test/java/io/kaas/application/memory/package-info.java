/**
 * In-memory fakes of the store ports for unit tests (shipped in the test-jar, never in kaas.jar).
 * The broker's {@code KAAS_STORAGE=memory} runs the real JSON stores on an in-memory volume instead.
 */
package io.kaas.application.memory;
