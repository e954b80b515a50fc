/**
 * The hardened edge in front of the HTTP API: what a request must pass before a controller binds it (API keys and
 * CORS, body size and memory limits, slow bodies, UTF-8, media type headers, path and query parameters, security
 * headers) and the catalogue of problem types every refusal is reported with. It knows nothing of the operations
 * behind it (docs/ARCHITECTURE.md#dependencies-point-inward).
 */
@NullMarked
package dev.arbor.web.edge;

import org.jspecify.annotations.NullMarked;
