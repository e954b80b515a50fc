package dev.arbor.session;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.drafts;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;

/** The ids of appends under an idempotency key, and finding such an append again (docs/API.md#idempotent-appends). */
class KeyedAppendTests {

	private static final Instant NOW = Instant.parse("2025-06-01T12:34:56.789Z");

	private final KeyedAppend keyed = KeyedAppend.of(Entries.SESSION_ID, "key-1");

	@Test
	void idsShouldBeEightHexDigitsTheSameForTheSameSessionKeyAndPlace() {
		String id = this.keyed.candidate(0, 0);
		assertThat(id).matches("[0-9a-f]{8}");
		assertThat(KeyedAppend.of(Entries.SESSION_ID, "key-1").candidate(0, 0)).isEqualTo(id);
		assertThat(KeyedAppend.of(Entries.SESSION_ID, "key-2").candidate(0, 0)).isNotEqualTo(id);
		assertThat(KeyedAppend.of("another-session", "key-1").candidate(0, 0)).isNotEqualTo(id);
		assertThat(this.keyed.candidate(1, 0)).isNotEqualTo(id);
	}

	@Test
	void findShouldGiveTheEntriesOfAnAppendOfTheSameDraftsUnderTheKey() {
		SessionTree tree = tree(user("a", null, at(0), "one"));
		List<ObjectNode> drafts = drafts("{'type':'message','message':{'role':'user','content':'two','n':1.50}}",
				"{'type':'model_change','model':'anthropic/claude-sonnet-4-5'}");
		assertThat(this.keyed.find(tree, drafts)).isEmpty();
		List<EntryLine> stored = tree.prepareAppend(drafts, NOW, this.keyed);
		tree.append(stored);
		assertThat(stored).extracting(EntryLine::id)
			.containsExactly(this.keyed.candidate(0, 0), this.keyed.candidate(1, 0));
		assertThat(this.keyed.find(tree, drafts)).contains(stored);
		assertThat(this.keyed.find(tree, drafts.subList(0, 1))).contains(stored.subList(0, 1));
	}

	@Test
	void findShouldNotTakeAnEntryOfAnotherBodyForTheAppend() {
		SessionTree tree = tree(user("a", null, at(0), "one"));
		tree.append(tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'two'}}"), NOW,
				this.keyed));
		assertThat(this.keyed.find(tree, drafts("{'type':'message','message':{'role':'user','content':'other'}}")))
			.isEmpty();
	}

	@Test
	void appendWhenTheFirstCandidateIsTakenShouldTakeTheNextAndStillBeFound() {
		String taken = this.keyed.candidate(0, 0);
		SessionTree tree = tree(user(taken, null, at(0), "an agent's entry that happens to have the id"));
		List<ObjectNode> drafts = drafts("{'type':'message','message':{'role':'user','content':'two'}}");
		List<EntryLine> stored = tree.prepareAppend(drafts, NOW, this.keyed);
		tree.append(stored);
		assertThat(stored.get(0).id()).isEqualTo(this.keyed.candidate(0, 1));
		assertThat(this.keyed.find(tree, drafts)).contains(stored);
	}

}
