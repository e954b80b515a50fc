package dev.arbor.web;

import java.util.Map;

import dev.arbor.operations.TreeQueries;
import dev.arbor.operations.TreeWrites;
import dev.arbor.session.EntryLine;
import dev.arbor.storage.Appended;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Labels (docs/API.md#leaf-and-labels). A label is an ordinary entry: setting or clearing one moves the leaf onto it.
 */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Labels", description = "Read, set and clear labels. Each change appends a `label` entry, which becomes the leaf.")
class LabelController {

	private final TreeQueries queries;

	private final TreeWrites writes;

	LabelController(TreeQueries queries, TreeWrites writes) {
		this.queries = queries;
		this.writes = writes;
	}

	@GetMapping("/sessions/{sessionId}/labels")
	@Operation(summary = "Get the labels", description = "targetId → label, in the order the labels were first set.")
	@ApiResponse(responseCode = "200", description = "The labels; `ETag` is the leaf.")
	ResponseEntity<Map<String, String>> getLabels(@PathVariable @ValidId String sessionId) {
		return Responses.ok(this.queries.labels(sessionId));
	}

	@PutMapping("/sessions/{sessionId}/labels/{entryId}")
	@Operation(summary = "Set a label", description = "Appends a `label` entry for the entry; a blank label clears it.")
	@ApiResponse(responseCode = "200", description = "The `label` entry; `ETag` is the new leaf (the label entry).")
	ResponseEntity<EntryLine> setLabel(@PathVariable @ValidId String sessionId, @PathVariable @ValidId String entryId,
			ExpectedLeaf expected, @Nullable IdempotencyKey key, @RequestBody @Valid LabelRequest request) {
		return labelled(this.writes.setLabel(sessionId, expected, entryId, request.label(), key));
	}

	@DeleteMapping("/sessions/{sessionId}/labels/{entryId}")
	@Operation(summary = "Clear a label", description = "Appends a `label` entry without a label, which clears it.")
	@ApiResponse(responseCode = "200", description = "The `label` entry that clears it; `ETag` is the new leaf.")
	ResponseEntity<EntryLine> clearLabel(@PathVariable @ValidId String sessionId, @PathVariable @ValidId String entryId,
			ExpectedLeaf expected, @Nullable IdempotencyKey key) {
		return labelled(this.writes.setLabel(sessionId, expected, entryId, null, key));
	}

	private static ResponseEntity<EntryLine> labelled(Appended appended) {
		EntryLine label = appended.entries().get(0);
		return IdempotencyKeys.marked(ResponseEntity.ok(), appended).eTag(ETags.forLeaf(label.id())).body(label);
	}

}
