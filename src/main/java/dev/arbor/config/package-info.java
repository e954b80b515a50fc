/** Wiring and settings: turns {@code arbor.*} properties into the beans of the other packages. */
@NullMarked
package dev.arbor.config;

import org.jspecify.annotations.NullMarked;
