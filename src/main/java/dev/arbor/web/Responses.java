package dev.arbor.web;

import dev.arbor.operations.Snapshot;
import org.springframework.http.ResponseEntity;

/** 200 answers that reflect a session: the body with the session's leaf as {@code ETag}. */
final class Responses {

	private Responses() {
	}

	static <T> ResponseEntity<T> ok(Snapshot<?> snapshot, T body) {
		return ResponseEntity.ok().eTag(ETags.forLeaf(snapshot.leafId())).body(body);
	}

	static <T> ResponseEntity<T> ok(Snapshot<T> snapshot) {
		return ok(snapshot, snapshot.value());
	}

}
