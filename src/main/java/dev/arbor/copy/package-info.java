/**
 * The {@code copy} command: every session of one store copied into another (a folder of session files and
 * PostgreSQL, either way), run from the server's jar with {@code copy} as its first argument. It leaves alone what the
 * target holds already, so running it again copies nothing.
 */
@NullMarked
package dev.arbor.copy;

import org.jspecify.annotations.NullMarked;
