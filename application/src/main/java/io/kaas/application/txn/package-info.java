/**
 * The transaction coordinator: slot files, marker placement (local logs and the marker queue), completions, the timeout and expiry sweeper.
 */
package io.kaas.application.txn;
