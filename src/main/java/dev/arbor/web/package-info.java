/**
 * The HTTP API of docs/API.md: controllers that bind and validate a request, make one call into
 * {@link dev.arbor.operations}, and answer DTOs with the session's leaf as {@code ETag}; errors as RFC 9457 problem
 * details; the OpenAPI document.
 */
@NullMarked
package dev.arbor.web;

import org.jspecify.annotations.NullMarked;
