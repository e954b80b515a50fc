package dev.arbor.copy;

import java.util.EnumMap;
import java.util.Map;

import dev.arbor.config.StorageType;

/** How many sessions and files came to each result: the summary line and the exit code. Not thread-safe. */
final class CopyTally {

	private final Map<CopyOutcome.Result, Integer> counts = new EnumMap<>(CopyOutcome.Result.class);

	void add(CopyOutcome outcome) {
		this.counts.merge(outcome.result(), 1, Integer::sum);
	}

	int count(CopyOutcome.Result result) {
		return this.counts.getOrDefault(result, 0);
	}

	/** {@code Copied from file to postgres: 2 copied, 1 unchanged, 0 differing, 0 failed, 0 unreadable}. */
	String summary(StorageType from, StorageType to) {
		return "Copied from " + CopyArguments.name(from) + " to " + CopyArguments.name(to) + ": "
				+ count(CopyOutcome.Result.COPIED) + " copied, " + count(CopyOutcome.Result.UNCHANGED) + " unchanged, "
				+ count(CopyOutcome.Result.DIFFERS) + " differing, " + count(CopyOutcome.Result.FAILED) + " failed, "
				+ count(CopyOutcome.Result.UNREADABLE) + " unreadable";
	}

	int exitCode() {
		for (CopyOutcome.Result result : CopyOutcome.Result.values()) {
			if (!result.done() && count(result) > 0) {
				return CopyCommand.EXIT_INCOMPLETE;
			}
		}
		return CopyCommand.EXIT_DONE;
	}

}
