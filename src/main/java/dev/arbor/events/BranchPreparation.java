package dev.arbor.events;

/**
 * The {@code session_before_branch} preparation (docs/SESSION-FORMAT.md#branching-and-forking).
 *
 * @param sessionId the session branched from
 * @param entryId the user message branched at
 */
public record BranchPreparation(String sessionId, String entryId) {
}
